package dev.framewire.core.conformance;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.TimestampException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code calculator_graph.cc} error semantics (issue 40): an error stays an error. A graph
 * input add that breaks the timestamp rules puts the graph in error (as
 * {@code AddPacketToInputStream} records it); later adds, {@code waitUntilIdle()} and
 * {@code waitUntilDone()} report it.
 */
class CalculatorGraphErrorsTest
{
    private static GraphConfig config(final List<String> seen)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("sink", n -> n.calculator(() -> ctx -> seen.add(ctx.inputTimestamp() + "=" +
                ctx.input(0).getLong())).inputStream("in"))
            .build();
    }

    // calculator_graph.cc AddPacketToInputStreamInternal: "Graph has errors" after a recorded error
    @Test
    @Timeout(20)
    void anOutOfOrderAddPutsTheGraphInError() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = new Graph(config(seen)))
        {
            graph.start();
            graph.addPacket("in", 1L, 20);
            graph.waitUntilIdle();
            final TimestampException refused = assertThrows(TimestampException.class, () -> graph.addPacket("in", 2L, 10));
            assertTrue(refused.getMessage().contains("'in'") && refused.getMessage().contains("10"), refused.getMessage());
            final IllegalStateException later = assertThrows(IllegalStateException.class,
                () -> graph.addPacket("in", 3L, 30));
            assertTrue(later.getMessage().contains("graph input stream 'in'"), later.getMessage());
            assertThrows(IllegalStateException.class, () -> graph.tryAddPacket("in", 3L, 30));
            final GraphException failed = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("graph input 'in'", failed.failures().get(0).node());
            assertSame(refused, failed.failures().get(0).cause());
            assertEquals(List.of("20=1"), snapshot(seen));
        }
    }

    // calculator_graph.cc WaitUntilIdle: returns the graph's combined errors
    @Test
    @Timeout(20)
    void waitUntilIdleReportsAFailedRun() throws Exception
    {
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                throw new IllegalArgumentException("boom at " + ctx.inputTimestamp());
            }).inputStream("in"))
            .build()))
        {
            graph.start();
            graph.addPacket("in", 1L, 5);
            final IllegalStateException idle = assertThrows(IllegalStateException.class, graph::waitUntilIdle);
            final GraphException cause = assertInstanceOf(GraphException.class, idle.getCause());
            assertTrue(idle.getMessage().contains("boom at 5"), idle.getMessage());
            assertEquals("boom", cause.failures().get(0).node());
            assertThrows(GraphException.class, graph::waitUntilDone);
        }
    }

    // a run that did not fail: waitUntilIdle returns, as before
    @Test
    @Timeout(20)
    void waitUntilIdleReturnsOnAHealthyRun() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = new Graph(config(seen)))
        {
            graph.start();
            graph.addPacket("in", 1L, 5);
            graph.waitUntilIdle();
            assertEquals(List.of("5=1"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
