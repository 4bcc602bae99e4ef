/**
 * Core engine benchmarks (issue 3): hand-over latency through a two-node graph beside a bare
 * SPSC floor, and throughput of a four-node chain, each beside a lock-based baseline built the
 * way the seeds' schedulers are ({@link dev.framewire.bench.core.baseline}).
 */
package dev.framewire.bench.core;
