package dev.framewire.journal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal never fails the run: an append that throws (disk full, say) is counted here and
 * logged once, with the first failure kept for a report, and the run goes on.
 *
 * <p>Threading: any thread (the appending threads and the journal agent).
 */
final class AppendFailures
{
    /** The writer's logger: a failed append is logged as the writer's. */
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

    private final Path runDirectory;
    private final AtomicLong count = new AtomicLong();
    private volatile Throwable first;

    AppendFailures(final Path runDirectory)
    {
        this.runDirectory = runDirectory;
    }

    void onFailure(final Throwable t)
    {
        if (count.getAndIncrement() == 0)
        {
            first = t;
            LOG.warn("journal {}: an append failed; the run goes on, later failures are only counted", runDirectory, t);
        }
    }

    long count()
    {
        return count.get();
    }

    Throwable first()
    {
        return first;
    }
}
