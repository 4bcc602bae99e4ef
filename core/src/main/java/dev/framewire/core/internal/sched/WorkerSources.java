package dev.framewire.core.internal.sched;

import dev.framewire.core.internal.node.Node;

import java.util.Arrays;

/**
 * The source nodes pinned to one {@link Worker}, and the backoffs they wait out after failed calls
 * ({@code SourceRetry}): the worker queues a source again once its wait is over. The count of those
 * waiting is the worker's {@link WorkerFields#backingOff}, which its duty cycle reads first, so
 * that a worker with no source backing off reads no clock.
 *
 * <p>Threading: the worker's own thread (before the start, the thread that places the nodes).
 */
final class WorkerSources
{
    private final Worker worker;
    private Node[] sources = new Node[0];

    WorkerSources(final Worker worker)
    {
        this.worker = worker;
    }

    void add(final Node source)
    {
        sources = Arrays.copyOf(sources, sources.length + 1);
        sources[sources.length - 1] = source;
    }

    /** A removed subgraph's source leaves; a backoff it was waiting out is forgotten. */
    void remove(final Node source)
    {
        final Node[] sources = this.sources;
        for (int i = 0; i < sources.length; i++)
        {
            if (sources[i] == source)
            {
                final Node[] fewer = new Node[sources.length - 1];
                System.arraycopy(sources, 0, fewer, 0, i);
                System.arraycopy(sources, i + 1, fewer, i, sources.length - i - 1);
                this.sources = fewer;
                if (source.retry.retryAtNanos != 0)
                {
                    source.retry.retryAtNanos = 0;
                    worker.backingOff--;
                }
                return;
            }
        }
    }

    /** After a source's failed call: it is not called before {@code retryAtNanos} (System.nanoTime). */
    void backOff(final Node source, final long retryAtNanos)
    {
        if (source.retry.retryAtNanos == 0)
        {
            worker.backingOff++;
        }
        source.retry.retryAtNanos = retryAtNanos == 0 ? 1 : retryAtNanos;
    }

    /**
     * Queues the sources whose backoff is over. One clock read per duty cycle, only while a source
     * of this worker waits.
     *
     * @return how many it queued.
     */
    int wakeBackedOff()
    {
        final long now = System.nanoTime();
        int woken = 0;
        for (final Node source : sources)
        {
            final long at = source.retry.retryAtNanos;
            if (at != 0 && now - at >= 0)
            {
                source.retry.retryAtNanos = 0;
                worker.backingOff--;
                source.scheduleFromOwnWorker();
                woken++;
            }
        }
        return woken;
    }
}
