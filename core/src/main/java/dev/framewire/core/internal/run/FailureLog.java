package dev.framewire.core.internal.run;

import dev.framewire.core.GraphFailure;
import dev.framewire.core.Timestamp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The failures of a run, in bounded memory: a node that fails on every packet under
 * {@link FailurePolicy#DROP_TIMESTAMP} fails millions of times, and keeping each failure with its
 * exception grew the heap without limit (6.4 GiB and an OutOfMemoryError in 80 s). Kept: the first
 * failure, the last {@code kept} ones with their causes, and a count per node and cause (exception
 * class) of all of them.
 *
 * <p>Each failure is logged at WARN in one line (where, timestamp, the cause's first line),
 * rate-limited per node: the first {@value #LOGGED_IN_FULL}, then one line a second per node saying
 * how many more there were and the last one. The stack traces of the first
 * {@value #LOGGED_IN_FULL} go to DEBUG: an operator's log is not a wall of traces, and the causes
 * are kept whole for {@code Graph.failures()} and {@code waitUntilDone()}.
 *
 * <p>Threading: any thread (workers, graph inputs, the watchdog); one lock, taken only when
 * something fails.
 */
public final class FailureLog
{
    static final int LOGGED_IN_FULL = 10;
    private static final long SUMMARY_NANOS = 1_000_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger("dev.framewire.core.Graph"); // the name users know

    private final int kept;
    private GraphFailure first;
    private final GraphFailure[] last;
    private long total;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, NodeLogState> logStates = new LinkedHashMap<>();

    /** Per node: how many were logged in full, how many since the last summary line, and when it was. */
    private static final class NodeLogState
    {
        public long logged;
        long unlogged;
        long lastSummaryNanos;
    }

    /**
     * @param kept the last failures kept with their causes, at least 1.
     */
    public FailureLog(final int kept)
    {
        this.kept = kept;
        this.last = new GraphFailure[kept];
    }

    /** Any thread: one failure. */
    public void add(final GraphFailure failure)
    {
        final String message;
        final boolean withCause;
        synchronized (this)
        {
            if (first == null)
            {
                first = failure;
            }
            last[(int)(total % kept)] = failure;
            total++;
            counts.merge(key(failure), 1L, Long::sum);
            final NodeLogState log = logStates.computeIfAbsent(failure.node(), n -> new NodeLogState());
            if (log.logged < LOGGED_IN_FULL)
            {
                log.logged++;
                message = firstLine(failure.toString()) + (log.logged == LOGGED_IN_FULL ?
                    " (further failures here are summarised once a second)" : "");
                withCause = true;
            }
            else
            {
                log.unlogged++;
                final long now = System.nanoTime();
                if (now - log.lastSummaryNanos < SUMMARY_NANOS)
                {
                    return;
                }
                message = where(failure) + " failed " + log.unlogged + " more times; the last at input " +
                    "timestamp " + Timestamp.toString(failure.timestamp()) + ": " + firstLine(String.valueOf(failure.cause()));
                log.unlogged = 0;
                log.lastSummaryNanos = now;
                withCause = false;
            }
        }
        LOG.warn(message);
        if (withCause && LOG.isDebugEnabled())
        {
            LOG.debug("the stack trace of: " + message, failure.cause());
        }
    }

    /** A node as {@code node 'name'}; anything else (an observer, a worker) as it names itself. */
    private static String where(final GraphFailure failure)
    {
        return failure.node().indexOf(' ') < 0 ? "node '" + failure.node() + "'" : failure.node();
    }

    private static String firstLine(final String text)
    {
        final int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl) + " [...]";
    }

    private static String key(final GraphFailure failure)
    {
        return "node '" + failure.node() + "': " + failure.cause().getClass().getName();
    }

    /** Any thread: whether anything failed. */
    public synchronized boolean isEmpty()
    {
        return total == 0;
    }

    /** Any thread: how many failures there were in all. */
    public synchronized long total()
    {
        return total;
    }

    /**
     * Any thread: the failures kept, first one first: the run's first failure, then the last
     * {@code kept} (without the first twice).
     */
    public synchronized List<GraphFailure> kept()
    {
        final List<GraphFailure> list = new ArrayList<>(kept + 1);
        if (first == null)
        {
            return list;
        }
        final long from = Math.max(0, total - kept);
        if (from > 0)
        {
            list.add(first);
        }
        for (long i = from; i < total; i++)
        {
            list.add(last[(int)(i % kept)]);
        }
        return list;
    }

    /** Any thread: the count of failures by node and cause, in the order they first happened. */
    public synchronized Map<String, Long> counts()
    {
        return new LinkedHashMap<>(counts);
    }
}
