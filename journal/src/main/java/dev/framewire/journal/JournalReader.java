package dev.framewire.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

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

    private JournalReader(final Path directory, final RecordWalk walk)
    {
        final RunNames names = walk.names;
        final RecordDecoder decoder = walk.decoder;
        this.directory = directory;
        this.records = Collections.unmodifiableList(decoder.records);
        this.formatMajor = names.major;
        this.formatMinor = names.minor;
        this.headerEpochMillis = names.headerEpochMillis;
        this.headerNanos = names.headerNanos;
        this.configHash = names.configHash;
        this.configText = names.configText;
        this.engineVersion = names.engineVersion;
        this.nodeNames = List.of(names.nodes);
        this.streamNames = List.of(names.streams);
        this.workerNames = List.of(names.workers);
        this.nodeInputs = names.nodeInputs;
        this.captureStreams = Collections.unmodifiableSet(names.captureStreams);
        this.checksumStreams = Collections.unmodifiableSet(names.checksumStreams);
        this.runEnd = decoder.runEnd;
        this.lostRecords = decoder.lost;
        this.endsIncomplete = walk.endsIncomplete;
        this.notes = List.copyOf(decoder.notes);
        this.damage = List.copyOf(walk.damage);
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
        final RecordWalk walk = RecordWalk.of(run);
        try
        {
            walk.walk(files);
        }
        catch (final RefusedJournal ex)
        {
            throw new JournalException(ex.getMessage(), null, null);
        }
        catch (final IOException ex)
        {
            throw new JournalException("cannot read journal " + run + ": " + ex, null, ex);
        }
        final JournalReader journal = new JournalReader(run, walk);
        if (!journal.damage.isEmpty())
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
}
