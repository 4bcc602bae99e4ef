package dev.framewire.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * ASYNC mode's journal agent: drains the writers' rings into Chronicle (each worker's one-to-one
 * ring and the many-to-one ring of every other thread, up to {@link #DRAIN_LIMIT} messages from
 * each a duty cycle), a message's bytes copied as they are (the rings hold the on-disk layout of
 * {@link JournalDescriptor} but the checksum: a record, or a worker's DENSE_CALLS record of up to 64
 * calls) into a BATCH document of up to 64 KiB, appended
 * with one CRC32C at the end of the cycle or when full, computed here so that the writers do not
 * pay for it (a cycle that took one record appends it alone, with its own checksum); and
 * journals how many records a full ring lost. Graph inputs that come one after another off the
 * shared ring (those without a captured payload) are packed into one PACKED_INPUTS record of the
 * batch, 4 to 8 bytes each for a stream of packets where each was 44, and a worker's packets that
 * were not folded into a call (at the lighter levels, every packet on an end stream) into one
 * PACKED_EMITS record the same way: the agent's cost is mostly the kernel zeroing the mapped file's
 * fresh pages, so the bytes it writes. Per ring, records are
 * appended in the order they were claimed; across rings in the order the agent drains them, so the
 * file is not in {@code nanos} order across workers.
 *
 * <p>Threading: its own thread, under an Agrona {@code AgentRunner} with a
 * {@link PacedIdleStrategy} (it parks between cycles that took little), under Linux's
 * {@code SCHED_BATCH} from {@link #onStart()} while it keeps up, unless the journal turns that off
 * ({@link BatchScheduling}); it owns its Chronicle appender, created in {@link #onStart()} on that
 * thread. The workers' rings are handed over once, by {@link #workerRings} (a volatile write the
 * agent reads each cycle).
 */
final class JournalAgent implements Agent, MessageHandler
{
    /** Records appended per duty cycle at most, so the idle strategy sees the truth about work. */
    private static final int DRAIN_LIMIT = 4096;
    /**
     * A BATCH document's most bytes. Chronicle's per-document work (a header, an index entry
     * every so often, ordered writes) was most of the agent's cost per record; gathering a duty
     * cycle's records into documents of up to this size pays it once per 64 KiB instead.
     */
    private static final int BATCH_CAPACITY = 64 * 1024;
    /** The longest record that is batched; longer ones (a long text) go in a document of their own. */
    private static final int MAX_BATCHED =
        BATCH_CAPACITY - JournalDescriptor.BATCH_RECORDS_OFFSET - 4 - JournalDescriptor.CHECKSUM_LENGTH;

    private static final Logger LOG = LoggerFactory.getLogger(JournalAgent.class);
    /** Whether an agent has logged why it could not take SCHED_BATCH: once a JVM, not once a run. */
    private static final AtomicBoolean POLICY_REPORTED = new AtomicBoolean();

    private final SingleChronicleQueue queue;
    /** The thread's scheduling policy, SCHED_BATCH while it keeps up; null: the default policy throughout. */
    private final BatchScheduling scheduling;
    private final ManyToOneRingBuffer ring;
    private final AtomicLong lost;
    private final JournalWriter writer;
    /** The shared ring's memory, for checksumming a record in place; its position and limit are the agent's. */
    private final ByteBuffer ringBytes;
    private volatile WorkerRing[] handedOver = new WorkerRing[0];
    /** The agent's copies: the workers' rings, and their memory as buffers of its own. */
    private RingBuffer[] rings = new RingBuffer[0];
    private ByteBuffer[] ringsBytes = new ByteBuffer[0];
    /** The memory of the ring being drained. */
    private ByteBuffer currentBytes;
    private final RecordScratch scratch = new RecordScratch();
    /** The BATCH document being gathered (direct memory, so that its checksum is computed in place). */
    private final ByteBuffer batchBytes = ByteBuffer.allocateDirect(BATCH_CAPACITY).order(ByteOrder.LITTLE_ENDIAN);
    private final UnsafeBuffer batch = new UnsafeBuffer(batchBytes);
    /** Bytes of the batch so far (0: empty), and its records. */
    private int batchLength;
    private int batchCount;
    /**
     * The PACKED_INPUTS or PACKED_EMITS record being put together in the batch: where its length is,
     * -1 for none; its kind (GRAPH_INPUT for PACKED_INPUTS, EMIT for PACKED_EMITS); its worker (-1 for
     * inputs); its entries so far; its first record's kind, stream, value kind and node (a record
     * alone is written as itself); the last record's numbers, which the next entry's are
     * differences from.
     */
    private int packedAt = -1;
    private int packedKind;
    private int packedWorker;
    private int packedCount;
    private int firstKind;
    private int firstStream;
    private int firstValueKind;
    private int firstNode;
    private long lastNanos;
    private long lastTimestamp;
    private long lastValue;
    private ExcerptAppender appender;
    private long lostReported;
    /**
     * Duty cycles completed: every record read from a ring in a cycle is in Chronicle's files when
     * it ends. What {@link JournalWriter}'s ordered appends wait for; written with release
     * semantics once a cycle, read by them.
     */
    private final AtomicLong cycles = new AtomicLong();

    JournalAgent(
        final SingleChronicleQueue queue,
        final ManyToOneRingBuffer ring,
        final AtomicLong lost,
        final JournalWriter writer,
        final boolean batchScheduling)
    {
        this.scheduling = batchScheduling ? new BatchScheduling() : null;
        this.queue = queue;
        this.ring = ring;
        this.ringBytes = ring.buffer().byteBuffer().duplicate();
        this.lost = lost;
        this.writer = writer;
    }

    @Override
    public void onStart()
    {
        if (scheduling != null)
        {
            final String notApplied = scheduling.start();
            if (notApplied != null && !POLICY_REPORTED.getAndSet(true))
            {
                LOG.info("journal agents run under the default scheduling policy: {} " +
                    "(JournalConfig.agentBatchScheduling(false) stops them trying)", notApplied);
            }
        }
        appender = queue.createAppender();
    }

    /** The writer, at run start: the workers' rings, to drain from now on. */
    void workerRings(final WorkerRing[] rings)
    {
        handedOver = rings;
    }

    @Override
    public int doWork()
    {
        final WorkerRing[] handedOver = this.handedOver;
        if (handedOver.length != rings.length)
        {
            adopt(handedOver);
        }
        return drain(DRAIN_LIMIT);
    }

    private int drain(final int limit)
    {
        final RingBuffer[] rings = this.rings;
        final ByteBuffer[] ringsBytes = this.ringsBytes;
        if (scheduling != null)
        {
            backlog(rings);
        }
        int work = 0;
        for (int w = 0; w < rings.length; w++)
        {
            currentBytes = ringsBytes[w];
            work += rings[w].read(this, limit);
        }
        currentBytes = ringBytes;
        work += ring.read(this, limit);
        flushBatch();
        cycles.lazySet(cycles.get() + 1); // only this thread writes it
        final long lostNow = lost.get();
        if (lostNow != lostReported)
        {
            appendLost(lostNow);
            work++;
        }
        return work;
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        if (length == JournalDescriptor.FIXED_LENGTH && packable(msgTypeId, buffer, index))
        {
            pack(msgTypeId, buffer, index);
            return;
        }
        closePacked();
        if (length > MAX_BATCHED)
        {
            flushBatch();
            appendAlone(buffer, index, length);
            return;
        }
        int at = batchLength;
        if (at + 4 + length + JournalDescriptor.CHECKSUM_LENGTH > BATCH_CAPACITY)
        {
            flushBatch();
            at = 0;
        }
        if (at == 0)
        {
            // kind, aux 0 and the zero field in one int; the count goes in at the flush
            batch.putInt(0, JournalDescriptor.BATCH, ByteOrder.LITTLE_ENDIAN);
            at = JournalDescriptor.BATCH_RECORDS_OFFSET;
        }
        batch.putInt(at, length, ByteOrder.LITTLE_ENDIAN);
        batch.putBytes(at + 4, buffer, index, length);
        batchLength = at + 4 + length;
        batchCount++;
    }

    /**
     * Whether a fixed-size ring message can be an entry of a packed record: a graph input without a
     * captured payload (no worker, no node); a worker's packet on a stream (an emit not folded
     * into a call: at the lighter levels, every packet on an end stream) or a bound (which a stream
     * gets after most packets when its input queue already holds the next); with the bytes the
     * entries leave out zero.
     */
    private static boolean packable(final int kind, final MutableDirectBuffer buffer, final int index)
    {
        if (buffer.getShort(index + JournalDescriptor.AUX_OFFSET + 1) != 0)
        {
            return false;
        }
        if (kind == JournalDescriptor.GRAPH_INPUT)
        {
            return buffer.getInt(index + JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN) == -1 &&
                buffer.getInt(index + JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN) == -1;
        }
        final int aux = buffer.getByte(index + JournalDescriptor.AUX_OFFSET) & 0xFF;
        return kind == JournalDescriptor.EMIT && aux < JournalDescriptor.PACKED_BOUND ||
            kind == JournalDescriptor.BOUND && aux == 0;
    }

    /**
     * A graph input or an emit: an entry of the PACKED_INPUTS or PACKED_EMITS record being put
     * together, which it starts when there is none or the open one is of another kind or worker.
     */
    private void pack(final int kind, final MutableDirectBuffer buffer, final int index)
    {
        final int worker = buffer.getInt(index + JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int node = buffer.getInt(index + JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int stream = buffer.getInt(index + JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int valueKind = buffer.getByte(index + JournalDescriptor.AUX_OFFSET) & 0xFF;
        final long nanos = buffer.getLong(index + JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long timestamp = buffer.getLong(index + JournalDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long value = buffer.getLong(index + JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int packedAs = kind == JournalDescriptor.GRAPH_INPUT ? kind : JournalDescriptor.EMIT;
        if (packedAt >= 0 && (packedKind != packedAs || packedWorker != worker))
        {
            closePacked();
        }
        if (packedAt >= 0 &&
            batchLength + JournalDescriptor.PACKED_EMIT_MAX_LENGTH + JournalDescriptor.CHECKSUM_LENGTH > BATCH_CAPACITY)
        {
            flushBatch(); // closes the record
        }
        if (packedAt < 0)
        {
            openPacked(packedAs, kind, worker, node, stream, valueKind, nanos, timestamp, value);
        }
        int at = JournalDescriptor.putVarint(batch, batchLength, stream & 0xFFFF_FFFFL);
        if (packedAs == JournalDescriptor.EMIT)
        {
            batch.putByte(at++, (byte)(kind == JournalDescriptor.BOUND ? JournalDescriptor.PACKED_BOUND : valueKind));
            at = JournalDescriptor.putVarint(batch, at, (node + 1) & 0xFFFF_FFFFL);
        }
        else
        {
            batch.putByte(at++, (byte)valueKind);
        }
        at = JournalDescriptor.putVarint(batch, at, JournalDescriptor.zigzag(value - lastValue));
        at = JournalDescriptor.putVarint(batch, at, JournalDescriptor.zigzag(timestamp - lastTimestamp));
        at = JournalDescriptor.putVarint(batch, at, JournalDescriptor.zigzag(nanos - lastNanos));
        batchLength = at;
        packedCount++;
        lastNanos = nanos;
        lastTimestamp = timestamp;
        lastValue = value;
    }

    /**
     * Starts a packed record in the batch, its header's numbers the first record's (its entry's
     * differences are 0): PACKED_INPUTS for graph inputs ({@code packedAs} GRAPH_INPUT), else
     * PACKED_EMITS; {@code kind} is the first record's own.
     */
    private void openPacked(
        final int packedAs, final int kind, final int worker, final int node, final int stream, final int valueKind, final long nanos,
        final long timestamp, final long value)
    {
        int at = batchLength;
        if (at + 4 + JournalDescriptor.FIXED_LENGTH + JournalDescriptor.PACKED_EMIT_MAX_LENGTH +
            JournalDescriptor.CHECKSUM_LENGTH > BATCH_CAPACITY)
        {
            flushBatch();
            at = 0;
        }
        if (at == 0)
        {
            batch.putInt(0, JournalDescriptor.BATCH, ByteOrder.LITTLE_ENDIAN);
            at = JournalDescriptor.BATCH_RECORDS_OFFSET;
        }
        final int packed = packedAs == JournalDescriptor.EMIT ? JournalDescriptor.PACKED_EMITS : JournalDescriptor.PACKED_INPUTS;
        JournalDescriptor.putFixed(batch, at + 4, packed, 0, worker, 0, 0, nanos, timestamp, value);
        packedAt = at;
        packedKind = packedAs;
        firstKind = kind;
        packedWorker = worker;
        packedCount = 0;
        firstStream = stream;
        firstValueKind = valueKind;
        firstNode = node;
        lastNanos = nanos;
        lastTimestamp = timestamp;
        lastValue = value;
        batchLength = at + 4 + JournalDescriptor.FIXED_LENGTH;
        batchCount++;
    }

    /**
     * Ends the packed record being put together, if any: its length and count go in; one of a
     * single packet becomes that packet's GRAPH_INPUT or EMIT record, which is shorter.
     */
    private void closePacked()
    {
        final int at = packedAt;
        if (at < 0)
        {
            return;
        }
        packedAt = -1;
        final int record = at + 4;
        if (packedCount == 1)
        {
            JournalDescriptor.putFixed(batch, record, firstKind, firstValueKind, packedWorker, firstNode,
                firstStream, lastNanos, lastTimestamp, lastValue);
            batchLength = record + JournalDescriptor.FIXED_LENGTH;
        }
        else
        {
            batch.putInt(record + JournalDescriptor.INPUTS_COUNT_OFFSET, packedCount, ByteOrder.LITTLE_ENDIAN);
        }
        batch.putInt(at, batchLength - record, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Appends the records gathered since the last flush: as one BATCH document, or, when there is
     * only one, as that record's own document (so a journal written at a low rate reads as one
     * document per record, as before format 1.4).
     */
    private void flushBatch()
    {
        closePacked();
        final int count = batchCount;
        if (count == 0)
        {
            return;
        }
        final int length = batchLength;
        batchCount = 0;
        batchLength = 0;
        if (count == 1)
        {
            final int recordLength = length - JournalDescriptor.BATCH_RECORDS_OFFSET - 4;
            final int recordAt = JournalDescriptor.BATCH_RECORDS_OFFSET + 4;
            append(batch, batchBytes, recordAt, recordLength,
                JournalDescriptor.checksum(scratch.crc, batchBytes, recordAt, recordLength));
            return;
        }
        batch.putInt(JournalDescriptor.BATCH_COUNT_OFFSET, count, ByteOrder.LITTLE_ENDIAN);
        append(batch, batchBytes, 0, length, JournalDescriptor.checksum(scratch.crc, batchBytes, 0, length));
    }

    /** A record too long to batch: its own document, checksummed in the ring. */
    private void appendAlone(final MutableDirectBuffer buffer, final int index, final int length)
    {
        append(buffer, currentBytes, index, length, JournalDescriptor.checksum(scratch.crc, currentBytes, index, length));
    }

    /** One document: {@code length} bytes of direct memory at {@code index}, then {@code checksum}. */
    private void append(
        final DirectBuffer buffer, final ByteBuffer bytesOfBuffer, final int index, final int length, final int checksum)
    {
        final DocumentContext dc = appender.writingDocument();
        try
        {
            // direct memory: copy the bytes straight into the mapped file
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.unsafeWrite(buffer.addressOffset() + index, length);
            bytes.writeInt(checksum);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            writer.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /**
     * How full the rings are at a cycle's start, for the scheduling policy: behind when one is more
     * than half full, caught up when all are under an eighth (see {@link BatchScheduling#cycle}).
     */
    private void backlog(final RingBuffer[] rings)
    {
        final int shared = ring.size();
        boolean behind = shared > ring.capacity() / 2;
        boolean caughtUp = shared < ring.capacity() / 8;
        for (final RingBuffer r : rings)
        {
            final int size = r.size();
            behind |= size > r.capacity() / 2;
            caughtUp &= size < r.capacity() / 8;
        }
        scheduling.cycle(behind, caughtUp);
    }

    private void adopt(final WorkerRing[] handedOver)
    {
        final RingBuffer[] rings = new RingBuffer[handedOver.length];
        final ByteBuffer[] ringsBytes = new ByteBuffer[handedOver.length];
        for (int w = 0; w < rings.length; w++)
        {
            rings[w] = handedOver[w].ring;
            ringsBytes[w] = rings[w].buffer().byteBuffer().duplicate();
        }
        this.rings = rings;
        this.ringsBytes = ringsBytes;
    }

    private void appendLost(final long lostNow)
    {
        final DocumentContext dc = appender.writingDocument();
        try
        {
            scratch.appendFixed(dc.wire().bytes(), JournalDescriptor.LOST, 0, -1, -1, -1, System.nanoTime(),
                Long.MIN_VALUE, lostNow - lostReported);
            lostReported = lostNow;
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            writer.onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /**
     * Any thread: the duty cycles completed. A record read from a ring before a cycle that is
     * counted here was in Chronicle's files when the cycle ended.
     *
     * @return the count.
     */
    long cycles()
    {
        return cycles.get();
    }

    /** Drains what is left, so that closing loses nothing that was given before. */
    @Override
    public void onClose()
    {
        if (appender == null)
        {
            return;
        }
        try
        {
            adopt(handedOver);
            while (drain(Integer.MAX_VALUE) > 0)
            {
                // until empty
            }
            if (lost.get() != lostReported)
            {
                appendLost(lost.get());
            }
        }
        finally
        {
            appender.close();
        }
    }

    @Override
    public String roleName()
    {
        return "framewire-journal";
    }
}
