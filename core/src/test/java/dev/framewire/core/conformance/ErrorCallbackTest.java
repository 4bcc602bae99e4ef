package dev.framewire.core.conformance;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.TimestampException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code CalculatorGraph::SetErrorCallback} (issue 40): a failed run is told to a
 * callback, for services that do not block in {@code waitUntilDone()}. Framewire calls it once per
 * failed run, with every failure, on the completion thread.
 */
class ErrorCallbackTest
{
    private static GraphConfig failing()
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                throw new IllegalArgumentException("boom at " + ctx.inputTimestamp());
            }).inputStream("in"))
            .build();
    }

    private static GraphConfig passing()
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("in"))
            .build();
    }

    // calculator_graph.cc RecordError -> error_callback_
    @Test
    @Timeout(20)
    void aFailedRunCallsTheCallbackOnceOnTheCompletionThread() throws Exception
    {
        final List<GraphException> told = syncList();
        final List<String> threads = syncList();
        try (Graph graph = new Graph(failing()))
        {
            graph.setErrorCallback(ex ->
            {
                told.add(ex);
                threads.add(Thread.currentThread().getName());
            });
            graph.start();
            graph.addPacket("in", 1L, 5);
            final ExecutionException done = assertThrows(ExecutionException.class,
                () -> graph.completion().get(10, TimeUnit.SECONDS));
            final GraphException failure = assertInstanceOf(GraphException.class, done.getCause());
            assertEquals(1, told.size(), "called once: " + told);
            assertEquals("boom", told.get(0).failures().get(0).node());
            assertTrue(told.get(0).getMessage().contains("boom at 5"), told.get(0).getMessage());
            assertEquals(failure.getMessage(), told.get(0).getMessage());
            assertEquals(List.of("framewire-completion"), snapshot(threads));
        }
    }

    @Test
    @Timeout(20)
    void aRefusedGraphInputAddCallsTheCallback() throws Exception
    {
        final List<GraphException> told = syncList();
        try (Graph graph = new Graph(passing()))
        {
            graph.setErrorCallback(told::add);
            graph.start();
            graph.addPacket("in", 1L, 20);
            final TimestampException refused = assertThrows(TimestampException.class, () -> graph.addPacket("in", 2L, 10));
            assertThrows(ExecutionException.class, () -> graph.completion().get(10, TimeUnit.SECONDS));
            assertEquals(1, told.size());
            assertSame(refused, told.get(0).failures().get(0).cause());
        }
    }

    @Test
    @Timeout(20)
    void aRunThatIsDoneOrCancelledDoesNotCallIt() throws Exception
    {
        final List<GraphException> told = syncList();
        try (Graph graph = new Graph(passing()))
        {
            graph.setErrorCallback(told::add);
            graph.start();
            graph.addPacket("in", 1L, 5);
            graph.closeAllInputs();
            graph.completion().get(10, TimeUnit.SECONDS);
            graph.waitUntilDone();
        }
        try (Graph graph = new Graph(passing()))
        {
            graph.setErrorCallback(told::add);
            graph.start();
            graph.cancel();
            final ExecutionException ex = assertThrows(ExecutionException.class,
                () -> graph.completion().get(10, TimeUnit.SECONDS));
            assertTrue(assertInstanceOf(GraphException.class, ex.getCause()).isCancelled());
        }
        assertEquals(List.of(), snapshot(told));
    }

    @Test
    @Timeout(20)
    void aCallbackThatThrowsIsLoggedAndTheRunStillEnds() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = new Graph(failing()))
        {
            graph.setErrorCallback(ex ->
            {
                calls.add("called");
                throw new IllegalStateException("the callback's own bug");
            });
            graph.start();
            graph.addPacket("in", 1L, 5);
            final ExecutionException done = assertThrows(ExecutionException.class,
                () -> graph.completion().get(10, TimeUnit.SECONDS));
            assertEquals("boom", assertInstanceOf(GraphException.class, done.getCause()).failures().get(0).node());
            assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals(List.of("called"), snapshot(calls));
        }
    }

    // calculator_graph.cc SetErrorCallback: "must be called before Initialize()"
    @Test
    @Timeout(20)
    void itIsSetBeforeTheStart() throws Exception
    {
        try (Graph graph = new Graph(passing()))
        {
            assertThrows(NullPointerException.class, () -> graph.setErrorCallback(null));
            graph.start();
            final IllegalStateException late = assertThrows(IllegalStateException.class,
                () -> graph.setErrorCallback(ex -> { }));
            assertTrue(late.getMessage().startsWith("setErrorCallback(): a run is in progress on this graph"),
                late.getMessage());
            graph.closeAllInputs();
            graph.waitUntilDone();
            graph.setErrorCallback(ex -> { }); // between runs: for the runs that follow (SecondRunTest)
        }
        final Graph closed = new Graph(passing());
        closed.close();
        assertTrue(assertThrows(IllegalStateException.class, () -> closed.setErrorCallback(ex -> { }))
            .getMessage().contains("closed"));
    }
}
