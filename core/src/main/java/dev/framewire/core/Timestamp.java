package dev.framewire.core;

/**
 * Packet timestamps: {@code long} microseconds, with MediaPipe's special values at both ends.
 *
 * <pre>
 *   UNSET &lt; UNSTARTED &lt; PRE_STREAM &lt; MIN &lt;= ordinary &lt;= MAX &lt; POST_STREAM &lt; ONE_OVER_POST_STREAM &lt; DONE
 * </pre>
 * A packet may carry {@link #PRE_STREAM}, {@link #POST_STREAM} or any value in
 * [{@link #MIN}, {@link #MAX}]; a packet at {@code PRE_STREAM} or {@code POST_STREAM} must be the
 * only packet of its stream. A stream's <em>bound</em> is the lowest timestamp its next packet may
 * carry; {@link #DONE} means closed. A timestamp is <em>settled</em> when it is below the bound.
 */
public final class Timestamp
{
    /** No timestamp: the input timestamp outside any call. */
    public static final long UNSET = Long.MIN_VALUE;
    /** Before the run: the input timestamp seen by {@code open}. */
    public static final long UNSTARTED = Long.MIN_VALUE + 1;
    /** A packet at this timestamp is the only packet of its stream, before all others. */
    public static final long PRE_STREAM = Long.MIN_VALUE + 2;
    /** The lowest ordinary timestamp. */
    public static final long MIN = Long.MIN_VALUE + 3;
    /** The highest ordinary timestamp. */
    public static final long MAX = Long.MAX_VALUE - 3;
    /** A packet at this timestamp is the only packet of its stream, after all others. */
    public static final long POST_STREAM = Long.MAX_VALUE - 2;
    /** The bound after a packet at {@link #POST_STREAM} or {@link #MAX}: nothing more may come. */
    public static final long ONE_OVER_POST_STREAM = Long.MAX_VALUE - 1;
    /** The bound of a closed stream; the input timestamp seen by {@code close}. */
    public static final long DONE = Long.MAX_VALUE;

    private Timestamp()
    {
    }

    /**
     * Whether a packet may carry this timestamp.
     *
     * @param timestamp the candidate.
     * @return true for {@code PRE_STREAM}, {@code POST_STREAM} and [{@code MIN}, {@code MAX}].
     */
    public static boolean isValidPacketTimestamp(final long timestamp)
    {
        return (timestamp >= MIN && timestamp <= MAX) || timestamp == PRE_STREAM || timestamp == POST_STREAM;
    }

    /**
     * The bound after a packet at {@code timestamp}: the lowest timestamp the next packet may carry.
     *
     * @param timestamp a timestamp.
     * @return {@code timestamp + 1}; {@link #ONE_OVER_POST_STREAM} after {@code PRE_STREAM},
     * {@code MAX} or {@code POST_STREAM} (which must be alone or last); {@link #MIN} below it.
     */
    public static long nextAllowedInStream(final long timestamp)
    {
        if (timestamp >= MAX || timestamp == PRE_STREAM)
        {
            return ONE_OVER_POST_STREAM;
        }
        return timestamp < MIN ? MIN : timestamp + 1;
    }

    /**
     * The highest timestamp settled under a bound: one below it, with MediaPipe's special cases.
     *
     * @param bound a stream bound.
     * @return {@code bound - 1}; {@link #UNSTARTED} for a bound at or below {@code MIN} or at
     * {@code POST_STREAM} (nothing before it can be settled); {@link #MAX} above {@code MAX}.
     */
    public static long previousAllowedInStream(final long bound)
    {
        if (bound <= MIN || bound == POST_STREAM)
        {
            return UNSTARTED;
        }
        return bound > MAX ? MAX : bound - 1;
    }

    /**
     * Adds an offset to a timestamp, clamping to [{@link #MIN}, {@link #MAX}] as MediaPipe's
     * {@code Timestamp::operator+} does: {@code (MAX - 100) + 200 == MAX},
     * {@code (MIN + 100) - 200 == MIN}, so a node with an offset that got an input near {@code MAX}
     * may still emit at {@code MAX}.
     *
     * @param timestamp a timestamp in [{@code MIN}, {@code MAX}], or a special value.
     * @param offset    a signed offset in microseconds.
     * @return the sum clamped to [{@code MIN}, {@code MAX}]; a special value ({@code UNSET},
     * {@code UNSTARTED}, {@code PRE_STREAM}, {@code POST_STREAM}, {@code ONE_OVER_POST_STREAM},
     * {@code DONE}) unchanged (MediaPipe refuses arithmetic on those; a bound such as {@code DONE}
     * stays what it is).
     */
    public static long add(final long timestamp, final long offset)
    {
        if (timestamp < MIN || timestamp > MAX)
        {
            return timestamp;
        }
        if (offset >= 0 && timestamp >= MAX - offset)
        {
            return MAX;
        }
        if (offset <= 0 && timestamp <= MIN - offset)
        {
            return MIN;
        }
        return timestamp + offset;
    }

    /**
     * Subtracts an offset from a timestamp, clamping as {@link #add} does.
     *
     * @param timestamp a timestamp in [{@code MIN}, {@code MAX}], or a special value.
     * @param offset    a signed offset in microseconds.
     * @return {@code timestamp - offset} clamped to [{@code MIN}, {@code MAX}]; a special value unchanged.
     */
    public static long subtract(final long timestamp, final long offset)
    {
        if (offset == Long.MIN_VALUE)
        {
            return add(add(timestamp, Long.MAX_VALUE), 1);
        }
        return add(timestamp, -offset);
    }

    /**
     * Names a timestamp for messages: the number, or the special value's name.
     *
     * @param timestamp any timestamp.
     * @return its text.
     */
    public static String toString(final long timestamp)
    {
        if (timestamp == UNSET)
        {
            return "Unset";
        }
        if (timestamp == UNSTARTED)
        {
            return "Unstarted";
        }
        if (timestamp == PRE_STREAM)
        {
            return "PreStream";
        }
        if (timestamp == POST_STREAM)
        {
            return "PostStream";
        }
        if (timestamp == ONE_OVER_POST_STREAM)
        {
            return "OneOverPostStream";
        }
        if (timestamp == DONE)
        {
            return "Done";
        }
        if (timestamp == MIN)
        {
            return "Min";
        }
        if (timestamp == MAX)
        {
            return "Max";
        }
        return Long.toString(timestamp);
    }
}
