/**
 * Benchmarks of remote streams (framewire-remote, issue 15): a hop over Aeron, in one JVM or between two
 * processes, beside Aeron's own echo, and frame throughput graph to graph.
 */
package dev.framewire.bench.remote;
