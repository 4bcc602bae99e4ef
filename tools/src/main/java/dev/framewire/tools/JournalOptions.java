package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalRetention;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The journal flags of the commands that run a graph ({@code run}, {@code demo},
 * {@code journal replay}): the tools journal every run into {@code ./journals} unless told
 * {@code --no-journal}; payload bytes are captured only for the streams named with
 * {@code --capture}; {@code --journal-max-age} and {@code --journal-max-size} delete old runs in
 * the journal directory when the run's journal opens (whole runs, oldest first, never one being
 * written; as {@code framewire journal prune} does). A picocli mixin; one instance per command
 * invocation, read on the command's thread only.
 */
final class JournalOptions
{
    /** Where the tools journal when not told otherwise. */
    static final String DEFAULT_DIRECTORY = "journals";

    @Option(names = "--journal", paramLabel = "DIR", defaultValue = DEFAULT_DIRECTORY,
        description = "Journal the run (every graph input, emit, call, drop and error) into a run-<date>-<time>-<pid> " +
            "directory in DIR, for `framewire journal postmortem` and `replay` (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Option(names = "--no-journal", description = "Do not journal the run.")
    boolean off;

    @Option(names = "--capture", paramLabel = "STREAM", arity = "1..*",
        description = "Also write the payload bytes of these streams into the journal (a graph input's as it is added, " +
            "a node output's as it is emitted, with the frame's shape), so that a replay feeds the same bytes (off by " +
            "default: frames are large, and camera frames are personal data).")
    List<String> capture = new ArrayList<>();

    @Option(names = "--capture-sources",
        description = "Capture every output of every source node (its frames, with their shape): `journal replay` then " +
            "feeds the recorded packets in place of the sources (a camera, a video file, a remote subscriber) rather " +
            "than run them again. Off by default: camera frames are personal data. Bounded by --capture-limit.")
    boolean captureSources;

    @Option(names = "--capture-limit", paramLabel = "SIZE", converter = Retention.SizeConverter.class,
        description = "The most payload bytes a run captures (--capture, --capture-sources), e.g. 500M or 4G (binary " +
            "units; default 1G; none for no bound): past it capture stops, the journal notes where, and the run goes on.")
    Long captureLimit;

    @Option(names = "--checksum", paramLabel = "STREAM", arity = "1..*",
        description = "Also journal an XXH64 checksum of every payload emitted on these streams (`all`: every stream " +
            "of the graph), so that `framewire journal diff` compares the pixels of a replay, not only timestamps " +
            "and lengths; costs a pass over each payload on the emitting worker. The bytes are not journaled.")
    List<String> checksum = new ArrayList<>();

    @Option(names = "--journal-max-age", paramLabel = "AGE", converter = Retention.AgeConverter.class,
        description = "When the journal opens, delete runs in the journal directory last written longer ago than " +
            "AGE (90s, 30m, 12h, 7d, 2w; default 7d; none keeps every age); never a run being written.")
    Duration maxAge;

    @Option(names = "--journal-max-size", paramLabel = "SIZE", converter = Retention.SizeConverter.class,
        description = "When the journal opens, delete the oldest runs in the journal directory until the rest hold " +
            "at most SIZE (bytes, or 500M, 10G: binary units; default 10G; none for no bound); never a run being " +
            "written.")
    Long maxSize;

    @Option(names = "--journal-level", paramLabel = "LEVEL",
        description = "How much the journal records, by cost: CALLS (every call, the default), RUNS (a call per run of " +
            "calls on a worker), IO (graph inputs and outputs only), SAMPLED (IO and one call in 64). " +
            "docs/JOURNAL.md says what each can answer.")
    JournalConfig.Level level;

    /** The run directories' names under {@link #directory} when {@link #apply} was called. */
    private final Set<String> before = new HashSet<>();

    /**
     * Whether the run is journaled.
     *
     * @return false after {@code --no-journal}.
     */
    boolean enabled()
    {
        return !off;
    }

    /**
     * The config with the journal these flags ask for, or the config as it is with {@code --no-journal}.
     *
     * @param config   the graph's config.
     * @param checksum streams whose emitted payloads get checksums (a replay keeps the recording's).
     * @return the config to run.
     * @throws CommandFailure naming a {@code --capture} stream the graph does not have, or retention
     *                        asked for with {@code --no-journal}.
     */
    GraphConfig apply(final GraphConfig config, final Iterable<String> checksum)
    {
        return apply(config, checksum, List.of(), List.of());
    }

    /**
     * As {@link #apply(GraphConfig, Iterable)}, with streams of subgraphs a replay will add at run
     * time ({@code name__stream}) captured and checksummed as the recording had them: they are not
     * streams of the config, so they are not checked against it.
     *
     * @param config            the graph's config.
     * @param checksum          streams whose emitted payloads get checksums.
     * @param subgraphCapture   subgraph streams whose graph input payloads are captured.
     * @param subgraphChecksum  subgraph streams whose emitted payloads get checksums.
     * @return the config to run.
     */
    GraphConfig apply(final GraphConfig config, final Iterable<String> checksum,
        final Collection<String> subgraphCapture, final Collection<String> subgraphChecksum)
    {
        if (off)
        {
            if (maxAge != null || maxSize != null)
            {
                throw new CommandFailure("--journal-max-age and --journal-max-size prune the journal directory when the " +
                    "run's journal opens, and --no-journal opens none: drop one, or use `framewire journal prune DIR`");
            }
            return config;
        }
        before.clear();
        for (final Path run : runs())
        {
            before.add(run.getFileName().toString());
        }
        final List<String> streams = new Topology(config).streams();
        final List<String> captured = new ArrayList<>(capture);
        if (captureSources)
        {
            captured.addAll(sourceOutputs(config));
        }
        for (final String stream : capture)
        {
            if (!streams.contains(stream))
            {
                throw new CommandFailure("--capture " + stream + ": the graph has no stream '" + stream +
                    "'; its streams are " + streams);
            }
        }
        final List<String> sums = new ArrayList<>();
        for (final String stream : checksum)
        {
            if (streams.contains(stream))
            {
                sums.add(stream);
            }
        }
        for (final String stream : this.checksum)
        {
            if ("all".equals(stream))
            {
                sums.addAll(streams);
            }
            else if (!streams.contains(stream))
            {
                throw new CommandFailure("--checksum " + stream + ": the graph has no stream '" + stream +
                    "'; its streams are " + streams + " (or `all`)");
            }
            else
            {
                sums.add(stream);
            }
        }
        return config.toBuilder().journal(new JournalConfig().directory(directory)
            .captureStreams(captured.toArray(new String[0]))
            .captureLimit(captureLimit == null ? JournalConfig.DEFAULT_CAPTURE_LIMIT :
                captureLimit == Retention.NO_SIZE_LIMIT ? Long.MAX_VALUE : captureLimit)
            .captureStreams(subgraphCapture.toArray(new String[0]))
            .checksumStreams(sums.toArray(new String[0]))
            .checksumStreams(subgraphChecksum.toArray(new String[0]))
            .level(level != null ? level : JournalConfig.Level.CALLS)
            .deleteOlderThan(maxAge())
            .maxTotalSize(maxSize())).build();
    }

    /** The output streams of the config's source nodes (nodes without input streams). */
    static List<String> sourceOutputs(final GraphConfig config)
    {
        final List<String> outputs = new ArrayList<>();
        for (final NodeConfig node : config.nodes())
        {
            if (node.inputStreams().isEmpty())
            {
                for (final String spec : node.outputStreams())
                {
                    outputs.add(spec.substring(spec.lastIndexOf(':') + 1));
                }
            }
        }
        return outputs;
    }

    /** The age bound: the default, the flag's, or null after {@code --journal-max-age none}. */
    private Duration maxAge()
    {
        return maxAge == null ? JournalConfig.DEFAULT_DELETE_OLDER_THAN : maxAge == Retention.NO_AGE_LIMIT ? null :
            maxAge;
    }

    private long maxSize()
    {
        return maxSize == null ? JournalConfig.DEFAULT_MAX_TOTAL_SIZE : maxSize;
    }

    /**
     * The retention in a line, for a command to print at start (and the flags that change it); with
     * capture on, a second line saying what is captured, up to how much, and that it is personal data.
     *
     * @return the line, or null with {@code --no-journal}.
     */
    String retentionLine()
    {
        if (off)
        {
            return null;
        }
        final String retention = JournalRetention.describe(directory, maxAge(), maxSize()) +
            " (--journal-max-age, --journal-max-size; none for no bound)";
        if (!captureSources && capture.isEmpty())
        {
            return retention;
        }
        final long limit = captureLimit == null ? JournalConfig.DEFAULT_CAPTURE_LIMIT : captureLimit;
        return retention + "\n  capture: the payload bytes of " + (captureSources ? "every source's outputs" +
            (capture.isEmpty() ? "" : " and ") : "") + (capture.isEmpty() ? "" : String.join(", ", capture)) +
            " go into the journal, " + (limit == Retention.NO_SIZE_LIMIT ? "without a limit" :
                limit >= 1L << 30 ? String.format(java.util.Locale.ROOT, "up to %.1f GiB a run", limit / (double)(1L << 30)) :
                String.format(java.util.Locale.ROOT, "up to %.1f MiB a run", limit / (double)(1L << 20))) +
            " (--capture-limit); camera frames are personal data: keep and share the journal accordingly";
    }

    /**
     * The run journal this command's run made: the newest run directory under {@link #directory}
     * named with this process's id ({@code run-<date>-<time>-<pid>}, or {@code ...-<pid>-<n>}) that
     * was not there when {@link #apply} was called. Not merely the newest run: two processes sharing
     * the directory (the two sides of a split graph) would each name the other's.
     *
     * @return its directory, or null when there is none (journaling off, or the run never started).
     */
    Path lastRun()
    {
        if (off)
        {
            return null;
        }
        final String pid = Long.toString(ProcessHandle.current().pid());
        Path newest = null;
        for (final Path run : runs())
        {
            final String name = run.getFileName().toString();
            if (!before.contains(name) && ownedBy(name, pid) && (newest == null || run.compareTo(newest) > 0))
            {
                newest = run;
            }
        }
        return newest;
    }

    /** Whether a run directory's name carries this pid: {@code run-DATE-TIME-MILLIS-PID[-N]}. */
    private static boolean ownedBy(final String name, final String pid)
    {
        final String[] parts = name.split("-");
        return parts.length >= 5 && parts[4].equals(pid);
    }

    /** The run journals under {@link #directory} now (none if it is missing or cannot be read). */
    private List<Path> runs()
    {
        final List<Path> runs = new ArrayList<>();
        if (!Files.isDirectory(directory))
        {
            return runs;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(directory, "run-*"))
        {
            for (final Path child : children)
            {
                runs.add(child);
            }
        }
        catch (final IOException | DirectoryIteratorException ex)
        {
            return runs;
        }
        return runs;
    }
}
