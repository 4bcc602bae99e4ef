package dev.framewire.core;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.sched.Scheduler;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A worker keeps the id of the node it calls, not the node, and reports find the node by its id
 * ({@link Scheduler#nodeById}): the graph's own nodes at their index, a hot-plugged one by a search
 * (after a removal its index no longer is its id), a removed one not at all.
 */
class NodeByIdTest
{
    @Test
    @Timeout(30)
    void reportsFindTheGraphsOwnNodesHotPluggedOnesAndNotRemovedOnes() throws Exception
    {
        final GraphConfig pass = GraphConfig.builder()
            .type("Pass")
            .inputStream("in")
            .node("p", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build()))
        {
            graph.start();
            graph.addSubgraph("first", pass, Map.of()).get(10, TimeUnit.SECONDS);
            final Node removed = graph.run().node("first__p");
            graph.removeSubgraph("first", Duration.ofSeconds(5), Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
            graph.addSubgraph("second", pass, Map.of()).get(10, TimeUnit.SECONDS);
            final Node added = graph.run().node("second__p");
            final Scheduler scheduler = graph.run().scheduler;
            assertSame(graph.run().node("a"), scheduler.nodeById(graph.run().node("a").id));
            assertSame(graph.run().node("b"), scheduler.nodeById(graph.run().node("b").id));
            assertTrue(added.id >= scheduler.nodes.length || scheduler.nodes[added.id] != added,
                "the added node is not at its id's index: the search is what finds it");
            assertSame(added, scheduler.nodeById(added.id));
            assertNull(scheduler.nodeById(removed.id), "a removed node is not found");
            assertNull(scheduler.nodeById(-1), "no call yet");
            graph.closeInput("in");
        }
    }
}
