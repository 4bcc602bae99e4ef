package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.WorkerJournal;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * A worker's ASYNC ring: single producer, the thread that first journals with the worker's id
 * (claimed under the {@link JournalRings} lock, once); any other thread using the id goes to
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

    /** The journal this ring is a worker's part of: what another thread's call goes through. */
    final JournalWriter writer;
    /** The rings: what a full ring does, and the fixed records an open call becomes. */
    private final JournalRings rings;
    /** What a folded packet's value is journaled as. */
    private final PacketValues values;
    /** Whether a same-worker call may begin at the worker's last clock reading. */
    private final boolean readsAtHandOver;

    WorkerRing(
        final JournalWriter writer,
        final JournalRings rings,
        final PacketValues values,
        final int workerId,
        final int capacity)
    {
        super(writer, workerId);
        this.writer = writer;
        this.rings = rings;
        this.values = values;
        this.readsAtHandOver = rings.readsAtHandOver;
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
            open(nodeId, inputTimestamp, true);
        }
        else
        {
            writer.processBegin(workerId(), nodeId, inputTimestamp);
        }
    }

    @Override
    public void processBeginSameWorker(final int nodeId, final long inputTimestamp)
    {
        if (owner == Thread.currentThread())
        {
            // the clock is read unless the call may begin at the worker's last reading: what the
            // writer's processBeginSameWorker would do, without the detour through it
            open(nodeId, inputTimestamp, !readsAtHandOver || readingStale);
        }
        else
        {
            writer.processBeginSameWorker(workerId(), nodeId, inputTimestamp);
        }
    }

    @Override
    public boolean reusesReadings()
    {
        return readsAtHandOver;
    }

    @Override
    public void emit(final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        if (owner == Thread.currentThread() && foldsEmit(nodeId, streamId, timestamp))
        {
            fold(streamId, value, word);
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
            stage(nodeId, inputTimestamp);
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
            idleOwned();
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

    // The staging, on the owner's thread (flushStaged and before also from the stopping thread at
    // run end, onto the many-to-one ring, once the worker stopped).

    /**
     * A call begins: it is staged when it ends, as one DENSE_CALLS entry (with the first packet it
     * emits at its input timestamp), unless another record of this worker comes first (then its
     * BEGIN goes in before that record, see {@link #openCall}). It begins at a clock read now
     * ({@code readClock}), or at the worker's last reading, taken after the calls before it went
     * (so that a call never begins before the end of those).
     */
    void open(final int nodeId, final long inputTimestamp, final boolean readClock)
    {
        if (callOpen)
        {
            openCall(ring);
        }
        if (readClock)
        {
            reading = System.nanoTime();
            readingStale = false;
        }
        callNanos = reading;
        callNode = nodeId;
        callTimestamp = inputTimestamp;
        emitStream = -1;
        callOpen = true;
    }

    /** The call's packet at its input timestamp goes in with the call's entry. */
    void fold(final int streamId, final Object value, final long word)
    {
        final int kind = values.kind(streamId, value, true);
        emitStream = streamId;
        emitKind = kind;
        emitValue = PacketValues.word(kind, value, word);
    }

    /**
     * The call ended; its entry goes into the staged DENSE_CALLS message, which goes on the ring
     * when full. Its end is the next call's begin, or the flush's clock read.
     */
    void stage(final int nodeId, final long inputTimestamp)
    {
        callOpen = false;
        final UnsafeBuffer staged = this.staged;
        final int stream = emitStream;
        if (stagedCalls == 0)
        {
            // the first entry's timestamp and nanos are differences from the header's
            staged.putLong(JournalDescriptor.PACKED_BASE_NANOS_OFFSET, callNanos);
            staged.putLong(JournalDescriptor.PACKED_BASE_TIMESTAMP_OFFSET, inputTimestamp);
            entries.reset(inputTimestamp, callNanos);
        }
        final int at = entries.put(stagedBytes, stagedLength, nodeId, stream, emitKind, emitValue,
            inputTimestamp, callNanos);
        stagedLength = at;
        if (++stagedCalls == STAGED_CALLS || at + JournalDescriptor.DENSE_ENTRY_MAX_LENGTH > stagedMaxLength)
        {
            flushStaged(ring);
        }
    }

    /** The worker ran out of work, is paused or is stopping: its staged calls go on its ring, and its next call reads the clock. */
    void idleOwned()
    {
        flushStaged(ring);
        readingStale = true;
    }

    /**
     * The staged calls, if any, onto a ring as one DENSE_CALLS message, the last one ending now:
     * this ring from the owner's thread, the many-to-one ring from another (at run end). A full
     * ring loses them all (counted, one a call) or, under {@link JournalConfig.RingFull#WAIT},
     * waits for room.
     */
    void flushStaged(final RingBuffer ring)
    {
        final int n = stagedCalls;
        if (n == 0)
        {
            return;
        }
        final int length = stagedLength;
        stagedCalls = 0;
        stagedLength = JournalDescriptor.PACKED_ENTRIES_OFFSET;
        staged.putInt(JournalDescriptor.CALLS_COUNT_OFFSET, n);
        final long now = System.nanoTime();
        staged.putLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, now);
        reading = now;
        final JournalRings rings = this.rings;
        int index = ring.tryClaim(JournalDescriptor.DENSE_CALLS, length);
        if (index <= 0 && rings.waitsForRoom)
        {
            index = rings.claimWaiting(ring, JournalDescriptor.DENSE_CALLS, length);
        }
        if (index > 0)
        {
            ring.buffer().putBytes(index, staged, 0, length);
            ring.commit(index);
        }
        else
        {
            rings.lost.addAndGet(n);
        }
    }

    /**
     * A record of the worker comes while its call is open and not yet in the ring (an emit that
     * cannot be folded, a drop, a bound, an error, a nested call): its staged calls, then the
     * call's PROCESS_BEGIN (and the packet folded so far, as an EMIT with the call's begin nanos)
     * go into the ring first, so that the file keeps the worker's order; the call then ends with a
     * PROCESS_END.
     */
    private void openCall(final RingBuffer ring)
    {
        flushStaged(ring);
        callOpen = false;
        final int workerId = workerId();
        rings.offer(ring, JournalDescriptor.PROCESS_BEGIN, 0, workerId, callNode, -1, callNanos, callTimestamp, 0);
        if (emitStream >= 0)
        {
            rings.offer(ring, JournalDescriptor.EMIT, emitKind, workerId, callNode, emitStream, callNanos,
                callTimestamp, emitValue);
        }
    }

    /** Another record of the worker comes: its staged calls and its open call go before it, on {@code ring}. */
    void before(final RingBuffer ring)
    {
        if (callOpen)
        {
            openCall(ring);
        }
        else
        {
            flushStaged(ring);
        }
    }
}
