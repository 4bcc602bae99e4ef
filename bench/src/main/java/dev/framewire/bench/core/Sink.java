package dev.framewire.bench.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The end of a benchmark pipeline: counts and sums the values that reach it, so a benchmark can
 * wait for its packets and check that each arrived once and intact.
 *
 * <p>Threading: {@link #accept(long)} from one thread at a time (the thread that runs the last
 * stage); the readers from any thread. {@code sum} is a plain field published by the release
 * store of {@code count}, so a reader that sees a count sees the sum up to it.
 */
final class Sink
{
    private static final VarHandle COUNT;

    static
    {
        try
        {
            COUNT = MethodHandles.lookup().findVarHandle(Sink.class, "count", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // through COUNT
    private volatile long count;
    private long sum;

    /** Sink thread: one value arrived. */
    void accept(final long value)
    {
        sum += value;
        COUNT.setRelease(this, (long)COUNT.getOpaque(this) + 1);
    }

    /** Any thread: values seen so far. */
    long count()
    {
        return (long)COUNT.getAcquire(this);
    }

    /** Any thread, after {@link #count()}: the sum of the values counted. */
    long sum()
    {
        return sum;
    }

    /**
     * Spins until {@code n} values have arrived: the benchmark thread of a latency run. Looks at
     * the clock only every 2^20 spins, and gives up after ten seconds with what the pipeline says.
     */
    void spinUntil(final long n, final Pipeline pipeline)
    {
        long spins = 0;
        long deadline = 0;
        while ((long)COUNT.getAcquire(this) < n)
        {
            Thread.onSpinWait();
            if ((++spins & 0xF_FFFF) == 0)
            {
                final long now = System.nanoTime();
                if (deadline == 0)
                {
                    deadline = now + 10_000_000_000L;
                }
                else if (now - deadline > 0)
                {
                    throw new IllegalStateException("packet " + n + " did not reach the sink within 10 s: " +
                        pipeline.describe());
                }
            }
        }
    }

    /**
     * Waits, yielding, until {@code n} values have arrived, then checks the sum.
     *
     * @throws IllegalStateException naming what was expected and what arrived, if the values do
     *                               not arrive within the timeout or their sum is wrong.
     */
    void verify(final String what, final long n, final long expectedSum, final long timeoutNanos)
    {
        final long deadline = System.nanoTime() + timeoutNanos;
        long seen;
        while ((seen = count()) < n)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(what + ": " + seen + " of " + n + " packets reached the sink within " +
                    timeoutNanos / 1_000_000 + " ms");
            }
            Thread.yield();
        }
        final long s = sum();
        if (seen != n || s != expectedSum)
        {
            throw new IllegalStateException(what + ": the sink saw " + seen + " packets summing to " + s +
                ", expected " + n + " summing to " + expectedSum);
        }
    }
}
