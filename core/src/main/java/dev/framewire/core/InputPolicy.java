package dev.framewire.core;

import java.util.ArrayList;
import java.util.List;

/**
 * How a node's inputs are synchronized into input sets, declared per node (MediaPipe's input
 * stream handlers). A calculator may ask for one in its {@link Contract}; the node's config wins.
 *
 * <ul>
 *   <li><b>{@link #DEFAULT}</b> (DefaultInputStreamHandler): ready when some timestamp is settled
 *       on every input and at least one input has a packet there; that timestamp's packets form
 *       the input set. <i>Guarantees</i> input sets in strictly ascending timestamp order, nothing
 *       dropped, and the same input sets in the same order whatever the threads do. <i>Gives up</i>
 *       latency: a slow or silent input holds the node back until its bound moves.</li>
 *   <li><b>{@link #batch(int)}</b>: default, but input sets are handed over {@code n} at a time
 *       (the node runs once {@code n} are ready, and processes them back to back); the rest are
 *       flushed when the inputs close. <i>Gives up</i> latency for fewer wake-ups.</li>
 *   <li><b>{@link #immediate()}</b> (ImmediateInputStreamHandler): each stream is its own sync set;
 *       a packet is delivered as soon as it arrives, the other inputs empty (carrying their
 *       settled bound); per stream, packets still come in order; the lowest ready timestamp goes
 *       first. <i>Gives up</i> ascending input timestamps across streams and alignment.</li>
 *   <li><b>{@link #syncSets(List)}</b> (SyncSetInputStreamHandler): the inputs are split into
 *       groups, each settled like default on its own, so a stalled group does not hold up the
 *       others; inputs named in no group form one more group. <i>Guarantees</i> ascending order
 *       within a group; <i>gives up</i> order across groups.</li>
 *   <li><b>{@link #fixedSize(int, int, boolean)}</b> (FixedSizeInputStreamHandler), a live-camera
 *       policy: like default, but once an input queue reaches {@code trigger} packets the oldest
 *       timestamps are dropped across all inputs down to {@code target}, keeping streams aligned;
 *       every drop is counted. <i>Gives up</i> completeness for bounded latency.</li>
 *   <li><b>{@link #earlyClose()}</b> (EarlyCloseInputStreamHandler), for loops: default, but the node
 *       closes as soon as any input is done; packets still queued on other inputs are dropped.</li>
 *   <li><b>{@link #mux()}</b> (MuxInputStreamHandler): the {@code SELECT} input (else the last one)
 *       carries an integer per timestamp naming the data input to pass; the node runs once the
 *       select packet and the chosen input's packet or bound are there, other data inputs are not
 *       waited for and their older packets are dropped. Closes when {@code SELECT} is done.</li>
 *   <li><b>{@link #timestampAlign(String)}</b> (TimestampAlignInputStreamHandler): the first packet
 *       on each input fixes its offset to the base input's first packet; later packets are aligned
 *       by that offset and handed over at the base input's timestamp.</li>
 *   <li><b>{@link #barrier()}</b> (BarrierInputStreamHandler): the node runs when every input has a
 *       packet, whatever their timestamps, and takes the head packet of each; the input timestamp
 *       is the lowest of them. Closes when any input is done and empty.</li>
 * </ul>
 *
 * <p>Threading: immutable.
 */
public final class InputPolicy
{
    /** The kinds of policy, with MediaPipe's handler names. */
    public enum Kind
    {
        /** DefaultInputStreamHandler. */
        DEFAULT("DefaultInputStreamHandler"),
        /** ImmediateInputStreamHandler. */
        IMMEDIATE("ImmediateInputStreamHandler"),
        /** SyncSetInputStreamHandler. */
        SYNC_SETS("SyncSetInputStreamHandler"),
        /** FixedSizeInputStreamHandler. */
        FIXED_SIZE("FixedSizeInputStreamHandler"),
        /** EarlyCloseInputStreamHandler. */
        EARLY_CLOSE("EarlyCloseInputStreamHandler"),
        /** MuxInputStreamHandler. */
        MUX("MuxInputStreamHandler"),
        /** TimestampAlignInputStreamHandler. */
        TIMESTAMP_ALIGN("TimestampAlignInputStreamHandler"),
        /** BarrierInputStreamHandler. */
        BARRIER("BarrierInputStreamHandler");

        private final String handlerName;

        Kind(final String handlerName)
        {
            this.handlerName = handlerName;
        }

        /**
         * MediaPipe's name for this handler, as graph configs write it.
         *
         * @return the handler name.
         */
        public String handlerName()
        {
            return handlerName;
        }
    }

    /** The default policy, one input set at a time. */
    public static final InputPolicy DEFAULT = new InputPolicy(Kind.DEFAULT, 1, List.of(), 0, 0, false);

    private final Kind kind;
    private final int batchSize;
    private final List<List<String>> syncSets;
    private final int triggerQueueSize;
    private final int targetQueueSize;
    private final boolean fixedMinSize;
    private final String timestampBaseTagIndex;

    private InputPolicy(
        final Kind kind,
        final int batchSize,
        final List<List<String>> syncSets,
        final int triggerQueueSize,
        final int targetQueueSize,
        final boolean fixedMinSize)
    {
        this(kind, batchSize, syncSets, triggerQueueSize, targetQueueSize, fixedMinSize, "");
    }

    private InputPolicy(
        final Kind kind,
        final int batchSize,
        final List<List<String>> syncSets,
        final int triggerQueueSize,
        final int targetQueueSize,
        final boolean fixedMinSize,
        final String timestampBaseTagIndex)
    {
        this.timestampBaseTagIndex = timestampBaseTagIndex;
        this.kind = kind;
        this.batchSize = batchSize;
        this.syncSets = syncSets;
        this.triggerQueueSize = triggerQueueSize;
        this.targetQueueSize = targetQueueSize;
        this.fixedMinSize = fixedMinSize;
    }

    /**
     * The default policy handing over input sets {@code n} at a time.
     *
     * @param n at least 1.
     * @return the policy.
     */
    public static InputPolicy batch(final int n)
    {
        if (n < 1)
        {
            throw new IllegalArgumentException("batch_size must be at least 1, was " + n);
        }
        return new InputPolicy(Kind.DEFAULT, n, List.of(), 0, 0, false);
    }

    /**
     * The immediate policy.
     *
     * @return the policy.
     */
    public static InputPolicy immediate()
    {
        return new InputPolicy(Kind.IMMEDIATE, 1, List.of(), 0, 0, false);
    }

    /**
     * The sync-set policy.
     *
     * @param groups each group's inputs, by {@code TAG:index}, {@code TAG} or stream name.
     * @return the policy.
     */
    public static InputPolicy syncSets(final List<List<String>> groups)
    {
        final List<List<String>> copy = new ArrayList<>();
        for (final List<String> group : groups)
        {
            copy.add(List.copyOf(group));
        }
        return new InputPolicy(Kind.SYNC_SETS, 1, List.copyOf(copy), 0, 0, false);
    }

    /**
     * The fixed-size policy.
     *
     * @param trigger      queue size at which dropping starts (MediaPipe's default 2).
     * @param target       queue size dropping goes down to (default 1), below {@code trigger}.
     * @param fixedMinSize drop only once every input reached the trigger (MediaPipe's
     *                     {@code fixed_min_size}); otherwise any input reaching it drops.
     * @return the policy.
     */
    public static InputPolicy fixedSize(final int trigger, final int target, final boolean fixedMinSize)
    {
        if (target < 1 || trigger <= target)
        {
            throw new IllegalArgumentException("fixed size policy needs 1 <= target_queue_size < trigger_queue_size, " +
                "was target " + target + " and trigger " + trigger);
        }
        return new InputPolicy(Kind.FIXED_SIZE, 1, List.of(), trigger, target, fixedMinSize);
    }

    /**
     * The early-close policy.
     *
     * @return the policy.
     */
    public static InputPolicy earlyClose()
    {
        return new InputPolicy(Kind.EARLY_CLOSE, 1, List.of(), 0, 0, false);
    }

    /**
     * MediaPipe's MuxInputStreamHandler: the {@code SELECT} input picks the data input to pass.
     *
     * @return the policy.
     */
    public static InputPolicy mux()
    {
        return new InputPolicy(Kind.MUX, 1, List.of(), 0, 0, false);
    }

    /**
     * MediaPipe's BarrierInputStreamHandler: runs when every input holds a packet, whatever the timestamps.
     *
     * @return the policy.
     */
    public static InputPolicy barrier()
    {
        return new InputPolicy(Kind.BARRIER, 1, List.of(), 0, 0, false);
    }

    /**
     * MediaPipe's TimestampAlignInputStreamHandler: inputs aligned by a fixed offset to a base input.
     *
     * @param timestampBaseTagIndex the base input as {@code TAG:index}, {@code TAG} or a stream name
     *                              (MediaPipe's option {@code timestamp_base_tag_index}).
     * @return the policy.
     */
    public static InputPolicy timestampAlign(final String timestampBaseTagIndex)
    {
        if (timestampBaseTagIndex == null || timestampBaseTagIndex.isEmpty())
        {
            throw new IllegalArgumentException("TimestampAlignInputStreamHandler needs option timestamp_base_tag_index " +
                "(the base input as TAG:index, TAG or stream name); it is empty");
        }
        return new InputPolicy(Kind.TIMESTAMP_ALIGN, 1, List.of(), 0, 0, false, timestampBaseTagIndex);
    }

    /**
     * The base input of the timestamp-align policy.
     *
     * @return its {@code TAG:index}, or empty for other policies.
     */
    public String timestampBaseTagIndex()
    {
        return timestampBaseTagIndex;
    }

    /**
     * The kind of policy.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * Input sets handed over at a time (default policy).
     *
     * @return 1 unless batched.
     */
    public int batchSize()
    {
        return batchSize;
    }

    /**
     * The sync sets' inputs (sync-set policy).
     *
     * @return the groups.
     */
    public List<List<String>> syncSets()
    {
        return syncSets;
    }

    /**
     * The queue size at which dropping starts (fixed-size policy).
     *
     * @return the trigger.
     */
    public int triggerQueueSize()
    {
        return triggerQueueSize;
    }

    /**
     * The queue size dropping goes down to (fixed-size policy).
     *
     * @return the target.
     */
    public int targetQueueSize()
    {
        return targetQueueSize;
    }

    /**
     * Whether dropping waits until every input reached the trigger (fixed-size policy).
     *
     * @return the flag.
     */
    public boolean fixedMinSize()
    {
        return fixedMinSize;
    }

    /**
     * The policy's name as the config writes it.
     *
     * @return MediaPipe's handler name.
     */
    public String name()
    {
        return kind.handlerName();
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof InputPolicy))
        {
            return false;
        }
        final InputPolicy p = (InputPolicy)o;
        return kind == p.kind && batchSize == p.batchSize && syncSets.equals(p.syncSets) &&
            triggerQueueSize == p.triggerQueueSize && targetQueueSize == p.targetQueueSize &&
            fixedMinSize == p.fixedMinSize && timestampBaseTagIndex.equals(p.timestampBaseTagIndex);
    }

    @Override
    public int hashCode()
    {
        return kind.hashCode() * 31 + batchSize * 7 + syncSets.hashCode() + triggerQueueSize * 13 + targetQueueSize;
    }

    @Override
    public String toString()
    {
        switch (kind)
        {
            case DEFAULT:
                return batchSize == 1 ? name() : name() + "{batch_size=" + batchSize + "}";
            case SYNC_SETS:
                return name() + syncSets;
            case FIXED_SIZE:
                return name() + "{trigger_queue_size=" + triggerQueueSize + ", target_queue_size=" + targetQueueSize +
                    ", fixed_min_size=" + fixedMinSize + "}";
            case TIMESTAMP_ALIGN:
                return name() + "{timestamp_base_tag_index=" + timestampBaseTagIndex + "}";
            default:
                return name();
        }
    }
}
