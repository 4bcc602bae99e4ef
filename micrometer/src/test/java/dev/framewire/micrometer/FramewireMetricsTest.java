package dev.framewire.micrometer;

import dev.framewire.core.Calculator;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.DropReason;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.Recorder;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FramewireMetrics} in a {@link SimpleMeterRegistry}: every meter's value checked against the
 * engine's own counters ({@link Graph#callCount}, {@link Graph#dropCount}, {@link Graph#stats()},
 * the pool's budget) and what the test fed in.
 */
@Timeout(60)
class FramewireMetricsTest
{
    private static final int PACKETS = 60;

    /**
     * Two cameras as subgraph instances ({@code cam0__...}, {@code cam1__...}) and a node of no
     * camera that joins them: each camera passes its packets on, cam0 drops its odd timestamps.
     */
    private static GraphConfig cameras(final NanoClock clock)
    {
        final Calculator pass = ctx ->
        {
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        };
        final Calculator halve = ctx ->
        {
            if (ctx.inputTimestamp() % 2 == 0)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }
            else
            {
                ctx.countDrop();
            }
        };
        return GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, IdleKind.PARK))
            .clock(clock)
            .inputStream("in0").inputStream("in1")
            .node("cam0__pass", n -> n.calculator(() -> pass).inputStream("in0").outputStream("cam0__passed"))
            .node("cam0__halve", n -> n.calculator(() -> halve).inputStream("cam0__passed").outputStream("out0"))
            .node("cam1__pass", n -> n.calculator(() -> pass).inputStream("in1").outputStream("out1"))
            .node("join", n -> n.calculator(() -> ctx -> { }).inputStream("out0").inputStream("out1")
                .inputPolicy(dev.framewire.core.InputPolicy.immediate()))
            .build();
    }

    private static void feed(final Graph graph) throws InterruptedException
    {
        final GraphInputHandle in0 = graph.input("in0");
        final GraphInputHandle in1 = graph.input("in1");
        for (long ts = 0; ts < PACKETS; ts++)
        {
            in0.addPacket(ts, ts);
            in1.addPacket(ts, ts);
        }
        graph.closeAllInputs();
    }

    private static double counter(final SimpleMeterRegistry registry, final String name, final String... tags)
    {
        return registry.get(name).tags(tags).functionCounter().count();
    }

    @Test
    void nodeCountersAreTheEngineCountersTaggedWithGraphNodeAndCamera() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AtomicLong now = new AtomicLong();
        try (Graph graph = new Graph(cameras(now::get)))
        {
            graph.timeProcessCalls();
            final FramewireMetrics metrics = FramewireMetrics.builder(graph).graphName("ingest")
                .tags(Tags.of("host", "test")).refreshInterval(Duration.ZERO).build();
            metrics.bindTo(registry);
            graph.start();
            feed(graph);
            graph.waitUntilDone();

            final GraphStats stats = graph.stats();
            for (final String node : List.of("cam0__pass", "cam0__halve", "cam1__pass", "join"))
            {
                final String camera = node.startsWith("cam") ? node.substring(0, 4) : "";
                final String[] tags = {"graph", "ingest", "node", node, "camera", camera, "host", "test"};
                assertEquals(graph.callCount(node), counter(registry, "framewire.node.calls", tags), node);
                assertEquals(stats.node(node).packetsIn(), counter(registry, "framewire.node.packets.in", tags), node);
                assertEquals(stats.node(node).packetsOut(), counter(registry, "framewire.node.packets.out", tags),
                    node);
                double dropped = 0;
                for (final DropReason reason : DropReason.values())
                {
                    dropped += registry.get("framewire.node.packets.dropped").tags(tags)
                        .tag("reason", reason.tag()).functionCounter().count();
                }
                assertEquals(graph.dropCount(node), dropped, node + ": every reason adds up to the engine's count");
                assertEquals(0, registry.get("framewire.node.calls.in.flight").tags(tags).gauge().value(), node);
                assertEquals(graph.callCount(node), registry.get("framewire.node.process").tags(tags)
                    .functionTimer().count(), node);
            }
            assertEquals(PACKETS, counter(registry, "framewire.node.packets.in", "node", "cam0__pass"));
            assertEquals(PACKETS, counter(registry, "framewire.node.packets.out", "node", "cam0__pass"));
            assertEquals(PACKETS / 2, counter(registry, "framewire.node.packets.out", "node", "cam0__halve"));
            assertEquals(PACKETS / 2, counter(registry, "framewire.node.packets.dropped", "node", "cam0__halve",
                "reason", "calculator"));
            assertEquals(PACKETS / 2 + PACKETS, counter(registry, "framewire.node.packets.in", "node", "join"));
            assertEquals(Set.of("cam0", "cam1", ""), registry.find("framewire.node.calls").functionCounters().stream()
                .map(c -> c.getId().getTag("camera")).collect(Collectors.toSet()));
            assertEquals(Set.of("in0", "in1", "cam0__passed", "out0", "out1"),
                registry.find("framewire.node.queue.depth").gauges().stream()
                    .map(g -> g.getId().getTag("stream")).collect(Collectors.toSet()));
        }
    }

    @Test
    void processTimeIsTheGraphClocksTimeInProcess() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AtomicLong now = new AtomicLong();
        final Calculator takesTwoMicroseconds = ctx -> now.addAndGet(2_000);
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .clock(now::get)
            .inputStream("in")
            .node("work", n -> n.calculator(() -> takesTwoMicroseconds).inputStream("in"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.timeProcessCalls();
            FramewireMetrics.builder(graph).refreshInterval(Duration.ZERO).build().bindTo(registry);
            graph.start();
            for (long ts = 0; ts < 25; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final var timer = registry.get("framewire.node.process").tag("node", "work").functionTimer();
            assertEquals(25, timer.count());
            assertEquals(25 * 2_000, timer.totalTime(TimeUnit.NANOSECONDS), 1e-6);
            assertEquals(2_000, timer.mean(TimeUnit.NANOSECONDS), 1e-6);
        }
    }

    @Test
    void withoutCallTimingThereIsNoProcessTimer()
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(cameras(System::nanoTime)))
        {
            FramewireMetrics.of(graph).bindTo(registry);
            assertNull(registry.find("framewire.node.process").functionTimer());
            assertNotNull(registry.find("framewire.node.calls").tag("node", "join").functionCounter());
            assertEquals("graph", registry.get("framewire.node.calls").tag("node", "join").functionCounter()
                .getId().getTag("graph"), "the default graph tag");
        }
    }

    @Test
    void queueDepthAndInFlightShowABlockedNode() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Calculator blocksFirst = ctx ->
        {
            if (ctx.inputTimestamp() == 0)
            {
                entered.countDown();
                release.await();
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .inputStream("in")
            .node("slow", n -> n.calculator(() -> blocksFirst).inputStream("in"))
            .maxQueueSize(16)
            .build();
        try (Graph graph = new Graph(config))
        {
            FramewireMetrics.builder(graph).refreshInterval(Duration.ZERO).build().bindTo(registry);
            graph.start();
            graph.addPacket("in", 0L, 0);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            for (long ts = 1; ts <= 7; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            assertEquals(7, registry.get("framewire.node.queue.depth").tags("node", "slow", "stream", "in").gauge()
                .value());
            assertEquals(1, registry.get("framewire.node.calls.in.flight").tag("node", "slow").gauge().value());
            release.countDown();
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(0, registry.get("framewire.node.queue.depth").tags("node", "slow").gauge().value());
            assertEquals(0, registry.get("framewire.node.calls.in.flight").tag("node", "slow").gauge().value());
            assertEquals(8, counter(registry, "framewire.node.calls", "node", "slow"));
        }
    }

    @Test
    void offHeapGaugesAreThePoolBudget()
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(GraphConfig.builder().memoryBudget(64L << 20).inputStream("in")
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("in")).build()))
        {
            FramewireMetrics.builder(graph).graphName("g").refreshInterval(Duration.ZERO).build().bindTo(registry);
            final Payload frame = graph.pool().acquireFrame(320, 240, PixelFormat.RGBA32);
            final var budget = graph.pool().budget();
            assertEquals(budget.bytesInUse(), registry.get("framewire.offheap.used").tag("graph", "g").gauge().value());
            assertTrue(budget.bytesInUse() >= 320 * 240 * 4);
            frame.release();
            assertEquals(0, registry.get("framewire.offheap.used").gauge().value());
            assertEquals(budget.peakBytesInUse(), registry.get("framewire.offheap.peak").gauge().value());
            assertTrue(budget.peakBytesInUse() >= 320 * 240 * 4);
            assertEquals(budget.bytesReserved(), registry.get("framewire.offheap.reserved").gauge().value());
            assertEquals(64L << 20, registry.get("framewire.offheap.max").gauge().value());
            assertEquals(budget.softLimitBytes(), registry.get("framewire.offheap.limit.soft").gauge().value());
            assertEquals(budget.hardLimitBytes(), registry.get("framewire.offheap.limit.hard").gauge().value());
            assertEquals("bytes", registry.get("framewire.offheap.used").gauge().getId().getBaseUnit());
            assertEquals(0, registry.get("framewire.graph.failures").functionCounter().count());
        }
    }

    @Test
    void endToEndLatencyQuantilesComeFromTheLatencyStampRecorder() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final AtomicLong now = new AtomicLong(1_000_000_000L);
        final Calculator takesAMillisecond = ctx ->
        {
            now.addAndGet(1_000_000);
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        };
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .clock(now::get)
            .inputStream("in")
            .node("cam0__work", n -> n.calculator(() -> takesAMillisecond).inputStream("in").outputStream("done"))
            .node("cam0__latency", n -> n.calculator("LatencyStampCalculator").inputStream("done")
                .inputSidePacket("RECORDER:recorder"))
            .build();
        final Recorder recorder = new Recorder(3_600_000_000_000L, 3);
        try (Graph graph = new Graph(config))
        {
            final FramewireMetrics metrics = FramewireMetrics.builder(graph).latency("cam0__latency", recorder)
                .latencyWindow(Duration.ofHours(1)).build();
            metrics.bindTo(registry);
            graph.start(Map.of("recorder", recorder));
            for (long ts = 0; ts < 20; ts++)
            {
                graph.addPacket("in", ts, ts);
                graph.waitUntilIdle(); // one packet at a time: each waits only for its own call
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final String[] tags = {"graph", "graph", "node", "cam0__latency", "camera", "cam0"};
            assertEquals(20, counter(registry, "framewire.latency.packets", tags));
            for (final String quantile : List.of("0.5", "0.9", "0.99", "0.999", "1.0"))
            {
                final var gauge = registry.get("framewire.latency").tags(tags).tag("quantile", quantile).gauge();
                assertEquals(0.001, gauge.value(), 0.001 * 0.001, "quantile " + quantile + ": 1 ms by the graph's clock");
                assertEquals("seconds", gauge.getId().getBaseUnit());
            }
        }
    }

    @Test
    void closeRemovesEveryMeterItRegistered() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final SimpleMeterRegistry other = new SimpleMeterRegistry();
        try (Graph graph = new Graph(cameras(System::nanoTime)))
        {
            final FramewireMetrics metrics = FramewireMetrics.of(graph);
            metrics.bindTo(registry);
            metrics.bindTo(other);
            final Set<String> names = new TreeSet<>();
            for (final Meter meter : registry.getMeters())
            {
                names.add(meter.getId().getName());
            }
            assertEquals(new TreeSet<>(List.of("framewire.graph.failures", "framewire.graph.memory.drops",
                "framewire.node.calls", "framewire.node.calls.in.flight", "framewire.node.packets.dropped",
                "framewire.node.packets.in", "framewire.node.packets.out", "framewire.node.queue.depth",
                "framewire.offheap.limit.hard", "framewire.offheap.limit.soft", "framewire.offheap.max",
                "framewire.offheap.peak", "framewire.offheap.reserved", "framewire.offheap.used")), names);
            // per node: in, out, calls, 5 drop reasons, in flight, a depth per input; per graph: 8
            assertEquals(4 * 9 + 5 + 8, registry.getMeters().size());
            metrics.close();
            assertTrue(registry.getMeters().isEmpty(), registry.getMeters().toString());
            assertTrue(other.getMeters().isEmpty());
        }
    }

    @Test
    void theMetersOutliveTheBinderObject() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(cameras(System::nanoTime)))
        {
            FramewireMetrics.builder(graph).refreshInterval(Duration.ZERO).build().bindTo(registry); // not kept
            graph.start();
            feed(graph);
            graph.waitUntilDone();
            for (int i = 0; i < 3; i++)
            {
                System.gc();
            }
            final FunctionCounter in = registry.get("framewire.node.packets.in").tag("node", "cam1__pass")
                .functionCounter();
            assertEquals(PACKETS, in.count(), "held by the registry, not only by the binder the caller dropped");
        }
    }

    @Test
    void theFirstReadAfterBindingIsFreshWhateverTheRefreshInterval() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(cameras(System::nanoTime)))
        {
            FramewireMetrics.builder(graph).refreshInterval(Duration.ofHours(1)).build().bindTo(registry);
            graph.start();
            feed(graph);
            graph.waitUntilDone();
            assertEquals(PACKETS, counter(registry, "framewire.node.packets.in", "node", "cam1__pass"),
                "not the figures of the bind, before the run");
            assertEquals(graph.callCount("join"), counter(registry, "framewire.node.calls", "node", "join"),
                "one fill serves the reads within the interval, and the run is over");
        }
    }

    @Test
    void badArgumentsAreRefusedNamingWhatIsValid()
    {
        try (Graph graph = new Graph(cameras(System::nanoTime)))
        {
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> FramewireMetrics.builder(graph).latency("nope", new Recorder(3)).build());
            assertEquals("no node 'nope' in these stats; nodes are [cam0__pass, cam0__halve, cam1__pass, join]",
                unknown.getMessage());
            assertThrows(IllegalArgumentException.class, () -> FramewireMetrics.builder(graph).graphName(" "));
            assertThrows(IllegalArgumentException.class,
                () -> FramewireMetrics.builder(graph).refreshInterval(Duration.ofMillis(-1)));
            assertThrows(IllegalArgumentException.class,
                () -> FramewireMetrics.builder(graph).latencyWindow(Duration.ZERO));
        }
    }

    @Test
    void theDefaultCameraIsTheSubgraphInstance()
    {
        assertEquals("cam3", FramewireMetrics.subgraphOf("cam3__detect"));
        assertEquals("cam3", FramewireMetrics.subgraphOf("cam3__inner__detect"));
        assertEquals("", FramewireMetrics.subgraphOf("detector"));
        assertEquals("", FramewireMetrics.subgraphOf("__odd"));
    }
}
