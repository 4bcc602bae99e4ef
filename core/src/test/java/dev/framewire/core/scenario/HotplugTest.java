package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OptionType;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subgraphs added to and removed from a running graph ({@link Graph#addSubgraph},
 * {@link Graph#removeSubgraph}) while packets flow through the rest of it: nothing lost in what
 * stays, the removed subgraph's packets delivered or counted as dropped, no payload leaked (the
 * graph's own pool checks at close), invalid additions refused with the graph untouched, and a
 * node blocked in a call reported rather than waited on for ever.
 */
class HotplugTest
{
    /**
     * Checks that each packet is a payload holding its own timestamp, in increasing order, and
     * passes it on; records its {@code label} option, a template parameter.
     */
    static final class Check implements Calculator
    {
        private final List<String> errors;
        private final Map<String, String> labels;
        private long last = Long.MIN_VALUE;

        Check(final List<String> errors, final Map<String, String> labels)
        {
            this.errors = errors;
            this.labels = labels;
        }

        @Override
        public void contract(final Contract contract)
        {
            contract.option("label", OptionType.STRING, "none");
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            labels.put(ctx.nodeName(), ctx.options().getString("label"));
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long ts = ctx.inputTimestamp();
            final Payload payload = ctx.input(0).payload();
            if (payload.buffer().getLong(0) != ts || ts <= last)
            {
                errors.add(ctx.nodeName() + ": payload " + payload.buffer().getLong(0) + " at " + ts + " after " + last);
            }
            last = ts;
            ctx.output(0).add(payload, ts);
        }
    }

    /** A camera: frames in, two checking stages, frames out. */
    private static GraphConfig camera(final List<String> errors, final Map<String, String> labels)
    {
        return GraphConfig.builder()
            .type("CameraSubgraph")
            .inputStream("frames")
            .node("check", n -> n.calculator(() -> new Check(errors, labels)).inputStream("frames")
                .outputStream("checked").option("label", "$label"))
            .node("stage", n -> n.calculator(() -> new Check(errors, labels)).inputStream("checked")
                .outputStream("out").option("label", "camera ${label}"))
            .outputStream("out")
            .build();
    }

    /** The graph's own part: a chain of two pass-throughs on long packets, always running. */
    private static GraphConfig base(final int workers, final IdleKind idle)
    {
        return GraphConfig.builder()
            .executor("default", ExecutorConfig.of(workers, idle))
            .maxQueueSize(8)
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build();
    }

    private static Payload frame(final PayloadPool pool, final long ts)
    {
        final Payload payload = pool.acquire(64);
        payload.mutableBuffer().putLong(0, ts);
        return payload;
    }

    /** Payload slots the pool has handed out and not had back. */
    private static long slotsInUse(final PayloadPool pool)
    {
        long inUse = 0;
        for (int c = 0; c < pool.sizeClassCount(); c++)
        {
            inUse += pool.slotsInUse(c);
        }
        return inUse;
    }

    /** Counts a subgraph's delivered packets and checks their order. */
    private static PacketObserver counter(final AtomicLong delivered, final List<String> errors, final String who)
    {
        final long[] last = {Long.MIN_VALUE};
        return packet ->
        {
            if (packet.timestamp() <= last[0] || packet.payload().buffer().getLong(0) != packet.timestamp())
            {
                errors.add(who + ": delivered " + packet.timestamp() + " after " + last[0]);
            }
            last[0] = packet.timestamp();
            delivered.incrementAndGet();
        };
    }

    @ParameterizedTest(name = "{0} worker(s), {1}")
    @CsvSource({"1, YIELD", "2, YIELD", "1, PARK", "2, PARK"})
    @Timeout(120)
    void addAndRemoveWhilePacketsFlow(final int workers, final IdleKind idle) throws Exception
    {
        final List<String> errors = syncList();
        final Map<String, String> labels = new ConcurrentHashMap<>();
        final GraphConfig camera = camera(errors, labels);
        final AtomicLong baseDelivered = new AtomicLong();
        final AtomicLong stayDelivered = new AtomicLong();
        final AtomicBoolean feeding = new AtomicBoolean(true);
        final long[] fed = new long[2];
        final List<Throwable> thrown = syncList();
        try (Graph graph = new Graph(base(workers, idle)))
        {
            graph.observe("out", inOrder(baseDelivered, errors));
            graph.start();
            // a camera that stays for the whole test, fed by its own thread
            graph.addSubgraph("stay", camera, Map.of("label", "stay"),
                Map.of("out", counter(stayDelivered, errors, "stay"))).get(10, TimeUnit.SECONDS);
            final GraphInputHandle stayIn = graph.input("stay__frames");
            final GraphInputHandle baseIn = graph.input("in");
            final Thread feeder = Scenarios.startThread("feeder", () ->
            {
                long ts = 0;
                while (feeding.get())
                {
                    baseIn.addPacket(ts, ts);
                    stayIn.addPacket(frame(graph.pool(), ts), ts);
                    ts++;
                }
                fed[0] = ts;
                fed[1] = ts;
            }, thrown);

            long delivered = 0;
            long dropped = 0;
            long accepted = 0;
            for (int round = 0; round < 100; round++)
            {
                final String name = "cam" + round;
                final AtomicLong camDelivered = new AtomicLong();
                graph.addSubgraph(name, camera, Map.of("label", name), Map.of("out", counter(camDelivered, errors, name)))
                    .get(10, TimeUnit.SECONDS);
                assertEquals(name, labels.get(name + "__check"));
                assertEquals("camera " + name, labels.get(name + "__stage"));
                final GraphInputHandle in = graph.input(name + "__frames");
                final boolean cancel = round % 2 == 1;
                long added = 0;
                for (long ts = 0; ts < 20; ts++)
                {
                    in.addPacket(frame(graph.pool(), ts), ts);
                    added++;
                }
                final SubgraphRemoval removal = cancel ?
                    graph.removeSubgraph(name, Duration.ZERO, Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS) :
                    graph.removeSubgraph(name, Duration.ofSeconds(10), Duration.ofSeconds(10)).get(30, TimeUnit.SECONDS);
                assertEquals(name, removal.name());
                assertEquals(!cancel, removal.drained(), name);
                assertFalse(graph.subgraphs().contains(name), name + " left");
                // every packet the subgraph took was delivered or counted as dropped, none twice
                assertEquals(added, camDelivered.get() + removal.droppedPackets(),
                    name + ": " + camDelivered.get() + " delivered, " + removal.droppedPackets() + " dropped");
                if (!cancel)
                {
                    assertEquals(0, removal.droppedPackets(), name + " drained");
                }
                final IllegalArgumentException gone = assertThrows(IllegalArgumentException.class,
                    () -> graph.input(name + "__frames"));
                assertTrue(gone.getMessage().contains("is not a graph input stream"), gone.getMessage());
                // what is in use now is the staying camera's alone: at most its three queues' limits of 8, its
                // two calls' inputs and the frame its feeder holds
                final long inUse = slotsInUse(graph.pool());
                assertTrue(inUse <= 3 * 8 + 3, name + " left " + inUse + " payloads in use");
                delivered += camDelivered.get();
                dropped += removal.droppedPackets();
                accepted += added;
            }
            feeding.set(false);
            feeder.join(10_000);
            assertFalse(feeder.isAlive(), "feeder stopped");
            assertEquals(List.of(), thrown);
            final SubgraphRemoval stay = graph.removeSubgraph("stay").get(30, TimeUnit.SECONDS);
            assertTrue(stay.drained());
            assertEquals(0, stay.droppedPackets());
            assertEquals(fed[1], stayDelivered.get(), "the camera that stayed lost nothing");
            graph.closeInput("in");
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
            assertEquals(List.of(), errors);
            assertEquals(fed[0], baseDelivered.get(), "the graph's own chain lost nothing");
            assertEquals(fed[1], stayDelivered.get(), "the camera that stayed lost nothing");
            assertEquals(accepted, delivered + dropped);
            assertTrue(graph.subgraphs().isEmpty());
        } // close: the graph's own pool reports any payload still held
    }

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

    /** The graph's own chain, checked in order and counted. */
    private static PacketObserver inOrder(final AtomicLong delivered, final List<String> errors)
    {
        final long[] last = {-1};
        return packet ->
        {
            if (packet.getLong() != last[0] + 1)
            {
                errors.add("base: " + packet.getLong() + " after " + last[0]);
            }
            last[0] = packet.getLong();
            delivered.incrementAndGet();
        };
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

    @Test
    @Timeout(30)
    void removalOfANodeBlockedInProcessReportsItAndFinishesWhenTheCallReturns() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final GraphConfig stuck = GraphConfig.builder()
            .inputStream("frames")
            .node("stuck", n -> n.calculator(() -> new Stuck(entered, release)).inputStream("frames").outputStream("out"))
            .outputStream("out")
            .build();
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
    /** A camera with a source of its own: a counter, parameterised by its count. */
    private static GraphConfig counting()
    {
        return GraphConfig.builder()
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("count").option("count", "$count"))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("count").outputStream("out"))
            .outputStream("out")
            .build();
    }

    @Test
    @Timeout(30)
    void aSubgraphWithItsOwnSourceRunsLeavesByItselfWhenDoneAndDrainsWhenRemoved() throws Exception
    {
        try (Graph graph = new Graph(base(2, IdleKind.PARK)))
        {
            graph.start();
            final AtomicLong finite = new AtomicLong();
            graph.addSubgraph("finite", counting(), Map.of("count", 500L), Map.of("out", p -> finite.incrementAndGet()))
                .get(10, TimeUnit.SECONDS);
            awaitCondition("the finite camera to stop and leave", 10_000, () -> graph.subgraphs().isEmpty());
            assertEquals(500, finite.get());

            final AtomicLong endless = new AtomicLong();
            graph.addSubgraph("endless", counting(), Map.of("count", Long.MAX_VALUE),
                Map.of("out", p -> endless.incrementAndGet())).get(10, TimeUnit.SECONDS);
            awaitCondition("the endless camera to emit", 10_000, () -> endless.get() > 100);
            final SubgraphRemoval removal = graph.removeSubgraph("endless").get(10, TimeUnit.SECONDS);
            assertTrue(removal.drained());
            assertEquals(0, removal.droppedPackets());
            final long atRemoval = endless.get();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(atRemoval, endless.get(), "nothing after it left");
        }
    }

    /**
     * An application whose tasks fill the JDK's common pool (a single thread on two cores, which
     * JDK 25's {@code CompletableFuture} uses for its asynchronous tasks even then) does not hold up
     * additions and removals: the engine completes their futures, and lets a subgraph leave, on
     * threads of its own. Before, on JDK 25, both futures waited for the pool for ever.
     */
    @Test
    @Timeout(60)
    void additionsAndRemovalsDoNotWaitForAFullCommonPool() throws Exception
    {
        final List<String> errors = syncList();
        final Map<String, String> labels = new ConcurrentHashMap<>();
        final AtomicBoolean released = new AtomicBoolean();
        final int parallelism = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism();
        final CountDownLatch taken = new CountDownLatch(parallelism);
        for (int i = 0; i < parallelism; i++)
        {
            java.util.concurrent.ForkJoinPool.commonPool().execute(() ->
            {
                taken.countDown();
                while (!released.get())
                {
                    LockSupport.parkNanos(1_000_000L); // not a managed block: the pool does not make up for it
                }
            });
        }
        try (Graph graph = new Graph(base(1, IdleKind.PARK)))
        {
            assertTrue(taken.await(10, TimeUnit.SECONDS), "every thread of the common pool taken");
            graph.start();
            graph.addSubgraph("cam", camera(errors, labels), Map.of("label", "cam")).get(10, TimeUnit.SECONDS);
            for (long ts = 0; ts < 5; ts++)
            {
                graph.input("cam__frames").addPacket(frame(graph.pool(), ts), ts);
            }
            assertTrue(graph.removeSubgraph("cam").get(10, TimeUnit.SECONDS).drained());
            assertEquals(List.of(), graph.subgraphs());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        finally
        {
            released.set(true);
        }
        assertEquals(List.of(), errors);
    }

    @Test
    @Timeout(30)
    void cancellingTheRunEndsTheFuturesOfSubgraphsAndReleasesWhatTheyHeld() throws Exception
    {
        final List<String> errors = syncList();
        final Map<String, String> labels = new ConcurrentHashMap<>();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final GraphConfig stuck = GraphConfig.builder()
            .inputStream("frames")
            .node("stuck", n -> n.calculator(() -> new Stuck(entered, release)).inputStream("frames").outputStream("out"))
            .outputStream("out")
            .build();
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
