package dev.framewire.journal;

import net.openhft.chronicle.queue.RollCycle;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a run's {@code .cq4} files in order, document by document ({@link JournalScanner}), and
 * hands each record to its decoder: it opens the documents that hold many records (BATCH, then the
 * packing records of calls and packets, through an {@link EntrySink}), gives every record its
 * number, and places each damage at its file, byte offset, Chronicle index and record number. A
 * record whose fields make no sense takes its number and is reported; the walk goes on with the
 * next. One per read.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RecordWalk implements JournalScanner.Visitor, EntrySink
{
    /** The run as read: its version and names. */
    final RunNames names;
    /** The records read, the run end, the records lost and the notes. */
    final RecordDecoder decoder;
    /** Where the files are damaged, in file order. */
    final List<JournalDamage> damage = new ArrayList<>();
    /** Whether the last record of the last file was being appended when the writer stopped. */
    boolean endsIncomplete;

    private final Path run;
    private final CallRecordsDecoder calls;
    private final PackedInputsDecoder packedInputs;
    /** A view of one record of a BATCH document. */
    private final UnsafeBuffer batched = new UnsafeBuffer(0, 0);
    /** Records numbered so far: decoded, or skipped as damaged. */
    private long count;
    /** The file being walked, and its roll cycle (null, and -1, when its name does not say). */
    private Path file;
    private RollCycle rollCycle;
    private int cycle;
    /** The Chronicle header's offset and sequence number of the document being read. */
    private long position;
    private long sequence;

    private RecordWalk(
        final Path run,
        final RunNames names,
        final RecordDecoder decoder,
        final CallRecordsDecoder calls,
        final PackedInputsDecoder packedInputs)
    {
        this.run = run;
        this.names = names;
        this.decoder = decoder;
        this.calls = calls;
        this.packedInputs = packedInputs;
    }

    /**
     * A walk of a run's journal, with its decoders.
     *
     * @param run the run directory, for the messages.
     * @return the walk, before any file.
     */
    static RecordWalk of(final Path run)
    {
        final RunNames names = new RunNames();
        final RecordFields fields = new RecordFields();
        final List<JournalRecord> records = new ArrayList<>();
        final CallRecordsDecoder calls = new CallRecordsDecoder(names, fields, records);
        final RecordDecoder decoder = new RecordDecoder(records, names, fields, new RunStartDecoder(run, names, fields),
            new SubgraphRecordsDecoder(names, fields), calls);
        return new RecordWalk(run, names, decoder, calls, new PackedInputsDecoder());
    }

    /**
     * Reads the run's files, in order, and its metadata file's length.
     *
     * @param files the run's {@code .cq4} files, at least one.
     * @throws IOException if the first file's format cannot be told.
     * @throws RefusedJournal if it is not a journal of this major version.
     */
    void walk(final List<Path> files) throws IOException
    {
        final String metadataDamage = metadataDamage(run);
        if (metadataDamage != null)
        {
            damage.add(new JournalDamage(JournalDamage.Kind.METADATA, run.resolve(JournalFiles.METADATA), -1, -1, -1, 0,
                false, metadataDamage));
        }
        final boolean checksummed = JournalScanner.checksummed(files.get(0));
        for (int f = 0; f < files.size(); f++)
        {
            final Path next = files.get(f);
            file(next);
            try (JournalScanner scanner = new JournalScanner(next, checksummed))
            {
                final JournalScanner.End end = scanner.walk(this);
                if (f == files.size() - 1)
                {
                    endsIncomplete = end == JournalScanner.End.INCOMPLETE;
                }
            }
            catch (final IOException ex)
            {
                damage.add(new JournalDamage(JournalDamage.Kind.UNREADABLE, next, -1, -1, -1, count, false,
                    "cannot read the file: " + ex));
            }
        }
        decoder.finish(endsIncomplete);
    }

    /** Chronicle maps its metadata file too: a short one would fault. Its files are whole pages. */
    private static String metadataDamage(final Path run)
    {
        try
        {
            final long length = Files.size(run.resolve(JournalFiles.METADATA));
            if (length < 4096 || length % 4096 != 0)
            {
                return JournalFiles.METADATA + " is " + length + " bytes, not the whole pages Chronicle writes: it " +
                    "was truncated";
            }
            return null;
        }
        catch (final IOException ex)
        {
            return "cannot read " + JournalFiles.METADATA + ": " + ex;
        }
    }

    private void file(final Path next)
    {
        file = next;
        rollCycle = JournalFiles.rollCycleOf(next);
        cycle = rollCycle == null ? -1 : JournalFiles.cycleOf(next, rollCycle);
    }

    /** Chronicle's index of a sequence number in the file being walked, -1 when unknown. */
    private long index(final long sequence)
    {
        return sequence < 0 || cycle < 0 ? -1 : rollCycle.toIndex(cycle, sequence);
    }

    @Override
    public void record(final DirectBuffer body, final int length, final long position, final long sequence)
    {
        this.position = position;
        this.sequence = sequence;
        if (length > 0 && (body.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF) == JournalDescriptor.BATCH &&
            names.minor >= JournalDescriptor.BATCH_MINOR)
        {
            batch(body, length);
            return;
        }
        packedOrOne(body, length);
    }

    /**
     * A record on its own or in a batch: a CALLS, PACKED_CALLS or DENSE_CALLS record's calls, a
     * PACKED_INPUTS or PACKED_EMITS record's packets, or any other record.
     */
    private void packedOrOne(final DirectBuffer body, final int length)
    {
        final int kind = length > 0 ? body.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF : -1;
        final int minor = names.minor;
        if (kind == JournalDescriptor.PACKED_INPUTS && minor >= JournalDescriptor.PACKED_INPUTS_MINOR)
        {
            packedInputs.unpack(body, length, false, this);
        }
        else if (kind == JournalDescriptor.PACKED_EMITS && minor >= JournalDescriptor.PACKED_EMITS_MINOR)
        {
            packedInputs.unpack(body, length, true, this);
        }
        else if (kind == JournalDescriptor.DENSE_CALLS && minor >= JournalDescriptor.DENSE_CALLS_MINOR)
        {
            calls.packedCalls(body, length, true, this);
        }
        else if (kind == JournalDescriptor.PACKED_CALLS && minor >= JournalDescriptor.PACKED_CALLS_MINOR)
        {
            calls.packedCalls(body, length, false, this);
        }
        else if (kind == JournalDescriptor.CALLS && minor >= JournalDescriptor.CALLS_MINOR)
        {
            calls.calls(body, length, this);
        }
        else
        {
            one(body, length);
        }
    }

    /**
     * The records of a BATCH document, each with a number of its own. Its checksum held, so a
     * length that does not fit is the writer's fault, not the disk's: reported, and the rest
     * of the document is skipped.
     */
    private void batch(final DirectBuffer body, final int length)
    {
        final int count = length >= JournalDescriptor.BATCH_RECORDS_OFFSET ?
            body.getInt(JournalDescriptor.BATCH_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
        int at = JournalDescriptor.BATCH_RECORDS_OFFSET;
        for (int i = 0; i < count; i++)
        {
            final int recordLength = at + 4 <= length ? body.getInt(at, ByteOrder.LITTLE_ENDIAN) : -1;
            if (recordLength < 0 || recordLength > length - at - 4)
            {
                skip(count < 0 ? 1 : count - i, "record " + (i + 1) + " of a batch of " + count + " at byte " + at +
                    " of the document claims " + recordLength + " bytes, but the " + length + "-byte document has " +
                    (length - at - 4) + " left");
                return;
            }
            batched.wrap(body, at + 4, recordLength);
            packedOrOne(batched, recordLength);
            at += 4 + recordLength;
        }
        if (count < 0 || at != length)
        {
            skip(1, count < 0 ? "a batch of " + length + " bytes, too short for its count" :
                "a batch of " + count + " records ends at byte " + at + " of its " + length + "-byte document");
        }
    }

    /** One record, numbered; one whose fields make no sense is reported and skipped. */
    @Override
    public void one(final DirectBuffer body, final int length)
    {
        final long number = count;
        try
        {
            decoder.decode(body, length, number);
        }
        catch (final CorruptRecord ex)
        {
            damage.add(new JournalDamage(ex.kind, file, position, -1, index(sequence), number, true,
                ex.getMessage() + "; it is skipped"));
        }
        count = number + 1;
    }

    /**
     * Call {@code i} of the {@code count} in a CALLS (1.6), PACKED_CALLS (1.7) or DENSE_CALLS
     * (1.9) record, with a record number of its own; one whose fields make no sense is reported
     * and skipped, and the others are read.
     */
    @Override
    public void call(final String what, final int i, final int count)
    {
        final long number = this.count;
        try
        {
            calls.addStaged(number, what);
        }
        catch (final CorruptRecord ex)
        {
            damage.add(new JournalDamage(ex.kind, file, position, -1, index(sequence), number, true,
                "call " + (i + 1) + " of " + count + " in a " + what + " record: " + ex.getMessage() +
                "; it is skipped"));
        }
        this.count = number + 1;
    }

    @Override
    public void skip(final long skipped, final String what)
    {
        damage.add(new JournalDamage(JournalDamage.Kind.CORRUPT_RECORD, file, position, -1, index(sequence),
            count, skipped == 1, what + "; the rest of it is skipped"));
        count += skipped;
    }

    @Override
    public void damage(
        final JournalDamage.Kind kind,
        final long position,
        final long length,
        final long sequence,
        final boolean oneRecord,
        final boolean skipped,
        final String description)
    {
        damage.add(new JournalDamage(kind, file, position, length, index(sequence), count, oneRecord, description));
        if (skipped)
        {
            count++;
        }
    }
}
