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
 * B0: the floor under B1. No engine: a JCTools SPSC queue, busy-spin, between the same two threads
 * B1 uses (the benchmark thread and one consumer), measured the same way ({@link HopHarness}).
 * Every contender's hop costs at least this.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B0FloorBenchmark extends HopHarness
{
    @Param({"SPSC/BUSY_SPIN"})
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
