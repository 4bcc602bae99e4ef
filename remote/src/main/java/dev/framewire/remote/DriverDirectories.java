package dev.framewire.remote;

import io.aeron.CommonContext;
import org.agrona.IoUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The embedded drivers' directories ({@code framewire-aeron-*} under {@code /dev/shm} or the temp
 * directory): each holds a {@value #PID_FILE} file with the process that made it, and the
 * {@link #reclaim} of those whose process is gone, which a {@code kill -9} leaves behind (53 to 68
 * MB each, in memory, as {@code /dev/shm} is).
 *
 * <p>A directory is deleted only when it is certainly dead: its owner is this user, and its
 * process (by the pid file) is no longer running; or, for a directory without a pid file (an
 * earlier build's), its driver's heartbeat in {@code cnc.dat} is older than
 * {@value #STALE_SECONDS} s (Aeron's own liveness test) and the directory too. A live driver's
 * directory, one being made now, or another user's is never touched.
 *
 * <p>Threading: called under {@link RemoteDriver}'s lock; the file system is the only shared state.
 */
final class DriverDirectories
{
    static final String PREFIX = "framewire-aeron-";
    static final String PID_FILE = "pid";
    static final long STALE_SECONDS = 60;
    private static final Logger LOG = LoggerFactory.getLogger(DriverDirectories.class);

    private DriverDirectories()
    {
    }

    /** Writes this process's pid into a driver directory it made. */
    static void claim(final Path directory) throws IOException
    {
        Files.write(directory.resolve(PID_FILE), Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Deletes the driver directories under {@code base} whose process is gone.
     *
     * @return how many were deleted.
     */
    static int reclaim(final Path base)
    {
        int reclaimed = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, PREFIX + "*"))
        {
            for (final Path dir : dirs)
            {
                try
                {
                    final String why = dead(dir);
                    if (why != null)
                    {
                        final long bytes = bytes(dir);
                        IoUtil.delete(dir.toFile(), false);
                        reclaimed++;
                        LOG.info("reclaimed {} ({} MB) of an embedded Aeron driver whose process is gone: {}", dir,
                            bytes >> 20, why);
                    }
                }
                catch (final IOException | RuntimeException ex)
                {
                    LOG.warn("could not look at or reclaim {}: {}", dir, ex.toString());
                }
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not list {} for the directories of dead embedded Aeron drivers: {}", base, ex.toString());
        }
        return reclaimed;
    }

    /** Why {@code dir} is a dead process's, or null when it may be alive (or is not ours). */
    private static String dead(final Path dir) throws IOException
    {
        if (!Files.isDirectory(dir) || Files.isSymbolicLink(dir) ||
            !Files.getOwner(dir).getName().equals(System.getProperty("user.name")))
        {
            return null;
        }
        final Path pidFile = dir.resolve(PID_FILE);
        if (Files.isRegularFile(pidFile))
        {
            final long pid;
            try
            {
                pid = Long.parseLong(new String(Files.readAllBytes(pidFile), StandardCharsets.US_ASCII).trim());
            }
            catch (final NumberFormatException ex)
            {
                return null;
            }
            if (pid == ProcessHandle.current().pid() || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
            {
                return null; // alive (or its pid taken by another process: then kept, the safe side)
            }
            return "process " + pid + " is not running";
        }
        // no pid file: an earlier build's, or one being made right now
        final long ageMillis = System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis();
        if (ageMillis < TimeUnit.SECONDS.toMillis(STALE_SECONDS))
        {
            return null;
        }
        final File aeron = dir.resolve("aeron").toFile();
        if (new File(aeron, "cnc.dat").exists() &&
            CommonContext.isDriverActive(aeron, TimeUnit.SECONDS.toMillis(STALE_SECONDS), s -> { }))
        {
            return null;
        }
        return "no pid file, and no driver heartbeat for " + STALE_SECONDS + " s";
    }

    private static long bytes(final Path dir)
    {
        try (var files = Files.walk(dir))
        {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        catch (final IOException | RuntimeException ex)
        {
            return 0;
        }
    }
}
