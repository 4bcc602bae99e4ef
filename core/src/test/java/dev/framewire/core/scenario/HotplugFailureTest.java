package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.scenario.HotplugFixtures.Check;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.HotplugFixtures.base;
import static dev.framewire.core.scenario.HotplugFixtures.camera;
import static dev.framewire.core.scenario.HotplugFixtures.counter;
import static dev.framewire.core.scenario.HotplugFixtures.frame;
import static dev.framewire.core.scenario.HotplugFixtures.slotsInUse;
import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subgraph additions and removals that fail or are cut short, on a running graph: invalid
 * additions and removals refused with the graph untouched, a node blocked in a call reported
 * rather than waited on for ever, a cancelled subgraph's polling call ended, and a cancelled run
 * ending the futures of its subgraphs and releasing what they held (the graph's own pool checks at
 * close). The rest: {@link HotplugTest}, {@link HotplugBindingTest}.
 */
class HotplugFailureTest
{
    @Test
    @Timeout(30)
    void invalidAdditionsAndRemovalsLeaveTheGraphAsItWas() throws Exception
    {
        final List<String> errors = syncList();
        final Map<String, String> labels = new ConcurrentHashMap<>();
        final GraphConfig camera = camera(errors, labels);
        final GraphConfig withClash = base(1, IdleKind.PARK).toBuilder()
            .node("x__check", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("y"))
            .outputStream("y")
            .build();
        try (Graph graph = new Graph(withClash))
        {
            final IllegalStateException early = assertThrows(IllegalStateException.class,
                () -> graph.addSubgraph("cam", camera, Map.of("label", "x")));
            assertTrue(early.getMessage().contains("after start()"), early.getMessage());
            graph.start();
            final AtomicLong delivered = new AtomicLong();
            graph.addSubgraph("cam", camera, Map.of("label", "cam"), Map.of("out", counter(delivered, errors, "cam")))
                .get(10, TimeUnit.SECONDS);

            final IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> graph.addSubgraph("cam", camera, Map.of("label", "again")));
            assertTrue(duplicate.getMessage().contains("has a subgraph named 'cam'"), duplicate.getMessage());

            final IllegalArgumentException badName = assertThrows(IllegalArgumentException.class,
                () -> graph.addSubgraph("Cam-2", camera, Map.of("label", "x")));
            assertTrue(badName.getMessage().contains("[a-z_][a-z0-9_]*"), badName.getMessage());

            final GraphConfigException missing = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("cam2", camera, Map.of()));
            assertTrue(missing.getMessage().contains("parameter 'label' is not given"), missing.getMessage());

            final GraphConfigException unused = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("cam2", camera, Map.of("label", "x", "lable", "y")));
            assertTrue(unused.getMessage().contains("parameter 'lable' is used by no node option"), unused.getMessage());

            assertInvalidSubgraphsRefused(graph, errors, labels);

            // the analysis of the graph as it would be: a static node already has the name a subgraph node would get
            final GraphConfigException clash = assertThrows(GraphConfigException.class,
                () -> graph.addSubgraph("x", camera, Map.of("label", "x")));
            assertTrue(clash.getMessage().contains("two nodes are named 'x__check'"), clash.getMessage());

            final IllegalArgumentException observed = assertThrows(IllegalArgumentException.class,
                () -> graph.addSubgraph("cam2", camera, Map.of("label", "x"), Map.of("frames", p -> { })));
            assertTrue(observed.getMessage().contains("no output stream 'frames'"), observed.getMessage());

            final IllegalArgumentException noSuch = assertThrows(IllegalArgumentException.class,
                () -> graph.removeSubgraph("cam9"));
            assertTrue(noSuch.getMessage().contains("no subgraph 'cam9'; its subgraphs are [cam]"), noSuch.getMessage());

            // untouched: the one subgraph, its packets flowing, and the graph's own
            assertEquals(List.of("cam"), graph.subgraphs());
            for (long ts = 0; ts < 10; ts++)
            {
                graph.input("cam__frames").addPacket(frame(graph.pool(), ts), ts);
                graph.addPacket("in", ts, ts);
            }
            final java.util.concurrent.CompletableFuture<SubgraphRemoval> removing =
                graph.removeSubgraph("cam", Duration.ofSeconds(10), Duration.ofSeconds(10));
            final RuntimeException twice = assertThrows(RuntimeException.class, () -> graph.removeSubgraph("cam"));
            assertTrue(twice.getMessage().contains("being removed already") ||
                twice.getMessage().contains("no subgraph 'cam'"), twice.getMessage());
            final SubgraphRemoval removal = removing.get(10, TimeUnit.SECONDS);
            assertEquals(10, delivered.get());
            assertEquals(0, removal.droppedPackets());
            assertEquals(List.of(), graph.subgraphs());
            graph.addSubgraph("cam", camera, Map.of("label", "cam")).get(10, TimeUnit.SECONDS);
            assertEquals(List.of("cam"), graph.subgraphs()); // the name is free again once it has left
            graph.closeAllInputs(); // the subgraph's too: it drains, closes and leaves by itself
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
            final IllegalStateException over = assertThrows(IllegalStateException.class,
                () -> graph.addSubgraph("late", camera, Map.of("label", "x")));
            assertTrue(over.getMessage().contains("run is over"), over.getMessage());
        }
        assertEquals(List.of(), errors);
    }

    /** Subgraphs that fail validation (a calculator, an option, an executor, a cycle) are refused, naming why. */
    private static void assertInvalidSubgraphsRefused(
        final Graph graph, final List<String> errors, final Map<String, String> labels)
    {
        final GraphConfig unknownCalculator = GraphConfig.builder().inputStream("frames")
            .node("n", n -> n.calculator("NoSuchCalculator").inputStream("frames").outputStream("out"))
            .outputStream("out").build();
        final GraphConfigException unknown = assertThrows(GraphConfigException.class,
            () -> graph.addSubgraph("cam2", unknownCalculator, Map.of()));
        assertTrue(unknown.getMessage().contains("subgraph 'cam2': node 'cam2__n' uses unknown calculator " +
            "'NoSuchCalculator'"), unknown.getMessage());

        final GraphConfig badOption = GraphConfig.builder().inputStream("frames")
            .node("n", n -> n.calculator(() -> new Check(errors, labels)).inputStream("frames").outputStream("out")
                .option("lable", "x"))
            .outputStream("out").build();
        final GraphConfigException option = assertThrows(GraphConfigException.class,
            () -> graph.addSubgraph("cam2", badOption, Map.of()));
        assertTrue(option.getMessage().contains("node 'cam2__n' sets unknown option 'lable'"), option.getMessage());

        final GraphConfig undeclaredExecutor = GraphConfig.builder().inputStream("frames")
            .node("n", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("out")
                .executor("gpu"))
            .outputStream("out").build();
        final GraphConfigException executor = assertThrows(GraphConfigException.class,
            () -> graph.addSubgraph("cam2", undeclaredExecutor, Map.of()));
        assertTrue(executor.getMessage().contains("node 'cam2__n' runs on executor 'gpu', which is not declared"),
            executor.getMessage());

        final GraphConfig cycle = GraphConfig.builder().inputStream("frames")
            .node("p", n -> n.calculator("PassThroughCalculator").inputStream("frames", "q_out").outputStream("p_out", "x"))
            .node("q", n -> n.calculator("PassThroughCalculator").inputStream("p_out").outputStream("q_out"))
            .outputStream("x").build();
        final GraphConfigException cyclic = assertThrows(GraphConfigException.class,
            () -> graph.addSubgraph("cam2", cycle, Map.of()));
        assertTrue(cyclic.getMessage().contains("has no back edge"), cyclic.getMessage());
    }

    /** Blocks in process until let go, ignoring cancellation: a call that cannot be made to return. */
    static final class Stuck implements Calculator
    {
        private final CountDownLatch entered;
        private final CountDownLatch release;

        Stuck(final CountDownLatch entered, final CountDownLatch release)
        {
            this.entered = entered;
            this.release = release;
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            entered.countDown();
            release.await();
            ctx.output(0).add(ctx.input(0).payload(), ctx.inputTimestamp());
        }
    }

    /** A subgraph of one node that blocks in {@code process} until released ({@link Stuck}). */
    private static GraphConfig stuckSubgraph(final CountDownLatch entered, final CountDownLatch release)
    {
        return GraphConfig.builder()
            .inputStream("frames")
            .node("stuck", n -> n.calculator(() -> new Stuck(entered, release)).inputStream("frames").outputStream("out"))
            .outputStream("out")
            .build();
    }

    @Test
    @Timeout(30)
    void removalOfANodeBlockedInProcessReportsItAndFinishesWhenTheCallReturns() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final GraphConfig stuck = stuckSubgraph(entered, release);
        try (Graph graph = new Graph(base(2, IdleKind.PARK)))
        {
            final AtomicLong baseDelivered = new AtomicLong();
            graph.observe("out", packet -> baseDelivered.incrementAndGet());
            graph.start();
            final AtomicLong delivered = new AtomicLong();
            graph.addSubgraph("cam", stuck, Map.of(), Map.of("out", p -> delivered.incrementAndGet()))
                .get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 5; ts++)
            {
                graph.input("cam__frames").addPacket(frame(graph.pool(), ts), ts);
            }
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            final long start = System.nanoTime();
            final ExecutionException failed = assertThrows(ExecutionException.class,
                () -> graph.removeSubgraph("cam", Duration.ofMillis(100), Duration.ofMillis(200)).get(10, TimeUnit.SECONDS));
            final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(failed.getCause() instanceof TimeoutException, String.valueOf(failed.getCause()));
            final String report = failed.getCause().getMessage();
            assertTrue(report.contains("subgraph 'cam' was not removed within its 200 ms cancel deadline"), report);
            assertTrue(report.contains("node 'cam__stuck' is in a call (input timestamp 0) on worker"), report);
            assertTrue(tookMillis >= 300, "gave up after " + tookMillis + " ms, before both deadlines");
            assertEquals(List.of("cam"), graph.subgraphs(), "still there: its node has not returned");
            final IllegalArgumentException taken = assertThrows(IllegalArgumentException.class,
                () -> graph.addSubgraph("cam", stuck, Map.of()));
            assertTrue(taken.getMessage().contains("still being removed"), taken.getMessage());

            release.countDown();
            awaitCondition("subgraph 'cam' to leave once its call returned", 10_000, () -> graph.subgraphs().isEmpty());
            // the call's packet went out, the four queued behind it were dropped when it was cancelled
            assertEquals(1, delivered.get());
            assertEquals(0, slotsInUse(graph.pool()), "every payload it held was released when it left");
            for (long ts = 0; ts < 100; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
            assertEquals(100, baseDelivered.get());
        }
    }

    /** Loops until cancelled: a long call that returns when asked to. */
    @Test
    @Timeout(30)
    void cancellingASubgraphEndsACallThatPollsIsCancelled() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final GraphConfig polite = GraphConfig.builder()
            .inputStream("frames")
            .node("polite", n -> n.calculator(() -> ctx ->
            {
                entered.countDown();
                while (!ctx.isCancelled())
                {
                    Thread.onSpinWait();
                }
            }).inputStream("frames"))
            .build();
        try (Graph graph = new Graph(base(1, IdleKind.YIELD)))
        {
            graph.start();
            graph.addSubgraph("cam", polite, Map.of()).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 3; ts++)
            {
                graph.input("cam__frames").addPacket(frame(graph.pool(), ts), ts);
            }
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            final SubgraphRemoval removal = graph.removeSubgraph("cam", Duration.ZERO, Duration.ofSeconds(10))
                .get(10, TimeUnit.SECONDS);
            assertFalse(removal.drained());
            assertEquals(2, removal.droppedPackets(), "the two packets queued behind the call");
            assertEquals(0, slotsInUse(graph.pool()), "every payload it held was released when it left");
            final IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                () -> graph.addPacket("cam__frames", 9L, 9));
            assertTrue(gone.getMessage().contains("'cam__frames' is not a graph input stream"), gone.getMessage());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(30)
    void cancellingTheRunEndsTheFuturesOfSubgraphsAndReleasesWhatTheyHeld() throws Exception
    {
        final List<String> errors = syncList();
        final Map<String, String> labels = new ConcurrentHashMap<>();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final GraphConfig stuck = stuckSubgraph(entered, release);
        final java.util.concurrent.CompletableFuture<SubgraphRemoval> removal;
        try (Graph graph = new Graph(base(2, IdleKind.YIELD)))
        {
            graph.start();
            graph.addSubgraph("cam", camera(errors, labels), Map.of("label", "cam")).get(10, TimeUnit.SECONDS);
            graph.addSubgraph("stuck", stuck, Map.of()).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 20; ts++)
            {
                graph.input("cam__frames").addPacket(frame(graph.pool(), ts), ts);
            }
            for (long ts = 0; ts < 5; ts++) // within its queue limit of 8: the stuck node takes only the first
            {
                graph.input("stuck__frames").addPacket(frame(graph.pool(), ts), ts);
            }
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            removal = graph.removeSubgraph("stuck", Duration.ofSeconds(60), Duration.ofSeconds(60));
            graph.cancel();
            release.countDown();
            final ExecutionException ended = assertThrows(ExecutionException.class, () -> removal.get(10, TimeUnit.SECONDS));
            assertTrue(ended.getCause().getMessage().contains("the run ended"), ended.getCause().getMessage());
            assertThrows(dev.framewire.core.GraphException.class, graph::waitUntilDone);
        } // close: no payload of either subgraph is still held
        assertEquals(List.of(), errors);
    }
}
