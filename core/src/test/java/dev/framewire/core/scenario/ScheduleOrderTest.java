package dev.framewire.core.scenario;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.ScheduleOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.scenario.Scenarios.awaitPaused;
import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.snapshot;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The order a single worker runs ready nodes in: MediaPipe's (nodes nearer the outputs first)
 * against BMF's (lower input timestamp first, then lower node id).
 *
 * <p>The graph: 'x' alone on 'early' (timestamps 0, 1); 'a' then 'b' on 'late' (timestamps 10,
 * 11). Packets are added while the graph is paused, so on resume the worker sees every ready
 * node at once and its order alone decides.
 */
class ScheduleOrderTest
{
    private static List<String> processOrder(final ScheduleOrder order) throws Exception
    {
        return processOrder(order, 1);
    }

    private static List<String> processOrder(final ScheduleOrder order, final int inputSetsPerRun) throws Exception
    {
        final List<String> calls = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("early", "late")
            .node("x", n -> n.calculator(() -> ctx -> calls.add("x" + ctx.inputTimestamp())).inputStream("early"))
            .node("a", n -> n.calculator(() -> ctx ->
            {
                calls.add("a" + ctx.inputTimestamp());
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }).inputStream("late").outputStream("a_out"))
            .node("b", n -> n.calculator(() -> ctx -> calls.add("b" + ctx.inputTimestamp())).inputStream("a_out"))
            .scheduleOrder(order)
            .inputSetsPerRun(inputSetsPerRun)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilIdle(); // every node opened
            graph.pause();
            awaitPaused(graph);
            graph.addPacket("late", 10L, 10);
            graph.addPacket("late", 11L, 11);
            graph.addPacket("early", 0L, 0);
            graph.addPacket("early", 1L, 1);
            graph.resume();
            graph.waitUntilIdle();
            final List<String> seen = snapshot(calls);
            graph.closeAllInputs();
            graph.waitUntilDone();
            return seen;
        }
    }

    @Test
    @Timeout(10)
    void mediaPipeOrderRunsNodesNearerTheOutputsFirst() throws Exception
    {
        // 'b' is last in topological order, then 'a', then 'x': the late chain drains first
        assertEquals(list("a10", "b10", "a11", "b11", "x0", "x1"), processOrder(ScheduleOrder.MEDIAPIPE));
    }

    /**
     * input_sets_per_run 2: a node taken by the worker goes on with its next ready input set
     * before the worker picks again; the order between nodes is otherwise MediaPipe's, and each
     * node's calls keep their timestamp order.
     */
    @Test
    @Timeout(10)
    void moreInputSetsPerRunLetsANodeGoOnBeforeTheWorkerPicksAgain() throws Exception
    {
        assertEquals(list("a10", "a11", "b10", "b11", "x0", "x1"), processOrder(ScheduleOrder.MEDIAPIPE, 2));
    }

    @Test
    void inputSetsPerRunBelowOneIsRejected()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfig.builder()
                .inputStream("in")
                .node("x", n -> n.calculator(() -> ctx -> { }).inputStream("in"))
                .inputSetsPerRun(0)
                .build()).close());
        assertTrue(ex.getMessage().contains("input_sets_per_run 0 is invalid; valid is 1"),
            ex.getMessage());
    }

    @Test
    @Timeout(10)
    void bmfOrderRunsLowerTimestampsFirst() throws Exception
    {
        assertEquals(list("x0", "x1", "a10", "b10", "a11", "b11"), processOrder(ScheduleOrder.BMF));
    }
}
