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

    @Override
    String contender()
    {
        return contender;
    }
}
