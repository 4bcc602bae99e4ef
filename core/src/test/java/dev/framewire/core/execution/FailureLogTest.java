package dev.framewire.core.execution;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node that fails on every packet under DROP_TIMESTAMP used to keep every failure with its
 * exception (6.4 GiB and an OutOfMemoryError in 80 s). The run now keeps its first failure and the
 * last few with their causes, and counts all of them by node and cause.
 */
class FailureLogTest
{
    private static final int PACKETS = 100_000;

    private static GraphConfig.Builder failingEveryPacket(final FailurePolicy policy)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("bad", n -> n.calculator(() -> ctx ->
            {
                throw new IllegalStateException("bad frame " + ctx.inputTimestamp());
            }).inputStream("in").outputStream("out"))
            .outputStream("out")
            .failurePolicy(policy);
    }

    @Test
    @Timeout(120)
    void aNodeFailingOnEveryPacketKeepsTheFirstAndTheLastFailuresAndCountsThemAll() throws Exception
    {
        try (Graph graph = new Graph(failingEveryPacket(FailurePolicy.DROP_TIMESTAMP).keptFailures(8).build()))
        {
            graph.start();
            for (long ts = 0; ts < PACKETS; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone(); // DROP_TIMESTAMP: the run goes on

            assertEquals(PACKETS, graph.failureCount());
            assertEquals(PACKETS, graph.dropCount("bad"));
            final List<GraphFailure> kept = graph.failures();
            assertEquals(9, kept.size(), "the first and the last 8: " + kept);
            assertEquals(0, kept.get(0).timestamp(), "the first failure stays first");
            assertEquals("bad frame 0", kept.get(0).cause().getMessage());
            for (int i = 1; i < kept.size(); i++)
            {
                assertEquals(PACKETS - 9 + i, kept.get(i).timestamp(), "then the last ones, in order");
                assertEquals("bad", kept.get(i).node());
            }
        }
    }

    @Test
    @Timeout(60)
    void theRunsExceptionNamesTheFirstFailureAndCountsTheRest() throws Exception
    {
        try (Graph graph = new Graph(failingEveryPacket(FailurePolicy.DROP_TIMESTAMP).keptFailures(2).build()))
        {
            graph.start();
            for (long ts = 0; ts < 50; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(50, graph.failureCount());
            assertEquals(List.of(0L, 48L, 49L), graph.failures().stream().map(GraphFailure::timestamp).toList());
        }
        try (Graph graph = new Graph(failingEveryPacket(FailurePolicy.FAIL_RUN).build()))
        {
            graph.start();
            graph.addPacket("in", 1L, 7);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals(1, ex.failureCount());
            assertTrue(ex.getMessage().contains("node 'bad' at input timestamp 7: java.lang.IllegalStateException: " +
                "bad frame 7"), ex.getMessage());
        }
    }

    @Test
    void keptFailuresMustBePositive()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(failingEveryPacket(FailurePolicy.DROP_TIMESTAMP).keptFailures(0).build()));
        assertTrue(ex.getMessage().contains("kept failures 0 is invalid; valid is 1 or more (default 16)"), ex.getMessage());
    }
}
