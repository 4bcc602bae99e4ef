package dev.framewire.bench.suite;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

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

    @Setup(Level.Trial)
    public void setUp()
    {
        setUpTrial(contender);
    }

    @Setup(Level.Iteration)
    public void setUpIteration(final IterationParams iteration)
    {
        super.setUpIteration(iteration);
    }

    /** Send, spin until it arrived. */
    @Benchmark
    public long closedLoop()
    {
        return closedLoopOp();
    }

    /** One packet at its intended time, not waiting for it. */
    @Benchmark
    public long openLoop()
    {
        return openLoopOp();
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        verifyIteration();
    }

    @TearDown(Level.Trial)
    public void tearDown(final BenchmarkParams params) throws Exception
    {
        tearDownTrial(params);
    }
}
