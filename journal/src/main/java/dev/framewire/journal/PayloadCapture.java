package dev.framewire.journal;

import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Payload capture of a run ({@code JournalConfig.captureStreams}): the limit on captured bytes
 * ({@code JournalConfig.captureLimit}), shared by graph inputs and node outputs, and the capture of
 * payloads emitted on capture streams (a source's frames, so that a replay can feed them in place
 * of the source) as {@link JournalRecord.Kind#CAPTURED} records:
 *
 * <pre>
 *   0 .. 40  the fixed part: kind 22, aux VALUE_CAPTURED, worker, node, stream, nanos, timestamp,
 *            value = the payload's XXH64 ({@link PayloadChecksum})
 *   40       width (int), height (int), stride (int): 0 for a blob
 *   52       pixel format's name (text: int length + UTF-8; empty for a blob)
 *   ..       the payload's bytes (int length + bytes)
 *   n - 4    CRC32C of bytes 0 .. n - 4
 * </pre>
 *
 * A captured emit is written on the emitting thread, in both modes, straight into Chronicle
 * (a frame does not fit the ASYNC rings), beside the packet's {@code EMIT} record, which is
 * journaled as for any stream: the two meet by stream and timestamp. Once a payload would go past
 * the limit, capture stops for the rest of the run: a {@code NOTE} ({@link #STOPPED}) says where,
 * and the run goes on.
 *
 * <p>Threading: {@link #take} and the workers' journals' emits from any thread; the limit's
 * count is atomic; each thread builds its records in its own scratch (allocation-free once it has
 * held the largest frame; the note that capture stopped allocates, once a run).
 */
final class PayloadCapture
{
    /** How the note that capture stopped begins. */
    static final String STOPPED = "payload capture stopped at its limit";

    private static final byte[] NO_FORMAT = new byte[0];
    private static final byte[][] FORMAT_NAMES = new byte[PixelFormat.values().length][];

    static
    {
        for (final PixelFormat format : PixelFormat.values())
        {
            FORMAT_NAMES[format.ordinal()] = format.name().getBytes(StandardCharsets.UTF_8);
        }
    }

    private final JournalWriter writer;
    private final long limit;
    private final long maxRecordBytes;
    private final AtomicLong taken = new AtomicLong();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

    /** A thread's room to put a record together, and its CRC: made once per thread, grown to the largest frame. */
    private static final class Scratch
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(64 * 1024);
        final CRC32C crc = new CRC32C();
    }

    /**
     * @param writer         the run's writer.
     * @param limit          the most bytes the run captures.
     * @param maxRecordBytes the largest payload one Chronicle document holds.
     */
    PayloadCapture(final JournalWriter writer, final long limit, final long maxRecordBytes)
    {
        this.writer = writer;
        this.limit = limit;
        this.maxRecordBytes = maxRecordBytes;
    }

    /**
     * Counts a payload against the limit: false once capture has stopped, or when this payload
     * would go past the limit (it then stops, with a note).
     *
     * @param length    the payload's bytes.
     * @param workerId  the thread's worker, -1 if none.
     * @param nodeId    the emitting node, -1 for a graph input.
     * @param timestamp the packet's timestamp.
     * @return whether to capture it.
     */
    boolean take(final int length, final int workerId, final int nodeId, final long timestamp)
    {
        if (stopped.get())
        {
            return false;
        }
        final long after = taken.addAndGet(length);
        if (after <= limit)
        {
            return true;
        }
        if (!stopped.getAndSet(true))
        {
            writer.note(workerId, nodeId, timestamp, limit, STOPPED + " of " + limit + " bytes (captureLimit, " +
                "--capture-limit): the payload of " + length + " bytes at timestamp " + timestamp + " and every one " +
                "after it were not captured (journaled by length or checksum only); the run went on");
        }
        return false;
    }

    /**
     * A worker's journal that also captures the payloads it emits on capture streams.
     *
     * @param inner    the worker's journal.
     * @param workerId the worker.
     * @return the journal to hand the worker.
     */
    WorkerJournal wrap(final WorkerJournal inner, final int workerId)
    {
        return new Capturing(this, inner, workerId);
    }

    /**
     * The streams whose packets a lighter level journals: the end streams, and the captured ones,
     * whose every packet a replay feeds (a source's {@code long}s as well as its frames).
     *
     * @param endStreams by stream id, whether no node takes it.
     * @param capture    by stream id, whether it is captured.
     * @return by stream id, whether its packets are journaled.
     */
    static boolean[] kept(final boolean[] endStreams, final boolean[] capture)
    {
        final boolean[] kept = endStreams.clone();
        for (int s = 0; s < kept.length && s < capture.length; s++)
        {
            kept[s] |= capture[s];
        }
        return kept;
    }

    /**
     * The worker's journal behind the capture, if {@link #wrap} made it.
     *
     * @param journal a worker's journal.
     * @return the one it wraps, or itself.
     */
    static WorkerJournal unwrap(final WorkerJournal journal)
    {
        return journal instanceof Capturing ? ((Capturing)journal).inner : journal;
    }

    /** Captures an emitted payload if its stream is captured and the limit allows. */
    void emitted(final int workerId, final int nodeId, final int streamId, final long timestamp, final Payload payload)
    {
        final int length = payload.length();
        if (writer.isClosed() || !writer.captures(streamId) || length > maxRecordBytes ||
            !take(length, workerId, nodeId, timestamp))
        {
            return;
        }
        final Scratch own = scratch.get();
        final ExpandableArrayBuffer b = own.buffer;
        final byte[] format = payload.isFrame() ? FORMAT_NAMES[payload.format().ordinal()] : NO_FORMAT;
        final int end = JournalDescriptor.FIXED_LENGTH + 12 + 4 + format.length + 4 + length;
        b.checkLimit(end + JournalDescriptor.CHECKSUM_LENGTH);
        JournalDescriptor.putFixed(b, 0, JournalDescriptor.CAPTURED, JournalRecord.VALUE_CAPTURED, workerId, nodeId,
            streamId, System.nanoTime(), timestamp, PayloadChecksum.of(payload.buffer(), 0, length));
        int pos = JournalDescriptor.FIXED_LENGTH;
        b.putInt(pos, payload.width(), ByteOrder.LITTLE_ENDIAN);
        b.putInt(pos + 4, payload.height(), ByteOrder.LITTLE_ENDIAN);
        b.putInt(pos + 8, payload.stride(), ByteOrder.LITTLE_ENDIAN);
        b.putInt(pos + 12, format.length, ByteOrder.LITTLE_ENDIAN);
        pos += 16;
        b.putBytes(pos, format);
        pos += format.length;
        b.putInt(pos, length, ByteOrder.LITTLE_ENDIAN);
        pos += 4;
        payload.buffer().getBytes(0, b, pos, length);
        own.crc.reset();
        own.crc.update(b.byteArray(), 0, end);
        final int checksum = (int)own.crc.getValue();
        b.putInt(end, checksum, ByteOrder.LITTLE_ENDIAN);
        final DocumentContext dc = writer.appender(workerId).writingDocument();
        try
        {
            dc.wire().bytes().write(b.byteArray(), 0, end + JournalDescriptor.CHECKSUM_LENGTH);
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

    /** A worker's journal with capture at emit; everything else passes through. */
    private static final class Capturing extends WorkerJournal
    {
        private final PayloadCapture capture;
        private final WorkerJournal inner;

        Capturing(final PayloadCapture capture, final WorkerJournal inner, final int workerId)
        {
            super(capture.writer, workerId);
            this.capture = capture;
            this.inner = inner;
        }

        @Override
        public void processBegin(final int nodeId, final long inputTimestamp)
        {
            inner.processBegin(nodeId, inputTimestamp);
        }

        @Override
        public void processBeginSameWorker(final int nodeId, final long inputTimestamp)
        {
            inner.processBeginSameWorker(nodeId, inputTimestamp);
        }

        @Override
        public boolean reusesReadings()
        {
            return inner.reusesReadings();
        }

        @Override
        public void emit(final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
        {
            if (value instanceof Payload)
            {
                capture.emitted(workerId(), nodeId, streamId, timestamp, (Payload)value);
            }
            inner.emit(nodeId, streamId, timestamp, value, word);
        }

        @Override
        public void processEnd(final int nodeId, final long inputTimestamp)
        {
            inner.processEnd(nodeId, inputTimestamp);
        }

        @Override
        public void idle()
        {
            inner.idle();
        }
    }
}
