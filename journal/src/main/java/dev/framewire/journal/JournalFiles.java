package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.DateTimeException;
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
 * The journal's files: run directories and their files, created owner-only from the start; what a
 * run holds in bytes; deleting a run; and the names of Chronicle's cycle files and roll cycles.
 * The writer's lock on its run is {@link WriterLock}; the cycles' files made ahead of Chronicle,
 * {@link CyclePreparer}.
 *
 * <p>Owner-only from the start: a file created with a permission attribute gets it in the same
 * system call (the umask can only take bits away, and {@code rw-------} has none it would take).
 * Chronicle creates its files itself, with the umask's mode, so the writer creates them first:
 * {@code metadata.cq4t} empty before the queue opens (Chronicle initializes an empty one), and
 * each cycle's file as {@code <cycle>.precreated}, which Chronicle renames into place when it
 * starts that cycle (its pre-created files mechanism, {@code PrecreatedFiles}); the mode goes
 * with the rename. A crash at any moment leaves no file of the run readable by others.
 *
 * <p>Threading: stateless.
 */
final class JournalFiles
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalFiles.class);

    static final String METADATA = "metadata.cq4t";
    static final String SUFFIX = ".cq4";
    /** Chronicle renames {@code <cycle>.precreated} to {@code <cycle>.cq4} when it starts that cycle. */
    static final String PRECREATED_SUFFIX = ".precreated";
    /** Held (an OS file lock) by the writer of a run while it writes; the OS drops it when the process dies. */
    static final String LOCK = "writer.lock";
    static final Set<PosixFilePermission> DIRECTORY_PERMISSIONS = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-------");
    private static final Pattern RUN_NAME = Pattern.compile("run-\\d{8}-\\d{6}-\\d{3}-\\d+(-\\d+)?");
    private static final DateTimeFormatter RUN_TIME =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);
    /** What {@code du} counts for a sparse file: whole blocks up to the last byte written. */
    private static final int BLOCK = 4096;

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

    /** The attribute that creates a file or directory with {@code permissions}, where the file system has them. */
    static FileAttribute<?>[] ownerOnly(final Path path, final Set<PosixFilePermission> permissions)
    {
        return isPosix(path) ? new FileAttribute<?>[]{PosixFilePermissions.asFileAttribute(permissions)} :
            new FileAttribute<?>[0];
    }

    /**
     * Creates the journal root if absent and a new run directory in it, both owner-only from the
     * start. An existing root is left as it is.
     */
    static Path createRunDirectory(final Path root) throws IOException
    {
        if (!Files.isDirectory(root))
        {
            Files.createDirectories(root, ownerOnly(root, DIRECTORY_PERMISSIONS));
        }
        final String base = "run-" + RUN_TIME.format(Instant.now()) + "-" + ProcessHandle.current().pid();
        for (int n = 1; ; n++)
        {
            final Path run = root.resolve(n == 1 ? base : base + "-" + n);
            try
            {
                Files.createDirectory(run, ownerOnly(run, DIRECTORY_PERMISSIONS));
            }
            catch (final FileAlreadyExistsException ex)
            {
                continue;
            }
            if (isPosix(run))
            {
                // a umask that takes the owner's own bits would leave it unusable: set what was meant
                Files.setPosixFilePermissions(run, DIRECTORY_PERMISSIONS);
            }
            return run;
        }
    }

    /**
     * Creates an empty file, owner-only ({@code rw-------}) from the start.
     *
     * @return false if it existed already (it is left as it is).
     */
    static boolean createOwnerOnly(final Path file) throws IOException
    {
        try
        {
            Files.createFile(file, ownerOnly(file, FILE_PERMISSIONS));
            return true;
        }
        catch (final FileAlreadyExistsException ex)
        {
            return false;
        }
    }

    /**
     * Checks that every file of a run is owner-only, and makes it so where it is not: a safety
     * net at close (a file made with the umask's mode would mean Chronicle made one the writer
     * did not prepare).
     *
     * @return how many files had to be restricted.
     */
    static int restrictAll(final Path run)
    {
        int restricted = 0;
        if (!isPosix(run))
        {
            return 0;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                if (Files.isRegularFile(file) && !Files.getPosixFilePermissions(file).equals(FILE_PERMISSIONS))
                {
                    Files.setPosixFilePermissions(file, FILE_PERMISSIONS);
                    LOG.warn("journal file {} was not created owner-only; it is now", file);
                    restricted++;
                }
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not check the permissions of journal directory {}: {}", run, ex.toString());
        }
        return restricted;
    }

    // ---------------------------------------------------------------- runs

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

    /** A file the journal writes: Chronicle's, a pre-created one, or the lock. */
    static boolean isJournalFile(final Path file)
    {
        final String name = file.getFileName().toString();
        return Files.isRegularFile(file) && (name.endsWith(SUFFIX) || name.endsWith(".cq4t") ||
            name.endsWith(PRECREATED_SUFFIX) || name.equals(LOCK));
    }

    /**
     * Deletes a run's journal files, then its directory if nothing else is in it.
     *
     * @return false when the directory holds files that are not the journal's: they and it are kept (logged).
     */
    static boolean deleteRun(final Path run) throws IOException
    {
        boolean foreign = false;
        // the lock last: while it is there, the directory still reads as a run with a (released) lock
        final List<Path> journalFiles = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                if (isJournalFile(file))
                {
                    journalFiles.add(file);
                }
                else
                {
                    foreign = true;
                }
            }
        }
        journalFiles.sort((a, b) -> Boolean.compare(a.getFileName().toString().equals(LOCK),
            b.getFileName().toString().equals(LOCK)));
        for (final Path file : journalFiles)
        {
            Files.deleteIfExists(file);
        }
        if (foreign)
        {
            LOG.warn("old journal {} holds files that are not the journal's; deleted its journal files, kept the rest",
                run);
            return false;
        }
        Files.deleteIfExists(run);
        return true;
    }

    static FileTime newestModification(final Path run) throws IOException
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

    /**
     * The bytes a run's files hold: each of Chronicle's files ({@code .cq4}, {@code .cq4t}) up to
     * its last non-zero byte, in whole 4 KiB blocks (Chronicle makes its files long up front, tens
     * of MiB for a cycle, and writes them from the start; the rest is a sparse tail that takes no
     * disk), every other file by its size: about what {@code du} says. Reads each of Chronicle's
     * files' zero tail, backwards.
     */
    static long runBytes(final Path run) throws IOException
    {
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                if (!Files.isRegularFile(file))
                {
                    continue;
                }
                final String name = file.getFileName().toString();
                bytes += name.endsWith(SUFFIX) || name.endsWith(".cq4t") ? usedBytes(file) : Files.size(file);
            }
        }
        return bytes;
    }

    /** A file's bytes up to its last non-zero one, rounded up to whole blocks. */
    static long usedBytes(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            final byte[] bytes = chunk.array();
            long end = channel.size();
            while (end > 0)
            {
                final int n = (int)Math.min(bytes.length, end);
                final long from = end - n;
                chunk.clear().limit(n);
                int read = 0;
                while (read < n)
                {
                    final int r = channel.read(chunk, from + read);
                    if (r < 0)
                    {
                        break;
                    }
                    read += r;
                }
                for (int i = read - 1; i >= 0; i--)
                {
                    if (bytes[i] != 0)
                    {
                        return (from + i + BLOCK) / BLOCK * BLOCK;
                    }
                }
                end = from;
            }
            return 0;
        }
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
     * The roll cycle {@link JournalConfig#rollCycle(String)} names: one of Chronicle's, by its enum
     * constant's name ({@code FAST_HOURLY}), among {@code RollCycles.all()} (Chronicle's
     * {@code RollCycles} and its large, sparse and test ones).
     *
     * @throws IllegalArgumentException for a name Chronicle does not have, listing those it has.
     */
    static RollCycle rollCycleNamed(final String name)
    {
        final List<String> names = new ArrayList<>();
        for (final RollCycle cycle : RollCycles.all())
        {
            final String cycleName = cycle instanceof Enum ? ((Enum<?>)cycle).name() : cycle.toString();
            if (cycleName.equals(name))
            {
                return cycle;
            }
            names.add(cycleName);
        }
        throw new IllegalArgumentException("journal rollCycle '" + name + "' is not one of Chronicle Queue's roll " +
            "cycles; they are " + String.join(", ", names) + " (default " + JournalConfig.DEFAULT_ROLL_CYCLE + ")");
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
