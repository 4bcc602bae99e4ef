package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A run's files, the {@link JournalWriter}'s lifecycle below the records: the retention applied
 * before the run exists, the owner-only run directory and its writer lock, Chronicle's queue in it,
 * and the cycle files prepared owner-only ahead of every roll; closed in the reverse order.
 *
 * <p>Threading: {@link #open} and {@link #close} on the writer's owner; {@link #queue} from any
 * thread (Chronicle's appenders are per thread). Chronicle's releaser thread prepares the next
 * cycles through the store file listener.
 */
final class RunQueue
{
    /** The writer's logger: what the retention did is logged as the writer's. */
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

    final Path runDirectory;
    final SingleChronicleQueue queue;
    private final WriterLock lock;
    private final CyclePreparer cycles;

    private RunQueue(
        final Path runDirectory,
        final WriterLock lock,
        final CyclePreparer cycles,
        final SingleChronicleQueue queue)
    {
        this.runDirectory = runDirectory;
        this.lock = lock;
        this.cycles = cycles;
        this.queue = queue;
    }

    /**
     * Applies the retention to the runs in the config's directory, makes an owner-only run
     * directory there and takes its writer lock, prepares Chronicle's files owner-only, and opens
     * the queue.
     *
     * @param config the journal's settings, validated.
     * @return the run's files.
     * @throws UncheckedIOException if the directory or a file cannot be made.
     */
    static RunQueue open(final JournalConfig config)
    {
        JournalFiles.init();
        final RollCycle rollCycle = JournalFiles.rollCycleNamed(config.rollCycle());
        final Path run;
        final WriterLock lock;
        try
        {
            if (config.deleteOlderThan() != null || config.maxTotalSize() >= 0)
            {
                prune(config);
            }
            run = JournalFiles.createRunDirectory(config.directory());
            lock = WriterLock.take(run);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot make a journal in " + config.directory().toAbsolutePath() + ": " +
                ex.getMessage(), ex);
        }
        final CyclePreparer cycles = new CyclePreparer(run, rollCycle);
        try
        {
            return new RunQueue(run, lock, cycles, build(config, run, rollCycle, cycles));
        }
        catch (final IOException ex)
        {
            cycles.close();
            lock.close();
            throw new UncheckedIOException("cannot make a journal in " + run + ": " + ex.getMessage(), ex);
        }
        catch (final RuntimeException | Error ex)
        {
            cycles.close();
            lock.close();
            throw ex;
        }
    }

    private static SingleChronicleQueue build(
        final JournalConfig config, final Path run, final RollCycle rollCycle, final CyclePreparer cycles)
        throws IOException
    {
        // Chronicle's files, made here owner-only before Chronicle opens them: the metadata (Chronicle
        // initializes an empty one) and this cycle's and the next one's files, in case the clock
        // crosses into it before the first append; a roll later uses the file the listener prepares
        JournalFiles.createOwnerOnly(run.resolve(JournalFiles.METADATA));
        final int cycle = (int)(System.currentTimeMillis() / rollCycle.lengthInMillis());
        cycles.prepare(cycle);
        cycles.prepare(cycle + 1);
        final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.binary(run)
            .rollCycle(rollCycle)
            .checkInterrupts(false) // an interrupted worker must not lose its record
            .storeFileListener(new StoreFileListener()
            {
                @Override
                public void onAcquired(final int acquired, final File file)
                {
                    // Chronicle calls this on its background releaser thread, moments after it
                    // starts a cycle: prepare the next two, so that a roll finds its file made
                    cycles.prepare(acquired + 1);
                    cycles.prepare(acquired + 2);
                }

                @Override
                public void onReleased(final int cycle, final File file)
                {
                }
            });
        if (config.blockSize() > 0)
        {
            builder.blockSize(config.blockSize());
        }
        return builder.build();
    }

    /** The retention, applied before the new run exists. */
    private static void prune(final JournalConfig config) throws IOException
    {
        LOG.info("{}", JournalRetention.describe(config.directory(), config.deleteOlderThan(), config.maxTotalSize()));
        final List<JournalRetention.Decision> plan = JournalRetention.plan(config.directory(),
            config.deleteOlderThan(), config.maxTotalSize(), Instant.now());
        for (final JournalRetention.Outcome outcome : JournalRetention.apply(plan))
        {
            final JournalRetention.Decision d = outcome.decision();
            if (outcome.deleted())
            {
                LOG.info("deleted journal {} ({}): {}", d.run(), JournalRetention.bytes(d.bytes()), d.reason());
            }
            else
            {
                LOG.warn("journal {} was to be deleted ({}) but: {}", d.run(), d.reason(), outcome.problem());
            }
        }
    }

    /** A writer that could not be made on these files: the prepared cycles and the lock go, the queue stays as it was. */
    void abandon()
    {
        cycles.close();
        lock.close();
    }

    /** After the writer's appenders closed: the queue, the cycle files it did not need, the lock. */
    void close()
    {
        queue.close();
        cycles.close();
        JournalFiles.restrictAll(runDirectory); // a safety net: every file was made owner-only already
        lock.close();
    }
}
