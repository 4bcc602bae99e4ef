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
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failures under the default policy (fail the run): what {@code waitUntilDone} reports, that
 * every payload is released, that the leak check at {@link Graph#close()} catches what is not,
 * and the timeout guard.
 */
class FailureTest
{
    private static Payload payload(final PayloadPool pool, final long value)
    {
        final Payload payload = pool.acquire(64);
        payload.mutableBuffer().putLong(0, value);
        return payload;
    }

    private static long totalSlotsInUse(final PayloadPool pool)
    {
        long inUse = 0;
        for (int c = 0; c < pool.sizeClassCount(); c++)
        {
            inUse += pool.slotsInUse(c);
        }
        return inUse;
    }

    /** Keeps the previous payload across calls, releasing it when the next comes and in close(). */
    private static final class KeepsLast implements Calculator
    {
        private Payload last;

        @Override
        public void process(final CalculatorContext ctx)
        {
            final Payload current = ctx.input(0).payload();
            current.retain();
            if (last != null)
            {
                last.release();
            }
            last = current;
        }

        @Override
        public void close(final CalculatorContext ctx)
        {
            if (last != null)
            {
                last.release();
                last = null;
            }
        }
    }

    @Test
    @Timeout(10)
    void calculatorExceptionFailsTheRunNamingNodeTimestampAndCauseAndReleasesEveryPayload() throws Exception
    {
        final IllegalStateException thrown = new IllegalStateException("bad frame");
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                ctx.input(0).payload().buffer().getLong(0);
                if (ctx.inputTimestamp() == 3)
                {
                    throw thrown;
                }
            }).inputStream("mid"))
            .node("keeper", n -> n.calculator(KeepsLast::new).inputStream("in"))
            .node("slow", n -> n.calculator(() -> ctx -> ctx.input(0).payload()).inputStream("in").executor("other"))
            .executor("other", ExecutorConfig.of(1, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 50; ts++)
            {
                final Payload payload = payload(graph.pool(), ts);
                try
                {
                    graph.addPacket("in", payload, ts);
                }
                catch (final IllegalStateException ended)
                {
                    assertEquals(0, payload.refCount(), "added to an ended run: released");
                }
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertFalse(ex.isCancelled());
            final GraphFailure failure = ex.failures().get(0);
            assertEquals("boom", failure.node());
            assertEquals(3, failure.timestamp());
            assertSame(thrown, failure.cause());
            assertSame(thrown, ex.getCause());
            assertTrue(ex.getMessage().contains("node 'boom' at input timestamp 3") &&
                ex.getMessage().contains("bad frame"), ex.getMessage());
            // queued, in flight, kept by a calculator: all released once the run has stopped
            assertEquals(0, totalSlotsInUse(graph.pool()), graph.pool().leakReport());
            assertEquals(graph.pool().acquires(), graph.pool().releases());
        }
    }

    @Test
    @Timeout(10)
    void failuresInOpenAndCloseAreReportedWithTheirTimestamps() throws Exception
    {
        final GraphConfig failsOpen = GraphConfig.builder()
            .inputStream("in")
            .node("opener", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void open(final CalculatorContext ctx)
                {
                    throw new IllegalArgumentException("no camera");
                }

                @Override
                public void process(final CalculatorContext ctx)
                {
                }
            }).inputStream("in"))
            .build();
        try (Graph graph = new Graph(failsOpen))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("opener", ex.failures().get(0).node());
            assertEquals(Timestamp.UNSTARTED, ex.failures().get(0).timestamp());
            assertTrue(ex.getMessage().contains("Unstarted") && ex.getMessage().contains("no camera"), ex.getMessage());
        }

        final GraphConfig failsClose = GraphConfig.builder()
            .inputStream("in")
            .node("closer", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void process(final CalculatorContext ctx)
                {
                }

                @Override
                public void close(final CalculatorContext ctx)
                {
                    throw new IllegalStateException("flush failed");
                }
            }).inputStream("in"))
            .build();
        try (Graph graph = new Graph(failsClose))
        {
            graph.start();
            graph.addPacket("in", 1L, 1);
            graph.closeAllInputs();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("closer", ex.failures().get(0).node());
            assertEquals(Timestamp.DONE, ex.failures().get(0).timestamp());
            assertTrue(ex.getMessage().contains("Done") && ex.getMessage().contains("flush failed"), ex.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void observerExceptionFailsTheRunAsAFailureOfTheObserverNotOfTheProducer() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(Scenarios.forwardLong()).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p ->
            {
                if (p.timestamp() == 2)
                {
                    throw new java.io.IOException("disk full");
                }
            });
            graph.start();
            for (long ts = 0; ts < 5; ts++)
            {
                Scenarios.addUnlessEnded(graph, "in", ts, ts);
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.failures().get(0).node().startsWith("observer of stream 'out' ("), ex.getMessage());
            assertEquals(2, ex.failures().get(0).timestamp());
            assertTrue(ex.getCause().getCause() instanceof java.io.IOException, String.valueOf(ex.getCause()));
            assertTrue(ex.getCause().getMessage().contains("of stream 'out' threw on the packet at 2: " +
                "java.io.IOException: disk full"), ex.getCause().getMessage());
        }

        // an observer of a graph input runs on the adding thread: the caller sees the error too
        final GraphConfig direct = GraphConfig.builder()
            .inputStream("in")
            .node("sink", n -> n.calculator(Scenarios.recorder(syncList())).inputStream("in"))
            .build();
        try (Graph graph = new Graph(direct))
        {
            graph.observe("in", p ->
            {
                throw new IllegalStateException("observer broke");
            });
            graph.start();
            final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 1L, 1));
            assertTrue(ex.getMessage().contains("observer broke"), ex.getMessage());
            final GraphException run = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(run.failures().get(0).node().contains("'in'"), run.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void leakCheckAtCloseCatchesADeliberatelyLeakedPayload() throws Exception
    {
        final List<Payload> hoard = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("hoarder", n -> n.calculator(() -> ctx ->
            {
                final Payload kept = ctx.input(0).payload();
                kept.retain(); // kept past the call and never released: a leak
                hoard.add(kept);
            }).inputStream("in"))
            .build();
        final Graph graph = new Graph(config);
        final IllegalStateException leak;
        try
        {
            graph.start();
            graph.addPacket("in", payload(graph.pool(), 7), 7);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        finally
        {
            leak = assertThrows(IllegalStateException.class, graph::close);
        }
        assertTrue(leak.getMessage().contains("still held") && leak.getMessage().contains("node 'hoarder'") &&
            leak.getMessage().contains("'in'"), leak.getMessage());
        assertEquals(1, hoard.size());
        // once released, a second close frees the pool
        hoard.get(0).release();
        graph.close();
    }

    @Test
    @Timeout(10)
    void leakCheckNamesWhereALeakedPayloadWasAcquired() throws Exception
    {
        final List<Payload> hoard = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("allocator", n -> n.calculator(() -> ctx -> hoard.add(ctx.pool().acquire(100))).inputStream("in"))
            .build();
        final Graph graph = new Graph(config);
        final IllegalStateException leak;
        try
        {
            graph.start();
            graph.addPacket("in", 1L, 1);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        finally
        {
            leak = assertThrows(IllegalStateException.class, graph::close);
        }
        assertTrue(leak.getMessage().contains("still held"), leak.getMessage());
        if (Boolean.getBoolean(PoolContext.LEAK_TRACKING_PROP))
        {
            assertTrue(leak.getMessage().contains(FailureTest.class.getSimpleName()), leak.getMessage());
        }
        hoard.get(0).release();
        graph.close();
    }

    @Test
    @Timeout(20)
    void timeoutGuardFailsARunStuckInANodeNamingTheNodeAndTheWorker() throws Exception
    {
        final CountDownLatch stuck = new CountDownLatch(1);
        final CountDownLatch entered = new CountDownLatch(1);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("stuck", n -> n.calculator(() -> ctx ->
            {
                entered.countDown();
                stuck.await();
            }).inputStream("in"))
            .timeoutGuardMillis(200)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            try
            {
                graph.addPacket("in", 1L, 5);
                assertTrue(entered.await(5, TimeUnit.SECONDS));
                assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), "the guard ended the run");
            }
            finally
            {
                stuck.countDown();
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final String report = ex.failures().get(0).cause().getMessage();
            assertTrue(report.contains("no node has run") && report.contains("stuck [") &&
                report.contains("input timestamp 5") && report.contains("framewire-default-0") &&
                report.contains("in node 'stuck'"), report);
        }
    }

    @Test
    @Timeout(20)
    void timeoutGuardLeavesAnIdleGraphAlone() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("fwd", n -> n.calculator(Scenarios.forwardLong()).inputStream("in").outputStream("out"))
            .outputStream("out")
            .timeoutGuardMillis(50)
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller out = graph.poller("out");
            graph.start();
            // idle, with nothing pending, for several guard periods
            assertFalse(out.next(300, TimeUnit.MILLISECONDS));
            assertFalse(graph.awaitDone(0, TimeUnit.MILLISECONDS), "the guard did not end an idle run");
            final List<Long> seen = new ArrayList<>();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
                assertTrue(out.next(5, TimeUnit.SECONDS));
                seen.add(out.packet().getLong());
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(10, seen.size());
        }
    }
}
