/**
 * Journal benchmarks (issue 7): the cost of one record to the worker that writes it, in SYNC and
 * ASYNC mode. Each iteration counts the records Chronicle holds afterwards and throws if they do
 * not add up. {@code ClockBenchmark}: what a clock read costs, which a journaled call pays once.
 */
package dev.framewire.bench.journal;
