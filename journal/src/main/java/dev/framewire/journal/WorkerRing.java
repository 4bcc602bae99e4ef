package dev.framewire.journal;

import dev.framewire.core.journal.WorkerJournal;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * A worker's ASYNC ring: single producer, the thread that first journals with the worker's id
 * (claimed under the {@code createdLanes} lock, once); any other thread using the id goes to
 * the many-to-one ring, so the one-to-one ring never sees two producers. It is also the
 * worker's {@link WorkerJournal} ({@link JournalWriter#worker}), through which the engine
 * journals the worker's calls without the writer looking the ring up by the worker's id.
 *
 * <p>The worker's calls are staged here, 1 to 42 bytes each (see
 * {@link JournalDescriptor#DENSE_CALLS}), and go on the ring as one DENSE_CALLS message when
 * {@link #STAGED_CALLS} have ended or the next might not fit the ring's longest message, when
 * another record of the worker comes (so that the file keeps the worker's order), when the
 * worker idles ({@link JournalWriter#workerIdle}), and at {@link JournalWriter#runEnd}: a call
 * reaches the ring at most 63 calls or one idle after it ended.
 *
 * <p>Threading: the fields are the owner's; the journal agent only reads the ring.
 *
 * <p>Layout: the fields the worker writes per call ({@link WorkerRingLayout.Fields}) sit between
 * lines of padding (by inheritance), away from whatever the allocator puts beside the ring:
 * another worker's ring, or objects the journal agent writes per batch.
 */
final class WorkerRing extends WorkerRingLayout.Pad1
{
    /** Calls staged before they go on the ring at most. */
    static final int STAGED_CALLS = 64;

    final OneToOneRingBuffer ring;
    /**
     * The DENSE_CALLS message being put together: its header (kind and worker set here) and
     * entries. On the heap: the entries' bytes are plain array stores.
     */
    final byte[] stagedBytes = new byte[
        JournalDescriptor.PACKED_ENTRIES_OFFSET + STAGED_CALLS * JournalDescriptor.DENSE_ENTRY_MAX_LENGTH];
    /** {@link #stagedBytes}, for the header's fields and the copy into the ring. */
    final UnsafeBuffer staged = new UnsafeBuffer(stagedBytes);
    /**
     * The staged message's most bytes: the staging's, or the ring's longest message's (an
     * eighth of the ring) when that is shorter (a ring of 16 KiB or less). A ring holds at
     * least 4096 bytes, so its longest message holds 11 entries of the longest kind, and
     * typically 64 of a chain's.
     */
    final int stagedMaxLength;

    /** The journal this ring is a worker's part of. */
    final JournalWriter writer;

    WorkerRing(final JournalWriter writer, final int workerId, final int capacity)
    {
        super(writer, workerId);
        this.writer = writer;
        ring = new OneToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
        stagedMaxLength = Math.min(staged.capacity(), ring.maxMsgLength());
        staged.putByte(JournalDescriptor.KIND_OFFSET, (byte)JournalDescriptor.DENSE_CALLS);
        staged.putInt(JournalDescriptor.CALLS_WORKER_OFFSET, workerId);
    }

    // The worker's journal (JournalWriter.worker): its own thread stages its calls here
    // without looking the ring up; any other thread's call, or one this ring does not take as
    // it is (a nested call, an emit not folded, the first call before the thread owns the
    // ring), goes through the writer's method with the worker's id. The owner's calls do not
    // look at the writer's closed flag: after the close nobody drains the ring, so what they
    // stage never reaches the journal (ignored, as the contract has it) and costs no volatile
    // read a call before it.

    @Override
    public void processBegin(final int nodeId, final long inputTimestamp)
    {
        if (owner == Thread.currentThread())
        {
            writer.openStaged(this, nodeId, inputTimestamp, true);
        }
        else
        {
            writer.processBegin(workerId(), nodeId, inputTimestamp);
        }
    }

    @Override
    public void processBeginSameWorker(final int nodeId, final long inputTimestamp)
    {
        if (owner == Thread.currentThread() && writer.readsAtHandOver && !readingStale)
        {
            writer.openStaged(this, nodeId, inputTimestamp, false);
        }
        else
        {
            writer.processBeginSameWorker(workerId(), nodeId, inputTimestamp);
        }
    }

    @Override
    public boolean reusesReadings()
    {
        return writer.readsAtHandOver;
    }

    @Override
    public void emit(final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        if (owner == Thread.currentThread() && foldsEmit(nodeId, streamId, timestamp))
        {
            writer.fold(this, streamId, value, word);
        }
        else
        {
            writer.emit(workerId(), nodeId, streamId, timestamp, value, word);
        }
    }

    @Override
    public void processEnd(final int nodeId, final long inputTimestamp)
    {
        if (owner == Thread.currentThread() && endsCall(nodeId, inputTimestamp))
        {
            writer.stage(this, nodeId, inputTimestamp);
        }
        else
        {
            writer.processEnd(workerId(), nodeId, inputTimestamp);
        }
    }

    @Override
    public void idle()
    {
        if (owner == Thread.currentThread())
        {
            writer.idle(this);
        }
        else
        {
            writer.workerIdle(workerId());
        }
    }

    /** The owner's: whether the emit is the open call's first packet at its input timestamp, folded into its entry. */
    boolean foldsEmit(final int nodeId, final int streamId, final long timestamp)
    {
        return callOpen && emitStream < 0 && callNode == nodeId && callTimestamp == timestamp && streamId >= 0;
    }

    /** The owner's: whether the end is the open call's, staged as its entry. */
    boolean endsCall(final int nodeId, final long inputTimestamp)
    {
        return callOpen && callNode == nodeId && callTimestamp == inputTimestamp;
    }
}

