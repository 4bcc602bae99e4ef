package dev.framewire.core.internal.sched;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SubgraphState;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * When sources take their turn: the graph's own once every node of the graph opened, layer by
 * layer ({@code source_layer}: a layer's sources run once every lower layer's closed); a hot-plugged
 * subgraph's once every node of that subgraph opened, until it is removed.
 *
 * <p>Threading: the workers that open and close nodes update it; any thread reads it.
 */
final class SourceTurns
{
    private final Scheduler scheduler;
    /** The graph's own nodes: sources run once all of them opened. */
    private final int staticNodeCount;
    private final AtomicInteger openedNodes = new AtomicInteger();
    /** Open sources per layer; guarded by its own monitor. */
    private final int[] openSourcesByLayer;
    private volatile int lowestOpenLayer;
    private volatile boolean allOpened;

    SourceTurns(final Scheduler scheduler, final Node[] nodes, final Node[] sourceNodes)
    {
        this.scheduler = scheduler;
        this.staticNodeCount = nodes.length;
        int maxLayer = 0;
        for (final Node node : nodes)
        {
            maxLayer = Math.max(maxLayer, node.sourceLayer);
        }
        this.openSourcesByLayer = new int[maxLayer + 1];
        for (final Node source : sourceNodes)
        {
            openSourcesByLayer[source.sourceLayer]++;
        }
        this.lowestOpenLayer = lowestLayer();
    }

    /**
     * Whether a source's turn has come: the graph's own once every node of the graph opened and
     * its layer is the lowest still open; a hot-plugged subgraph's once every node of its subgraph
     * opened, until the subgraph is removed (layers order the graph's own sources only).
     */
    boolean active(final Node node)
    {
        final SubgraphState subgraph = node.subgraph;
        if (subgraph != null)
        {
            return subgraph.allOpened && !subgraph.draining;
        }
        return allOpened && node.sourceLayer == lowestOpenLayer;
    }

    /** A node's worker: one of the graph's own nodes opened; once all have, the first layer's sources run. */
    void onOwnNodeOpened()
    {
        if (openedNodes.incrementAndGet() == staticNodeCount)
        {
            allOpened = true;
            scheduler.scheduleSources();
        }
    }

    /** A source's worker: one of the graph's own sources closed; once its layer has none open, the next layer's run. */
    void onOwnSourceClosed(final Node source)
    {
        synchronized (openSourcesByLayer)
        {
            openSourcesByLayer[source.sourceLayer]--;
            final int lowest = lowestLayer();
            if (lowest != lowestOpenLayer)
            {
                lowestOpenLayer = lowest;
                scheduler.scheduleSources();
            }
        }
    }

    private int lowestLayer()
    {
        for (int layer = 0; layer < openSourcesByLayer.length; layer++)
        {
            if (openSourcesByLayer[layer] > 0)
            {
                return layer;
            }
        }
        return Integer.MAX_VALUE;
    }
}
