package dev.framewire.micrometer;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.DropReason;
import dev.framewire.core.IdleKind;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FramewireMetrics} following a graph whose nodes change: the meters of a subgraph added at
 * run time are registered, tagged with the subgraph as camera, and read what {@link Graph#stats()}
 * says; those of a removed subgraph leave the registry; the graph's other meters stay as they were.
 */
@Timeout(60)
class FramewireMetricsHotplugTest
{
    private static final int PACKETS = 40;

    private static GraphConfig base()
    {
        return GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("tick")
            .node("clock", n -> n.calculator("PassThroughCalculator").inputStream("tick").outputStream("ticked"))
            .outputStream("ticked")
            .build();
    }

    private static GraphConfig camera()
    {
        return GraphConfig.builder()
            .inputStream("frames")
            .node("decode", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("decoded"))
            .node("detect", n -> n.calculator("PassThroughCalculator").inputStream("decoded").outputStream("boxes"))
            .outputStream("boxes")
            .build();
    }

    /** Adds camera {@code name}, feeds it {@link #PACKETS} packets and waits until they came out. */
    private static void addAndFeed(final Graph graph, final String name) throws Exception
    {
        final AtomicLong out = new AtomicLong();
        graph.addSubgraph(name, camera(), Map.of(), Map.of("boxes", p -> out.incrementAndGet()))
            .get(10, TimeUnit.SECONDS);
        final GraphInputHandle frames = graph.input(name + "__frames");
        for (long ts = 0; ts < PACKETS; ts++)
        {
            frames.addPacket(ts, ts);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (out.get() < PACKETS && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertEquals(PACKETS, out.get(), name + ": every packet through");
    }

    private static Set<Meter> cameraMeters(final SimpleMeterRegistry registry, final String camera)
    {
        return new HashSet<>(Search.in(registry).tag("camera", camera).meters());
    }

    /** Every node meter of {@code node} reads what the engine's own snapshot says. */
    private static void assertMatchesStats(final SimpleMeterRegistry registry, final GraphStats.NodeStats node,
        final String camera)
    {
        final String[] tags = {"node", node.name(), "camera", camera};
        assertEquals(node.packetsIn(), registry.get("framewire.node.packets.in").tags(tags).functionCounter().count(),
            node.name());
        assertEquals(node.packetsOut(), registry.get("framewire.node.packets.out").tags(tags).functionCounter()
            .count(), node.name());
        assertEquals(node.calls(), registry.get("framewire.node.calls").tags(tags).functionCounter().count(),
            node.name());
        for (final DropReason reason : DropReason.values())
        {
            assertEquals(node.drops(reason), registry.get("framewire.node.packets.dropped").tags(tags)
                .tag("reason", reason.tag()).functionCounter().count(), node.name() + " " + reason);
        }
        assertEquals(node.inputs().get(0).queued(), registry.get("framewire.node.queue.depth").tags(tags).gauge()
            .value(), node.name());
    }

    @Test
    void theMetersOfAnAddedSubgraphAppearAndThoseOfARemovedOneGo() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(base()))
        {
            final FramewireMetrics metrics = FramewireMetrics.builder(graph).graphName("ingest")
                .refreshInterval(Duration.ofHours(1)).build(); // only sync() and a bind refill: no read races it
            metrics.bindTo(registry);
            graph.start();
            final Set<Meter> before = new HashSet<>(registry.getMeters());
            assertTrue(cameraMeters(registry, "cam7").isEmpty());

            addAndFeed(graph, "cam7");
            metrics.sync();
            final Set<Meter> cam7 = cameraMeters(registry, "cam7");
            // per node: in, out, calls, 5 drop reasons, in flight, one queue depth
            assertEquals(2 * 10, cam7.size(), cam7.toString());
            assertTrue(registry.getMeters().containsAll(before), "the graph's meters stay registered");
            final GraphStats stats = graph.stats();
            for (final String node : List.of("cam7__decode", "cam7__detect"))
            {
                assertMatchesStats(registry, stats.node(node), "cam7");
                assertEquals("ingest", registry.get("framewire.node.calls").tag("node", node).functionCounter()
                    .getId().getTag("graph"));
            }
            assertEquals(PACKETS, registry.get("framewire.node.calls").tag("node", "cam7__detect").functionCounter()
                .count());

            graph.removeSubgraph("cam7").get(10, TimeUnit.SECONDS);
            metrics.sync();
            assertTrue(cameraMeters(registry, "cam7").isEmpty(), "removed with the subgraph");
            assertEquals(before, new HashSet<>(registry.getMeters()), "the graph's meters, the same objects");
            assertMatchesStats(registry, graph.stats().node("clock"), "");

            metrics.close();
            assertTrue(registry.getMeters().isEmpty());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    void aReadThatFindsTheNodesChangedSyncsTheMetersByItself() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(base()))
        {
            FramewireMetrics.builder(graph).refreshInterval(Duration.ZERO).build().bindTo(registry); // not kept
            graph.start();
            final int graphMeters = registry.getMeters().size();

            addAndFeed(graph, "cam1");
            assertTrue(cameraMeters(registry, "cam1").isEmpty(), "nothing read yet");
            registry.get("framewire.offheap.used").gauge().value(); // a scrape's read refills and finds cam1
            assertEquals(20, cameraMeters(registry, "cam1").size());
            assertMatchesStats(registry, graph.stats().node("cam1__detect"), "cam1");

            graph.removeSubgraph("cam1").get(10, TimeUnit.SECONDS);
            addAndFeed(graph, "cam2");
            // cam1's meters read NaN until a read refills; that read swaps them for cam2's
            registry.get("framewire.node.calls").tag("node", "clock").functionCounter().count();
            assertTrue(cameraMeters(registry, "cam1").isEmpty());
            assertEquals(20, cameraMeters(registry, "cam2").size());
            assertEquals(graphMeters + 20, registry.getMeters().size());
        }
    }

    @Test
    void aPrometheusScrapeMakesTheNewCamerasMetersForTheNextScrape() throws Exception
    {
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Graph graph = new Graph(base()))
        {
            FramewireMetrics.builder(graph).refreshInterval(Duration.ZERO).build().bindTo(registry);
            graph.start();
            addAndFeed(graph, "cam4");
            registry.scrape(); // its reads find the nodes changed and register cam4's meters meanwhile
            final String next = registry.scrape();
            assertTrue(next.contains("framewire_node_calls_total{camera=\"cam4\",graph=\"graph\",node=\"cam4__detect\"} " +
                PACKETS), next);
            graph.removeSubgraph("cam4").get(10, TimeUnit.SECONDS);
            registry.scrape();
            assertTrue(!registry.scrape().contains("cam4"), "gone from the scrape after the next");
        }
    }

    @Test
    void aSubgraphAddedAgainUnderItsNameGetsMetersOfItsOwnNode() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Graph graph = new Graph(base()))
        {
            final FramewireMetrics metrics = FramewireMetrics.builder(graph).refreshInterval(Duration.ofHours(1))
                .build();
            metrics.bindTo(registry);
            graph.start();
            addAndFeed(graph, "cam3");
            metrics.sync();
            final Meter first = registry.get("framewire.node.calls").tag("node", "cam3__decode").functionCounter();
            graph.removeSubgraph("cam3").get(10, TimeUnit.SECONDS);
            graph.addSubgraph("cam3", camera(), Map.of()).get(10, TimeUnit.SECONDS);
            metrics.sync(); // one sync sees cam3 gone and back: a node id is never reused
            final var again = registry.get("framewire.node.calls").tag("node", "cam3__decode").functionCounter();
            assertTrue(again != first, "a new meter for the new node");
            assertEquals(0, again.count(), "the new node's calls, not the old one's " + PACKETS);
            assertEquals(20, cameraMeters(registry, "cam3").size());
        }
    }
}
