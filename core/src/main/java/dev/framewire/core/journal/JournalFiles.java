package dev.framewire.core.journal;

import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The journal's files: run directories, owner-only permissions, deletion by age, and a scan of
 * Chronicle's {@code .cq4} files with plain reads that finds where their data ends, so that a
 * truncated or damaged file is reported instead of being mapped (reading a mapped file past its
 * end raises SIGBUS, which the JVM turns into an asynchronous {@link InternalError}).
 *
 * <p>Threading: stateless.
 */
final class JournalFiles
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalFiles.class);

    static final String METADATA = "metadata.cq4t";
    static final String SUFFIX = ".cq4";
    static final Set<PosixFilePermission> DIRECTORY_PERMISSIONS = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");
    private static final Pattern RUN_NAME = Pattern.compile("run-\\d{8}-\\d{6}-\\d{3}-\\d+(-\\d+)?");
    private static final DateTimeFormatter RUN_TIME =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);

    /** Chronicle's document header: bit 31 not complete, bit 30 meta-data, the rest the length. */
    static final int NOT_COMPLETE = 0x8000_0000;
    static final int META_DATA = 0x4000_0000;
    static final int LENGTH_MASK = 0x3FFF_FFFF;

    static
    {
        // Chronicle must never reach the network; .mvn/jvm.config sets this, but an application
        // embedding Framewire may not pass those flags. Set before any Chronicle class loads.
        if (System.getProperty("chronicle.analytics.disable") == null)
        {
            System.setProperty("chronicle.analytics.disable", "true");
        }
    }

    private JournalFiles()
    {
    }

    /** Loads this class: its static initializer must run before Chronicle's classes. */
    static void init()
    {
    }

    static boolean isPosix(final Path path)
    {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Creates the journal root if absent (owner-only) and a new run directory in it (owner-only). */
    static Path createRunDirectory(final Path root) throws IOException
    {
        final boolean posix = isPosix(root);
        if (!Files.isDirectory(root))
        {
            if (posix)
            {
                Files.createDirectories(root, PosixFilePermissions.asFileAttribute(DIRECTORY_PERMISSIONS));
            }
            else
            {
                Files.createDirectories(root);
            }
        }
        final String base = "run-" + RUN_TIME.format(Instant.now()) + "-" + ProcessHandle.current().pid();
        for (int n = 1; ; n++)
        {
            final Path run = root.resolve(n == 1 ? base : base + "-" + n);
            try
            {
                Files.createDirectory(run);
            }
            catch (final FileAlreadyExistsException ex)
            {
                continue;
            }
            if (posix)
            {
                // set after creating: a permission attribute given to createDirectory is masked by the umask
                Files.setPosixFilePermissions(run, DIRECTORY_PERMISSIONS);
            }
            return run;
        }
    }

    /** Makes a journal file owner read-write only; its directory already keeps others out. */
    static void restrictFile(final Path file)
    {
        try
        {
            if (isPosix(file) && Files.isRegularFile(file))
            {
                Files.setPosixFilePermissions(file, FILE_PERMISSIONS);
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not make journal file {} owner-only: {}", file, ex.toString());
        }
    }

    static void restrictAll(final Path run)
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                restrictFile(file);
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not list journal directory {}: {}", run, ex.toString());
        }
    }

    static boolean isRunDirectory(final Path dir)
    {
        return Files.isRegularFile(dir.resolve(METADATA));
    }

    /** Run directories under a journal root, oldest first (names sort by their UTC start time). */
    static List<Path> runs(final Path root) throws IOException
    {
        final List<Path> runs = new ArrayList<>();
        if (!Files.isDirectory(root))
        {
            return runs;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root))
        {
            for (final Path child : children)
            {
                if (RUN_NAME.matcher(child.getFileName().toString()).matches() && isRunDirectory(child))
                {
                    runs.add(child);
                }
            }
        }
        Collections.sort(runs);
        return runs;
    }

    /**
     * Deletes run journals whose newest file was modified before {@code now - age}. Only
     * directories named and shaped like run journals are touched, and in them only Chronicle's
     * files; a directory holding anything else is left in place (logged).
     *
     * @return how many runs were deleted.
     */
    static int deleteOlderThan(final Path root, final Duration age, final Path keep) throws IOException
    {
        final FileTime cutoff = FileTime.from(Instant.now().minus(age));
        int deleted = 0;
        for (final Path run : runs(root))
        {
            if (run.equals(keep) || newestModification(run).compareTo(cutoff) >= 0)
            {
                continue;
            }
            boolean foreign = false;
            try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
            {
                for (final Path file : files)
                {
                    final String name = file.getFileName().toString();
                    if (Files.isRegularFile(file) && (name.endsWith(SUFFIX) || name.endsWith(".cq4t")))
                    {
                        Files.deleteIfExists(file);
                    }
                    else
                    {
                        foreign = true;
                    }
                }
            }
            if (foreign)
            {
                LOG.warn("old journal {} holds files that are not Chronicle's; deleted its journal files, kept the rest",
                    run);
            }
            else
            {
                Files.deleteIfExists(run);
                deleted++;
            }
        }
        return deleted;
    }

    private static FileTime newestModification(final Path run) throws IOException
    {
        FileTime newest = Files.getLastModifiedTime(run);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                final FileTime t = Files.getLastModifiedTime(file);
                if (t.compareTo(newest) > 0)
                {
                    newest = t;
                }
            }
        }
        return newest;
    }

    /** The run's {@code .cq4} files in cycle order (names sort by cycle within one roll cycle). */
    static List<Path> cycleFiles(final Path run) throws IOException
    {
        final List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> children = Files.newDirectoryStream(run, "*" + SUFFIX))
        {
            for (final Path file : children)
            {
                files.add(file);
            }
        }
        Collections.sort(files);
        return files;
    }

    /**
     * The cycle number of a {@code .cq4} file, from its name (Chronicle names a cycle's file by its
     * start, in UTC, in the roll cycle's format), for Chronicle indexes.
     *
     * @return the cycle, or -1 when the name does not parse.
     */
    static int cycleOf(final Path file, final RollCycle rollCycle)
    {
        final String name = file.getFileName().toString();
        final String stem = name.endsWith(SUFFIX) ? name.substring(0, name.length() - SUFFIX.length()) : name;
        try
        {
            final TemporalAccessor t = DateTimeFormatter.ofPattern(rollCycle.format()).withZone(ZoneOffset.UTC).parse(stem);
            long seconds = t.getLong(ChronoField.EPOCH_DAY) * 86_400L;
            if (t.isSupported(ChronoField.SECOND_OF_DAY))
            {
                seconds += t.getLong(ChronoField.SECOND_OF_DAY);
            }
            else if (t.isSupported(ChronoField.HOUR_OF_DAY))
            {
                seconds += t.getLong(ChronoField.HOUR_OF_DAY) * 3600L;
            }
            return (int)(seconds * 1000L / rollCycle.lengthInMillis());
        }
        catch (final DateTimeException | ArithmeticException ex)
        {
            return -1;
        }
    }

    /** The name of a cycle's {@code .cq4} file, as Chronicle makes it (epoch 0, UTC). */
    static String cycleFileName(final RollCycle rollCycle, final int cycle)
    {
        return DateTimeFormatter.ofPattern(rollCycle.format()).withZone(ZoneOffset.UTC)
            .format(Instant.ofEpochMilli((long)cycle * rollCycle.lengthInMillis())) + SUFFIX;
    }

    /**
     * The roll cycle a file was written with, from its name's date format, so that the reader
     * opens the queue with the cycle it has (otherwise Chronicle warns that it overrides it).
     */
    static RollCycle rollCycleOf(final Path file)
    {
        final String name = file.getFileName().toString();
        final String stem = name.substring(0, name.length() - SUFFIX.length());
        for (final RollCycle cycle : RollCycles.all())
        {
            try
            {
                DateTimeFormatter.ofPattern(cycle.format()).parse(stem);
                return cycle;
            }
            catch (final DateTimeParseException | IllegalArgumentException ex)
            {
                // not this one
            }
        }
        return null;
    }
}
