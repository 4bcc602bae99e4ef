package dev.framewire.micrometer;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.NodeStats;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One {@link GraphStats} snapshot that every meter of a {@link FramewireMetrics} reads: refilled
 * in place ({@link Graph#stats(GraphStats)}) when a meter is read and the last fill is older than
 * the refresh interval, so one scrape of hundreds of meters fills it once, not once per meter. A
 * figure read is therefore at most one refresh interval older than the read, and only when another
 * read came less than an interval before it.
 *
 * <p>Nodes are found by name, so a graph whose nodes change (the snapshot is then made anew)
 * still gives each meter its own node's figures; a node no longer there reads as NaN.
 *
 * <p>Threading: any thread (the registry's scrape, a publishing thread); one at a time (this
 * object's monitor, taken by readers of metrics only, never by the graph's workers).
 */
final class StatsCache
{
    private final Graph graph;
    private final long refreshNanos;
    private final Map<String, NodeStats> byName = new HashMap<>();
    private GraphStats stats;
    private long filledAtNanos;
    /** Set by {@link #current()}, the binder's look at the nodes: the first meter read refills regardless. */
    private boolean stale;

    StatsCache(final Graph graph, final long refreshNanos)
    {
        this.graph = graph;
        this.refreshNanos = refreshNanos;
        refill(System.nanoTime());
    }

    private void refill(final long now)
    {
        final GraphStats previous = stats;
        stats = graph.stats(previous);
        filledAtNanos = now;
        if (stats != previous)
        {
            byName.clear();
            for (final NodeStats node : stats.nodes())
            {
                byName.put(node.name(), node);
            }
        }
    }

    private void refresh()
    {
        final long now = System.nanoTime();
        if (stale || now - filledAtNanos >= refreshNanos)
        {
            stale = false;
            refill(now);
        }
    }

    /** The graph's figures, refreshed if stale. */
    synchronized double graph(final ToDoubleFunction<GraphStats> figure)
    {
        refresh();
        return figure.applyAsDouble(stats);
    }

    /** A node's figure, refreshed if stale; NaN if the graph has no such node any more. */
    synchronized double node(final String name, final ToDoubleFunction<NodeStats> figure)
    {
        refresh();
        final NodeStats node = byName.get(name);
        return node == null ? Double.NaN : figure.applyAsDouble(node);
    }

    /**
     * The graph's stats now, for binding: which nodes and inputs there are. The next meter read
     * refills, however soon: figures read later than the bind (say right after the run) are not
     * the ones from before it.
     */
    synchronized GraphStats current()
    {
        refill(System.nanoTime());
        stale = true;
        return stats;
    }
}
