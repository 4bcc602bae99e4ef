package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalException;
import dev.framewire.journal.JournalReader;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
        description = "Also write the payload bytes of these graph input streams into the journal, so that a replay " +
            "feeds the same bytes (off by default: frames are large).")
    List<String> capture = new ArrayList<>();

    @Option(names = "--journal-max-age", paramLabel = "AGE", converter = Retention.AgeConverter.class,
        description = "When the journal opens, delete runs in the journal directory last written longer ago than " +
            "AGE (90s, 30m, 12h, 7d, 2w); never a run being written.")
    Duration maxAge;

    @Option(names = "--journal-max-size", paramLabel = "SIZE", converter = Retention.SizeConverter.class,
        description = "When the journal opens, delete the oldest runs in the journal directory until the rest hold " +
            "at most SIZE (bytes, or 500M, 10G: binary units); never a run being written.")
    Long maxSize;

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
        if (off)
        {
            if (maxAge != null || maxSize != null)
            {
                throw new CommandFailure("--journal-max-age and --journal-max-size prune the journal directory when the " +
                    "run's journal opens, and --no-journal opens none: drop one, or use `framewire journal prune DIR`");
            }
            return config;
        }
        final List<String> streams = new Topology(config).streams();
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
        return config.toBuilder().journal(new JournalConfig().directory(directory)
            .captureStreams(capture.toArray(new String[0]))
            .checksumStreams(sums.toArray(new String[0]))
            .deleteOlderThan(maxAge)
            .maxTotalSize(maxSize == null ? -1 : maxSize)).build();
    }

    /**
     * The run journal a run just made: the newest under {@link #directory}.
     *
     * @return its directory, or null when there is none (journaling off, or the run never started).
     */
    Path lastRun()
    {
        if (off)
        {
            return null;
        }
        try
        {
            return JournalReader.latestRun(directory);
        }
        catch (final JournalException ex)
        {
            return null;
        }
    }
}
