package dev.framewire.bench.suite;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * B1: hop latency, source to node to sink across one thread boundary, on every contender busy-
 * spinning and parked ({@link HopHarness} says how each loop measures). The JMH score is the op;
 * the hop's p50/p99/p99.9/max are in the side file {@link LatencyLog} writes and in
 * docs/BENCHMARKS.md. Two threads: the benchmark thread and the one consumer (both spin in the
 * BUSY_SPIN rows, which is the machine's two cores).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B1HopLatencyBenchmark extends HopHarness
{
    @Param({"FRAMEWIRE/BUSY_SPIN", "DISRUPTOR/BUSY_SPIN", "LOCKED/BUSY_SPIN",
        "FRAMEWIRE/PARK", "DISRUPTOR/PARK", "LOCKED/PARK", "TPE/PARK"})
    public String contender;

    @Override
    String contender()
    {
        return contender;
    }
}
