package dev.framewire.bench.journal;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What one {@link System#nanoTime()} costs on this machine: the price of a clock read per
 * journaled call (docs/JOURNAL.md, "Calls staged"), which depends on the clocksource
 * ({@code /sys/devices/system/clocksource/clocksource0/current_clocksource}).
 *
 * <pre>
 * java @.mvn/jvm.config -jar bench/target/benchmarks.jar ClockBenchmark -jvmArgsPrepend @.mvn/jvm.config
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ClockBenchmark
{
    @Benchmark
    public long nanoTime()
    {
        return System.nanoTime();
    }
}
