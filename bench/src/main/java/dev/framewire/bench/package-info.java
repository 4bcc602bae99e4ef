/**
 * JMH benchmarks, each beside the baselines it is compared with.
 */
package dev.framewire.bench;
