package dev.framewire.bench.suite;

import org.HdrHistogram.Histogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * The end of every suite pipeline: counts and sums what reaches it, so a benchmark can wait for
 * its packets and check each arrived once and intact, and, for the latency scenarios, records
 * one-way latency into an HdrHistogram.
 *
 * <p>Threading: {@link #accept(long)} from any threads (atomic adds; the sum is added before the
 * count, so a reader that sees a count of n sees the sum of those n values).
 * {@link #acceptSentAt(long)} from one thread at a time only: the histogram is single-writer. The
 * readers from any thread.
 */
public final class Arrivals
{
    private static final VarHandle COUNT;
    private static final VarHandle SUM;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(Arrivals.class, "count", long.class);
            SUM = lookup.findVarHandle(Arrivals.class, "sum", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Latencies up to 10 s, 3 significant digits: about 200 KB, allocated once. */
    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);

    @SuppressWarnings("unused") // through COUNT
    private volatile long count;
    @SuppressWarnings("unused") // through SUM
    private volatile long sum;

    /** One value arrived. */
    public void accept(final long value)
    {
        SUM.getAndAdd(this, value);
        COUNT.getAndAdd(this, 1L);
    }

    /**
     * One value arrived that is the {@code System.nanoTime()} it was sent at (or meant to be):
     * records now minus it, then counts it. Single writer.
     */
    public void acceptSentAt(final long sentNanos)
    {
        histogram.recordValue(Math.max(0, System.nanoTime() - sentNanos));
        accept(sentNanos);
    }

    /** Values seen so far. */
    public long count()
    {
        return (long)COUNT.getAcquire(this);
    }

    /** The sum of the values counted. */
    public long sum()
    {
        return (long)SUM.getAcquire(this);
    }

    /** The latency histogram: read or reset it only while no packet is in flight. */
    public Histogram histogram()
    {
        return histogram;
    }

    /**
     * Spins until {@code n} values have arrived; reads the clock every 2^20 spins and gives up
     * after ten seconds.
     */
    public void spinUntil(final long n)
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
                    throw new IllegalStateException("value " + n + " did not arrive within 10 s (" + count() + " did)");
                }
            }
        }
    }

    /**
     * Waits, yielding, for {@code n} values, then checks their sum.
     *
     * @throws IllegalStateException naming what was expected and what arrived.
     */
    public void verify(final String what, final long n, final long expectedSum)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long seen;
        while ((seen = count()) < n)
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException(what + ": " + seen + " of " + n + " values arrived within 30 s");
            }
            Thread.yield();
        }
        final long s = sum();
        if (seen != n || s != expectedSum)
        {
            throw new IllegalStateException(what + ": " + seen + " values summing to " + s + " arrived, expected " +
                n + " summing to " + expectedSum);
        }
    }
}
