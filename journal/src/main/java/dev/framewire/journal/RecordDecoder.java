package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;

/**
 * Turns one record's bytes (without its checksum) into {@link JournalRecord}s with the run's names
 * resolved: the fixed fields every record has, then the fields of its kind, each family by its own
 * decoder ({@link RunStartDecoder}, {@link SubgraphRecordsDecoder}, {@link CallRecordsDecoder}).
 * Checks the kind against the journal's format version: a newer minor version's kind is skipped
 * and counted for {@link #notes}, a kind the format does not have is damage. Keeps the run end and
 * the records an ASYNC writer lost. One per read.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RecordDecoder
{
    /** Every record decoded, in file order. */
    final List<JournalRecord> records;
    /** What the read skipped or noticed without failing, once {@link #finish} was called. */
    final List<String> notes = new ArrayList<>();
    JournalRecord runEnd;
    /** Records an ASYNC writer lost to a full ring, from the LOST records. */
    long lost;

    private final RunNames names;
    private final RecordFields fields;
    private final RunStartDecoder runStart;
    private final SubgraphRecordsDecoder subgraphs;
    private final CallRecordsDecoder calls;
    /** Records of kinds a newer minor version has, skipped. */
    private long skipped;

    RecordDecoder(
        final List<JournalRecord> records,
        final RunNames names,
        final RecordFields fields,
        final RunStartDecoder runStart,
        final SubgraphRecordsDecoder subgraphs,
        final CallRecordsDecoder calls)
    {
        this.records = records;
        this.names = names;
        this.fields = fields;
        this.runStart = runStart;
        this.subgraphs = subgraphs;
        this.calls = calls;
    }

    /**
     * Decodes one record's bytes (without its checksum) as record number {@code index}.
     *
     * @throws CorruptRecord when its fields make no sense (then the caller reports it).
     * @throws RefusedJournal when the first record is not a Framewire journal header of this major version.
     */
    void decode(final DirectBuffer buffer, final int length, final long index)
    {
        fields.wrap(buffer, length);
        final int code = length > 0 ? buffer.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF : 0;
        if (index == 0 && !names.headerSeen)
        {
            records.add(runStart.header(code, buffer, length));
            return;
        }
        if (length < FIXED_LENGTH)
        {
            throw new CorruptRecord("the record is " + length + " bytes, shorter than the " + FIXED_LENGTH +
                " every record has");
        }
        fields.readFixed();
        if (code == JournalDescriptor.CALL && names.minor >= JournalDescriptor.CALL_MINOR)
        {
            calls.call(index);
            return;
        }
        final JournalRecord.Kind kind = kindOf(code);
        if (kind == null)
        {
            skipped++; // a newer minor version's record kind
            return;
        }
        fields.kind(kind);
        if (kind == JournalRecord.Kind.SUBGRAPH_ADDED || kind == JournalRecord.Kind.SUBGRAPH_REMOVED ||
            kind == JournalRecord.Kind.SUBGRAPH_LEFT)
        {
            subgraph(index, kind);
        }
        else if (kind == JournalRecord.Kind.RUN_START)
        {
            runStart.runStart(fields.node, fields.stream, fields.value);
            checkEnd(kind);
            records.add(new JournalRecord(index, kind, fields.nanos, -1, names.nodes.length, names.streams.length,
                Timestamp.UNSET, 0, fields.value, names.configText, null, JournalReader.CALLER, null, null));
        }
        else
        {
            one(index, kind);
        }
    }

    /** A SUBGRAPH_ADDED, SUBGRAPH_REMOVED or SUBGRAPH_LEFT record: an added one gives the run its names. */
    private void subgraph(final long index, final JournalRecord.Kind kind)
    {
        final RecordFields f = fields;
        final JournalSubgraph subgraph = kind == JournalRecord.Kind.SUBGRAPH_ADDED ? subgraphs.added(f.node, f.stream) :
            kind == JournalRecord.Kind.SUBGRAPH_REMOVED ? subgraphs.removed(f.value) : subgraphs.left(f.aux, f.value);
        checkEnd(kind);
        if (kind == JournalRecord.Kind.SUBGRAPH_ADDED)
        {
            subgraphs.learn(subgraph);
        }
        records.add(new JournalRecord(index, kind, f.nanos, f.node, f.stream, f.aux, f.value, subgraph));
    }

    /** A record of the other kinds: its text or captured payload, if its kind has one, and its ids checked. */
    private void one(final long index, final JournalRecord.Kind kind)
    {
        final RecordFields f = fields;
        String text = null;
        byte[] payload = null;
        PayloadShape shape = null;
        if (kind == JournalRecord.Kind.CAPTURED)
        {
            shape = new PayloadShape(f.getInt("frame width"), f.getInt("frame height"), f.getInt("frame stride"),
                f.text("pixel format"));
            payload = f.capturedBytes(f.value);
        }
        else if (kind == JournalRecord.Kind.ERROR || kind == JournalRecord.Kind.NOTE ||
            kind == JournalRecord.Kind.RUN_END)
        {
            text = f.text("text");
        }
        else if (kind == JournalRecord.Kind.GRAPH_INPUT && f.aux == JournalRecord.VALUE_CAPTURED)
        {
            payload = f.capturedBytes(f.value);
        }
        checkEnd(kind);
        final int worker = f.worker;
        final int node = f.node;
        final int stream = f.stream;
        names.checkIds(kind, worker, node, stream);
        final JournalRecord record = new JournalRecord(index, kind, f.nanos, worker, node, stream, f.timestamp, f.aux,
            f.value, text, payload, names.workerName(worker), names.nodeName(node), names.streamName(stream), shape);
        records.add(record);
        if (kind == JournalRecord.Kind.RUN_END)
        {
            runEnd = record;
        }
        else if (kind == JournalRecord.Kind.LOST)
        {
            lost += f.value;
        }
    }

    /** A record of this reader's version or older ends where its fields do; a newer one may have more. */
    private void checkEnd(final JournalRecord.Kind kind)
    {
        if (fields.position() != fields.limit() && names.minor <= JournalDescriptor.FORMAT_MINOR)
        {
            throw new CorruptRecord("the record (" + kind + ") is " + fields.limit() + " bytes, but its fields end at " +
                fields.position());
        }
    }

    /**
     * A record's kind from its code, checking the journal's format has that kind.
     *
     * @return null for a kind a newer minor version has (the record is skipped).
     * @throws CorruptRecord for a kind the format does not have, or a second HEADER.
     */
    private JournalRecord.Kind kindOf(final int code)
    {
        JournalRecord.Kind kind = JournalRecord.Kind.ofCode(code);
        final int minor = names.minor;
        if (kind == JournalRecord.Kind.NOTE && minor < JournalDescriptor.NOTE_MINOR)
        {
            kind = null; // damage in a journal older than NOTE
        }
        if ((kind == JournalRecord.Kind.SUBGRAPH_ADDED || kind == JournalRecord.Kind.SUBGRAPH_REMOVED ||
            kind == JournalRecord.Kind.SUBGRAPH_LEFT) && minor < JournalDescriptor.SUBGRAPH_MINOR)
        {
            kind = null; // damage in a journal older than the subgraph records
        }
        if (kind == JournalRecord.Kind.CAPTURED && minor < JournalDescriptor.CAPTURED_MINOR)
        {
            kind = null; // damage in a journal older than captures at emit
        }
        if (kind == null || kind == JournalRecord.Kind.HEADER)
        {
            if (minor > JournalDescriptor.FORMAT_MINOR && kind == null)
            {
                return null;
            }
            throw new CorruptRecord(JournalDamage.Kind.UNKNOWN_KIND, kind == null ? "the record has kind " + code +
                ", which format " + names.version() + " does not have" : "a second HEADER record");
        }
        return kind;
    }

    /**
     * Adds the notes on what was skipped or left unread.
     *
     * @param endsIncomplete whether the last record was being appended when the writer stopped.
     */
    void finish(final boolean endsIncomplete)
    {
        if (skipped > 0)
        {
            notes.add("skipped " + skipped + " records of kinds format " + names.major + "." + names.minor + " has " +
                "and this reader (format " + JournalDescriptor.FORMAT_MAJOR + "." + JournalDescriptor.FORMAT_MINOR +
                ") does not");
        }
        if (endsIncomplete)
        {
            notes.add("the last record was being appended when the writer stopped; it is not readable");
        }
    }
}
