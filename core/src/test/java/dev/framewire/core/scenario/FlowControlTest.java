package dev.framewire.core.scenario;

import dev.framewire.core.Backpressure;
import dev.framewire.core.Calculator;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.IdleKind;
import dev.framewire.core.QueueOverflowException;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control: queue limits hold sources back (MediaPipe's rule) or every producer (BMF's);
 * deadlock avoidance reports or raises limits; the hard cap fails the run rather than let a
 * queue grow without bound.
 *
 * <p>Slow consumers are gated by semaphores the test releases, never by sleeps.
 */
class FlowControlTest
{
    /** What a held-back run looked like. */
    private static final class HeldBack
    {
        long emittedWhileHeld;
        long maxAhead;
        List<Long> processed;
        String report;
    }

    /**
     * A source emitting {@code total} longs one per call into a node gated by a semaphore, on
     * its own executor. Returns how far the source got while the gated node held packet 0.
     */
    private static HeldBack holdBack(final GraphConfig.Builder settings, final int total) throws Exception
    {
        final AtomicLong emitted = new AtomicLong();
        final AtomicLong entered = new AtomicLong();
        final AtomicLong maxAhead = new AtomicLong();
        final Semaphore gate = new Semaphore(0);
        final List<Long> processed = syncList();
        final Calculator source = ctx ->
        {
            // everything emitted before this call is delivered: how many wait or are in process
            maxAhead.accumulateAndGet(emitted.get() - entered.get(), Math::max);
            final long i = emitted.getAndIncrement();
            ctx.output(0).addLong(i, i);
            if (i == total - 1)
            {
                ctx.stop();
            }
        };
        final Calculator slow = ctx ->
        {
            entered.incrementAndGet();
            gate.acquire();
            processed.add(ctx.inputTimestamp());
        };
        final GraphConfig config = settings
            .node("src", n -> n.calculator(() -> source).outputStream("s"))
            .node("slow", n -> n.calculator(() -> slow).inputStream("s").executor("slow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .build();
        final HeldBack result = new HeldBack();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            try
            {
                awaitCondition("the source to be held back", 5_000,
                    () -> entered.get() == 1 && (graph.report().contains("held back") || emitted.get() == total));
                result.emittedWhileHeld = emitted.get();
                result.report = graph.report();
                // stays held back: the gated node has not moved
                assertFalse(new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS));
                assertEquals(result.emittedWhileHeld, emitted.get(), "the source ran while held back");
            }
            finally
            {
                gate.release(total);
            }
            graph.waitUntilDone();
        }
        result.maxAhead = maxAhead.get();
        result.processed = processed;
        return result;
    }

    private static void assertAllInOrder(final List<Long> processed, final int total)
    {
        assertEquals(total, processed.size());
        for (int i = 0; i < total; i++)
        {
            assertEquals(i, processed.get(i));
        }
    }

    @Test
    @Timeout(20)
    void fullQueueHoldsTheSourceBack() throws Exception
    {
        final HeldBack run = holdBack(GraphConfig.builder().maxQueueSize(5), 200);
        // 5 queued (the limit) and 1 in the gated call
        assertEquals(6, run.emittedWhileHeld, run.report);
        assertTrue(run.report.contains("(limit 5, FULL)"), run.report);
        assertTrue(run.maxAhead <= 5 + 1, "the queue passed its limit: " + run.maxAhead);
        assertAllInOrder(run.processed, 200);
    }

    @Test
    @Timeout(20)
    void streamQueueSizeOverridesTheGraphLimit() throws Exception
    {
        final HeldBack run = holdBack(GraphConfig.builder().maxQueueSize(50).streamQueueSize("s", 3), 200);
        assertEquals(4, run.emittedWhileHeld, run.report);
        assertTrue(run.maxAhead <= 3 + 1, "the queue passed its limit: " + run.maxAhead);
        assertAllInOrder(run.processed, 200);
    }

    @Test
    @Timeout(20)
    void queueLimitZeroMeansOneHundred() throws Exception
    {
        final HeldBack run = holdBack(GraphConfig.builder().maxQueueSize(0), 300);
        assertEquals(101, run.emittedWhileHeld, run.report);
        assertTrue(run.report.contains("(limit 100, FULL)"), run.report);
        assertAllInOrder(run.processed, 300);
    }

    @Test
    @Timeout(20)
    void queueLimitMinusOneMeansNone() throws Exception
    {
        final HeldBack run = holdBack(GraphConfig.builder().maxQueueSize(50).streamQueueSize("s", -1), 300);
        assertEquals(300, run.emittedWhileHeld, "nothing held the source back");
        assertAllInOrder(run.processed, 300);
    }

    /**
     * A source emits 4 packets in one call into 'mid' (a fast pass-through), which feeds a gated
     * node; every queue's limit is 2. Returns how many packets 'mid' passed on while the gated
     * node held packet 0.
     */
    private static int passedWhileGated(final Backpressure rule) throws Exception
    {
        final AtomicInteger passed = new AtomicInteger();
        final AtomicInteger entered = new AtomicInteger();
        final Semaphore gate = new Semaphore(0);
        final List<Long> processed = syncList();
        final GraphConfig config = GraphConfig.builder()
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("s")
                .option("count", 4).option("batch", 4))
            .node("mid", n -> n.calculator(() -> ctx ->
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                passed.incrementAndGet();
            }).inputStream("s").outputStream("m"))
            .node("slow", n -> n.calculator(() -> ctx ->
            {
                entered.incrementAndGet();
                gate.acquire();
                processed.add(ctx.inputTimestamp());
            }).inputStream("m").executor("slow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(2)
            .backpressure(rule)
            .build();
        final int whileGated;
        try (Graph graph = new Graph(config))
        {
            graph.start();
            try
            {
                final int expected = rule == Backpressure.ALL_NODES ? 3 : 4;
                awaitCondition("mid to pass " + expected, 5_000, () -> entered.get() == 1 && passed.get() == expected);
                assertFalse(new CountDownLatch(1).await(100, TimeUnit.MILLISECONDS));
                whileGated = passed.get();
            }
            finally
            {
                gate.release(4);
            }
            graph.waitUntilDone();
        }
        assertEquals(List.of(0L, 1L, 2L, 3L), processed);
        return whileGated;
    }

    @Test
    @Timeout(20)
    void bmfRuleHoldsBackEveryProducerOfAFullQueue() throws Exception
    {
        // MediaPipe's rule: only sources wait; 'mid' passes all 4 on, the gated queue holds 3 (> 2)
        assertEquals(4, passedWhileGated(Backpressure.SOURCES));
        // BMF's rule: 'mid' waits too once the gated queue is full: 1 in the call, 2 queued
        assertEquals(3, passedWhileGated(Backpressure.ALL_NODES));
    }

    private static GraphConfig starvedJoin(final List<String> sets, final boolean report, final int hardCap)
    {
        return GraphConfig.builder()
            .inputStream("a", "b")
            .node("join", n -> n.calculator(recorder(sets)).inputStream("a", "b"))
            .maxQueueSize(10)
            .reportDeadlock(report)
            .queueHardCap(hardCap)
            .build();
    }

    @Test
    @Timeout(20)
    void deadlockIsReportedNamingTheFullQueueAndNode() throws Exception
    {
        final List<String> sets = syncList();
        int added = 0;
        try (Graph graph = new Graph(starvedJoin(sets, true, 4096)))
        {
            graph.start();
            for (long ts = 0; ts < 200; ts++)
            {
                final Payload payload = graph.pool().acquire(32);
                try
                {
                    graph.addPacket("a", payload, ts);
                    added++;
                }
                catch (final IllegalStateException ended)
                {
                    assertEquals(0, payload.refCount(), "a refused payload is released");
                    assertTrue(ended.getMessage().contains("'a'"), ended.getMessage());
                    break;
                }
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final GraphFailure failure = ex.failures().get(0);
            final String message = failure.cause().getMessage();
            assertTrue(message.contains("deadlock") && message.contains("stream 'a' into node 'join'") &&
                message.contains("10 queued, limit 10") && message.contains("max_queue_size"), message);
        }
        assertEquals(10, added, "the join's queue on 'a' filled up to its limit");
        assertEquals(List.of(), sets);
    }

    @Test
    @Timeout(30)
    void deadlockIsResolvedByRaisingLimitsUntilTheOtherInputCloses() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(starvedJoin(sets, false, 4096)))
        {
            graph.start();
            for (long ts = 0; ts < 200; ts++)
            {
                graph.addPacket("a", ts, ts);
            }
            graph.waitUntilIdle();
            assertEquals(List.of(), sets, "nothing is settled on 'b'");
            assertTrue(graph.report().contains("200 queued"), graph.report());
            graph.closeInput("b");
            graph.closeInput("a");
            graph.waitUntilDone();
        }
        final List<String> expected = new ArrayList<>();
        for (long ts = 0; ts < 200; ts++)
        {
            expected.add(ts + ":" + ts + ",-");
        }
        assertEquals(expected, sets);
    }

    @Test
    @Timeout(20)
    void deadlockAvoidanceStopsAtTheHardCap() throws Exception
    {
        try (Graph graph = new Graph(starvedJoin(syncList(), false, 64)))
        {
            graph.start();
            long added = 0;
            for (long ts = 0; ts < 200; ts++)
            {
                if (!Scenarios.addUnlessEnded(graph, "a", ts, ts))
                {
                    break;
                }
                added++;
            }
            assertEquals(64, added);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final Throwable cause = ex.failures().get(0).cause();
            assertTrue(cause instanceof QueueOverflowException, String.valueOf(cause));
            assertTrue(cause.getMessage().contains("stream 'a' into node 'join'") &&
                cause.getMessage().contains("hard cap of 64"), cause.getMessage());
        }
    }

    @Test
    @Timeout(20)
    void unlimitedQueueFedByANodeFailsTheRunAtTheHardCap() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("b")
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("s").option("count", 1000))
            .node("join", n -> n.calculator(recorder(syncList())).inputStream("s", "b"))
            .maxQueueSize(-1)
            .queueHardCap(64)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final GraphFailure failure = ex.failures().get(0);
            assertEquals("src", failure.node());
            assertTrue(failure.cause() instanceof QueueOverflowException, String.valueOf(failure.cause()));
            final String message = failure.cause().getMessage();
            assertTrue(message.contains("stream 's' into node 'join'") && message.contains("hard cap of 64") &&
                message.contains("node 'src'") && message.contains("timestamp 64"), message);
        }
    }

    @Test
    @Timeout(20)
    void unlimitedQueueFedByAGraphInputFailsTheRunAtTheHardCap() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("join", n -> n.calculator(recorder(syncList())).inputStream("a", "b"))
            .maxQueueSize(-1)
            .queueHardCap(64)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 64; ts++)
            {
                graph.addPacket("a", ts, ts);
            }
            final QueueOverflowException ex = assertThrows(QueueOverflowException.class,
                () -> graph.addPacket("a", 64L, 64));
            assertTrue(ex.getMessage().contains("stream 'a' into node 'join'") && ex.getMessage().contains("hard cap"),
                ex.getMessage());
            final GraphException run = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(run.failures().get(0).cause() instanceof QueueOverflowException, run.getMessage());
            assertTrue(run.getMessage().contains("'a'"), run.getMessage());
        }
    }
}
