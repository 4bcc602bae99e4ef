package dev.framewire.journal;

import net.openhft.chronicle.queue.RollCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.framewire.journal.JournalFiles.PRECREATED_SUFFIX;
import static dev.framewire.journal.JournalFiles.SUFFIX;

/**
 * Prepares cycles' files owner-only ahead of Chronicle, for one run: each cycle's file as
 * {@code <cycle>.precreated}, which Chronicle renames to the cycle's {@code .cq4} when it starts
 * that cycle (see {@link JournalFiles} for why). Chronicle tells its store-file listener that a
 * cycle started on its background releaser thread, possibly after the writer closed: once closed,
 * this prepares nothing more, so the unused files it deletes at close stay deleted.
 *
 * <p>Threading: the releaser's thread and the closing thread; synchronized.
 */
final class CyclePreparer
{
    private static final Logger LOG = LoggerFactory.getLogger(CyclePreparer.class);

    private final Path run;
    private final RollCycle rollCycle;
    private boolean closed;

    CyclePreparer(final Path run, final RollCycle rollCycle)
    {
        this.run = run;
        this.rollCycle = rollCycle;
    }

    /**
     * Creates, owner-only, the file Chronicle will rename to {@code cycle}'s {@code .cq4} when it
     * starts that cycle, unless the cycle's file or the pre-created one exists already, or this
     * preparer is closed.
     */
    synchronized void prepare(final int cycle)
    {
        if (!closed)
        {
            precreate(cycle);
        }
    }

    /** Prepares nothing more, and deletes what was prepared and not used. */
    synchronized void close()
    {
        closed = true;
        deleteUnusedPrecreated();
    }

    private void precreate(final int cycle)
    {
        final String name = JournalFiles.cycleFileName(rollCycle, cycle);
        final Path file = run.resolve(name);
        final Path precreated = run.resolve(name.substring(0, name.length() - SUFFIX.length()) + PRECREATED_SUFFIX);
        try
        {
            if (!Files.exists(file))
            {
                JournalFiles.createOwnerOnly(precreated);
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not prepare journal file {} owner-only (Chronicle will make it with the umask's mode " +
                "in an owner-only directory): {}", precreated, ex.toString());
        }
    }

    /** Deletes pre-created cycle files Chronicle did not use (the run ended before their cycle). */
    private void deleteUnusedPrecreated()
    {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run, "*" + PRECREATED_SUFFIX))
        {
            for (final Path file : files)
            {
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("could not delete unused pre-created journal files in {}: {}", run, ex.toString());
        }
    }
}
