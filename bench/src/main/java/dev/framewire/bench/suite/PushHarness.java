package dev.framewire.bench.suite;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JMH methods of the throughput benchmarks that push values through a line as fast as it takes
 * them (B2 and its metrics and JFR variants, B5): one op is one value offered by the {@link Sender},
 * and after every iteration the harness waits for every value and checks the count and the sum
 * ({@link Sender#verify}), throwing when they are wrong. A benchmark extends this class with its
 * own {@code @Param} of contenders, its trial setup (which makes {@link #sender}) and teardown, and
 * JMH's class annotations (JMH runs inherited benchmark methods).
 */
public abstract class PushHarness
{
    /** Where the line's last stage hands each value. */
    final Arrivals arrivals = new Arrivals();
    /** Offers values to the line; made by the benchmark's trial setup. */
    Sender sender;

    /**
     * The contender of this trial, for messages: the subclass's {@code @Param}.
     *
     * @return e.g. {@code FRAMEWIRE/1}.
     */
    abstract String contender();

    /**
     * Offers the next value.
     *
     * @return the value's number.
     */
    @Benchmark
    public long push()
    {
        return sender.send();
    }

    /** Waits for every value sent and checks the count and the sum. */
    @TearDown(Level.Iteration)
    public void verify()
    {
        sender.verify(arrivals, contender());
    }
}
