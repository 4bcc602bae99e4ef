package dev.framewire.bench.suite;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;

/**
 * Framewire as a {@link Line}: a started graph whose graph input {@code in} takes the offered
 * longs (through its handle, as a service adding on a hot path would) and whose output {@code out} is observed into {@link Arrivals#accept(long)}.
 *
 * <p>Threading: {@link #offer} from the one benchmark thread; the observer runs on a worker.
 */
final class GraphLine implements Line
{
    private final Graph graph;
    private final GraphInputHandle in;

    GraphLine(final GraphConfig config, final Arrivals arrivals)
    {
        this(config, arrivals, graph -> { });
    }

    /** The same, with something done to the graph before it starts ({@code timeProcessCalls}). */
    GraphLine(final GraphConfig config, final Arrivals arrivals, final java.util.function.Consumer<Graph> beforeStart)
    {
        graph = new Graph(config);
        graph.observe("out", packet -> arrivals.accept(packet.getLong()));
        beforeStart.accept(graph);
        graph.start();
        in = graph.input("in");
    }

    /** The graph, for benchmarks that read its counters. */
    Graph graph()
    {
        return graph;
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        return in.tryAddPacket(value, timestamp);
    }

    @Override
    public void close() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
