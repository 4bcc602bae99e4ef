package dev.framewire.micrometer;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.DropReason;
import dev.framewire.core.GraphStats.InputStats;
import dev.framewire.core.GraphStats.NodeStats;
import dev.framewire.core.SubgraphExpander;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.HdrHistogram.Recorder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Binds a {@link Graph}'s counters to a Micrometer {@link MeterRegistry}, the service's own: per
 * node packets in, out and dropped (by reason), calls, queue depth per input, calls in flight and
 * time in {@code process}; per graph the off-heap bytes in use, their peak and the budget's
 * limits, and failures; and, for each {@code LatencyStampCalculator} recorder handed to it, the
 * end-to-end latency's percentiles.
 *
 * <pre>{@code
 * Graph graph = new Graph(config);
 * graph.timeProcessCalls();                       // optional: framewire.node.process (two clock reads a call)
 * FramewireMetrics metrics = FramewireMetrics.builder(graph).graphName("ingest").build();
 * metrics.bindTo(registry);
 * graph.start();
 * ...
 * metrics.close();                                // removes its meters, e.g. when the graph goes
 * }</pre>
 *
 * <p>Meters (Micrometer names; a Prometheus registry adds {@code _total}, {@code _bytes},
 * {@code _seconds} and turns dots into underscores), each tagged {@code graph}, and the node meters
 * {@code node} and {@code camera}:
 * <ul>
 *   <li>{@code framewire.node.packets.in}, {@code framewire.node.packets.out}, {@code framewire.node.calls}:
 *       function counters;</li>
 *   <li>{@code framewire.node.packets.dropped}: a function counter per {@code reason}
 *       ({@code policy}, {@code calculator}, {@code memory}, {@code failure}, {@code close});</li>
 *   <li>{@code framewire.node.queue.depth}: a gauge per input {@code stream};</li>
 *   <li>{@code framewire.node.calls.in.flight}: a gauge;</li>
 *   <li>{@code framewire.node.process}: a function timer (calls and time in {@code process}), only
 *       when the graph times its calls ({@link Graph#timeProcessCalls()}, before this binds);</li>
 *   <li>{@code framewire.offheap.used}, {@code .peak}, {@code .reserved}, {@code .max},
 *       {@code .limit.soft}, {@code .limit.hard}: gauges in bytes; {@code framewire.graph.failures}
 *       and {@code framewire.graph.memory.drops}: function counters;</li>
 *   <li>{@code framewire.latency}: gauges per {@code quantile} (0.5, 0.9, 0.99, 0.999 and 1 for the
 *       maximum) of a latency recorder's last window, and {@code framewire.latency.packets}, a
 *       function counter of what it recorded ({@link Builder#latency}).</li>
 * </ul>
 *
 * <p>The camera of a node, its {@code camera} tag, is by default the subgraph instance it was
 * expanded from: the part of its name before {@link SubgraphExpander#SEPARATOR} ({@code cam3} for
 * {@code cam3__detect}), the name a camera's subgraph is given in the graph; empty for a node of no
 * subgraph. {@link Builder#cameraOf} replaces that rule (a name prefix such as {@code cam3_}, a
 * lookup table).
 *
 * <p>Reading: the meters read one {@link GraphStats} snapshot, refilled in place at most once per
 * refresh interval ({@link Builder#refreshInterval}, 100 ms by default) when a meter is read, on the
 * reading thread. The graph's workers do nothing for it: the counters are the engine's own, read
 * with opaque or acquire loads.
 *
 * <p>The node meters follow the graph's nodes: a read that refills the snapshot and finds the
 * graph's nodes changed (a subgraph added or removed at run time) registers the new nodes' meters
 * and removes the gone nodes' from the registry, on the reading thread; {@link #sync()} does the
 * same at once. Until then a gone node's meters read NaN.
 *
 * <p>Threading: build, bind and sync from any thread; the meters may be read from any thread.
 */
public final class FramewireMetrics implements MeterBinder, AutoCloseable
{
    /** The quantiles of a latency recorder published as {@code framewire.latency}; 1 is the maximum. */
    private static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999};

    private final Graph graph;
    private final String graphName;
    private final Function<String, String> cameraOf;
    private final Tags extraTags;
    private final long refreshNanos;
    private final long latencyWindowNanos;
    private final Map<String, Recorder> latencies;
    private final List<Bound> bound = new ArrayList<>();

    /**
     * What this binder registered in one registry: the graph's meters, and each node's by node id,
     * kept in step with the graph's nodes by {@link #sync(Bound)} (under this object's monitor).
     */
    private static final class Bound
    {
        final MeterRegistry registry;
        final StatsCache cache;
        final Tags graphTags;
        final List<Meter> graphMeters = new ArrayList<>();
        final Map<Integer, List<Meter>> nodeMeters = new LinkedHashMap<>();
        boolean closed;

        Bound(final MeterRegistry registry, final StatsCache cache, final Tags graphTags)
        {
            this.registry = registry;
            this.cache = cache;
            this.graphTags = graphTags;
        }
    }

    private FramewireMetrics(final Builder b)
    {
        this.graph = b.graph;
        this.graphName = b.graphName;
        this.cameraOf = b.cameraOf;
        this.extraTags = b.tags;
        this.refreshNanos = b.refresh.toNanos();
        this.latencyWindowNanos = b.latencyWindow.toNanos();
        this.latencies = new LinkedHashMap<>(b.latencies);
    }

    /**
     * A binder of {@code graph} with the defaults: graph name {@code "graph"}, cameras by subgraph,
     * no latency recorders.
     *
     * @param graph the graph.
     * @return the binder.
     */
    public static FramewireMetrics of(final Graph graph)
    {
        return builder(graph).build();
    }

    /**
     * A builder of a binder of {@code graph}.
     *
     * @param graph the graph.
     * @return the builder.
     */
    public static Builder builder(final Graph graph)
    {
        return new Builder(graph);
    }

    /**
     * The default camera of a node: the subgraph instance it belongs to, the part of its name
     * before the first {@link SubgraphExpander#SEPARATOR}, or "" for a node of no subgraph.
     *
     * @param node a node's name.
     * @return its camera, or "".
     */
    public static String subgraphOf(final String node)
    {
        final int at = node.indexOf(SubgraphExpander.SEPARATOR);
        return at > 0 ? node.substring(0, at) : "";
    }

    @Override
    public void bindTo(final MeterRegistry registry)
    {
        final StatsCache cache = new StatsCache(graph, refreshNanos);
        final Bound b = new Bound(registry, cache, Tags.of("graph", graphName).and(extraTags));
        cache.onNodesChanged(() -> sync(b));
        final Tags graphTags = b.graphTags;
        final List<Meter> meters = b.graphMeters;
        // The function counters and timers below hold their state object weakly (Micrometer's
        // rule), and the cache is theirs: this gauge holds it strongly, so the meters live as long
        // as they are registered, whether or not the caller keeps this binder.
        meters.add(Gauge.builder("framewire.offheap.used", cache, c -> c.graph(GraphStats::offHeapBytesInUse))
            .strongReference(true).tags(graphTags).baseUnit(BaseUnits.BYTES)
            .description("Off-heap bytes in use in the graph's payload pool").register(registry));
        meters.add(graphGauge(registry, cache, graphTags, "framewire.offheap.peak", GraphStats::offHeapPeakBytes,
            "The most off-heap bytes in use at once so far"));
        meters.add(graphGauge(registry, cache, graphTags, "framewire.offheap.reserved",
            GraphStats::offHeapReservedBytes, "Off-heap bytes of slabs the pool has allocated"));
        meters.add(graphGauge(registry, cache, graphTags, "framewire.offheap.max", GraphStats::offHeapMaxBytes,
            "The memory budget: the most slab bytes the pool may allocate"));
        meters.add(graphGauge(registry, cache, graphTags, "framewire.offheap.limit.soft",
            GraphStats::offHeapSoftLimitBytes, "Off-heap bytes in use above which sources are held back"));
        meters.add(graphGauge(registry, cache, graphTags, "framewire.offheap.limit.hard",
            GraphStats::offHeapHardLimitBytes, "Off-heap bytes in use no acquire may pass"));
        meters.add(FunctionCounter.builder("framewire.graph.failures", cache, c -> c.graph(GraphStats::failures))
            .tags(graphTags).description("Failures of the graph's run so far").register(registry));
        meters.add(FunctionCounter.builder("framewire.graph.memory.drops", cache,
                c -> c.graph(GraphStats::memoryDrops))
            .tags(graphTags).description("Packets dropped to stay within the memory budget").register(registry));
        for (final Map.Entry<String, Recorder> e : latencies.entrySet())
        {
            final String node = e.getKey();
            final LatencyWindow window = new LatencyWindow(e.getValue(), latencyWindowNanos);
            final Tags tags = graphTags.and("node", node, "camera", Objects.requireNonNullElse(cameraOf.apply(node), ""));
            meters.add(FunctionCounter.builder("framewire.latency.packets", window, LatencyWindow::packets)
                .tags(tags).description("Packets whose end-to-end latency was recorded").register(registry));
            for (final double q : QUANTILES)
            {
                meters.add(Gauge.builder("framewire.latency", window, w -> w.percentileNanos(q * 100) / 1e9)
                    .strongReference(true).tags(tags.and("quantile", Double.toString(q))).baseUnit("seconds")
                    .description("End-to-end latency, from the graph input to the recording node: a quantile of the " +
                        "last window").register(registry));
            }
            meters.add(Gauge.builder("framewire.latency", window, w -> w.maxNanos() / 1e9)
                .strongReference(true).tags(tags.and("quantile", "1.0")).baseUnit("seconds")
                .description("End-to-end latency, from the graph input to the recording node: a quantile of the " +
                    "last window").register(registry));
        }
        synchronized (bound)
        {
            bound.add(b);
        }
        sync(b);
    }

    /**
     * Makes the node meters match the graph's nodes now, in every registry this binder is bound to:
     * registers the meters of nodes added since (a subgraph added with {@link Graph#addSubgraph}),
     * and removes from the registry those of nodes gone (a subgraph removed, or left). The meters
     * also do this by themselves, on the reading thread, when a read refills the snapshot and finds
     * the graph's nodes changed (at most one refresh interval late, so usually by the next scrape);
     * a service that wants the meters right after a change calls this. The graph's meters and the
     * other nodes' are untouched.
     */
    public void sync()
    {
        final List<Bound> all;
        synchronized (bound)
        {
            all = List.copyOf(bound);
        }
        for (final Bound b : all)
        {
            sync(b);
        }
    }

    /** Any thread (a caller, or a meter's reader): one registry's node meters to the graph's nodes. */
    private void sync(final Bound b)
    {
        synchronized (b)
        {
            if (b.closed)
            {
                return;
            }
            final GraphStats stats = b.cache.current();
            final boolean timed = stats.processCallsTimed();
            final Set<Integer> present = new HashSet<>();
            for (final NodeStats node : stats.nodes())
            {
                present.add(node.id());
            }
            // gone first: a node of the same name added in its place registers the same meter ids
            for (final Iterator<Map.Entry<Integer, List<Meter>>> it = b.nodeMeters.entrySet().iterator(); it.hasNext(); )
            {
                final Map.Entry<Integer, List<Meter>> e = it.next();
                if (!present.contains(e.getKey()))
                {
                    for (final Meter meter : e.getValue())
                    {
                        b.registry.remove(meter);
                    }
                    it.remove();
                }
            }
            for (final NodeStats node : stats.nodes())
            {
                if (!b.nodeMeters.containsKey(node.id()))
                {
                    b.nodeMeters.put(node.id(), nodeMeters(b, node, timed));
                }
            }
        }
    }

    /** One node's meters, reading it by id. */
    private List<Meter> nodeMeters(final Bound b, final NodeStats node, final boolean timed)
    {
        final MeterRegistry registry = b.registry;
        final StatsCache cache = b.cache;
        final List<Meter> meters = new ArrayList<>();
        final int id = node.id();
        final String name = node.name();
        final String camera = Objects.requireNonNullElse(cameraOf.apply(name), "");
        final Tags tags = b.graphTags.and("node", name, "camera", camera);
        meters.add(nodeCounter(registry, cache, tags, id, "framewire.node.packets.in", NodeStats::packetsIn,
            "Packets that arrived on the node's inputs"));
        meters.add(nodeCounter(registry, cache, tags, id, "framewire.node.packets.out", NodeStats::packetsOut,
            "Packets the node emitted that went out"));
        meters.add(nodeCounter(registry, cache, tags, id, "framewire.node.calls", NodeStats::calls,
            "Calls of the node: input sets processed, or a source's calls"));
        for (final DropReason reason : DropReason.values())
        {
            meters.add(nodeCounter(registry, cache, tags.and("reason", reason.tag()), id,
                "framewire.node.packets.dropped", n -> n.drops(reason), "Packets the node dropped, by reason"));
        }
        meters.add(Gauge.builder("framewire.node.calls.in.flight", cache,
                c -> c.node(id, NodeStats::callsInFlight))
            .tags(tags).description("Calls of the node in flight now").register(registry));
        final List<InputStats> inputs = node.inputs();
        for (int i = 0; i < inputs.size(); i++)
        {
            final int input = i;
            meters.add(Gauge.builder("framewire.node.queue.depth", cache,
                    c -> c.node(id, n -> n.inputs().get(input).queued()))
                .tags(tags.and("stream", inputs.get(i).stream()))
                .description("Packets queued on one input of the node").register(registry));
        }
        if (timed)
        {
            meters.add(FunctionTimer.builder("framewire.node.process", cache,
                    c -> (long)c.node(id, NodeStats::calls), c -> c.node(id, NodeStats::processNanos),
                    TimeUnit.NANOSECONDS)
                .tags(tags).description("Calls of the node and their time in process").register(registry));
        }
        return meters;
    }

    private static Meter graphGauge(
        final MeterRegistry registry,
        final StatsCache cache,
        final Tags tags,
        final String meter,
        final ToDoubleFunction<GraphStats> figure,
        final String description)
    {
        return Gauge.builder(meter, cache, c -> c.graph(figure)).tags(tags).baseUnit(BaseUnits.BYTES)
            .description(description).register(registry);
    }

    private static Meter nodeCounter(
        final MeterRegistry registry,
        final StatsCache cache,
        final Tags tags,
        final int node,
        final String meter,
        final ToDoubleFunction<NodeStats> figure,
        final String description)
    {
        return FunctionCounter.builder(meter, cache, c -> c.node(node, figure)).tags(tags).description(description)
            .register(registry);
    }

    /**
     * Removes every meter this binder registered, from every registry it was bound to: for a graph
     * that goes (a camera removed) while the service and its registry stay.
     */
    @Override
    public void close()
    {
        final List<Bound> all;
        synchronized (bound)
        {
            all = List.copyOf(bound);
            bound.clear();
        }
        for (final Bound b : all)
        {
            synchronized (b)
            {
                b.closed = true;
                for (final Meter meter : b.graphMeters)
                {
                    b.registry.remove(meter);
                }
                for (final List<Meter> meters : b.nodeMeters.values())
                {
                    for (final Meter meter : meters)
                    {
                        b.registry.remove(meter);
                    }
                }
                b.nodeMeters.clear();
            }
        }
    }

    /** How a {@link FramewireMetrics} tags and reads; see its class comment. */
    public static final class Builder
    {
        private final Graph graph;
        private String graphName = "graph";
        private Function<String, String> cameraOf = FramewireMetrics::subgraphOf;
        private Tags tags = Tags.empty();
        private Duration refresh = Duration.ofMillis(100);
        private Duration latencyWindow = Duration.ofSeconds(1);
        private final Map<String, Recorder> latencies = new LinkedHashMap<>();

        private Builder(final Graph graph)
        {
            this.graph = Objects.requireNonNull(graph, "graph");
        }

        /**
         * The {@code graph} tag of every meter (default {@code "graph"}): tells the graphs of one
         * service apart.
         *
         * @param name the name.
         * @return this builder.
         */
        public Builder graphName(final String name)
        {
            if (name == null || name.isBlank())
            {
                throw new IllegalArgumentException("graphName: the graph tag needs a name, not " +
                    (name == null ? "null" : "'" + name + "'"));
            }
            this.graphName = name;
            return this;
        }

        /**
         * How a node's name gives its {@code camera} tag (default {@link FramewireMetrics#subgraphOf}):
         * return "" (or null) for a node of no camera.
         *
         * @param rule node name to camera.
         * @return this builder.
         */
        public Builder cameraOf(final Function<String, String> rule)
        {
            this.cameraOf = Objects.requireNonNull(rule, "cameraOf");
            return this;
        }

        /**
         * Tags added to every meter (a host, a region), after {@code graph}.
         *
         * @param extra the tags.
         * @return this builder.
         */
        public Builder tags(final Iterable<Tag> extra)
        {
            this.tags = this.tags.and(extra);
            return this;
        }

        /**
         * How stale a read may be: a meter read more than this after the last refill refills the
         * snapshot (default 100 ms, so a scrape refills once). {@link Duration#ZERO} refills on
         * every read.
         *
         * @param interval the interval, zero or more.
         * @return this builder.
         */
        public Builder refreshInterval(final Duration interval)
        {
            if (interval == null || interval.isNegative())
            {
                throw new IllegalArgumentException("refreshInterval must be zero or more, was " + interval);
            }
            this.refresh = interval;
            return this;
        }

        /**
         * The shortest window of a latency recorder's quantiles (default 1 s): a read of a
         * {@code framewire.latency} gauge at least this long after the window began starts a new one
         * with the packets recorded since; the reads of one scrape, closer together, share a window.
         * Set it below the scrape interval.
         *
         * @param window the shortest window, above zero.
         * @return this builder.
         */
        public Builder latencyWindow(final Duration window)
        {
            if (window == null || window.isNegative() || window.isZero())
            {
                throw new IllegalArgumentException("latencyWindow must be above zero, was " + window);
            }
            this.latencyWindow = window;
            return this;
        }

        /**
         * Publishes the end-to-end latency a {@code LatencyStampCalculator} node records into
         * {@code recorder} (its {@code RECORDER} side packet) as {@code framewire.latency}
         * quantiles over a window ({@link #latencyWindow}), tagged with that node and its camera. This binder then reads the recorder's
         * intervals ({@code getIntervalHistogram}): nothing else may.
         *
         * @param node     the LatencyStampCalculator node's name.
         * @param recorder its recorder.
         * @return this builder.
         */
        public Builder latency(final String node, final Recorder recorder)
        {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(recorder, "recorder");
            if (latencies.putIfAbsent(node, recorder) != null)
            {
                throw new IllegalArgumentException("latency: node '" + node + "' has a recorder already");
            }
            return this;
        }

        /**
         * The binder.
         *
         * @return it.
         */
        public FramewireMetrics build()
        {
            for (final String node : latencies.keySet())
            {
                graph.stats().node(node); // throws naming the graph's nodes
            }
            return new FramewireMetrics(this);
        }
    }
}
