package dev.framewire.journal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.framewire.journal.JournalFiles.FILE_PERMISSIONS;
import static dev.framewire.journal.JournalFiles.LOCK;

/**
 * The writer's hold on its run: an OS lock on {@link JournalFiles#LOCK}, released at close or when
 * the process dies; and the question a pruner asks before it deletes a run, whether some writer
 * holds it.
 *
 * <p>Threading: a lock is taken and closed by the writer's owner; {@link #isBeingWritten} may be
 * called from any thread (the set of runs this JVM is writing is concurrent).
 */
final class WriterLock implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(WriterLock.class);
    /**
     * Runs this JVM is writing. A pruner must not open their lock files: on Linux, closing any
     * descriptor of a file drops every POSIX lock the process holds on it, the writer's included.
     */
    private static final Set<Path> WRITING = ConcurrentHashMap.newKeySet();

    private final Path run;
    private final FileChannel channel;
    private final FileLock lock;

    private WriterLock(final Path run, final FileChannel channel, final FileLock lock)
    {
        this.run = run;
        this.channel = channel;
        this.lock = lock;
    }

    /** Creates a new run's lock file, owner-only, and takes its lock. */
    static WriterLock take(final Path run) throws IOException
    {
        final Path file = run.resolve(LOCK);
        final Set<OpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        final FileChannel channel = FileChannel.open(file, options, JournalFiles.ownerOnly(file, FILE_PERMISSIONS));
        final FileLock lock;
        try
        {
            lock = channel.tryLock();
        }
        catch (final IOException | RuntimeException ex)
        {
            channel.close();
            throw ex;
        }
        if (lock == null)
        {
            channel.close();
            throw new IOException("journal lock " + file + " is held by another process");
        }
        WRITING.add(key(run));
        return new WriterLock(run, channel, lock);
    }

    @Override
    public void close()
    {
        WRITING.remove(key(run));
        try
        {
            lock.release();
            channel.close();
        }
        catch (final IOException ex)
        {
            LOG.warn("could not release journal lock {}: {}", run.resolve(LOCK), ex.toString());
        }
    }

    /**
     * Whether a run is being written: by this JVM, or by a process holding its lock. A run without
     * a lock file was written before there were locks; it counts as being written while any of its
     * files changed in the last minute.
     */
    static boolean isBeingWritten(final Path run, final Instant now) throws IOException
    {
        if (WRITING.contains(key(run)))
        {
            return true;
        }
        final Path file = run.resolve(LOCK);
        if (!Files.exists(file))
        {
            return JournalFiles.newestModification(run).toInstant().isAfter(now.minusSeconds(60));
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final FileLock lock = channel.tryLock();
            if (lock == null)
            {
                return true;
            }
            lock.release();
            return false;
        }
        catch (final OverlappingFileLockException ex)
        {
            return true; // held in this JVM through another channel
        }
        catch (final NoSuchFileException ex)
        {
            return false;
        }
    }

    private static Path key(final Path run)
    {
        return run.toAbsolutePath().normalize();
    }
}
