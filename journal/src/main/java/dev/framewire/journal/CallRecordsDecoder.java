package dev.framewire.journal;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * Decodes the records of calls an ASYNC writer folds together: CALL (1.2: one call), CALLS (1.6),
 * PACKED_CALLS (1.7) and DENSE_CALLS (1.9: many calls of a worker), each call given as the
 * PROCESS_BEGIN, the EMIT folded in (if any) and the PROCESS_END it stands for, exactly as the
 * writer would have written them one by one. A packing record is read through once to check that
 * its entries fill it exactly; then each call is staged here and handed to an {@link EntrySink},
 * which numbers it and has {@link #addStaged} give it. Allocates nothing but the records.
 *
 * <p>Threading: confined to the reading thread.
 */
final class CallRecordsDecoder
{
    private final RunNames names;
    private final RecordFields fields;
    private final List<JournalRecord> records;
    /** The reader of PACKED_CALLS and DENSE_CALLS entries. */
    private final CallEntryCursor packed = new CallEntryCursor();
    /** The call staged: its fields. */
    private int worker;
    private int node;
    private int stream;
    private int valueKind;
    private long value;
    private long timestamp;
    private long beginNanos;
    private long endNanos;

    CallRecordsDecoder(final RunNames names, final RecordFields fields, final List<JournalRecord> records)
    {
        this.names = names;
        this.fields = fields;
        this.records = records;
    }

    /**
     * A CALL record (1.2, ASYNC), whose fixed fields the fields cursor has read: the PROCESS_BEGIN,
     * the EMIT folded in (if any) and the PROCESS_END it stands for, each with the CALL's record
     * number (the EMIT with the call's begin nanos).
     */
    void call(final long index)
    {
        final RecordFields f = fields;
        f.kind(JournalRecord.Kind.PROCESS_BEGIN); // for the messages of the checks
        final long end = f.getLong("end nanos");
        if (f.position() != f.limit() && names.minor <= JournalDescriptor.FORMAT_MINOR)
        {
            throw new CorruptRecord("the record (CALL) is " + f.limit() + " bytes, but its fields end at " +
                f.position());
        }
        stage(f.worker, f.node, f.stream, f.aux, f.value, f.timestamp, f.nanos, end);
        addStaged(index, "CALL");
    }

    private void stage(
        final int worker,
        final int node,
        final int stream,
        final int valueKind,
        final long value,
        final long timestamp,
        final long beginNanos,
        final long endNanos)
    {
        this.worker = worker;
        this.node = node;
        this.stream = stream;
        this.valueKind = valueKind;
        this.value = value;
        this.timestamp = timestamp;
        this.beginNanos = beginNanos;
        this.endNanos = endNanos;
    }

    /**
     * The staged call as record number {@code index}: its PROCESS_BEGIN, the EMIT folded in (if
     * any) and its PROCESS_END.
     *
     * @param what the kind of record it came in, for the messages.
     * @throws CorruptRecord if its fields make no sense.
     */
    void addStaged(final long index, final String what)
    {
        if (stream < 0 && (valueKind != 0 || value != 0))
        {
            throw new CorruptRecord("the record (" + what + ") has a value but no stream for it");
        }
        if (valueKind > JournalRecord.VALUE_PAYLOAD)
        {
            throw new CorruptRecord("the record (" + what + ") has value kind " + valueKind +
                ", which an emitted packet cannot have");
        }
        names.checkIds(JournalRecord.Kind.PROCESS_BEGIN, worker, node, stream);
        final String workerName = names.workerName(worker);
        final String nodeName = names.nodeName(node);
        records.add(new JournalRecord(index, JournalRecord.Kind.PROCESS_BEGIN, beginNanos, worker, node, -1, timestamp,
            0, 0, null, null, workerName, nodeName, null));
        if (stream >= 0)
        {
            records.add(new JournalRecord(index, JournalRecord.Kind.EMIT, beginNanos, worker, node, stream, timestamp,
                valueKind, value, null, null, workerName, nodeName, names.streamName(stream)));
        }
        records.add(new JournalRecord(index, JournalRecord.Kind.PROCESS_END, endNanos, worker, node, -1, timestamp,
            0, 0, null, null, workerName, nodeName, null));
    }

    /**
     * The entries of a PACKED_CALLS or DENSE_CALLS ({@code dense}) record, as {@link #calls}:
     * read through once to check that its count of entries fills it exactly and that a dense
     * entry's flags hold (its checksum held, so one that does not is the writer's fault:
     * reported, and the record skipped), then given one by one.
     */
    void packedCalls(final DirectBuffer body, final int length, final boolean dense, final EntrySink sink)
    {
        final String kind = dense ? "DENSE_CALLS" : "PACKED_CALLS";
        final int count = length >= JournalDescriptor.PACKED_ENTRIES_OFFSET ?
            body.getInt(JournalDescriptor.CALLS_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
        final CallEntryCursor entries = packed;
        int read = 0;
        if (count >= 1)
        {
            entries.reset(body, length, dense);
            while (read < count && entries.next())
            {
                read++;
            }
        }
        if (count < 1 || read != count || entries.position != length)
        {
            sink.skip(1, "a " + kind + " record of " + length + " bytes claims " + count +
                " calls, " + (count < 1 ? "but a record holds at least one" :
                entries.fault != null ? "but its entry " + (read + 1) + " " + entries.fault : read < count ?
                "but its entries run past its end after " + read : "but they end at byte " + entries.position));
            return;
        }
        final int recordWorker = body.getInt(JournalDescriptor.CALLS_WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
        entries.reset(body, length, dense);
        entries.next();
        for (int i = 0; i < count; i++)
        {
            final int entryNode = entries.node;
            final int entryStream = entries.stream;
            final int entryValueKind = entries.valueKind;
            final long entryValue = entries.value;
            final long entryTimestamp = entries.timestamp;
            final long begin = entries.beginNanos;
            final long end = i + 1 < count && entries.next() ? entries.beginNanos :
                body.getLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            stage(recordWorker, entryNode, entryStream, entryValueKind, entryValue, entryTimestamp, begin, end);
            sink.call(kind, i, count);
        }
    }

    /**
     * The entries of a CALLS record, each with a number of its own, each call ending where the
     * next one begins, the last at the record's end nanos. Its checksum held, so a length that
     * does not fit its count is the writer's fault, not the disk's: reported, and the record
     * skipped.
     */
    void calls(final DirectBuffer body, final int length, final EntrySink sink)
    {
        final int count = length >= JournalDescriptor.CALLS_ENTRIES_OFFSET ?
            body.getInt(JournalDescriptor.CALLS_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
        if (count < 1 || length != JournalDescriptor.CALLS_ENTRIES_OFFSET +
            (long)count * JournalDescriptor.CALLS_ENTRY_LENGTH)
        {
            sink.skip(1, "a CALLS record of " + length + " bytes claims " + count +
                " calls of " + JournalDescriptor.CALLS_ENTRY_LENGTH + " bytes after its " +
                JournalDescriptor.CALLS_ENTRIES_OFFSET + "-byte header");
            return;
        }
        final int recordWorker = body.getInt(JournalDescriptor.CALLS_WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            final int at = JournalDescriptor.CALLS_ENTRIES_OFFSET + i * JournalDescriptor.CALLS_ENTRY_LENGTH;
            final long end = i + 1 < count ?
                body.getLong(at + JournalDescriptor.CALLS_ENTRY_LENGTH + JournalDescriptor.ENTRY_BEGIN_NANOS_OFFSET,
                    ByteOrder.LITTLE_ENDIAN) :
                body.getLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int nodeAndKind = body.getInt(at + JournalDescriptor.ENTRY_NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            stage(recordWorker, nodeAndKind & JournalDescriptor.ENTRY_MAX_NODE,
                body.getInt(at + JournalDescriptor.ENTRY_STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN), nodeAndKind >>> 24,
                body.getLong(at + JournalDescriptor.ENTRY_VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN),
                body.getLong(at + JournalDescriptor.ENTRY_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN),
                body.getLong(at + JournalDescriptor.ENTRY_BEGIN_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN), end);
            sink.call("CALLS", i, count);
        }
    }
}
