package dev.framewire.journal;

import dev.framewire.offheap.Payload;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;
import static dev.framewire.journal.JournalRecord.VALUE_CAPTURED;

/**
 * The threads' Chronicle appenders and the records they append directly (every record in SYNC
 * mode; in ASYNC mode the header, the run start, captured graph inputs and the ordered subgraph
 * records): each thread appends through a lane of its own, its appender and a 64 KiB direct
 * scratch in which it puts a record together and computes its CRC32C outside Chronicle's lock.
 * A worker finds its lane in a per-worker slot made at run start, any other thread in a thread
 * local.
 *
 * <p>Threading: any thread appends on its own lane. The slots are written under the lanes' lock
 * and read racily (see {@link #lane}). {@link #close} once the journal is quiet.
 */
final class AppenderLanes
{
    private final SingleChronicleQueue queue;
    private final AppendFailures failures;
    private final ThreadLocal<Lane> threadLanes;
    private final List<Lane> createdLanes = new ArrayList<>();
    /**
     * Lanes by worker id, each for the thread it names: a worker finds its own without a
     * lookup. Written under the {@code createdLanes} lock, read racily (see {@link #lane}).
     */
    private LaneSlot[] slots = new LaneSlot[0];

    /** What a thread appends through: its Chronicle appender and its scratch for checksumming records. */
    private static final class Lane
    {
        final ExcerptAppender appender;
        final RecordScratch scratch = new RecordScratch();

        Lane(final ExcerptAppender appender)
        {
            this.appender = appender;
        }
    }

    private static final class LaneSlot
    {
        final Thread owner;
        final Lane lane;

        LaneSlot(final Thread owner, final Lane lane)
        {
            this.owner = owner;
            this.lane = lane;
        }
    }

    AppenderLanes(final SingleChronicleQueue queue, final AppendFailures failures)
    {
        this.queue = queue;
        this.failures = failures;
        this.threadLanes = ThreadLocal.withInitial(this::newLane);
    }

    /**
     * SYNC, at run start, before the workers start: a lane per worker, adopted by the first
     * thread that appends with the worker's id (creating an appender takes milliseconds, better
     * not on a worker's first record).
     *
     * @param workers the number of workers.
     */
    void makeWorkerLanes(final int workers)
    {
        final LaneSlot[] slots = new LaneSlot[workers];
        for (int w = 0; w < slots.length; w++)
        {
            slots[w] = new LaneSlot(null, newLane());
        }
        synchronized (createdLanes)
        {
            this.slots = slots;
        }
    }

    private Lane newLane()
    {
        final Lane lane = new Lane(queue.createAppender());
        synchronized (createdLanes)
        {
            createdLanes.add(lane);
        }
        return lane;
    }

    /** The calling thread's lane: its worker slot when it owns it, else its thread local. */
    private Lane lane(final int workerId)
    {
        final LaneSlot[] slots = this.slots;
        if (workerId >= 0 && workerId < slots.length)
        {
            final LaneSlot slot = slots[workerId];
            // racy read: a stale slot names another thread (or none), and the claim re-reads it under the lock
            if (slot != null && slot.owner == Thread.currentThread())
            {
                return slot.lane;
            }
            return claim(workerId);
        }
        return threadLanes.get();
    }

    /**
     * Cold path, once per thread and worker id: the worker's thread adopts the lane
     * {@link #makeWorkerLanes} made for it; another thread using the id (the graph's owner after
     * the workers stopped) takes the slot over with its own lane.
     */
    private Lane claim(final int workerId)
    {
        synchronized (createdLanes)
        {
            final Thread thread = Thread.currentThread();
            final LaneSlot slot = slots[workerId];
            final Lane lane;
            if (slot != null && slot.owner == null)
            {
                lane = slot.lane;
                lane.appender.singleThreadedCheckReset(); // made on the runStart thread, used on this one
            }
            else
            {
                lane = threadLanes.get();
            }
            slots[workerId] = new LaneSlot(thread, lane);
            return lane;
        }
    }

    /**
     * The calling thread's appender.
     *
     * @param workerId the worker the thread appends for, -1 if none.
     * @return the appender.
     */
    ExcerptAppender appender(final int workerId)
    {
        return lane(workerId).appender;
    }

    /** One fixed-size record with its checksum, at a clock read now; a failure is counted. */
    void appendFixed(
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long timestamp,
        final long value)
    {
        final long nanos = System.nanoTime();
        final Lane lane = lane(worker);
        final DocumentContext dc = lane.appender.writingDocument();
        try
        {
            lane.scratch.appendFixed(dc.wire().bytes(), kind, aux, worker, node, stream, nanos, timestamp, value);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            failures.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /** A built record on {@code worker}'s lane; a failure rolls the document back and is counted. */
    void append(final int worker, final RecordBuilder record)
    {
        final DocumentContext dc = lane(worker).appender.writingDocument();
        try
        {
            record.appendTo(dc.wire().bytes());
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            failures.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /** A built record on the calling thread's own lane; a failure rolls the document back and is thrown. */
    void appendOrThrow(final RecordBuilder record)
    {
        final DocumentContext dc = lane(-1).appender.writingDocument();
        try
        {
            record.appendTo(dc.wire().bytes());
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            throw ex;
        }
        finally
        {
            dc.close();
        }
    }

    /**
     * A captured graph input: the payload's bytes copied into the journal on the caller's thread.
     * Allocation-free: the record's CRC32C is computed over the payload in place when it is on the
     * heap, else over copies of it in the lane's scratch, a chunk at a time (the JVM checksums
     * direct memory in place only through a {@link java.nio.ByteBuffer}, and making one for the
     * payload's address would allocate).
     */
    void appendCaptured(final int streamId, final long timestamp, final Payload payload)
    {
        final int length = payload.length();
        final long nanos = System.nanoTime();
        final DirectBuffer buffer = payload.buffer();
        final long sum = PayloadChecksum.of(buffer, 0, length);
        final Lane lane = lane(-1);
        final RecordScratch scratch = lane.scratch;
        JournalDescriptor.putFixed(scratch.buffer, 0, JournalDescriptor.GRAPH_INPUT, VALUE_CAPTURED, -1, -1, streamId,
            nanos, timestamp, sum);
        scratch.buffer.putInt(FIXED_LENGTH, length, ByteOrder.LITTLE_ENDIAN);
        final CRC32C crc = scratch.crc;
        crc.reset();
        scratch.bytes.limit(FIXED_LENGTH + 4).position(0);
        crc.update(scratch.bytes);
        final byte[] array = buffer.byteArray();
        final int arrayOffset = array == null ? 0 : (int)(buffer.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET);
        if (array != null)
        {
            crc.update(array, arrayOffset, length);
        }
        else
        {
            for (int done = 0; done < length; )
            {
                final int chunk = Math.min(length - done, RecordScratch.LENGTH - FIXED_LENGTH - 4);
                buffer.getBytes(done, scratch.buffer, FIXED_LENGTH + 4, chunk);
                scratch.bytes.limit(FIXED_LENGTH + 4 + chunk).position(FIXED_LENGTH + 4);
                crc.update(scratch.bytes);
                done += chunk;
            }
        }
        final int checksum = (int)crc.getValue();
        final DocumentContext dc = lane.appender.writingDocument();
        try
        {
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.unsafeWrite(scratch.buffer.addressOffset(), FIXED_LENGTH + 4);
            if (array != null)
            {
                bytes.write(array, arrayOffset, length);
            }
            else
            {
                bytes.unsafeWrite(buffer.addressOffset(), length);
            }
            bytes.writeInt(checksum);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            failures.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /** Closes every lane's appender, from this thread, not the one that used it: the journal is quiet now. */
    void close()
    {
        synchronized (createdLanes)
        {
            for (final Lane lane : createdLanes)
            {
                lane.appender.singleThreadedCheckReset();
                lane.appender.close();
            }
            createdLanes.clear();
        }
    }
}
