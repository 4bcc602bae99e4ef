package dev.framewire.bench.suite;

import org.HdrHistogram.Histogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

abstract class ArrivalsPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class ArrivalsFields extends ArrivalsPad0
{
    /** Latencies up to 10 s, 3 significant digits: about 200 KB, allocated once. */
    final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    @SuppressWarnings("unused") // through COUNT
    volatile long count;
    @SuppressWarnings("unused") // through SUM
    volatile long sum;
}

/**
 * The end of every suite pipeline: counts and sums what reaches it, so a benchmark can wait for
 * its packets and check each arrived once and intact, and, for the latency scenarios, records
 * one-way latency into an HdrHistogram.
 *
 * <p>Threading: {@link #accept(long)} from any threads (atomic adds; the sum is added before the
 * count, so a reader that sees a count of n sees the sum of those n values).
 * {@link #acceptSentAt(long)} from one thread at a time only: the histogram is single-writer. The
 * readers from any thread.
 *
 * <p>The count and sum, which the receiving thread writes at every packet, sit on a cache line of
 * their own (padding by inheritance): the sending thread's own fields allocated beside them (a
 * benchmark's state, which holds this object) would otherwise share that line, and every
 * contender's hop would pay for it.
 */
public final class Arrivals extends ArrivalsFields
{
    private static final VarHandle COUNT;
    private static final VarHandle SUM;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNT = lookup.findVarHandle(ArrivalsFields.class, "count", long.class);
            SUM = lookup.findVarHandle(ArrivalsFields.class, "sum", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

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
