package dev.framewire.core;

abstract class SingleInputSyncPad0 extends InputSync
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;

    SingleInputSyncPad0(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}

abstract class SingleInputSyncFields extends SingleInputSyncPad0
{
    /** Sticky readiness, as {@link DefaultSync}'s: the head's timestamp until {@link SingleInputSync#fill} takes it. */
    long pending = Node.NOT_READY;
    /** The hint described in {@link SingleInputSync}'s javadoc: the queue was seen empty and open after the last fill. */
    boolean seenEmpty;

    SingleInputSyncFields(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}

abstract class SingleInputSyncPad1 extends SingleInputSyncFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

    SingleInputSyncPad1(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }
}

/**
 * The default policy for the commonest node: one input, not a back edge, no bound-only processing
 * ({@code process_timestamp_bounds} off), no batch, not early close or fixed size. MediaPipe's
 * DefaultInputStreamHandler reduces then to "ready at the head packet's timestamp; ready to close
 * when the queue is empty and the bound is past post-stream", which this class decides from one
 * look at the queue instead of {@link SyncGroup}'s loop over ports and its bookkeeping for
 * bound-only input sets. {@link DefaultSync} with a one-port group gives the same answers in the
 * same order.
 *
 * <p>One more saving, for a node with an offset: after an input set is filled, the node reads its
 * input's bound for the offset anyway ({@link #inputBoundAfterFill()}); when that look finds the
 * queue empty and the stream still open, the node's first readiness check after the call answers
 * "not ready" from it instead of reading the queue again. That is sound only for that one check:
 * the look happened while the node was scheduled, so a producer on another thread that publishes
 * after it marks the node dirty ({@link ScheduleState#claim()}) and the worker looks again before
 * the node goes idle, and a producer on the node's own worker cannot run until the node's run is
 * over. {@link Node#afterRun()} forgets the hint after its first look whatever that look decided.
 *
 * <p>Threading: the node's worker only. Layout: the two fields it writes per packet sit between
 * cache lines of padding, as {@link PacketSlot}'s do.
 */
final class SingleInputSync extends SingleInputSyncPad1
{
    private final InputPort port;
    private final InputQueue queue;

    SingleInputSync(final InputPort port)
    {
        super(new InputPort[]{port}, false);
        this.port = port;
        this.queue = port.queue;
    }

    /** Whether a node's inputs and policy are the case this class covers. */
    static boolean covers(final InputPort[] ports, final InputPolicy policy, final boolean processBounds)
    {
        return ports.length == 1 && !ports[0].queue.backEdge && !processBounds &&
            policy.kind() == InputPolicy.Kind.DEFAULT && policy.batchSize() == 1;
    }

    @Override
    long readiness()
    {
        if (pending != Node.NOT_READY)
        {
            return pending;
        }
        if (seenEmpty)
        {
            seenEmpty = false;
            return Node.NOT_READY;
        }
        final InputQueue queue = this.queue;
        long head = queue.peekTimestamp();
        if (head == Timestamp.UNSET)
        {
            final long bound = queue.bound(); // then the ring again: a packet the bound settles is visible
            head = queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                return bound >= Timestamp.ONE_OVER_POST_STREAM ? Node.READY_FOR_CLOSE : Node.NOT_READY;
            }
        }
        pending = head;
        return head;
    }

    @Override
    long fill(final long timestamp)
    {
        pending = Node.NOT_READY;
        SyncGroup.fillPort(port, timestamp);
        return timestamp;
    }

    /**
     * Worker, after {@link #fill}: {@link #inputBound()}, remembering whether it found the queue
     * empty and open for the node's next readiness check (see the class javadoc).
     */
    long inputBoundAfterFill()
    {
        final InputQueue queue = this.queue;
        long head = queue.peekTimestamp();
        if (head == Timestamp.UNSET)
        {
            final long bound = queue.bound();
            head = queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                seenEmpty = bound < Timestamp.ONE_OVER_POST_STREAM;
                return bound;
            }
        }
        return head;
    }

    /** Worker: the node's first readiness check after a call is over; the hint no longer holds. */
    void forgetSeen()
    {
        seenEmpty = false;
    }
}
