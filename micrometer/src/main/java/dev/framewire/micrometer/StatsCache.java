package dev.framewire.micrometer;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.NodeStats;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.function.ToDoubleFunction;

/**
 * One {@link GraphStats} snapshot that every meter of a {@link FramewireMetrics} reads: refilled
 * in place ({@link Graph#stats(GraphStats)}) when a meter is read and the last fill is older than
 * the refresh interval, so one scrape of hundreds of meters fills it once, not once per meter. A
 * figure read is therefore at most one refresh interval older than the read, and only when another
 * read came less than an interval before it.
 *
 * <p>Nodes are found by id ({@link NodeStats#id()}), so a graph whose nodes change (the snapshot
 * is then made anew) still gives each meter its own node's figures, and a node no longer there reads
 * as NaN, even when a node of the same name has come in its place (a subgraph removed and added
 * again). A refill that finds the graph's nodes changed runs the binder's {@code onNodesChanged}
 * once the read is done, outside this object's monitor, so that the binder's meters follow the
 * graph's nodes.
 *
 * <p>Threading: any thread (the registry's scrape, a publishing thread); one at a time (this
 * object's monitor, taken by readers of metrics only, never by the graph's workers).
 */
final class StatsCache
{
    private final Graph graph;
    private final long refreshNanos;
    private final Int2ObjectHashMap<NodeStats> byId = new Int2ObjectHashMap<>();
    private GraphStats stats;
    private long filledAtNanos;
    /** Set by {@link #current()}, the binder's look at the nodes: the first meter read refills regardless. */
    private boolean stale;
    /** A refill found other nodes than {@link #current()} last gave the binder. */
    private volatile boolean nodesChanged;
    /** What the binder does when the nodes changed: make its meters match them; set once, before any read. */
    private volatile Runnable onNodesChanged = () -> { };

    StatsCache(final Graph graph, final long refreshNanos)
    {
        this.graph = graph;
        this.refreshNanos = refreshNanos;
        refill(System.nanoTime());
        nodesChanged = false;
    }

    void onNodesChanged(final Runnable action)
    {
        this.onNodesChanged = action;
    }

    private void refill(final long now)
    {
        final GraphStats previous = stats;
        stats = graph.stats(previous);
        filledAtNanos = now;
        if (stats != previous)
        {
            byId.clear();
            for (final NodeStats node : stats.nodes())
            {
                byId.put(node.id(), node);
            }
            nodesChanged = true;
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
    double graph(final ToDoubleFunction<GraphStats> figure)
    {
        final double value;
        synchronized (this)
        {
            refresh();
            value = figure.applyAsDouble(stats);
        }
        followNodes();
        return value;
    }

    /** A node's figure, refreshed if stale; NaN if the graph has no such node any more. */
    double node(final int id, final ToDoubleFunction<NodeStats> figure)
    {
        final double value;
        synchronized (this)
        {
            refresh();
            final NodeStats node = byId.get(id);
            value = node == null ? Double.NaN : figure.applyAsDouble(node);
        }
        followNodes();
        return value;
    }

    private void followNodes()
    {
        if (nodesChanged)
        {
            onNodesChanged.run();
        }
    }

    /**
     * The graph's stats now, for binding: which nodes and inputs there are. The next meter read
     * refills, however soon: figures read later than the bind (say right after the run) are not
     * the ones from before it.
     */
    synchronized GraphStats current()
    {
        refill(System.nanoTime());
        nodesChanged = false;
        stale = true;
        return stats;
    }
}
