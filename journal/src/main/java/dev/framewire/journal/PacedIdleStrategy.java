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
 *   <li>a cycle that took fewer: a park of the pace, {@link #PACE_NANOS} (100 µs) for rings of
 *       1 MiB or more (the default is 4 MiB): the time a producer writing 1 GB a second takes to
 *       fill a tenth of a 1 MiB ring, so shorter for smaller rings. A pace under
 *       {@link #MIN_PACE_NANOS} (a ring under 512 KiB) is not kept: a park that short lasts
 *       Linux's 50 µs timer slack anyway, so such an agent goes on at once after any work, as
 *       Agrona's backoff did;</li>
 *   <li>an empty cycle: a park from the pace, doubling with each empty cycle in a row up to the
 *       journal's {@code agentMaxParkNanos}.</li>
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
    /**
     * The park after a cycle that took little, with rings of 1 MiB or more: at B5's 1.5 M packets
     * a second, about 150 records gather.
     */
    static final long PACE_NANOS = 100_000L;
    /** The shortest pace kept: below it the agent goes on at once after any work. */
    static final long MIN_PACE_NANOS = 50_000L;

    private final long paceNanos;
    /** Whether a cycle that took little parks (the pace is kept). */
    private final boolean paced;
    private final long maxParkNanos;
    private final LongConsumer parker;
    private long parkNanos;

    /**
     * @param ringCapacity the bytes of each of the journal's rings.
     * @param maxParkNanos the longest park, after empty cycles in a row (the pace too, when shorter).
     */
    PacedIdleStrategy(final int ringCapacity, final long maxParkNanos)
    {
        this(ringCapacity, maxParkNanos, LockSupport::parkNanos);
    }

    /** With a parker of a test's own. */
    PacedIdleStrategy(final int ringCapacity, final long maxParkNanos, final LongConsumer parker)
    {
        // a tenth of a ring at a byte a nanosecond: 1 MiB rings give about PACE_NANOS, larger ones keep it
        this.paceNanos = Math.min(Math.min(PACE_NANOS, ringCapacity / 10), maxParkNanos);
        this.paced = paceNanos >= MIN_PACE_NANOS;
        this.maxParkNanos = maxParkNanos;
        this.parker = parker;
        this.parkNanos = paceNanos;
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount >= ENOUGH_WORK || workCount > 0 && !paced)
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
