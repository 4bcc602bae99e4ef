package dev.framewire.core.scenario;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphRemoval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
 * Subgraphs added to and removed from a running graph ({@link Graph#addSubgraph},
 * {@link Graph#removeSubgraph}) while packets flow through the rest of it: nothing lost in what
 * stays, the removed subgraph's packets delivered or counted as dropped, no payload leaked (the
 * graph's own pool checks at close), a subgraph with a source of its own leaving by itself, and
 * additions and removals that do not wait for a full common pool. Failures and cut-short removals:
 * {@link HotplugFailureTest}; subgraphs bound to the graph's streams: {@link HotplugBindingTest}.
 */
class HotplugTest
{
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
}
