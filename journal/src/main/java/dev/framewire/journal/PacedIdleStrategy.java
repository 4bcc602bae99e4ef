package dev.framewire.journal;

import org.agrona.concurrent.IdleStrategy;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The ASYNC journal agent's idle strategy: it parks after every duty cycle that took little, not
 * only after empty ones, so that records gather in the rings and each cycle appends many of them.
 *
 * <ul>
 *   <li>a cycle that took at least {@link #ENOUGH_WORK} records: the next one at once (the rings
 *       are filling fast);</li>
 *   <li>a cycle that took fewer: a park of {@link #PACE_NANOS};</li>
 *   <li>an empty cycle: a park from {@link #PACE_NANOS}, doubling with each empty cycle in a row up
 *       to the journal's {@code agentMaxParkNanos}.</li>
 * </ul>
 *
 * Why: under a steady stream Agrona's {@code BackoffIdleStrategy} never parks (each cycle finds the
 * few records that came during the last one, and any work resets it), so the agent ran a cycle,
 * and a Chronicle document, every few records, and spun and yielded between them: 60 % of a core
 * on B5's chain, 42 % of it idling. A writer that finds its ring full, and a {@link JournalWriter#flush},
 * unpark the agent rather than wait out its park. No Agrona idle strategy parks on little work, so
 * this one is written here.
 *
 * <p>Threading: the agent's thread alone.
 */
final class PacedIdleStrategy implements IdleStrategy
{
    /** A cycle that took fewer records than this parks before the next. */
    static final int ENOUGH_WORK = 1024;
    /** The park after a cycle that took little: at B5's 1.5 M packets a second, about 150 records gather. */
    static final long PACE_NANOS = 100_000L;

    private final long paceNanos;
    private final long maxParkNanos;
    private final LongConsumer parker;
    private long parkNanos;

    /**
     * @param maxParkNanos the longest park, after empty cycles in a row (the pace too, when shorter).
     */
    PacedIdleStrategy(final long maxParkNanos)
    {
        this(maxParkNanos, LockSupport::parkNanos);
    }

    /** With a parker of a test's own. */
    PacedIdleStrategy(final long maxParkNanos, final LongConsumer parker)
    {
        this.paceNanos = Math.min(PACE_NANOS, maxParkNanos);
        this.maxParkNanos = maxParkNanos;
        this.parker = parker;
        this.parkNanos = paceNanos;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount >= ENOUGH_WORK)
        {
            parkNanos = paceNanos;
        }
        else if (workCount > 0)
        {
            parkNanos = paceNanos;
            parker.accept(paceNanos);
        }
        else
        {
            idle();
        }
    }

    @Override
    public void idle()
    {
        parker.accept(parkNanos);
        parkNanos = Math.min(maxParkNanos, parkNanos * 2);
    }

    @Override
    public void reset()
    {
        parkNanos = paceNanos;
    }

    @Override
    public String alias()
    {
        return "paced";
    }
}
