package dev.framewire.core.calculators.video;

/**
 * A live video source's reconnection backoff: the wait before the next attempt starts at
 * {@code reconnect_initial_ms}, doubles after each attempt that got no frame, up to
 * {@code reconnect_max_ms}; an attempt that gets a frame resets it. After {@code reconnect_give_up}
 * attempts in a row without a frame (if not 0) the source gives up.
 *
 * <p>Threading: the source's reader thread.
 */
final class Reconnect
{
    private final long initialDelayNanos;
    private final long maxDelayNanos;
    private final long giveUp;
    /** Attempts in a row that got no frame. */
    private int failures;

    /**
     * A backoff.
     *
     * @param initialDelayMillis the first wait.
     * @param maxDelayMillis     the longest wait.
     * @param giveUp             attempts in a row without a frame before giving up, 0 for never.
     */
    Reconnect(final long initialDelayMillis, final long maxDelayMillis, final long giveUp)
    {
        this.initialDelayNanos = initialDelayMillis * 1_000_000L;
        this.maxDelayNanos = maxDelayMillis * 1_000_000L;
        this.giveUp = giveUp;
    }

    /**
     * Counts an attempt that ended.
     *
     * @param frames the frames it got.
     */
    void attemptEnded(final long frames)
    {
        failures = frames > 0 ? 0 : failures + 1;
    }

    /** An attempt ended for a reason that is no failure of the connection (a size change): no wait. */
    void reset()
    {
        failures = 0;
    }

    /** Attempts in a row that got no frame. */
    int failures()
    {
        return failures;
    }

    /** Whether the source gives up: {@code reconnect_give_up} attempts in a row without a frame. */
    boolean givesUp()
    {
        return giveUp > 0 && failures >= giveUp;
    }

    /** What {@code reconnect_give_up} is. */
    long giveUpAfter()
    {
        return giveUp;
    }

    /** The wait before the next attempt, in nanoseconds. */
    long delayNanos()
    {
        return Math.max(0, Math.min(maxDelayNanos, initialDelayNanos << Math.min(Math.max(failures - 1, 0), 20)));
    }
}
