package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import net.openhft.chronicle.queue.RollCycle;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;

/**
 * Reads a run's journal into {@link JournalRecord}s, names resolved from its run start.
 *
 * <pre>{@code
 * JournalReader journal = JournalReader.read(writer.runDirectory());
 * for (JournalRecord r : journal.records()) {
 *     System.out.println(r);
 * }
 * System.out.println(Postmortem.of(journal).verdict());
 * }</pre>
 *
 * <p>The {@code .cq4} files are read with plain reads, never mapped ({@link JournalScanner}: a
 * mapped read past the end of a cut file would fault). Since format 1.1 every record ends with its
 * CRC32C, so the reader tells a damaged record from an intact one: a record failing its checksum,
 * a damaged Chronicle header, a zeroed region, a record whose fields make no sense, a file cut
 * short; each is a {@link JournalDamage} with its file, byte offset, Chronicle index and record
 * number, and the reader goes on after it where it can find the next intact record. A journal with
 * damage is a {@link JournalException} whose {@link JournalException#readable()} holds every
 * record that could be read, before and after the damage, and {@link #damage()} the list. Format
 * 1.0 journals (no checksums) are read too, with less certainty: past a zeroed region the reader
 * finds records again by their shape alone, and other damage to Chronicle's headers stops it. A
 * journal of another major format version is refused; a newer minor version is read, skipping what
 * this reader does not know. A journal being written is read as far as its files went when the
 * read began.
 *
 * <p>A journal whose writer was killed has no {@link JournalRecord.Kind#RUN_END}: that is not
 * damage, it is what {@link Postmortem} is for; and damage is not a killed run: a zeroed page or a
 * damaged header in the middle of a file is reported as damage with the records after it read.
 *
 * <p>Threading: {@link #read} on any thread; the result is immutable.
 */
public final class JournalReader
{
    /** The worker name of records made on a thread that is not a worker. */
    public static final String CALLER = "caller";

    private final Path directory;
    private final List<JournalRecord> records;
    private final int formatMajor;
    private final int formatMinor;
    private final long headerEpochMillis;
    private final long headerNanos;
    private final long configHash;
    private final String configText;
    private final String engineVersion;
    private final List<String> nodeNames;
    private final List<String> streamNames;
    private final List<String> workerNames;
    private final int[][] nodeInputs;
    private final Set<String> captureStreams;
    private final Set<String> checksumStreams;
    private final JournalRecord runEnd;
    private final long lostRecords;
    private final boolean endsIncomplete;
    private final List<String> notes;
    private final List<JournalDamage> damage;
    private final JournalDamage cutAt;

    private JournalReader(final Path directory, final Decoder d, final List<JournalDamage> damage)
    {
        this.directory = directory;
        this.records = Collections.unmodifiableList(d.records);
        this.formatMajor = d.major;
        this.formatMinor = d.minor;
        this.headerEpochMillis = d.headerEpochMillis;
        this.headerNanos = d.headerNanos;
        this.configHash = d.configHash;
        this.configText = d.configText;
        this.engineVersion = d.engineVersion;
        this.nodeNames = List.of(d.nodes);
        this.streamNames = List.of(d.streams);
        this.workerNames = List.of(d.workers);
        this.nodeInputs = d.nodeInputs;
        this.captureStreams = Collections.unmodifiableSet(d.captureStreams);
        this.checksumStreams = Collections.unmodifiableSet(d.checksumStreams);
        this.runEnd = d.runEnd;
        this.lostRecords = d.lost;
        this.endsIncomplete = d.endsIncomplete;
        this.notes = List.copyOf(d.notes);
        this.damage = List.copyOf(damage);
        this.cutAt = null;
    }

    /** {@link #upToDamage()}: the records before the first damage, as an intact journal cut there. */
    private JournalReader(final JournalReader whole, final List<JournalRecord> records, final JournalDamage cutAt)
    {
        this.directory = whole.directory;
        this.records = Collections.unmodifiableList(records);
        this.formatMajor = whole.formatMajor;
        this.formatMinor = whole.formatMinor;
        this.headerEpochMillis = whole.headerEpochMillis;
        this.headerNanos = whole.headerNanos;
        this.configHash = whole.configHash;
        this.configText = whole.configText;
        this.engineVersion = whole.engineVersion;
        this.nodeNames = whole.nodeNames;
        this.streamNames = whole.streamNames;
        this.workerNames = whole.workerNames;
        this.nodeInputs = whole.nodeInputs;
        this.captureStreams = whole.captureStreams;
        this.checksumStreams = whole.checksumStreams;
        this.runEnd = null; // a RUN_END is the last record: past any damage
        long lost = 0;
        for (final JournalRecord r : records)
        {
            lost += r.kind() == JournalRecord.Kind.LOST ? r.value() : 0;
        }
        this.lostRecords = lost;
        this.endsIncomplete = false;
        this.notes = whole.notes;
        this.damage = List.of();
        this.cutAt = cutAt;
    }

    /**
     * The journal as far as it can be trusted in order: the records before its first damage, as an
     * intact journal that ends there (no end of run), which {@link #cutAt()} names. What a replay or
     * a diff needs: the records after a damaged region are readable, but what the damage held
     * (graph inputs, emits) is gone, so nothing after it can be reproduced in order.
     *
     * @return this journal when it is intact; else the records before the first damage.
     */
    public JournalReader upToDamage()
    {
        if (damage.isEmpty())
        {
            return this;
        }
        final JournalDamage first = damage.get(0);
        final List<JournalRecord> before = new ArrayList<>();
        for (final JournalRecord r : records)
        {
            if (r.index() < first.recordIndex())
            {
                before.add(r);
            }
        }
        return new JournalReader(this, before, first);
    }

    /**
     * Where this journal was cut by {@link #upToDamage()}.
     *
     * @return the damage it stops before, or null for a journal read whole.
     */
    public JournalDamage cutAt()
    {
        return cutAt;
    }

    /**
     * The newest run journal under a journal root.
     *
     * @param root a {@link dev.framewire.core.journal.JournalConfig#directory()}.
     * @return its newest run directory.
     * @throws JournalException if it holds none.
     */
    public static Path latestRun(final Path root) throws JournalException
    {
        try
        {
            final List<Path> runs = JournalFiles.runs(root);
            if (runs.isEmpty())
            {
                throw new JournalException("no run journals in " + root.toAbsolutePath() + " (directories named " +
                    "run-<date>-<time>-<pid> holding " + JournalFiles.METADATA + ")", null, null);
            }
            return runs.get(runs.size() - 1);
        }
        catch (final IOException ex)
        {
            if (ex instanceof JournalException)
            {
                throw (JournalException)ex;
            }
            throw new JournalException("cannot list journals in " + root.toAbsolutePath() + ": " + ex, null, ex);
        }
    }

    /**
     * Reads a run journal.
     *
     * @param directory a run directory ({@link JournalWriter#runDirectory()}), or a journal root,
     *                  in which case its newest run is read.
     * @return the journal.
     * @throws JournalException if it is not a journal, of another format, or damaged (truncated,
     *                          corrupt, failing checksums); {@link JournalException#readable()} has
     *                          every record that could be read and {@link JournalException#damage()}
     *                          where the damage is.
     */
    public static JournalReader read(final Path directory) throws JournalException
    {
        JournalFiles.init();
        final Path run = JournalFiles.isRunDirectory(directory) ? directory : latestRunOrExplain(directory);
        final List<Path> files;
        try
        {
            files = JournalFiles.cycleFiles(run);
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot read journal " + run + ": " + ex, null, ex);
        }
        if (files.isEmpty())
        {
            throw new JournalException("journal " + run + " has no " + JournalFiles.SUFFIX + " files: nothing was " +
                "written, or they were deleted", null, null);
        }
        final Decoder decoder = new Decoder(run);
        final List<JournalDamage> damage = new ArrayList<>();
        final String metadataDamage = metadataDamage(run);
        if (metadataDamage != null)
        {
            damage.add(new JournalDamage(JournalDamage.Kind.METADATA, run.resolve(JournalFiles.METADATA), -1, -1, -1, 0,
                false, metadataDamage));
        }
        try
        {
            final boolean checksummed = JournalScanner.checksummed(files.get(0));
            for (int f = 0; f < files.size(); f++)
            {
                final Path file = files.get(f);
                try (JournalScanner scanner = new JournalScanner(file, checksummed))
                {
                    final JournalScanner.End end = scanner.walk(new FileVisitor(file, decoder, damage));
                    if (f == files.size() - 1)
                    {
                        decoder.endsIncomplete = end == JournalScanner.End.INCOMPLETE;
                    }
                }
                catch (final IOException ex)
                {
                    damage.add(new JournalDamage(JournalDamage.Kind.UNREADABLE, file, -1, -1, -1, decoder.count, false,
                        "cannot read the file: " + ex));
                }
            }
        }
        catch (final Refused ex)
        {
            throw new JournalException(ex.getMessage(), null, null);
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot read journal " + run + ": " + ex, null, ex);
        }
        decoder.finish();
        final JournalReader journal = new JournalReader(run, decoder, damage);
        if (!damage.isEmpty())
        {
            throw new JournalException(damageMessage(journal), journal, null);
        }
        return journal;
    }

    /** One sentence on a damaged journal: where the first damage is, how much more, what was read. */
    private static String damageMessage(final JournalReader journal)
    {
        final List<JournalDamage> damage = journal.damage;
        final JournalDamage first = damage.get(0);
        long after = 0;
        for (final JournalRecord r : journal.records)
        {
            after += r.index() >= first.recordIndex() ? 1 : 0;
        }
        final StringBuilder sb = new StringBuilder("journal ").append(journal.directory).append(" is damaged: ")
            .append(first);
        if (damage.size() > 1)
        {
            sb.append("; and in ").append(damage.size() - 1).append(damage.size() == 2 ? " more place" : " more places");
        }
        return sb.append("; ").append(journal.records.size()).append(" records were read, ").append(after)
            .append(" of them after the damage").toString();
    }

    /** Decodes one file's records and collects its damage, with positions. */
    private static final class FileVisitor implements JournalScanner.Visitor
    {
        private final Path file;
        private final Decoder decoder;
        private final List<JournalDamage> damage;
        private final RollCycle rollCycle;
        private final int cycle;

        FileVisitor(final Path file, final Decoder decoder, final List<JournalDamage> damage)
        {
            this.file = file;
            this.decoder = decoder;
            this.damage = damage;
            this.rollCycle = JournalFiles.rollCycleOf(file);
            this.cycle = rollCycle == null ? -1 : JournalFiles.cycleOf(file, rollCycle);
        }

        private long index(final long sequence)
        {
            return sequence < 0 || cycle < 0 ? -1 : rollCycle.toIndex(cycle, sequence);
        }

        /** A view of one record of a BATCH document. */
        private final UnsafeBuffer batched = new UnsafeBuffer(0, 0);

        /** The reader of PACKED_CALLS entries. */
        private final CallEntryCursor packed = new CallEntryCursor();
        /** The reader of PACKED_INPUTS and PACKED_EMITS entries, and the GRAPH_INPUT or EMIT record each is read as. */
        private final PacketEntryCursor inputs = new PacketEntryCursor();
        private final UnsafeBuffer input = new UnsafeBuffer(new byte[JournalDescriptor.FIXED_LENGTH]);

        @Override
        public void record(final DirectBuffer body, final int length, final long position, final long sequence)
        {
            if (length > 0 && (body.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF) == JournalDescriptor.BATCH &&
                decoder.minor >= JournalDescriptor.BATCH_MINOR)
            {
                batch(body, length, position, sequence);
                return;
            }
            callsOrOne(body, length, position, sequence);
        }

        /**
         * A record on its own or in a batch: a CALLS or PACKED_CALLS record's calls, a PACKED_INPUTS
         * record's graph inputs, or any other record.
         */
        private void callsOrOne(final DirectBuffer body, final int length, final long position, final long sequence)
        {
            final int kind = length > 0 ? body.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF : -1;
            if (kind == JournalDescriptor.PACKED_INPUTS && decoder.minor >= JournalDescriptor.PACKED_INPUTS_MINOR)
            {
                packedInputs(body, length, position, sequence, false);
                return;
            }
            if (kind == JournalDescriptor.PACKED_EMITS && decoder.minor >= JournalDescriptor.PACKED_EMITS_MINOR)
            {
                packedInputs(body, length, position, sequence, true);
                return;
            }
            if (kind == JournalDescriptor.DENSE_CALLS && decoder.minor >= JournalDescriptor.DENSE_CALLS_MINOR)
            {
                packedCalls(body, length, position, sequence, true);
                return;
            }
            if (kind == JournalDescriptor.PACKED_CALLS && decoder.minor >= JournalDescriptor.PACKED_CALLS_MINOR)
            {
                packedCalls(body, length, position, sequence, false);
                return;
            }
            if (kind == JournalDescriptor.CALLS && decoder.minor >= JournalDescriptor.CALLS_MINOR)
            {
                calls(body, length, position, sequence);
                return;
            }
            one(body, length, position, sequence);
        }

        /**
         * The entries of a PACKED_CALLS or DENSE_CALLS ({@code dense}) record, as {@link #calls}:
         * read through once to check that its count of entries fills it exactly and that a dense
         * entry's flags hold (its checksum held, so one that does not is the writer's fault:
         * reported, and the record skipped), then given one by one.
         */
        private void packedCalls(
            final DirectBuffer body, final int length, final long position, final long sequence, final boolean dense)
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
                count(1, position, sequence, "a " + kind + " record of " + length + " bytes claims " + count +
                    " calls, " + (count < 1 ? "but a record holds at least one" :
                    entries.fault != null ? "but its entry " + (read + 1) + " " + entries.fault : read < count ?
                    "but its entries run past its end after " + read : "but they end at byte " + entries.position));
                return;
            }
            final int worker = body.getInt(JournalDescriptor.CALLS_WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            entries.reset(body, length, dense);
            entries.next();
            for (int i = 0; i < count; i++)
            {
                final int node = entries.node;
                final int stream = entries.stream;
                final int valueKind = entries.valueKind;
                final long value = entries.value;
                final long timestamp = entries.timestamp;
                final long begin = entries.beginNanos;
                final long end = i + 1 < count && entries.next() ? entries.beginNanos :
                    body.getLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
                entry(kind, i, count, position, sequence, worker, node, stream, valueKind, value, timestamp,
                    begin, end);
            }
        }

        /**
         * The entries of a PACKED_INPUTS or PACKED_EMITS ({@code emits}) record, each read as the
         * GRAPH_INPUT, EMIT or BOUND record it stands for (with a number of its own, and every check such
         * a record gets), after a first pass has checked that its count of entries, at least two,
         * fills it exactly (its checksum held, so one that does not is the writer's fault:
         * reported, and the record skipped).
         */
        private void packedInputs(
            final DirectBuffer body, final int length, final long position, final long sequence, final boolean emits)
        {
            final int count = length >= JournalDescriptor.FIXED_LENGTH ?
                body.getInt(JournalDescriptor.INPUTS_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
            final PacketEntryCursor entries = inputs;
            int read = 0;
            if (count >= 2)
            {
                entries.reset(body, length, emits);
                while (read < count && entries.next())
                {
                    read++;
                }
            }
            if (count < 2 || read != count || entries.position != length)
            {
                count(1, position, sequence, "a " + (emits ? "PACKED_EMITS" : "PACKED_INPUTS") + " record of " + length +
                    " bytes claims " + count + (emits ? " packets, " : " graph inputs, ") +
                    (count < 2 ? "but a record holds at least two" : read < count ?
                    "but its entries run past its end after " + read : "but they end at byte " + entries.position));
                return;
            }
            final int worker = emits ? body.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
            entries.reset(body, length, emits);
            for (int i = 0; i < count; i++)
            {
                entries.next();
                final boolean bound = emits && entries.valueKind == JournalDescriptor.PACKED_BOUND;
                final int kind = bound ? JournalDescriptor.BOUND : emits ? JournalDescriptor.EMIT : JournalDescriptor.GRAPH_INPUT;
                JournalDescriptor.putFixed(input, 0, kind, bound ? 0 : entries.valueKind, worker, entries.node,
                    entries.stream, entries.nanos, entries.timestamp, entries.value);
                one(input, JournalDescriptor.FIXED_LENGTH, position, sequence);
            }
        }

        /**
         * The entries of a CALLS record, each with a number of its own, each call ending where the
         * next one begins, the last at the record's end nanos. Its checksum held, so a length that
         * does not fit its count is the writer's fault, not the disk's: reported, and the record
         * skipped.
         */
        private void calls(final DirectBuffer body, final int length, final long position, final long sequence)
        {
            final int count = length >= JournalDescriptor.CALLS_ENTRIES_OFFSET ?
                body.getInt(JournalDescriptor.CALLS_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
            if (count < 1 || length != JournalDescriptor.CALLS_ENTRIES_OFFSET +
                (long)count * JournalDescriptor.CALLS_ENTRY_LENGTH)
            {
                count(1, position, sequence, "a CALLS record of " + length + " bytes claims " + count +
                    " calls of " + JournalDescriptor.CALLS_ENTRY_LENGTH + " bytes after its " +
                    JournalDescriptor.CALLS_ENTRIES_OFFSET + "-byte header");
                return;
            }
            final int worker = body.getInt(JournalDescriptor.CALLS_WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < count; i++)
            {
                final int at = JournalDescriptor.CALLS_ENTRIES_OFFSET + i * JournalDescriptor.CALLS_ENTRY_LENGTH;
                final long end = i + 1 < count ?
                    body.getLong(at + JournalDescriptor.CALLS_ENTRY_LENGTH + JournalDescriptor.ENTRY_BEGIN_NANOS_OFFSET,
                        ByteOrder.LITTLE_ENDIAN) :
                    body.getLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
                final int nodeAndKind = body.getInt(at + JournalDescriptor.ENTRY_NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
                entry("CALLS", i, count, position, sequence, worker, nodeAndKind & JournalDescriptor.ENTRY_MAX_NODE,
                    body.getInt(at + JournalDescriptor.ENTRY_STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN), nodeAndKind >>> 24,
                    body.getLong(at + JournalDescriptor.ENTRY_VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN),
                    body.getLong(at + JournalDescriptor.ENTRY_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN),
                    body.getLong(at + JournalDescriptor.ENTRY_BEGIN_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN), end);
            }
        }

        /**
         * Call {@code i} of the {@code count} in a CALLS (1.6), PACKED_CALLS (1.7) or DENSE_CALLS
         * (1.9) record: given as the records it stands for (as a CALL record's), with a record
         * number of its own; one whose fields make no sense is reported and skipped, and the others
         * are read.
         */
        private void entry(
            final String what,
            final int i,
            final int count,
            final long position,
            final long sequence,
            final int worker,
            final int node,
            final int stream,
            final int valueKind,
            final long value,
            final long timestamp,
            final long beginNanos,
            final long endNanos)
        {
            final long number = decoder.count;
            try
            {
                decoder.kind = JournalRecord.Kind.PROCESS_BEGIN; // for the messages of its checks
                decoder.addCall(number, what, worker, node, stream, valueKind, value, timestamp, beginNanos, endNanos);
            }
            catch (final Corrupt ex)
            {
                damage.add(new JournalDamage(ex.kind, file, position, -1, index(sequence), number, true,
                    "call " + (i + 1) + " of " + count + " in a " + what + " record: " + ex.getMessage() +
                    "; it is skipped"));
            }
            decoder.count = number + 1;
        }

        private void one(final DirectBuffer body, final int length, final long position, final long sequence)
        {
            final long number = decoder.count;
            try
            {
                decoder.decode(body, length);
            }
            catch (final Corrupt ex)
            {
                decoder.count = number + 1;
                damage.add(new JournalDamage(ex.kind, file, position, -1, index(sequence), number, true,
                    ex.getMessage() + "; it is skipped"));
            }
        }

        /**
         * The records of a BATCH document, each with a number of its own. Its checksum held, so a
         * length that does not fit is the writer's fault, not the disk's: reported, and the rest
         * of the document is skipped.
         */
        private void batch(final DirectBuffer body, final int length, final long position, final long sequence)
        {
            final int count = length >= JournalDescriptor.BATCH_RECORDS_OFFSET ?
                body.getInt(JournalDescriptor.BATCH_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
            int at = JournalDescriptor.BATCH_RECORDS_OFFSET;
            for (int i = 0; i < count; i++)
            {
                final int recordLength = at + 4 <= length ? body.getInt(at, ByteOrder.LITTLE_ENDIAN) : -1;
                if (recordLength < 0 || recordLength > length - at - 4)
                {
                    count(count < 0 ? 1 : count - i, position, sequence, "record " + (i + 1) + " of a batch of " +
                        count + " at byte " + at + " of the document claims " + recordLength + " bytes, but the " +
                        length + "-byte document has " + (length - at - 4) + " left");
                    return;
                }
                batched.wrap(body, at + 4, recordLength);
                callsOrOne(batched, recordLength, position, sequence);
                at += 4 + recordLength;
            }
            if (count < 0 || at != length)
            {
                count(1, position, sequence, count < 0 ? "a batch of " + length + " bytes, too short for its count" :
                    "a batch of " + count + " records ends at byte " + at + " of its " + length + "-byte document");
            }
        }

        private void count(final long skipped, final long position, final long sequence, final String what)
        {
            damage.add(new JournalDamage(JournalDamage.Kind.CORRUPT_RECORD, file, position, -1, index(sequence),
                decoder.count, skipped == 1, what + "; the rest of it is skipped"));
            decoder.count += skipped;
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
            damage.add(new JournalDamage(kind, file, position, length, index(sequence), decoder.count, oneRecord,
                description));
            if (skipped)
            {
                decoder.count++;
            }
        }
    }

    private static Path latestRunOrExplain(final Path directory) throws JournalException
    {
        if (!Files.isDirectory(directory))
        {
            throw new JournalException("no journal at " + directory.toAbsolutePath() + ": not a directory", null,
                new NoSuchFileException(directory.toString()));
        }
        try
        {
            if (JournalFiles.runs(directory).isEmpty())
            {
                throw new JournalException(directory.toAbsolutePath() + " is not a Framewire journal: it has no " +
                    JournalFiles.METADATA + " and no run-* journal directories", null, null);
            }
        }
        catch (final IOException ex)
        {
            if (ex instanceof JournalException)
            {
                throw (JournalException)ex;
            }
            throw new JournalException("cannot list " + directory.toAbsolutePath() + ": " + ex, null, ex);
        }
        return latestRun(directory);
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

    // ---------------------------------------------------------------- accessors

    /**
     * The run directory read.
     *
     * @return the directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * Every record, in file order, the header and the run start included.
     *
     * @return the records.
     */
    public List<JournalRecord> records()
    {
        return records;
    }

    /**
     * The format's major version (a reader reads one major version).
     *
     * @return the major version.
     */
    public int formatMajor()
    {
        return formatMajor;
    }

    /**
     * The format's minor version (additions a reader of an older minor version skips).
     *
     * @return the minor version.
     */
    public int formatMinor()
    {
        return formatMinor;
    }

    /**
     * The wall clock when the journal was opened, at the same instant as {@link #headerNanos()}:
     * a record happened at {@code headerEpochMillis() + (nanos - headerNanos()) / 1e6}.
     *
     * @return epoch millis.
     */
    public long headerEpochMillis()
    {
        return headerEpochMillis;
    }

    /**
     * The writer's {@code nanoTime} when the journal was opened.
     *
     * @return nanos.
     */
    public long headerNanos()
    {
        return headerNanos;
    }

    /**
     * The config hash given at run start.
     *
     * @return the hash.
     */
    public long configHash()
    {
        return configHash;
    }

    /**
     * The config text given at run start.
     *
     * @return the text, or null if the run start was not read.
     */
    public String configText()
    {
        return configText;
    }

    /**
     * The engine version given at run start.
     *
     * @return the version, or null.
     */
    public String engineVersion()
    {
        return engineVersion;
    }

    /**
     * Node names by id: the run start's, then those of the subgraphs added at run time (format
     * 1.5), each at the id its SUBGRAPH_ADDED record gave it.
     *
     * @return the names.
     */
    public List<String> nodeNames()
    {
        return nodeNames;
    }

    /**
     * Stream names by id: the run start's, then those of the subgraphs added at run time (format
     * 1.5), each at the id its SUBGRAPH_ADDED record gave it.
     *
     * @return the names.
     */
    public List<String> streamNames()
    {
        return streamNames;
    }

    /**
     * Worker names by id.
     *
     * @return the names.
     */
    public List<String> workerNames()
    {
        return workerNames;
    }

    /**
     * The stream ids a node consumes, if the run start gave the topology.
     *
     * @param node a node id.
     * @return the stream ids (a copy), or null when unknown.
     */
    public int[] nodeInputs(final int node)
    {
        return nodeInputs == null ? null : nodeInputs[node].clone();
    }

    /**
     * Whether the run start gave which streams each node consumes.
     *
     * @return true if known.
     */
    public boolean hasTopology()
    {
        return nodeInputs != null;
    }

    /**
     * Streams whose graph input payloads were captured.
     *
     * @return names.
     */
    public Set<String> captureStreams()
    {
        return captureStreams;
    }

    /**
     * Streams whose emitted payloads were checksummed.
     *
     * @return names.
     */
    public Set<String> checksumStreams()
    {
        return checksumStreams;
    }

    /**
     * The run's end record.
     *
     * @return it, or null if the journal ends without one (the process died, or it is still running).
     */
    public JournalRecord runEnd()
    {
        return runEnd;
    }

    /**
     * Records an ASYNC writer lost to a full ring (from its LOST records).
     *
     * @return the count.
     */
    public long lostRecords()
    {
        return lostRecords;
    }

    /**
     * Whether the last record was being appended when the writer died: its header is still marked
     * incomplete, and it is not among {@link #records()}.
     *
     * @return true if so.
     */
    public boolean endsIncomplete()
    {
        return endsIncomplete;
    }

    /**
     * What the reader skipped or noticed without failing (a newer minor version's records).
     *
     * @return sentences.
     */
    public List<String> notes()
    {
        return notes;
    }

    /**
     * Where the journal's files are damaged, in file order: empty for an intact journal (a journal
     * with damage comes as {@link JournalException#readable()}).
     *
     * @return the damage.
     */
    public List<JournalDamage> damage()
    {
        return damage;
    }

    /**
     * Whether any damage was found.
     *
     * @return true if {@link #damage()} is not empty.
     */
    public boolean isDamaged()
    {
        return !damage.isEmpty();
    }

    /**
     * The name of a worker id.
     *
     * @param worker an id, or -1.
     * @return the name, {@value #CALLER} for -1.
     */
    public String workerName(final int worker)
    {
        return worker < 0 || worker >= workerNames.size() ? CALLER : workerNames.get(worker);
    }

    // ---------------------------------------------------------------- decoding

    /** A record that makes no sense: reported as damage, and the read goes on with the next. */
    private static final class Corrupt extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        final JournalDamage.Kind kind;

        Corrupt(final String message)
        {
            this(JournalDamage.Kind.CORRUPT_RECORD, message);
        }

        Corrupt(final JournalDamage.Kind kind, final String message)
        {
            super(message, null, false, false);
            this.kind = kind;
        }
    }

    /** Turns record bytes into records, keeping the run's names; one per read. */
    private static final class Decoder
    {
        final Path run;
        final List<JournalRecord> records = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        /** Records numbered so far: decoded, or skipped as damaged. */
        long count;
        boolean headerSeen;
        int major = -1;
        int minor = -1;
        long headerEpochMillis;
        long headerNanos;
        long configHash;
        String configText;
        String engineVersion;
        String[] nodes = new String[0];
        String[] streams = new String[0];
        String[] workers = new String[0];
        int[][] nodeInputs;
        final Set<String> captureStreams = new LinkedHashSet<>();
        final Set<String> checksumStreams = new LinkedHashSet<>();
        boolean started;
        JournalRecord runEnd;
        long lost;
        long skipped;
        boolean endsIncomplete;

        private DirectBuffer buffer;
        private int position;
        private int limit;
        private JournalRecord.Kind kind;
        /** The fields {@link #fields} read. */
        private String fieldText;
        private byte[] fieldPayload;
        private JournalSubgraph fieldSubgraph;
        private PayloadShape fieldShape;

        Decoder(final Path run)
        {
            this.run = run;
        }

        /**
         * Decodes one record's bytes (without its checksum) as record number {@link #count}, and
         * counts it.
         *
         * @throws Corrupt when its fields make no sense (then the caller counts it).
         * @throws Refused when the first record is not a Framewire journal header of this major version.
         */
        void decode(final DirectBuffer buffer, final int length)
        {
            this.buffer = buffer;
            this.position = FIXED_LENGTH;
            this.limit = length;
            final long index = count;
            final int code = length > 0 ? buffer.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF : 0;
            if (index == 0 && !headerSeen)
            {
                header(code);
                count++;
                return;
            }
            if (length < FIXED_LENGTH)
            {
                throw new Corrupt("the record is " + length + " bytes, shorter than the " + FIXED_LENGTH +
                    " every record has");
            }
            if (code == JournalDescriptor.CALL && minor >= JournalDescriptor.CALL_MINOR)
            {
                call(index);
                count++;
                return;
            }
            if (!kindOf(code))
            {
                skipped++; // a newer minor version's record kind
                count++;
                return;
            }
            final int aux = buffer.getByte(JournalDescriptor.AUX_OFFSET) & 0xFF;
            final int worker = buffer.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int node = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int stream = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long nanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long timestamp = buffer.getLong(JournalDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long value = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            fields(aux, node, stream, value);
            final String text = fieldText;
            final byte[] payload = fieldPayload;
            final JournalSubgraph subgraph = fieldSubgraph;
            final PayloadShape shape = fieldShape;
            if (position != limit && minor <= JournalDescriptor.FORMAT_MINOR)
            {
                throw new Corrupt("the record (" + kind + ") is " + limit + " bytes, but its fields end at " +
                    position);
            }
            if (kind == JournalRecord.Kind.RUN_START)
            {
                records.add(new JournalRecord(index, kind, nanos, -1, nodes.length, streams.length, Timestamp.UNSET, 0,
                    value, text, null, CALLER, null, null));
                count++;
                return;
            }
            if (subgraph != null)
            {
                if (kind == JournalRecord.Kind.SUBGRAPH_ADDED)
                {
                    learn(subgraph);
                }
                records.add(new JournalRecord(index, kind, nanos, node, stream, aux, value, subgraph));
                count++;
                return;
            }
            if (started)
            {
                check(index, "worker", worker, workers.length);
                check(index, "node", node, nodes.length);
                check(index, "stream", stream, streams.length);
            }
            final JournalRecord record = new JournalRecord(index, kind, nanos, worker, node, stream, timestamp, aux, value,
                text, payload, worker >= 0 && worker < workers.length ? workers[worker] : CALLER,
                node >= 0 && node < nodes.length ? nodes[node] : null,
                stream >= 0 && stream < streams.length ? streams[stream] : null, shape);
            records.add(record);
            if (kind == JournalRecord.Kind.RUN_END)
            {
                runEnd = record;
            }
            else if (kind == JournalRecord.Kind.LOST)
            {
                lost += value;
            }
            count++;
        }

        /**
         * Sets {@link #kind} from a record's kind code, checking the journal's format has that kind.
         *
         * @return false for a kind a newer minor version has (the record is skipped).
         * @throws Corrupt for a kind the format does not have, or a second HEADER.
         */
        private boolean kindOf(final int code)
        {
            kind = JournalRecord.Kind.ofCode(code);
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
                    return false;
                }
                throw new Corrupt(JournalDamage.Kind.UNKNOWN_KIND, kind == null ? "the record has kind " + code +
                    ", which format " + version() + " does not have" : "a second HEADER record");
            }
            return true;
        }

        /** Reads the fields of a record's kind past the fixed ones, into {@link #fieldText} and the rest. */
        private void fields(final int aux, final int node, final int stream, final long value)
        {
            fieldText = null;
            fieldPayload = null;
            fieldSubgraph = null;
            fieldShape = null;
            switch (kind)
            {
                case CAPTURED:
                    fieldShape = new PayloadShape(getInt("frame width"), getInt("frame height"), getInt("frame stride"),
                        text("pixel format"));
                    fieldPayload = capturedBytes(value);
                    break;
                case SUBGRAPH_ADDED:
                    fieldSubgraph = subgraphAdded(node, stream);
                    break;
                case SUBGRAPH_REMOVED:
                    fieldSubgraph = JournalSubgraph.removed(text("subgraph name"), value, getLong("cancel deadline"));
                    break;
                case SUBGRAPH_LEFT:
                    fieldSubgraph = JournalSubgraph.left(text("subgraph name"), aux == 1, value);
                    break;
                case RUN_START:
                    runStart(node, stream, value);
                    fieldText = configText;
                    break;
                case ERROR:
                case NOTE:
                case RUN_END:
                    fieldText = text("text");
                    break;
                case GRAPH_INPUT:
                    if (aux == JournalRecord.VALUE_CAPTURED)
                    {
                        fieldPayload = capturedBytes(value);
                    }
                    break;
                default:
                    break;
            }
        }

        /**
         * A CALL record (1.2, ASYNC): the PROCESS_BEGIN, the EMIT folded in (if any) and the
         * PROCESS_END it stands for, each with the CALL's record number, exactly as the writer
         * would have written them one by one (the EMIT with the call's begin nanos).
         */
        private void call(final long index)
        {
            kind = JournalRecord.Kind.PROCESS_BEGIN; // for the messages of check()
            final int valueKind = buffer.getByte(JournalDescriptor.AUX_OFFSET) & 0xFF;
            final int worker = buffer.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int node = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int stream = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long beginNanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long timestamp = buffer.getLong(JournalDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long value = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long endNanos = getLong("end nanos");
            if (position != limit && minor <= JournalDescriptor.FORMAT_MINOR)
            {
                throw new Corrupt("the record (CALL) is " + limit + " bytes, but its fields end at " + position);
            }
            addCall(index, "CALL", worker, node, stream, valueKind, value, timestamp, beginNanos, endNanos);
        }

        /** A call as record number {@code index}: its PROCESS_BEGIN, the EMIT folded in (if any) and its PROCESS_END. */
        private void addCall(
            final long index,
            final String what,
            final int worker,
            final int node,
            final int stream,
            final int valueKind,
            final long value,
            final long timestamp,
            final long beginNanos,
            final long endNanos)
        {
            if (stream < 0 && (valueKind != 0 || value != 0))
            {
                throw new Corrupt("the record (" + what + ") has a value but no stream for it");
            }
            if (valueKind > JournalRecord.VALUE_PAYLOAD)
            {
                throw new Corrupt("the record (" + what + ") has value kind " + valueKind +
                    ", which an emitted packet cannot have");
            }
            if (started)
            {
                check(index, "worker", worker, workers.length);
                check(index, "node", node, nodes.length);
                check(index, "stream", stream, streams.length);
            }
            final String workerName = worker >= 0 && worker < workers.length ? workers[worker] : CALLER;
            final String nodeName = node >= 0 && node < nodes.length ? nodes[node] : null;
            records.add(new JournalRecord(index, JournalRecord.Kind.PROCESS_BEGIN, beginNanos, worker, node, -1, timestamp,
                0, 0, null, null, workerName, nodeName, null));
            if (stream >= 0)
            {
                records.add(new JournalRecord(index, JournalRecord.Kind.EMIT, beginNanos, worker, node, stream, timestamp,
                    valueKind, value, null, null, workerName, nodeName, stream < streams.length ? streams[stream] : null));
            }
            records.add(new JournalRecord(index, JournalRecord.Kind.PROCESS_END, endNanos, worker, node, -1, timestamp,
                0, 0, null, null, workerName, nodeName, null));
        }

        /**
         * A SUBGRAPH_ADDED record's tail, checked: its node and stream ids are new (beyond every id
         * known, increasing; a gap is a subgraph record lost to damage before), and the streams its
         * nodes consume are known by then. Nothing is learnt until the whole record has been read.
         */
        private JournalSubgraph subgraphAdded(final int firstNode, final int firstStream)
        {
            final String name = text("subgraph name");
            final String template = text("template text");
            final int paramCount = count("parameters", 12);
            final List<JournalSubgraph.Parameter> parameters = new ArrayList<>();
            for (int p = 0; p < paramCount; p++)
            {
                final String paramName = text("parameter name");
                final String type = text("parameter type");
                final int hasText = getInt("parameter has text");
                final String value = text("parameter value");
                if (hasText != 0 && hasText != 1)
                {
                    throw new Corrupt("the record (SUBGRAPH_ADDED) marks parameter '" + paramName + "' with " +
                        hasText + ", neither 1 (has text) nor 0 (recorded by type only)");
                }
                parameters.add(new JournalSubgraph.Parameter(paramName, type, hasText == 1 ? value : null));
            }
            final int bindingCount = count("bindings", 8);
            final java.util.Map<String, String> bindings = new java.util.LinkedHashMap<>();
            for (int b = 0; b < bindingCount; b++)
            {
                bindings.put(text("bound input"), text("bound stream"));
            }
            final int[] nodeIds = ints("node ids");
            final String[] nodeNames = texts("node names");
            final int inputCount = count("node inputs", 4);
            if (nodeNames.length != nodeIds.length || inputCount != nodeIds.length)
            {
                throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has " + nodeIds.length +
                    " node ids, " + nodeNames.length + " node names and inputs for " + inputCount + " nodes");
            }
            final int[][] nodeInputs = new int[inputCount][];
            for (int n = 0; n < inputCount; n++)
            {
                nodeInputs[n] = ints("node inputs");
            }
            final int[] streamIds = ints("stream ids");
            final String[] streamNames = texts("stream names");
            if (streamNames.length != streamIds.length)
            {
                throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has " + streamIds.length +
                    " stream ids and " + streamNames.length + " stream names");
            }
            captured = ints("captured streams");
            checksummed = ints("checksummed streams");
            newIds(name, "node", nodeIds, nodes.length, firstNode);
            newIds(name, "stream", streamIds, streams.length, firstStream);
            final int streamCount = streamIds.length == 0 ? streams.length :
                Math.max(streams.length, streamIds[streamIds.length - 1] + 1);
            for (final int[] inputs : nodeInputs)
            {
                for (final int s : inputs)
                {
                    if (s < 0 || s >= streamCount)
                    {
                        throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has a node consume " +
                            "stream " + s + ", but the run has " + streamCount + " streams by then");
                    }
                }
            }
            for (final int[] flagged : new int[][] {captured, checksummed})
            {
                for (final int s : flagged)
                {
                    if (java.util.Arrays.stream(streamIds).noneMatch(id -> id == s))
                    {
                        throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' flags stream " + s +
                            " for capture or checksum, which is not one of its streams " +
                            java.util.Arrays.toString(streamIds));
                    }
                }
            }
            return JournalSubgraph.added(name, template, parameters, bindings, nodeIds, nodeNames, nodeInputs,
                streamIds, streamNames);
        }

        /** The captured and checksummed streams of the SUBGRAPH_ADDED record being read. */
        private int[] captured = new int[0];
        private int[] checksummed = new int[0];

        /** A subgraph's ids are new: increasing, from the first known beyond the run's (at most 2^20 ahead). */
        private void newIds(final String name, final String what, final int[] ids, final int known, final int first)
        {
            int previous = known - 1;
            for (final int id : ids)
            {
                if (id <= previous || id > known + (1 << 20))
                {
                    throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' gives its " + what +
                        " id " + id + ", but the run has " + known + " " + what + "s by then and a subgraph's ids are " +
                        "new and increasing");
                }
                previous = id;
            }
            if (first != (ids.length == 0 ? -1 : ids[0]))
            {
                throw new Corrupt("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' says its first " + what +
                    " is " + first + " but lists " + java.util.Arrays.toString(ids));
            }
        }

        /** A SUBGRAPH_ADDED record read whole: the run has its nodes and streams from now on. */
        private void learn(final JournalSubgraph subgraph)
        {
            final int[] nodeIds = subgraph.nodeIds();
            if (nodeIds.length > 0)
            {
                final int length = nodeIds[nodeIds.length - 1] + 1;
                final String[] grown = java.util.Arrays.copyOf(nodes, length);
                for (int n = nodes.length; n < length; n++)
                {
                    grown[n] = "node#" + n; // a gap: a subgraph record lost to damage
                }
                for (int i = 0; i < nodeIds.length; i++)
                {
                    grown[nodeIds[i]] = subgraph.nodeNames().get(i);
                }
                if (nodeInputs != null)
                {
                    final int[][] inputs = java.util.Arrays.copyOf(nodeInputs, length);
                    for (int n = nodes.length; n < length; n++)
                    {
                        inputs[n] = new int[0]; // a gap: a subgraph record lost to damage
                    }
                    for (int i = 0; i < nodeIds.length; i++)
                    {
                        inputs[nodeIds[i]] = subgraph.nodeInputs(i);
                    }
                    nodeInputs = inputs;
                }
                nodes = grown;
            }
            final int[] streamIds = subgraph.streamIds();
            if (streamIds.length > 0)
            {
                final String[] grown = java.util.Arrays.copyOf(streams, streamIds[streamIds.length - 1] + 1);
                for (int n = streams.length; n < grown.length; n++)
                {
                    grown[n] = "stream#" + n; // a gap: a subgraph record lost to damage
                }
                for (int i = 0; i < streamIds.length; i++)
                {
                    grown[streamIds[i]] = subgraph.streamNames().get(i);
                }
                streams = grown;
            }
            for (final int s : captured)
            {
                captureStreams.add(streams[s]);
            }
            for (final int s : checksummed)
            {
                checksumStreams.add(streams[s]);
            }
        }

        /** A list's length, checked against the bytes left ({@code least} bytes an entry at least). */
        private int count(final String what, final int least)
        {
            final int n = getInt(what);
            if (n < 0 || n > (limit - position) / least)
            {
                throw new Corrupt("the record (" + kind + ") has a list of " + n + " " + what + ", more than " +
                    "its bytes hold");
            }
            return n;
        }

        private int[] ints(final String what)
        {
            final int n = count(what, 4);
            final int[] ints = new int[n];
            for (int i = 0; i < n; i++)
            {
                ints[i] = getInt(what);
            }
            return ints;
        }

        private void check(final long index, final String what, final int id, final int count)
        {
            if (id < -1 || id >= count)
            {
                throw new Corrupt("the record (" + kind + ") names " + what + " " + id + ", but the run has " +
                    count + " " + what + "s");
            }
        }

        private String version()
        {
            return major < 0 ? JournalDescriptor.FORMAT_MAJOR + "." + JournalDescriptor.FORMAT_MINOR : major + "." + minor;
        }

        private void header(final int code)
        {
            if (code != JournalDescriptor.HEADER || limit < FIXED_LENGTH + 8 ||
                buffer.getLong(FIXED_LENGTH, ByteOrder.LITTLE_ENDIAN) != JournalDescriptor.MAGIC)
            {
                throw new Refused(run + " is not a Framewire journal: its first record is not a Framewire journal header");
            }
            final int headerMajor = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int headerMinor = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (headerMajor != JournalDescriptor.FORMAT_MAJOR)
            {
                throw new Refused("journal " + run + " has format version " + headerMajor + "." + headerMinor +
                    "; this Framewire reads format " + JournalDescriptor.FORMAT_MAJOR + ".x. Read it with the " +
                    "Framewire version that wrote it.");
            }
            major = headerMajor;
            minor = headerMinor;
            headerSeen = true;
            headerNanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            headerEpochMillis = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            records.add(new JournalRecord(0, JournalRecord.Kind.HEADER, headerNanos, -1, major, minor, Timestamp.UNSET, 0,
                headerEpochMillis, null, null, CALLER, null, null));
        }

        private void runStart(final int nodeCount, final int streamCount, final long hash)
        {
            if (started)
            {
                throw new Corrupt("the record is a second RUN_START");
            }
            final int runMajor = getInt("format major");
            final int runMinor = getInt("format minor");
            if (!headerSeen && major < 0)
            {
                // the header record was damaged: the run start says the version too
                if (runMajor != JournalDescriptor.FORMAT_MAJOR)
                {
                    throw new Refused("journal " + run + " has format version " + runMajor + "." + runMinor +
                        " (from its run start; its header is damaged); this Framewire reads format " +
                        JournalDescriptor.FORMAT_MAJOR + ".x. Read it with the Framewire version that wrote it.");
                }
                major = runMajor;
                minor = runMinor;
            }
            getLong("start time");
            // read whole before any of it is kept: a record that fails part-way (damage) must not
            // leave names, inputs or flags of its own behind for a later RUN_START or the records after
            final String version = text("engine version");
            final String config = text("config text");
            final String[] nodeNames = texts("node names");
            final String[] streamNames = texts("stream names");
            final String[] workerNames = texts("worker names");
            if (nodeNames.length != nodeCount || streamNames.length != streamCount)
            {
                throw new Corrupt("the record (RUN_START) counts " + nodeCount + " nodes and " + streamCount +
                    " streams but names " + nodeNames.length + " and " + streamNames.length);
            }
            final int topology = getInt("topology");
            int[][] inputs = null;
            if (topology >= 0)
            {
                if (topology != nodeNames.length)
                {
                    throw new Corrupt("the record (RUN_START) gives inputs for " + topology + " of " +
                        nodeNames.length + " nodes");
                }
                inputs = new int[topology][];
                for (int n = 0; n < topology; n++)
                {
                    inputs[n] = streamIds("node inputs", streamNames.length);
                }
            }
            final int[] captured = streamIds("capture streams", streamNames.length);
            final int[] checksummed = streamIds("checksum streams", streamNames.length);
            engineVersion = version;
            configText = config;
            nodes = nodeNames;
            streams = streamNames;
            workers = workerNames;
            nodeInputs = inputs;
            for (final int s : captured)
            {
                captureStreams.add(streams[s]);
            }
            for (final int s : checksummed)
            {
                checksumStreams.add(streams[s]);
            }
            configHash = hash;
            started = true;
        }

        private int[] streamIds(final String what, final int streamCount)
        {
            final int n = getInt(what);
            if (n < 0 || n > (limit - position) / 4)
            {
                throw new Corrupt("the record (RUN_START) has a list of " + n + " " + what + ", more than " +
                    "its bytes hold");
            }
            final int[] ids = new int[n];
            for (int i = 0; i < n; i++)
            {
                ids[i] = getInt(what);
                if (ids[i] < 0 || ids[i] >= streamCount)
                {
                    throw new Corrupt("the record (RUN_START) lists stream " + ids[i] + " among its " + what +
                        ", but the run has " + streamCount + " streams");
                }
            }
            return ids;
        }

        private String[] texts(final String what)
        {
            final int n = getInt(what);
            if (n < 0 || n > (limit - position) / 4)
            {
                throw new Corrupt("the record (" + kind + ") has a list of " + n + " " + what + ", more than " +
                    "its bytes hold");
            }
            final String[] texts = new String[n];
            for (int i = 0; i < n; i++)
            {
                texts[i] = text(what);
            }
            return texts;
        }

        /** A captured payload's bytes, checked against its XXH64 ({@code value}). */
        private byte[] capturedBytes(final long value)
        {
            final byte[] payload = bytes("captured payload");
            if (PayloadChecksum.of(new UnsafeBuffer(payload), 0, payload.length) != value)
            {
                throw new Corrupt("the record (" + kind + ") holds a captured payload of " + payload.length +
                    " bytes that fails its XXH64 checksum");
            }
            return payload;
        }

        private String text(final String what)
        {
            return new String(bytes(what), StandardCharsets.UTF_8);
        }

        private byte[] bytes(final String what)
        {
            final int length = getInt(what);
            if (length < 0 || length > limit - position)
            {
                throw new Corrupt("the record (" + kind + ") says its " + what + " is " + length +
                    " bytes, but " + (limit - position) + " are left");
            }
            final byte[] bytes = new byte[length];
            buffer.getBytes(position, bytes);
            position += length;
            return bytes;
        }

        private int getInt(final String what)
        {
            need(4, what);
            final int v = buffer.getInt(position, ByteOrder.LITTLE_ENDIAN);
            position += 4;
            return v;
        }

        private long getLong(final String what)
        {
            need(8, what);
            final long v = buffer.getLong(position, ByteOrder.LITTLE_ENDIAN);
            position += 8;
            return v;
        }

        private void need(final int bytes, final String what)
        {
            if (position + bytes > limit)
            {
                throw new Corrupt("the record (" + kind + ") ends inside its " + what + " field");
            }
        }

        void finish()
        {
            if (skipped > 0)
            {
                notes.add("skipped " + skipped + " records of kinds format " + major + "." + minor + " has and this " +
                    "reader (format " + JournalDescriptor.FORMAT_MAJOR + "." + JournalDescriptor.FORMAT_MINOR +
                    ") does not");
            }
            if (endsIncomplete)
            {
                notes.add("the last record was being appended when the writer stopped; it is not readable");
            }
        }
    }

    /** Not a journal, or another major version: nothing is read. */
    private static final class Refused extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Refused(final String message)
        {
            super(message, null, false, false);
        }
    }
}
