package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.SubgraphRemoval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.scenario.HotplugFixtures.base;
import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subgraphs bound to a stream of the graph's own, added and removed while it flows: each sees a
 * contiguous run of it and a close, a slow one holds back the sources upstream of the stream
 * rather than overflowing its queue, and bindings that cannot be are refused. The rest:
 * {@link HotplugTest}, {@link HotplugFailureTest}.
 */
class HotplugBindingTest
{
    /** Checks that its long packets carry consecutive values equal to their timestamps, and passes them on. */
    static final class Consecutive implements Calculator
    {
        private final List<String> errors;
        private final long pauseNanos;
        private long last = -1;

        Consecutive(final List<String> errors, final long pauseNanos)
        {
            this.errors = errors;
            this.pauseNanos = pauseNanos;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long value = ctx.input(0).getLong();
            if (value != ctx.inputTimestamp() || last >= 0 && value != last + 1)
            {
                errors.add(ctx.nodeName() + ": " + value + " at " + ctx.inputTimestamp() + " after " + last);
            }
            last = value;
            if (pauseNanos > 0)
            {
                LockSupport.parkNanos(pauseNanos);
            }
            ctx.output(0).addLong(value, ctx.inputTimestamp());
        }
    }

    private static GraphConfig tap(final List<String> errors, final long pauseNanos)
    {
        return GraphConfig.builder()
            .inputStream("ticks")
            .node("check", n -> n.calculator(() -> new Consecutive(errors, pauseNanos)).inputStream("ticks")
                .outputStream("out"))
            .outputStream("out")
            .build();
    }

    @ParameterizedTest(name = "{0} worker(s), {1}")
    @CsvSource({"1, YIELD", "2, YIELD", "1, PARK", "2, PARK"})
    @Timeout(120)
    void aSubgraphBoundToAStreamOfTheGraphsOwnSeesAContiguousRunAndACloseWhileTheStreamFlows(
        final int workers, final IdleKind idle) throws Exception
    {
        final List<String> errors = syncList();
        final List<Throwable> thrown = syncList();
        final AtomicBoolean feeding = new AtomicBoolean(true);
        final AtomicLong baseDelivered = new AtomicLong();
        final long[] fed = new long[1];
        try (Graph graph = new Graph(base(workers, idle)))
        {
            graph.observe("out", packet -> baseDelivered.incrementAndGet());
            graph.start();
            final GraphInputHandle in = graph.input("in");
            final Thread feeder = Scenarios.startThread("feeder", () ->
            {
                long ts = 0;
                while (feeding.get())
                {
                    in.addPacket(ts, ts);
                    ts++;
                }
                fed[0] = ts;
            }, thrown);
            for (int round = 0; round < 100; round++)
            {
                final String name = "tap" + round;
                final String stream = round % 2 == 0 ? "mid" : "in"; // a node's output, then a graph input
                final long[] range = {-1, -1};
                final AtomicLong delivered = new AtomicLong();
                graph.addSubgraph(name, tap(errors, 0), Map.of(), Map.of("out", packet ->
                {
                    if (range[0] < 0)
                    {
                        range[0] = packet.getLong();
                    }
                    range[1] = packet.getLong();
                    delivered.incrementAndGet();
                }), Map.of("ticks", stream)).get(10, TimeUnit.SECONDS);
                final long before = baseDelivered.get();
                awaitCondition(name + " to see packets of '" + stream + "'", 10_000,
                    () -> delivered.get() > 0 && baseDelivered.get() > before);
                final boolean cancel = round % 4 == 3;
                final SubgraphRemoval removal = graph.removeSubgraph(name, cancel ? Duration.ZERO : Duration.ofSeconds(10),
                    Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS);
                assertEquals(!cancel, removal.drained(), name);
                if (!cancel)
                {
                    assertEquals(0, removal.droppedPackets(), name);
                }
                // a contiguous run of the stream: from the packet after it was bound to the one before it was let
                // go (cancelled: to the last it delivered before it was torn down, the rest counted as dropped)
                assertEquals(range[1] - range[0] + 1, delivered.get(), name + ": " + range[0] + ".." + range[1]);
            }
            feeding.set(false);
            feeder.join(10_000);
            assertFalse(feeder.isAlive(), "feeder stopped");
            assertEquals(List.of(), thrown);
            graph.closeAllInputs();
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
            assertEquals(fed[0], baseDelivered.get(), "the graph's own chain lost nothing");
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Timeout(60)
    void aSlowBoundSubgraphHoldsBackTheSourcesUpstreamOfItsStreamInsteadOfOverflowingItsQueue() throws Exception
    {
        final List<String> errors = syncList();
        final GraphConfig small = base(2, IdleKind.PARK).toBuilder().queueHardCap(16).build();
        try (Graph graph = new Graph(small))
        {
            final AtomicLong baseDelivered = new AtomicLong();
            graph.observe("out", packet -> baseDelivered.incrementAndGet());
            graph.start();
            final AtomicLong delivered = new AtomicLong();
            graph.addSubgraph("slow", tap(errors, 200_000), Map.of(), Map.of("out", p -> delivered.incrementAndGet()),
                Map.of("ticks", "in")).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 300; ts++)
            {
                graph.addPacket("in", ts, ts); // waits while the slow subgraph's queue (limit 8, hard cap 16) is full
            }
            graph.closeAllInputs(); // the bound stream closes: the subgraph drains and closes, and the run ends
            assertTrue(graph.awaitDone(30, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone(); // a queue past its hard cap of 16 would have failed the run
            assertEquals(300, delivered.get());
            assertEquals(300, baseDelivered.get());
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Timeout(30)
    void bindingsThatCannotBeAreRefused() throws Exception
    {
        final List<String> errors = syncList();
        try (Graph graph = new Graph(base(1, IdleKind.PARK)))
        {
            graph.start();
            final GraphConfigException unknown = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("t", tap(errors, 0), Map.of(), Map.of(), Map.of("ticks", "nowhere")));
            assertTrue(unknown.getMessage().contains("bound to 'nowhere', which is not a stream of the graph's own"),
                unknown.getMessage());
            final GraphConfigException noInput = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("t", tap(errors, 0), Map.of(), Map.of(), Map.of("tick", "mid")));
            assertTrue(noInput.getMessage().contains("the template has no such input stream; its input streams are " +
                "[ticks]"), noInput.getMessage());
            graph.addSubgraph("t", tap(errors, 0), Map.of(), Map.of(), Map.of("ticks", "mid")).get(10, TimeUnit.SECONDS);
            final GraphConfigException ofSubgraph = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("u", tap(errors, 0), Map.of(), Map.of(), Map.of("ticks", "t__out")));
            assertTrue(ofSubgraph.getMessage().contains("not a stream of the graph's own config"), ofSubgraph.getMessage());
            assertEquals(List.of("t"), graph.subgraphs());
            graph.closeAllInputs();
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors);
    }
}
