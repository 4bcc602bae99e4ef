package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.TimestampException;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The small points of the public API: start twice, the completion future, and the graph input
 * handle ({@link Graph#input(String)}), with their failure cases.
 */
@Timeout(30)
class GraphHandleAndCompletionTest
{
    /** in -> pass -> out, and a second input "side" that nothing reads from but a sink. */
    private static GraphConfig config()
    {
        return GraphConfig.builder()
            .inputStream("in")
            .inputStream("side")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .node("drain", n -> n.calculator(() -> (Calculator)ctx -> { }).inputStream("side"))
            .outputStream("out")
            .build();
    }

    private static List<String> observe(final Graph graph)
    {
        final List<String> seen = syncList();
        graph.observe("out", p -> seen.add(p.timestamp() + "=" + p.value()));
        return seen;
    }

    @Test
    void startWhileRunningSaysWhereTheRunIsAndWhatToDo() throws Exception
    {
        try (Graph graph = new Graph(config()))
        {
            graph.start();
            final IllegalStateException running = assertThrows(IllegalStateException.class, graph::start);
            assertEquals("start(): a run is in progress on this graph (running); wait for its end with " +
                "waitUntilDone() (or end it with cancel() and wait) before another run", running.getMessage());
            final IllegalStateException observe = assertThrows(IllegalStateException.class,
                () -> graph.observe("out", p -> { }));
            assertTrue(observe.getMessage().startsWith("observe(): a run is in progress on this graph"),
                observe.getMessage());
            graph.closeAllInputs();
            graph.waitUntilDone();
            graph.start(); // a second run, as MediaPipe's StartRun after WaitUntilDone (SecondRunTest)
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        try (Graph graph = new Graph(config()))
        {
            graph.start();
            graph.cancel();
            assertThrows(GraphException.class, graph::waitUntilDone);
            graph.start(); // a cancelled run is over too
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final Graph closed = new Graph(config());
        closed.close();
        assertEquals("start(): this graph was closed without being started; make a new Graph(config) to run it",
            assertThrows(IllegalStateException.class, closed::start).getMessage());
    }

    @Test
    void completionCompletesOffTheWorkersAfterTheRunAndItsPayloadsAreDone() throws Exception
    {
        try (Graph graph = new Graph(config()))
        {
            final CompletableFuture<Void> before = graph.completion(); // before start: it starts with the run
            final AtomicReference<String> thread = new AtomicReference<>();
            final AtomicReference<Long> inUse = new AtomicReference<>();
            final CompletableFuture<Void> observed = before.whenComplete((ok, failure) ->
            {
                thread.set(Thread.currentThread().getName());
                inUse.set(graph.pool().budget().bytesInUse());
            });
            final List<String> out = observe(graph);
            graph.start();
            final GraphInputHandle in = graph.input("in");
            final Payload payload = graph.pool().acquire(64);
            payload.mutableBuffer().putLong(0, 42);
            in.addPacket(payload, 1);
            in.addPacket(7L, 2);
            graph.closeAllInputs();

            assertNull(observed.get(10, TimeUnit.SECONDS), "a run that is done completes it normally");
            assertEquals("framewire-completion", thread.get(), "completed on the graph's own thread, not a worker");
            assertEquals(0L, inUse.get(), "after every payload of the run was released");
            assertEquals(2, out.size());
            assertTrue(before.isDone());
            graph.waitUntilDone(); // still returns at once
            assertTrue(graph.completion().isDone(), "a later call: already complete");
        }
    }

    @Test
    void completionCompletesExceptionallyWithTheGraphExceptionOnFailureAndCancellation() throws Exception
    {
        final GraphConfig failing = GraphConfig.builder()
            .inputStream("in")
            .node("bad", n -> n.calculator(() -> (Calculator)ctx ->
            {
                throw new IllegalStateException("bad packet at " + ctx.inputTimestamp());
            }).inputStream("in"))
            .failurePolicy(FailurePolicy.FAIL_RUN)
            .build();
        try (Graph graph = new Graph(failing))
        {
            graph.start();
            final CompletableFuture<Void> future = graph.completion();
            graph.input("in").addPacket(1L, 3);
            final ExecutionException ex = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
            final GraphException failure = assertInstanceOf(GraphException.class, ex.getCause());
            assertFalse(failure.isCancelled());
            assertEquals("bad", failure.failures().get(0).node());
            assertTrue(failure.getMessage().contains("bad packet at 3"), failure.getMessage());
            assertSame(GraphException.class, assertThrows(GraphException.class, graph::waitUntilDone).getClass());
        }
        try (Graph graph = new Graph(config()))
        {
            graph.start();
            final CompletableFuture<Void> future = graph.completion();
            assertFalse(future.isDone());
            future.cancel(true); // the caller's own future: the run goes on
            assertTrue(graph.completion().completeExceptionally(new Exception("mine")), "another caller's is unharmed");
            final CompletableFuture<Void> third = graph.completion();
            assertFalse(third.isDone());
            graph.cancel();
            final ExecutionException ex = assertThrows(ExecutionException.class, () -> third.get(10, TimeUnit.SECONDS));
            assertTrue(assertInstanceOf(GraphException.class, ex.getCause()).isCancelled());
        }
        final Graph neverStarted = new Graph(config());
        final CompletableFuture<Void> future = neverStarted.completion();
        neverStarted.close();
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
        assertTrue(assertInstanceOf(GraphException.class, ex.getCause()).isCancelled());
    }

    @Test
    void anInputHandleAddsEveryKindOfPacketAndBoundsAndClosesItsStream() throws Exception
    {
        try (Graph graph = new Graph(config()))
        {
            final List<String> out = observe(graph);
            final GraphInputHandle in = graph.input("in");
            assertSame(in, graph.input("in"), "one handle per stream");
            assertEquals("in", in.name());
            graph.start();
            in.addPacket(1L, 1);
            in.addPacket(2.5, 2);
            in.addPacket("three", 3);
            assertTrue(in.tryAddPacket(4L, 4));
            assertTrue(in.tryAddPacket(4.5, 5));
            assertTrue(in.tryAddPacket("six", 6));
            in.setBound(10);
            graph.addPacket("in", 11L, 11); // the name-based methods still work, on the same stream
            assertFalse(in.isClosed());
            in.close();
            in.close(); // again: nothing
            assertTrue(in.isClosed());
            graph.input("side").close();
            graph.waitUntilDone();
            assertEquals(List.of("1=1", "2=2.5", "3=three", "4=4", "5=4.5", "6=six", "11=11"), out);
        }
    }

    @Test
    void anOutOfOrderAddThroughAHandleFailsTheRun() throws Exception
    {
        try (Graph graph = new Graph(config()))
        {
            final GraphInputHandle in = graph.input("in");
            graph.start();
            in.setBound(10);
            final TimestampException late = assertThrows(TimestampException.class, () -> in.addPacket(9L, 9));
            assertTrue(late.getMessage().contains("graph input stream 'in'") && late.getMessage().contains("9"),
                late.getMessage());
            assertThrows(IllegalStateException.class, () -> in.addPacket(11L, 11));
            final GraphException failed = assertThrows(GraphException.class, graph::waitUntilDone);
            assertSame(late, failed.failures().get(0).cause());
        }
    }

    @Test
    void anInputHandleFailsClearlyForAnUnknownStreamAndAfterItsStreamOrTheRunIsOver() throws Exception
    {
        final Graph graph = new Graph(config());
        try
        {
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> graph.input("frames"));
            assertEquals("'frames' is not a graph input stream; graph input streams are [in, side]",
                unknown.getMessage());
            assertThrows(IllegalArgumentException.class, () -> graph.input("out"), "an output is not an input");

            final GraphInputHandle in = graph.input("in");
            final GraphInputHandle side = graph.input("side");
            final IllegalStateException early = assertThrows(IllegalStateException.class, () -> in.addPacket(1L, 1));
            assertEquals("graph input stream 'in' belongs to a graph not started yet", early.getMessage());

            graph.start();
            in.addPacket(1L, 1);
            in.close();
            final IllegalStateException closedStream = assertThrows(IllegalStateException.class,
                () -> in.addPacket(2L, 2));
            assertEquals("graph input stream 'in' is closed", closedStream.getMessage());
            assertThrows(IllegalStateException.class, () -> in.tryAddPacket(2L, 2));
            assertThrows(IllegalStateException.class, () -> in.setBound(5));
            // a payload refused because its stream is closed is released, not leaked
            final Payload refused = graph.pool().acquire(64);
            assertThrows(IllegalStateException.class, () -> in.addPacket(refused, 3));
            assertEquals(0, refused.refCount());

            final CountDownLatch ended = new CountDownLatch(1);
            graph.completion().whenComplete((ok, failure) -> ended.countDown());
            graph.cancel();
            assertTrue(ended.await(10, TimeUnit.SECONDS));
            final IllegalStateException over = assertThrows(IllegalStateException.class, () -> side.addPacket(1L, 1));
            assertEquals("graph input stream 'side' belongs to a run that has ended (failed, cancelled or done: " +
                "waitUntilDone() says which and why)", over.getMessage());
        }
        finally
        {
            graph.close();
        }
        assertEquals(0, graph.pool().budget().bytesInUse());
    }
}
