package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.OutputPoller;
import dev.framewire.core.calculators.PassThroughCalculator;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code StartRun} again on the same graph after {@code WaitUntilDone} (issue 40), as
 * {@code calculator_graph_side_packet_test.cc}'s two-run loops, {@code calculator_graph_bounds_test.cc}
 * {@code SetNextTimestampBoundPropagation} and {@code calculator_graph_test.cc}
 * {@code RecoverAfterPreviousFailInOpen} use it: each run starts afresh (calculators made anew,
 * counts, bounds, failures and output side packets of its own), observers and pollers carry over,
 * and a start while a run is going is refused.
 */
@Timeout(20)
class SecondRunTest
{
    /** in -> scale (by side packet FACTOR, counting the calculators made) -> out. */
    private static GraphConfig scaleGraph(final AtomicInteger made)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("scale", n -> n.calculator(() ->
            {
                made.incrementAndGet();
                return new Calculator()
                {
                    private long factor;
                    private long seen;

                    @Override
                    public void open(final CalculatorContext ctx)
                    {
                        factor = (Long)ctx.sidePacket("FACTOR");
                    }

                    @Override
                    public void process(final CalculatorContext ctx)
                    {
                        seen++; // a calculator's own state: the second run's must start at 0
                        ctx.output(0).addLong(ctx.input(0).getLong() * factor + 1000 * (seen - 1), ctx.inputTimestamp());
                    }
                };
            }).inputStream("in").inputSidePacket("FACTOR:factor").outputStream("out"))
            .build();
    }

    @Test
    void eachRunStartsAfreshWithItsSidePacketsAndKeepsTheObservers() throws Exception
    {
        final AtomicInteger made = new AtomicInteger();
        try (Graph graph = new Graph(scaleGraph(made)))
        {
            final List<String> seen = syncList();
            graph.observe("out", p -> seen.add(p.timestamp() + "=" + p.getLong()));
            final GraphInputHandle in = graph.input("in");
            graph.start(Map.of("factor", 2L));
            in.addPacket(1L, 5);
            in.addPacket(2L, 6);
            in.close();
            graph.waitUntilDone();
            assertEquals(List.of("5=2", "6=1004"), snapshot(seen));
            assertEquals(2, graph.callCount("scale"));
            final int madeInFirst = made.get();

            seen.clear();
            graph.start(Map.of("factor", 3L));
            in.addPacket(1L, 0); // timestamps start afresh: 0 is below the first run's 6
            in.close();
            graph.waitUntilDone();
            assertEquals(List.of("0=3"), snapshot(seen), "the observer carries over; the calculator's count is new");
            assertEquals(1, graph.callCount("scale"), "the counts are the second run's alone");
            assertEquals(2 * madeInFirst, made.get(), "the calculator is made anew for the run");
        }
    }

    @Test
    void pollersCarryOverAndPollTheNewRun() throws Exception
    {
        try (Graph graph = new Graph(scaleGraph(new AtomicInteger())))
        {
            final OutputPoller poller = graph.poller("out");
            for (long run = 1; run <= 2; run++)
            {
                graph.start(Map.of("factor", run));
                graph.addPacket("in", 7L, 1);
                graph.closeInput("in");
                assertTrue(poller.next(5, TimeUnit.SECONDS));
                assertEquals(7 * run, poller.packet().getLong(), "run " + run);
                assertFalse(poller.next(5, TimeUnit.SECONDS), "the stream is done");
                graph.waitUntilDone();
            }
        }
    }

    @Test
    void packetsAPollerDidNotTakeAreReleasedAtTheNextRun() throws Exception
    {
        try (Graph graph = new Graph(scaleGraph(new AtomicInteger())))
        {
            final OutputPoller poller = graph.poller("out");
            graph.start(Map.of("factor", 1L));
            graph.addPacket("in", 1L, 1);
            graph.addPacket("in", 2L, 2);
            graph.closeInput("in");
            graph.waitUntilDone();
            assertEquals(2, poller.queueSize());
            graph.start(Map.of("factor", 10L)); // as MediaPipe's PrepareForRun clears the poller's queue
            assertEquals(0, poller.queueSize());
            graph.addPacket("in", 3L, 1);
            graph.closeInput("in");
            assertTrue(poller.next(5, TimeUnit.SECONDS));
            assertEquals(30L, poller.packet().getLong());
            graph.waitUntilDone();
        }
    }

    @Test
    void payloadsOfTheOldRunArePutBackAndTheGraphClosesWithoutLeaks() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("in").outputStream("out"))
            .build();
        final Graph graph = new Graph(config);
        final OutputPoller poller = graph.poller("out");
        graph.start();
        graph.addPacket("in", graph.pool().acquireFrame(4, 4, PixelFormat.GRAY8), 1);
        graph.addPacket("in", graph.pool().acquireFrame(4, 4, PixelFormat.GRAY8), 2);
        graph.closeInput("in");
        assertTrue(poller.next(5, TimeUnit.SECONDS)); // the first is the poller's current packet
        graph.waitUntilDone();
        assertEquals(2, graph.pool().acquires() - graph.pool().releases(), "the poller holds both");
        graph.start();
        assertEquals(0, graph.pool().acquires() - graph.pool().releases(),
            "the old run's packets, current and queued, are released as the new run is prepared");
        graph.addPacket("in", graph.pool().acquireFrame(4, 4, PixelFormat.GRAY8), 1);
        graph.closeInput("in");
        assertTrue(poller.next(5, TimeUnit.SECONDS));
        assertTrue(poller.packet().payload() != null);
        graph.waitUntilDone();
        graph.close(); // closes the graph's own pool: throws if a payload is still held
        assertEquals(graph.pool().acquires(), graph.pool().releases());
    }

    @Test
    void aGraphClosedBetweenRunsPutsEverythingBack() throws Exception
    {
        final Graph graph = new Graph(scaleGraph(new AtomicInteger()));
        final OutputPoller poller = graph.poller("out");
        graph.start(Map.of("factor", 1L));
        graph.addPacket("in", 1L, 1);
        graph.closeInput("in");
        graph.waitUntilDone();
        graph.observe("out", p -> { }); // prepares the next run, which never starts
        assertEquals(0, poller.queueSize(), "the poller now polls the next run");
        graph.close();
        assertEquals("start(): the graph is closed; make a new Graph(config) to run it",
            assertThrows(IllegalStateException.class, () -> graph.start(Map.of("factor", 1L))).getMessage());
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, RecoverAfterPreviousFailInOpen): a failed run,
    // then a good one on the same graph, twice; errors are the failed run's alone
    @Test
    void recoverAfterPreviousFailInOpen() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("error_on_open", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void open(final CalculatorContext ctx)
                {
                    if ((Boolean)ctx.sidePacket("ERROR_ON_OPEN"))
                    {
                        throw new IllegalStateException("failing in open, as asked");
                    }
                }

                @Override
                public void process(final CalculatorContext ctx)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }).inputStream("in").inputSidePacket("ERROR_ON_OPEN:fail").outputStream("out"))
            .build();
        final List<GraphException> told = syncList();
        try (Graph graph = new Graph(config))
        {
            graph.setErrorCallback(told::add);
            final List<Long> out = syncList();
            graph.observe("out", p -> out.add(p.getLong()));
            for (int i = 0; i < 2; i++)
            {
                out.clear();
                graph.start(Map.of("fail", false));
                graph.addPacket("in", 4L, 1);
                graph.closeInput("in");
                graph.waitUntilDone();
                assertEquals(List.of(4L), snapshot(out));
                assertTrue(graph.failures().isEmpty(), "the failed run's errors are gone: " + graph.failures());
                graph.start(Map.of("fail", true));
                final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
                assertTrue(failure.getMessage().contains("failing in open, as asked"), failure.getMessage());
                assertTrue(awaitFailed(graph), "completion() is of the latest run: failed");
            }
            assertEquals(2, told.size(), "the error callback carries over: once per failed run");
        }
    }

    private static boolean awaitFailed(final Graph graph) throws InterruptedException
    {
        try
        {
            graph.completion().get(5, TimeUnit.SECONDS);
            return false;
        }
        catch (final java.util.concurrent.ExecutionException ex)
        {
            return ex.getCause() instanceof GraphException;
        }
        catch (final java.util.concurrent.TimeoutException ex)
        {
            return false;
        }
    }

    @Test
    void startWhileARunIsGoingIsRefusedAndTheRunGoesOn() throws Exception
    {
        try (Graph graph = new Graph(scaleGraph(new AtomicInteger())))
        {
            final List<Long> out = syncList();
            graph.observe("out", p -> out.add(p.getLong()));
            graph.start(Map.of("factor", 1L));
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> graph.start(Map.of("factor", 2L)));
            assertEquals("start(): a run is in progress on this graph (running); wait for its end with " +
                "waitUntilDone() (or end it with cancel() and wait) before another run", refused.getMessage());
            assertThrows(IllegalStateException.class, () -> graph.poller("out"));
            graph.addPacket("in", 5L, 1);
            graph.closeInput("in");
            graph.waitUntilDone();
            assertEquals(List.of(5L), snapshot(out), "the refused start changed nothing");
        }
    }

    @Test
    void outputSidePacketsOfARunAreClearedByTheNext() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("last", n -> n.calculator(() -> ctx ->
            {
                if (ctx.input(0).getLong() == 2)
                {
                    ctx.setOutputSidePacket("last", ctx.input(0).getLong());
                }
            }).inputStream("in").outputSidePacket("last"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 2L, 1);
            graph.closeInput("in");
            graph.waitUntilDone();
            assertEquals(2L, graph.outputSidePacket("last"));
            graph.start();
            assertThrows(IllegalStateException.class, () -> graph.outputSidePacket("last"),
                "the second run starts without the first run's side packets");
            graph.addPacket("in", 1L, 1);
            graph.closeInput("in");
            graph.waitUntilDone();
            assertTrue(assertThrows(IllegalStateException.class, () -> graph.outputSidePacket("last")).getMessage()
                .contains("node 'last' has not set it; this graph's run is over: it is done"));
        }
    }

    @Test
    void observersAddedBetweenRunsTakePartFromTheNextRun() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("in").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> first = syncList();
            graph.observe("out", p -> first.add(p.getLong()));
            graph.start();
            graph.addPacket("in", 1L, 1);
            graph.closeInput("in");
            graph.waitUntilDone();
            final List<Long> second = syncList();
            graph.observe("out", p -> second.add(p.getLong()));
            graph.start();
            graph.addPacket("in", 2L, 1);
            graph.closeInput("in");
            graph.waitUntilDone();
            assertEquals(List.of(1L, 2L), snapshot(first));
            assertEquals(List.of(2L), snapshot(second));
        }
    }
}
