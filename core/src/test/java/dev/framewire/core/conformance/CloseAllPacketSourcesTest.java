package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code CalculatorGraph::CloseAllPacketSources} and a non-source calculator's
 * {@code StatusStop} from {@code Process} (issue 40): the sources stop being called and close, the
 * graph inputs close, what is queued drains, and the run ends OK.
 */
class CloseAllPacketSourcesTest
{
    /** An endless source: one packet per call, counting what it emitted and its close calls. */
    private static final class Endless implements Calculator
    {
        final AtomicLong emitted = new AtomicLong();
        final AtomicInteger closes = new AtomicInteger();
        final CountDownLatch running = new CountDownLatch(10);

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long i = emitted.get();
            ctx.output(0).addLong(i, i + 1);
            emitted.incrementAndGet();
            running.countDown();
        }

        @Override
        public void close(final CalculatorContext ctx)
        {
            closes.incrementAndGet();
        }
    }

    private static GraphConfig config(final Endless source, final Calculator middle, final List<Long> seen)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("src", n -> n.calculator(() -> source).outputStream("s"))
            .node("middle", n -> n.calculator(() -> middle).inputStream("s").outputStream("m"))
            .node("sink", n -> n.calculator(() -> ctx -> seen.add(ctx.inputTimestamp())).inputStream("m"))
            .node("graphInputSink", n -> n.calculator(() -> ctx -> { }).inputStream("in"))
            .build();
    }

    private static Calculator passThrough()
    {
        return ctx -> ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
    }

    // calculator_graph.cc CloseAllPacketSources: graph inputs closed, source nodes closed, the run ends OK
    @Test
    @Timeout(30)
    void closeAllPacketSourcesEndsAnEndlessRunOk() throws Exception
    {
        final Endless source = new Endless();
        final List<Long> seen = syncList();
        try (Graph graph = new Graph(config(source, passThrough(), seen)))
        {
            graph.start();
            graph.addPacket("in", 1L, 1);
            assertTrue(source.running.await(10, TimeUnit.SECONDS));
            graph.closeAllPacketSources();
            graph.closeAllPacketSources(); // again: nothing more
            final IllegalStateException late = assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 2L, 2));
            assertTrue(late.getMessage().contains("graph input stream 'in'") && late.getMessage().contains("closed"),
                late.getMessage());
            graph.waitUntilDone(); // ends OK: no GraphException
            assertEquals(1, source.closes.get(), "the source's close ran once");
            assertEquals(source.emitted.get(), snapshot(seen).size(), "every packet the source emitted drained");
        }
    }

    // calculator_node.cc ProcessNode: a non-source Process returning StatusStop closes all packet sources
    @Test
    @Timeout(30)
    void aNodeWithInputsThatStopsEndsTheRunOkAfterTheRestDrains() throws Exception
    {
        final Endless source = new Endless();
        final List<Long> seen = syncList();
        final Calculator stopper = ctx ->
        {
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            if (ctx.inputTimestamp() == 5)
            {
                ctx.stop();
            }
        };
        try (Graph graph = new Graph(config(source, stopper, seen)))
        {
            graph.start();
            assertTrue(graph.awaitDone(20, TimeUnit.SECONDS), "the stop ended the endless run");
            graph.waitUntilDone();
            assertEquals(1, source.closes.get());
            final List<Long> got = snapshot(seen);
            assertEquals(source.emitted.get(), got.size(), "what was queued after the stop still drained");
            assertTrue(got.size() >= 5 && got.get(4) == 5, got.toString());
            final IllegalStateException late = assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 9L, 9));
            assertTrue(late.getMessage().contains("graph input stream 'in'"), late.getMessage());
        }
    }

    // with graph inputs only: a node's stop closes the graph inputs, later adds fail naming the stream
    @Test
    @Timeout(30)
    void aStopClosesTheGraphInputs() throws Exception
    {
        final List<Long> seen = syncList();
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("stopper", n -> n.calculator(() -> ctx ->
            {
                seen.add(ctx.inputTimestamp());
                if (ctx.inputTimestamp() == 2)
                {
                    ctx.stop();
                }
            }).inputStream("in"))
            .build()))
        {
            graph.start();
            graph.addPacket("in", 1L, 1);
            graph.addPacket("in", 2L, 2);
            assertTrue(graph.awaitDone(20, TimeUnit.SECONDS), "the inputs closed without the caller closing them");
            graph.waitUntilDone();
            final IllegalStateException late = assertThrows(IllegalStateException.class, () -> graph.addPacket("in", 3L, 3));
            assertTrue(late.getMessage().contains("graph input stream 'in' is closed"), late.getMessage());
            assertEquals(List.of(1L, 2L), snapshot(seen));
        }
    }

    // CloseAllSourceNodes closes a source also while backpressure holds it back
    @Test
    @Timeout(30)
    void aThrottledSourceClosesToo() throws Exception
    {
        final Endless source = new Endless();
        final Semaphore gate = new Semaphore(0);
        final AtomicInteger entered = new AtomicInteger();
        final List<Long> seen = syncList();
        try (Graph graph = new Graph(GraphConfig.builder()
            .node("src", n -> n.calculator(() -> source).outputStream("s"))
            .node("slow", n -> n.calculator(() -> ctx ->
            {
                entered.incrementAndGet();
                gate.acquire();
                seen.add(ctx.inputTimestamp());
            }).inputStream("s").executor("slow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(2)
            .build()))
        {
            graph.start();
            try
            {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (entered.get() == 0 || source.emitted.get() < 3)
                {
                    assertTrue(System.nanoTime() < deadline, "the slow node to be entered and its queue to fill");
                    Thread.onSpinWait();
                    Thread.yield();
                }
                graph.closeAllPacketSources();
                while (source.closes.get() == 0)
                {
                    assertTrue(System.nanoTime() < deadline, "the held-back source to close while its consumer is blocked");
                    Thread.yield();
                }
            }
            finally
            {
                gate.release(Integer.MAX_VALUE / 2);
            }
            graph.waitUntilDone();
            assertEquals(1, source.closes.get());
            assertEquals(source.emitted.get(), snapshot(seen).size(), "what the source emitted drained");
        }
    }
}
