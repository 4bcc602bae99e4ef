package dev.framewire.core.journal;

import dev.framewire.core.Timestamp;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.framewire.core.journal.JournalDescriptor.FIXED_LENGTH;

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
 * <p>Before Chronicle maps a file, every {@code .cq4} file is walked with plain reads to find
 * where its data ends; a file cut short or with a record running past its end is never mapped
 * (that would fault), its intact records are decoded from the walk instead, and a
 * {@link JournalException} reports the damage with everything read before it. A record whose
 * contents make no sense (an unknown kind, a field past its end, an id out of range, a captured
 * payload failing its checksum) ends the read the same way. A journal of another major format
 * version is refused; a newer minor version is read, skipping what this reader does not know.
 *
 * <p>A journal whose writer was killed has no {@link JournalRecord.Kind#RUN_END}: that is not
 * damage, it is what {@link Postmortem} is for.
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

    private JournalReader(final Path directory, final Decoder d)
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
    }

    /**
     * The newest run journal under a journal root.
     *
     * @param root a {@link JournalConfig#directory()}.
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
     * @throws JournalException if it is not a journal, of another format, truncated or corrupt;
     *                          {@link JournalException#readable()} has what was read before the damage.
     */
    public static JournalReader read(final Path directory) throws JournalException
    {
        JournalFiles.init();
        final Path run = JournalFiles.isRunDirectory(directory) ? directory : latestRunOrExplain(directory);
        final List<JournalFiles.Scan> scans = new ArrayList<>();
        try
        {
            for (final Path file : JournalFiles.cycleFiles(run))
            {
                scans.add(JournalFiles.scan(file));
            }
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot read journal " + run + ": " + ex, null, ex);
        }
        if (scans.isEmpty())
        {
            throw new JournalException("journal " + run + " has no " + JournalFiles.SUFFIX + " files: nothing was " +
                "written, or they were deleted", null, null);
        }
        final String metadataDamage = metadataDamage(run);
        boolean damaged = metadataDamage != null;
        for (final JournalFiles.Scan scan : scans)
        {
            damaged |= scan.damage != null;
        }
        final Decoder decoder = new Decoder(run);
        if (damaged)
        {
            return readScanned(run, scans, decoder, metadataDamage);
        }
        long expected = 0;
        for (final JournalFiles.Scan scan : scans)
        {
            expected += scan.bodies.size();
        }
        readChronicle(run, scans, decoder);
        decoder.endsIncomplete = scans.get(scans.size() - 1).incompleteAtEnd;
        if (decoder.count != expected)
        {
            throw new JournalException("journal " + run + ": Chronicle read " + decoder.count + " records but its files " +
                "hold " + expected + "; the journal is corrupt after record #" + (decoder.count - 1),
                new JournalReader(run, decoder), null);
        }
        decoder.finish();
        return new JournalReader(run, decoder);
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

    private static void readChronicle(final Path run, final List<JournalFiles.Scan> scans, final Decoder decoder)
        throws JournalException
    {
        final RollCycle cycle = JournalFiles.rollCycleOf(scans.get(0).file);
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.binary(run).readOnly(true);
        if (cycle != null)
        {
            builder.rollCycle(cycle);
        }
        final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        try (SingleChronicleQueue queue = builder.build())
        {
            final ExcerptTailer tailer = queue.createTailer();
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    if (!dc.isPresent())
                    {
                        break;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    final int length = (int)bytes.readRemaining();
                    if (bytes.isDirectMemory())
                    {
                        view.wrap(bytes.addressForRead(bytes.readPosition()), length);
                    }
                    else
                    {
                        final byte[] copy = new byte[length];
                        bytes.read(copy);
                        view.wrap(copy);
                    }
                    decoder.decode(view, length);
                }
            }
        }
        catch (final Refused ex)
        {
            throw new JournalException(ex.getMessage(), null, null);
        }
        catch (final Corrupt ex)
        {
            throw new JournalException("journal " + run + ": " + ex.getMessage() + "; " + decoder.count +
                " records were read before it", new JournalReader(run, decoder), null);
        }
        catch (final RuntimeException | InternalError ex)
        {
            // InternalError: a fault in a mapped file (SIGBUS) that the scan did not foresee
            throw new JournalException("journal " + run + ": Chronicle failed after record #" + (decoder.count - 1) +
                ": " + ex, new JournalReader(run, decoder), ex);
        }
    }

    /** Decodes the intact records the scans found, with plain reads, then reports the damage. */
    private static JournalReader readScanned(
        final Path run, final List<JournalFiles.Scan> scans, final Decoder decoder, final String metadataDamage)
        throws JournalException
    {
        final UnsafeBuffer view = new UnsafeBuffer(0, 0);
        String damage = metadataDamage;
        try
        {
            for (final JournalFiles.Scan scan : scans)
            {
                try (FileChannel channel = FileChannel.open(scan.file, StandardOpenOption.READ))
                {
                    for (int i = 0; i < scan.bodies.size(); i++)
                    {
                        final byte[] body = JournalFiles.readDocument(channel, scan.bodies.getLong(i),
                            scan.lengths.getInt(i));
                        view.wrap(body);
                        decoder.decode(view, body.length);
                    }
                }
                if (scan.damage != null)
                {
                    damage = "file " + scan.file.getFileName() + ": " + scan.damage;
                    break;
                }
            }
        }
        catch (final Refused ex)
        {
            throw new JournalException(ex.getMessage(), null, null);
        }
        catch (final Corrupt ex)
        {
            damage = ex.getMessage();
        }
        catch (final IOException ex)
        {
            damage = "cannot read: " + ex;
        }
        throw new JournalException("journal " + run + " is damaged: " + damage + "; " + decoder.count +
            " records were read before the damage", new JournalReader(run, decoder), null);
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
     * Node names by id.
     *
     * @return the names.
     */
    public List<String> nodeNames()
    {
        return nodeNames;
    }

    /**
     * Stream names by id.
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

    /** A record that makes no sense: ends the read. */
    private static final class Corrupt extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Corrupt(final String message)
        {
            super(message, null, false, false);
        }
    }

    /** Turns record bytes into records, keeping the run's names; one per read. */
    private static final class Decoder
    {
        final Path run;
        final List<JournalRecord> records = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        long count;
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

        Decoder(final Path run)
        {
            this.run = run;
        }

        void decode(final DirectBuffer buffer, final int length)
        {
            this.buffer = buffer;
            this.position = FIXED_LENGTH;
            this.limit = length;
            final long index = count;
            if (length < FIXED_LENGTH)
            {
                throw new Corrupt("record #" + index + " is " + length + " bytes, shorter than the " + FIXED_LENGTH +
                    " every record has: corrupt");
            }
            final int code = buffer.getByte(JournalDescriptor.KIND_OFFSET) & 0xFF;
            kind = JournalRecord.Kind.ofCode(code);
            if (index == 0)
            {
                header(code);
                count++;
                return;
            }
            if (kind == null || kind == JournalRecord.Kind.HEADER)
            {
                if (minor > JournalDescriptor.FORMAT_MINOR && kind == null)
                {
                    skipped++; // a newer minor version's record kind
                    count++;
                    return;
                }
                throw new Corrupt("record #" + index + " has kind " + code + ", which format " + major + "." + minor +
                    " does not have: corrupt");
            }
            final int aux = buffer.getByte(JournalDescriptor.AUX_OFFSET) & 0xFF;
            final int worker = buffer.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int node = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int stream = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long nanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long timestamp = buffer.getLong(JournalDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final long value = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            String text = null;
            byte[] payload = null;
            switch (kind)
            {
                case RUN_START:
                    runStart(node, stream, value);
                    text = configText;
                    break;
                case ERROR:
                case RUN_END:
                    text = text("text");
                    break;
                case GRAPH_INPUT:
                    if (aux == JournalRecord.VALUE_CAPTURED)
                    {
                        payload = bytes("captured payload");
                        if (PayloadChecksum.of(new UnsafeBuffer(payload), 0, payload.length) != value)
                        {
                            throw new Corrupt("record #" + index + " (GRAPH_INPUT) holds a captured payload of " +
                                payload.length + " bytes that fails its checksum: corrupt");
                        }
                    }
                    break;
                default:
                    break;
            }
            if (position != limit && minor <= JournalDescriptor.FORMAT_MINOR)
            {
                throw new Corrupt("record #" + index + " (" + kind + ") is " + limit + " bytes, but its fields end at " +
                    position + ": corrupt");
            }
            if (kind == JournalRecord.Kind.RUN_START)
            {
                records.add(new JournalRecord(index, kind, nanos, -1, nodes.length, streams.length, Timestamp.UNSET, 0,
                    value, text, null, CALLER, null, null));
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
                stream >= 0 && stream < streams.length ? streams[stream] : null);
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

        private void check(final long index, final String what, final int id, final int count)
        {
            if (id < -1 || id >= count)
            {
                throw new Corrupt("record #" + index + " (" + kind + ") names " + what + " " + id + ", but the run has " +
                    count + " " + what + "s: corrupt");
            }
        }

        private void header(final int code)
        {
            final int headerMajor = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int headerMinor = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
            if (code != JournalDescriptor.HEADER || limit < FIXED_LENGTH + 8 ||
                buffer.getLong(FIXED_LENGTH, ByteOrder.LITTLE_ENDIAN) != JournalDescriptor.MAGIC)
            {
                throw new Refused(run + " is not a Framewire journal: its first record is not a Framewire journal header");
            }
            if (headerMajor != JournalDescriptor.FORMAT_MAJOR)
            {
                throw new Refused("journal " + run + " has format version " + headerMajor + "." + headerMinor +
                    "; this Framewire reads format " + JournalDescriptor.FORMAT_MAJOR + ".x. Read it with the " +
                    "Framewire version that wrote it.");
            }
            major = headerMajor;
            minor = headerMinor;
            headerNanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
            headerEpochMillis = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            records.add(new JournalRecord(0, JournalRecord.Kind.HEADER, headerNanos, -1, major, minor, Timestamp.UNSET, 0,
                headerEpochMillis, null, null, CALLER, null, null));
        }

        private void runStart(final int nodeCount, final int streamCount, final long hash)
        {
            if (started)
            {
                throw new Corrupt("record #" + count + " is a second RUN_START: corrupt");
            }
            getInt("format major");
            getInt("format minor");
            getLong("start time");
            engineVersion = text("engine version");
            configText = text("config text");
            nodes = texts("node names");
            streams = texts("stream names");
            workers = texts("worker names");
            if (nodes.length != nodeCount || streams.length != streamCount)
            {
                throw new Corrupt("record #" + count + " (RUN_START) counts " + nodeCount + " nodes and " + streamCount +
                    " streams but names " + nodes.length + " and " + streams.length + ": corrupt");
            }
            final int topology = getInt("topology");
            if (topology >= 0)
            {
                if (topology != nodes.length)
                {
                    throw new Corrupt("record #" + count + " (RUN_START) gives inputs for " + topology + " of " +
                        nodes.length + " nodes: corrupt");
                }
                nodeInputs = new int[topology][];
                for (int n = 0; n < topology; n++)
                {
                    nodeInputs[n] = streamIds("node inputs");
                }
            }
            for (final int s : streamIds("capture streams"))
            {
                captureStreams.add(streams[s]);
            }
            for (final int s : streamIds("checksum streams"))
            {
                checksumStreams.add(streams[s]);
            }
            configHash = hash;
            started = true;
        }

        private int[] streamIds(final String what)
        {
            final int n = getInt(what);
            if (n < 0 || n > (limit - position) / 4)
            {
                throw new Corrupt("record #" + count + " (RUN_START) has a list of " + n + " " + what + ", more than " +
                    "its bytes hold: corrupt");
            }
            final int[] ids = new int[n];
            for (int i = 0; i < n; i++)
            {
                ids[i] = getInt(what);
                if (ids[i] < 0 || ids[i] >= streams.length)
                {
                    throw new Corrupt("record #" + count + " (RUN_START) lists stream " + ids[i] + " among its " + what +
                        ", but the run has " + streams.length + " streams: corrupt");
                }
            }
            return ids;
        }

        private String[] texts(final String what)
        {
            final int n = getInt(what);
            if (n < 0 || n > (limit - position) / 4)
            {
                throw new Corrupt("record #" + count + " (RUN_START) has a list of " + n + " " + what + ", more than " +
                    "its bytes hold: corrupt");
            }
            final String[] texts = new String[n];
            for (int i = 0; i < n; i++)
            {
                texts[i] = text(what);
            }
            return texts;
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
                throw new Corrupt("record #" + count + " (" + kind + ") says its " + what + " is " + length +
                    " bytes, but " + (limit - position) + " are left: corrupt or truncated");
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
                throw new Corrupt("record #" + count + " (" + kind + ") ends inside its " + what + " field: corrupt or " +
                    "truncated");
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
