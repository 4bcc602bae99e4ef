package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.MemoryBudgetExceededException;
import dev.framewire.offheap.PayloadTooLargeException;

import java.util.concurrent.TimeUnit;

/**
 * How long a source whose calls fail is called again. Under {@link FailurePolicy#DROP_TIMESTAMP},
 * and under {@link MemoryLimitPolicy#DROP_OLDEST} after an acquire past the hard limit, the run
 * goes on after a source's call fails, and the source is called again. A source that fails on every
 * call (a frame larger than the pool's largest slot, a shipment over the hard limit, a class a
 * missing JVM flag keeps from loading) was then called again at once, forever, at 100 % of a core,
 * with its failures logged at a rate-limited trickle. Now:
 * <ul>
 *   <li>a failure that calling again cannot fix ends the run at once, under every policy that
 *       would go on: a payload over the pool's largest slot ({@link PayloadTooLargeException}), a
 *       slot larger than the pool's hard limit or slab maximum (it cannot fit even in an empty
 *       pool), except under DROP_TIMESTAMP, where such a frame is dropped as its own failure (the
 *       frames the call made before it go out, and the next call may make the next frame: a
 *       folder's next file), a {@link LinkageError} (a class that failed to initialize stays failed for the JVM's
 *       life: Agrona's {@code BufferUtil} without its JVM flag, say);</li>
 *   <li>any other failure: the source is called again, at once after its first failed call in a row,
 *       then after 1 ms, doubling up to {@value #MAX_BACKOFF_MILLIS} ms (1, 2, 4, ... 64, 100, 100);
 *       the {@value #MAX_FAILED_CALLS}th failed call in a row ends the run, about a quarter of a
 *       second after the first.</li>
 * </ul>
 * A call that returns normally, or whose packets went out although it failed (a shipment cut short
 * at the hard limit under DROP_OLDEST), made progress and starts the count again. The run ends with
 * a {@link GraphException} naming the node, how often it was called, and the last cause.
 *
 * <p>The wait is kept by the source's worker ({@link Worker#wakeBackedOffSources()}): the source
 * goes idle, and the worker, which reads the clock once per duty cycle while one of its sources
 * waits and never otherwise, queues it again when its time has come. A parked worker wakes at least
 * every 10 ms, so short waits round up to that.
 *
 * <p>Threading: the source's worker only (a source has no {@code max_in_flight} lanes); reports
 * read {@link #failedCalls()} and {@link #retryAtNanos} racily, for diagnostics.
 */
public final class SourceRetry
{
    /** Failed calls in a row after which a source gives up and the run fails. */
    public static final int MAX_FAILED_CALLS = 10;
    /** The wait after the second failed call in a row; it doubles after each further one. */
    static final long FIRST_BACKOFF_MILLIS = 1;
    /** The longest wait between two calls. */
    public static final long MAX_BACKOFF_MILLIS = 100;

    private int failedCalls;
    private long firstFailureNanos;
    /** When the source may be called again (System.nanoTime), or 0 when it may now. */
    public long retryAtNanos;

    /** A call made progress: the count starts again. */
    public void onProgress()
    {
        failedCalls = 0;
    }

    /**
     * A call failed and made no progress.
     *
     * @param now System.nanoTime.
     * @return the wait before the next call in nanoseconds (0: at once), or -1 to give up.
     */
    public long onFailedCall(final long now)
    {
        if (failedCalls == 0)
        {
            firstFailureNanos = now;
        }
        failedCalls++;
        if (failedCalls >= MAX_FAILED_CALLS)
        {
            return -1;
        }
        return backoffNanos(failedCalls);
    }

    /** The wait after the {@code failed}th failed call in a row (1-based). */
    static long backoffNanos(final int failed)
    {
        if (failed <= 1)
        {
            return 0;
        }
        final long millis = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(failed - 2, 30));
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    public int failedCalls()
    {
        return failedCalls;
    }

    public long failingForNanos(final long now)
    {
        return failedCalls == 0 ? 0 : now - firstFailureNanos;
    }

    /**
     * Why calling the source again cannot fix {@code cause}, or null if it might: looks down the
     * cause chain (a {@link MemoryLimitException} wraps the pool's refusal).
     *
     * @param framesFault whether a payload too large for the pool is that frame's fault, not the
     *                    source's (under DROP_TIMESTAMP: the next call may make another frame, as a
     *                    folder's next file; a source that makes the same frame again gives up
     *                    after {@value #MAX_FAILED_CALLS} calls).
     */
    public static String hopeless(final Throwable cause, final MemoryBudget budget, final boolean framesFault)
    {
        final String tooLarge = tooLarge(cause, budget);
        if (tooLarge != null)
        {
            return framesFault ? null : tooLarge;
        }
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause())
        {
            if (t instanceof LinkageError)
            {
                return "a class failed to load or initialize (" + t + "), and stays so for the JVM's life";
            }
        }
        return null;
    }

    /**
     * Why the payload {@code cause} refused can never fit in this pool (over its largest slot, or
     * a slot over its hard limit or maximum), or null if the refusal is not that: looks down the
     * cause chain.
     */
    public static String tooLarge(final Throwable cause, final MemoryBudget budget)
    {
        Throwable t = cause;
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause())
        {
            if (t instanceof PayloadTooLargeException)
            {
                return "a payload of " + ((PayloadTooLargeException)t).requestedBytes() + " B is more than the pool's " +
                    "largest slot of " + ((PayloadTooLargeException)t).maxSlotBytes() + " B";
            }
            if (t instanceof MemoryBudgetExceededException)
            {
                final long slot = ((MemoryBudgetExceededException)t).requestedBytes();
                if (slot > budget.hardLimitBytes() || slot > budget.maxBytes())
                {
                    return "a " + slot + " B slot is more than the pool's " + (slot > budget.hardLimitBytes() ?
                        "hard limit of " + budget.hardLimitBytes() : "maximum of " + budget.maxBytes()) +
                        " B: it cannot fit even in an empty pool";
                }
                return null;
            }
        }
        return null;
    }

    /**
     * The timestamp a source's failed call is reported at: the first its outputs had not yet
     * delivered (their least bound, once the call's staged packets went out or were discarded),
     * which is the timestamp the call was making; {@code timestamp} when no output has a bound in
     * the packet range yet (nothing delivered) or for a failure outside a call (open, close).
     */
    public static long failedAt(final long timestamp, final OutputStream[] outputs)
    {
        if (timestamp == Timestamp.UNSTARTED || timestamp == Timestamp.DONE)
        {
            return timestamp;
        }
        long least = Long.MAX_VALUE;
        for (final OutputStream output : outputs)
        {
            final long bound = output.nextTimestampBound();
            if (bound >= Timestamp.MIN && bound <= Timestamp.MAX)
            {
                least = Math.min(least, bound);
            }
        }
        return least == Long.MAX_VALUE ? timestamp : least;
    }
}
