package dev.framewire.core.internal.handler;

import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

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
 * <p>Threading: the node's worker only. What it writes per packet is in {@link StickySync}, on
 * lines of its own.
 */
public final class SingleInputSync extends StickySync
{
    private final InputPort port;
    private final InputQueue queue;
    /**
     * The queue's position below which every packet was published before this node's last call
     * that read the journal's clock ({@link #publishedBeforeLastReading}); 0 before the first.
     */
    private long publishedAtReading;

    public SingleInputSync(final InputPort port)
    {
        super(new InputPort[]{port}, false);
        this.port = port;
        this.queue = port.queue;
    }

    /** Whether a node's inputs and policy are the case this class covers. */
    public static boolean covers(final InputPort[] ports, final InputPolicy policy, final boolean processBounds)
    {
        return ports.length == 1 && !ports[0].queue.backEdge && !processBounds &&
            policy.kind() == InputPolicy.Kind.DEFAULT && policy.batchSize() == 1;
    }

    @Override
    public long readiness()
    {
        if (pending != InputSync.NOT_READY)
        {
            return pending;
        }
        if (seenEmpty)
        {
            seenEmpty = false;
            return InputSync.NOT_READY;
        }
        final InputQueue queue = this.queue;
        long head = queue.peekTimestamp();
        if (head == Timestamp.UNSET)
        {
            final long bound = queue.bound(); // then the ring again: a packet the bound settles is visible
            head = queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                return bound >= Timestamp.ONE_OVER_POST_STREAM ? InputSync.READY_FOR_CLOSE : InputSync.NOT_READY;
            }
        }
        pending = head;
        return head;
    }

    /**
     * Takes the head packet, which is at {@code timestamp}: readiness found it there, and nothing
     * pops this queue between a readiness check and the fill but the fill (memory shedding runs
     * before the check, {@link Node#afterRun()}), so the queue is not looked at again as
     * {@link SyncGroup#fillPort} would.
     */
    @Override
    public long fill(final long timestamp)
    {
        pending = InputSync.NOT_READY;
        assert queue.peekTimestamp() == timestamp : queue + ": head " + Timestamp.toString(queue.peekTimestamp()) +
            " is not the ready timestamp " + Timestamp.toString(timestamp);
        if (port.take())
        {
            queue.wakeHeldBack();
        }
        return timestamp;
    }

    /**
     * Worker, after {@link #fill}, for the journal's clock reads at hand-overs: whether the packet
     * just taken was published before this node's last call that read the clock began. If so, the
     * call may begin at its worker's last reading, which is no earlier, and still after the record
     * of the packet's arrival (written before the packet is published). If not, the caller's call
     * reads the clock, and this first notes how far the queue is published now: the packets it
     * takes up to there share that reading.
     */
    public boolean publishedBeforeLastReading()
    {
        final long next = queue.headPosition(); // the taken packet's position, plus one
        if (next <= publishedAtReading)
        {
            return true;
        }
        publishedAtReading = queue.publishedBelow(next);
        return false;
    }

    /**
     * Worker, after {@link #fill}: {@link #inputBound()}, remembering whether it found the queue
     * empty and open for the node's next readiness check (see the class javadoc).
     */
    public long inputBoundAfterFill()
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
    public void forgetSeen()
    {
        seenEmpty = false;
    }
}
