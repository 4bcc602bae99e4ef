package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OutputPoller;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.awaitPaused;
import static dev.framewire.core.scenario.Scenarios.forwardLong;
import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.startThread;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link Graph} API as an embedding service uses it: side packets, adding packets with and
 * without waiting, bounds and closing, observers and pollers, idleness, failures, cancellation,
 * pause and resume.
 */
class GraphApiTest
{
    @Test
    @Timeout(10)
    void sidePacketsReachCalculatorsByNameAndTag() throws Exception
    {
        final List<String> seen = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("scaler", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void open(final CalculatorContext ctx)
                {
                    seen.add(ctx.sidePacket("factor") + "/" + ctx.sidePacket("LABEL") + "/" + ctx.sidePacket("label"));
                }

                @Override
                public void process(final CalculatorContext ctx)
                {
                }
            }).inputStream("in").inputSidePacket("factor", "LABEL:label"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start(Map.of("factor", 3L, "label", "cam-7", "unused", 1));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(list("3/cam-7/cam-7"), seen);
    }

    @Test
    @Timeout(10)
    void missingSidePacketNamesTheNodeAndTheSidePacket() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("scaler", n -> n.calculator(forwardLong()).inputStream("in").outputStream("out")
                .inputSidePacket("factor", "LABEL:label"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> graph.start(Map.of("factor", 2L)));
            assertTrue(ex.getMessage().contains("node 'scaler'") && ex.getMessage().contains("'label'") &&
                !ex.getMessage().contains("'factor'"), ex.getMessage());
        }
    }

    /** A calculator that takes a permit from {@code gate} per input set, and says when it has entered. */
    private static Calculator gated(final Semaphore gate, final CountDownLatch entered, final List<Long> processed)
    {
        return ctx ->
        {
            entered.countDown();
            gate.acquire();
            processed.add(ctx.inputTimestamp());
        };
    }

    @Test
    @Timeout(20)
    void addPacketWaitsForRoomWhileTryAddPacketIsRefused() throws Exception
    {
        final Semaphore gate = new Semaphore(0);
        final CountDownLatch entered = new CountDownLatch(1);
        final List<Long> processed = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("slow", n -> n.calculator(() -> gated(gate, entered, processed)).inputStream("in"))
            .streamQueueSize("in", 2)
            .build();
        final List<Throwable> errors = syncList();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            try
            {
                graph.addPacket("in", 0L, 0);
                assertTrue(entered.await(5, TimeUnit.SECONDS), "the slow node holds packet 0");
                assertTrue(graph.tryAddPacket("in", 1L, 1));
                assertTrue(graph.tryAddPacket("in", 2L, 2));
                assertFalse(graph.tryAddPacket("in", 3L, 3), "the queue holds 2, its limit");
                assertFalse(graph.tryAddPacket("in", 3.5, 3));
                final Payload payload = graph.pool().acquire(16);
                assertFalse(graph.tryAddPacket("in", payload, 3));
                assertEquals(1, payload.refCount(), "a refused payload stays the caller's");
                payload.release();

                final AtomicBoolean added = new AtomicBoolean();
                final Thread adder = startThread("adder", () ->
                {
                    graph.addPacket("in", 3L, 3);
                    added.set(true);
                }, errors);
                awaitCondition("the adder to wait for room", 5_000,
                    () -> adder.getState() == Thread.State.TIMED_WAITING || adder.getState() == Thread.State.WAITING);
                assertFalse(added.get());
                gate.release(); // packet 0 done: the node takes packet 1, making room for 3
                adder.join(5_000);
                assertTrue(added.get(), "addPacket returned once there was room");
                assertFalse(graph.tryAddPacket("in", 4L, 4), "full again: 2, 3 queued");
            }
            finally
            {
                gate.release(1000);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors);
        assertEquals(List.of(0L, 1L, 2L, 3L), processed);
    }

    @Test
    @Timeout(10)
    void tryAddPacketToAnEndedRunOrClosedStreamThrowsEvenWhenTheQueueIsFull() throws Exception
    {
        // a caller retrying refusals must learn that retrying is pointless, not spin forever
        final Semaphore gate = new Semaphore(0);
        final CountDownLatch entered = new CountDownLatch(1);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in", "other")
            .node("slow", n -> n.calculator(() -> gated(gate, entered, syncList())).inputStream("in"))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("other"))
            .streamQueueSize("in", 1)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            try
            {
                graph.addPacket("in", 0L, 0);
                assertTrue(entered.await(5, TimeUnit.SECONDS));
                assertTrue(graph.tryAddPacket("in", 1L, 1));
                assertFalse(graph.tryAddPacket("in", 2L, 2), "full");
                graph.closeInput("in");
                final IllegalStateException closed = assertThrows(IllegalStateException.class,
                    () -> graph.tryAddPacket("in", 2L, 2));
                assertTrue(closed.getMessage().contains("'in'") && closed.getMessage().contains("closed"),
                    closed.getMessage());
                graph.cancel();
                final Payload payload = graph.pool().acquire(8);
                final IllegalStateException ended = assertThrows(IllegalStateException.class,
                    () -> graph.tryAddPacket("in", payload, 2));
                assertTrue(ended.getMessage().contains("'in'"), ended.getMessage());
                assertEquals(0, payload.refCount(), "released, as addPacket does on an ended run");
            }
            finally
            {
                gate.release(10);
            }
            assertTrue(assertThrows(GraphException.class, graph::waitUntilDone).isCancelled());
        }
    }

    @Test
    @Timeout(10)
    void pollerWaitsWithATimeoutAndSeesTheStreamDone() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(forwardLong()).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller poller = graph.poller("out");
            final OutputPoller rawInput = graph.poller("in");
            graph.start();
            final long before = System.nanoTime();
            assertFalse(poller.next(50, TimeUnit.MILLISECONDS), "nothing yet");
            assertTrue(System.nanoTime() - before >= TimeUnit.MILLISECONDS.toNanos(40), "it waited for the timeout");
            assertFalse(poller.isDone());
            graph.addPacket("in", 42L, 7);
            assertTrue(poller.next(5, TimeUnit.SECONDS));
            assertEquals(7, poller.packet().timestamp());
            assertEquals(42, poller.packet().getLong());
            assertEquals("out", poller.packet().streamName());
            assertTrue(rawInput.next(5, TimeUnit.SECONDS), "a graph input stream can be polled too");
            assertEquals(42, rawInput.packet().getLong());
            graph.closeAllInputs();
            assertFalse(poller.next(5, TimeUnit.SECONDS));
            assertTrue(poller.isDone());
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void observersSeeEveryPacketAndMustBeAddedBeforeStart() throws Exception
    {
        final List<String> observed = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(forwardLong()).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> observed.add(p.streamName() + "@" + p.timestamp() + "=" + p.getLong()));
            graph.observe("in", p -> observed.add(p.streamName() + "@" + p.timestamp() + "=" + p.getLong()));
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> graph.observe("nope", p -> { }));
            assertTrue(unknown.getMessage().contains("'nope'") && unknown.getMessage().contains("out") &&
                unknown.getMessage().contains("in"), unknown.getMessage());
            graph.start();
            assertThrows(IllegalStateException.class, () -> graph.observe("out", p -> { }));
            assertThrows(IllegalStateException.class, () -> graph.poller("out"));
            graph.addPacket("in", 5L, 1);
            graph.addPacket("in", 6L, 2);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final List<String> sorted = new ArrayList<>(observed);
        sorted.sort(null);
        assertEquals(list("in@1=5", "in@2=6", "out@1=5", "out@2=6"), sorted);
    }

    @Test
    @Timeout(10)
    void misuseIsRefusedWithAClearError() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(forwardLong()).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            assertThrows(IllegalStateException.class, graph::waitUntilDone, "before start");
            assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 1L, 1), "before start");
            graph.start();
            assertThrows(IllegalStateException.class, graph::start, "started twice");
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> graph.addPacket("nope", 1L, 1));
            assertTrue(unknown.getMessage().contains("'nope'") && unknown.getMessage().contains("[in]"),
                unknown.getMessage());
            assertThrows(IllegalArgumentException.class, () -> graph.addPacket("in", (Object)null, 1));
            graph.closeInput("in");
            final IllegalStateException closed = assertThrows(IllegalStateException.class,
                () -> graph.addPacket("in", 1L, 1));
            assertTrue(closed.getMessage().contains("'in'") && closed.getMessage().contains("closed"),
                closed.getMessage());
            graph.closeAllInputs(); // closing twice is harmless
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void waitUntilIdleReturnsWhenEverythingGivenIsProcessed() throws Exception
    {
        final List<String> sets = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(forwardLong()).inputStream("in").outputStream("mid"))
            .node("sink", n -> n.calculator(recorder(sets)).inputStream("mid"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int round = 1; round <= 5; round++)
            {
                for (long ts = 0; ts < 100; ts++)
                {
                    graph.addPacket("in", ts, (round - 1) * 100 + ts);
                }
                graph.waitUntilIdle();
                assertEquals(round * 100, sets.size());
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void waitUntilIdleIsRefusedOnAGraphWithSourceNodes() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .node("counter", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 3))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("n"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, graph::waitUntilIdle);
            assertTrue(ex.getMessage().contains("'counter'") && ex.getMessage().contains("waitUntilDone"),
                ex.getMessage());
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void waitUntilDoneThrowsWithEveryFailure() throws Exception
    {
        // two nodes on two workers meet at a barrier, so both are inside process when both throw
        final CyclicBarrier bothInside = new CyclicBarrier(2);
        final Calculator meetAndThrow = ctx ->
        {
            bothInside.await(5, TimeUnit.SECONDS);
            throw new IllegalStateException("broken " + ctx.nodeName());
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("left", n -> n.calculator(() -> meetAndThrow).inputStream("in"))
            .node("right", n -> n.calculator(() -> meetAndThrow).inputStream("in"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 1L, 77);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertFalse(ex.isCancelled());
            final Set<String> nodes = new TreeSet<>();
            for (final GraphFailure failure : ex.failures())
            {
                nodes.add(failure.node());
                assertEquals(77, failure.timestamp());
                assertEquals("broken " + failure.node(), failure.cause().getMessage());
            }
            assertEquals(Set.of("left", "right"), nodes);
            assertTrue(ex.getMessage().contains("2 failures") && ex.getMessage().contains("'left'") &&
                ex.getMessage().contains("'right'") && ex.getMessage().contains("77"), ex.getMessage());
            assertSame(ex.failures().get(0).cause(), ex.getCause());
            assertEquals(1, ex.getSuppressed().length);
        }
    }

    @Test
    @Timeout(10)
    void cancelEndsTheRunAsCancelled() throws Exception
    {
        final AtomicLong emitted = new AtomicLong();
        final CountDownLatch longCallStarted = new CountDownLatch(1);
        final AtomicBoolean sawCancel = new AtomicBoolean();
        final GraphConfig config = GraphConfig.builder()
            .node("endless", n -> n.calculator(() -> ctx ->
            {
                final long i = emitted.getAndIncrement();
                ctx.output(0).addLong(i, i);
            }).outputStream("n"))
            .node("long", n -> n.calculator(() -> ctx ->
            {
                longCallStarted.countDown();
                while (!ctx.isCancelled())
                {
                    Thread.onSpinWait();
                }
                sawCancel.set(true);
            }).inputStream("n").executor("slow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            assertTrue(longCallStarted.await(5, TimeUnit.SECONDS));
            graph.cancel();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled());
            assertEquals(List.of(), ex.failures());
            assertTrue(sawCancel.get(), "the long call polled isCancelled() and returned");
        }
        assertTrue(emitted.get() > 0);
    }

    @Test
    @Timeout(20)
    void whilePausedNothingRunsAndResumeProcessesWhatQueued() throws Exception
    {
        final AtomicLong processed = new AtomicLong();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("count", n -> n.calculator(() -> ctx ->
            {
                processed.incrementAndGet();
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }).inputStream("in").outputStream("out"))
            .node("count2", n -> n.calculator(() -> ctx -> processed.incrementAndGet()).inputStream("out"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller out = graph.poller("out");
            graph.start();
            graph.addPacket("in", 0L, 0);
            assertTrue(out.next(5, TimeUnit.SECONDS));
            graph.waitUntilIdle();
            assertEquals(2, processed.get());

            graph.pause();
            awaitPaused(graph);
            for (long ts = 1; ts <= 20; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            assertFalse(out.next(200, TimeUnit.MILLISECONDS), "nothing is processed while paused");
            assertEquals(2, processed.get());
            assertTrue(graph.report().contains("[paused]"), graph.report());

            graph.resume();
            for (long ts = 1; ts <= 20; ts++)
            {
                assertTrue(out.next(5, TimeUnit.SECONDS));
                assertEquals(ts, out.packet().timestamp());
            }
            graph.waitUntilIdle();
            assertEquals(42, processed.get());
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
