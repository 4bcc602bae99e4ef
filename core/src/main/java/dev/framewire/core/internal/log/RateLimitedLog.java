package dev.framewire.core.internal.log;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a repeated warning is logged: the first occurrence at once, then at most one line
 * per interval, which says how many occurrences it stands for ("dropped 72 BOUND packets in the
 * last 10 s"). The caller counts each occurrence with {@link #record(long)} and, when it returns
 * true, logs one line with {@link #takeCount()} and {@link #windowMillis(long)}:
 *
 * <pre>{@code
 * if (drops.record(System.nanoTime()))
 * {
 *     LOG.warn("dropped {} BOUND packets in the last {} ms", drops.takeCount(), drops.windowMillis(now));
 * }
 * }</pre>
 *
 * <p>The suppressed path, {@code record} returning false, is one atomic increment, one volatile
 * read and a compare: no allocation, no lock, so it can sit on a hot path.
 *
 * <p>Threading: any number of threads may {@code record}; exactly one of them gets true per
 * interval (a compare-and-set on the next due time), and that one alone calls
 * {@code takeCount} and {@code windowMillis} before its next {@code record}. An occurrence
 * counted by another thread between the winner's {@code record} and {@code takeCount} goes into
 * the winner's line, not the next: the counts add up to the occurrences.
 */
public final class RateLimitedLog
{
    private final long intervalNanos;
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong dueNanos;
    private volatile long lastLineNanos;
    private volatile boolean first = true;

    /**
     * @param intervalNanos the least time between two lines; the first occurrence is logged at once.
     */
    public RateLimitedLog(final long intervalNanos)
    {
        if (intervalNanos <= 0)
        {
            throw new IllegalArgumentException("intervalNanos must be positive, was " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
        this.dueNanos = new AtomicLong(Long.MIN_VALUE);
    }

    /**
     * Counts one occurrence.
     *
     * @param nowNanos {@link System#nanoTime()}.
     * @return true if the caller logs a line now (the first occurrence, or the first after the
     *         interval since the last line).
     */
    public boolean record(final long nowNanos)
    {
        count.incrementAndGet();
        final long due = dueNanos.get();
        if (due != Long.MIN_VALUE && nowNanos - due < 0)
        {
            return false;
        }
        return dueNanos.compareAndSet(due, nowNanos + intervalNanos);
    }

    /**
     * The occurrences since the last line, this one included; resets the count. Only the caller
     * whose {@link #record} returned true.
     *
     * @return at least 1.
     */
    public long takeCount()
    {
        return count.getAndSet(0);
    }

    /**
     * How long the line being logged covers: the time since the previous line, or 0 for the
     * first line ever. Only the caller whose {@link #record} returned true; it moves the start of
     * the next window to {@code nowNanos}.
     *
     * @param nowNanos the same clock reading given to {@link #record}.
     * @return milliseconds.
     */
    public long windowMillis(final long nowNanos)
    {
        final long last = lastLineNanos;
        lastLineNanos = nowNanos;
        if (first)
        {
            first = false;
            return 0;
        }
        return (nowNanos - last) / 1_000_000L;
    }

    /**
     * Occurrences counted since the last line and not yet logged (for a final line at close).
     *
     * @return the count, without resetting it.
     */
    public long pending()
    {
        return count.get();
    }
}
