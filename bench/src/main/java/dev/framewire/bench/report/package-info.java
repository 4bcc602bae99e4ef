/**
 * Turns a run of the side-by-side suite (JMH JSON, latency side files, the machine) into
 * docs/BENCHMARKS.md's suite section and the charts in docs/charts/.
 */
package dev.framewire.bench.report;
