package dev.framewire.core.internal.sched;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.internal.run.Run;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.internal.node.Node;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NodeHeap} holds nodes' slots, not the nodes: the order is the keys' as before, a node keeps
 * its slot from one queueing to the next, and a node a subgraph's removal took out gives its slot
 * back (at once, or when polled) so that the slot table neither grows with hot-plugging nor keeps
 * removed nodes.
 */
class NodeHeapTest
{
    /** Five unopened nodes: their keys are (0, id), so the heap hands them out in id order. */
    private static Run graphOfFive()
    {
        final GraphConfig.Builder builder = GraphConfig.builder().inputStream("in");
        String upstream = "in";
        for (int i = 0; i < 5; i++)
        {
            final String in = upstream;
            final String out = "s" + i;
            builder.node("n" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out));
            upstream = out;
        }
        return new Run(builder.outputStream(upstream).build());
    }

    private static Node[] nodes(final Run graph)
    {
        final Node[] nodes = new Node[5];
        for (int i = 0; i < 5; i++)
        {
            nodes[i] = graph.node("n" + i);
        }
        return nodes;
    }

    @Test
    void theKeysDecideTheOrderAndANodeKeepsItsSlot()
    {
        try (Run graph = graphOfFive())
        {
            final Node[] n = nodes(graph);
            final NodeHeap heap = new NodeHeap(8, ScheduleOrder.MEDIAPIPE);
            for (final int i : new int[] {3, 0, 4, 1, 2})
            {
                heap.add(n[i]);
            }
            final int[] slots = new int[5];
            for (int i = 0; i < 5; i++)
            {
                slots[i] = n[i].heapSlot;
                assertSame(n[i], heap.poll(), "poll " + i);
            }
            assertNull(heap.poll());
            heap.add(n[2]);
            heap.add(n[1]);
            assertEquals(slots[2], n[2].heapSlot, "a node queued again keeps its slot");
            assertEquals(slots[1], n[1].heapSlot);
            assertSame(n[1], heap.poll());
            assertSame(n[2], heap.poll());
            assertEquals(5, heap.slotsHeld());
        }
    }

    @Test
    void aForgottenNodeGivesItsSlotBackAtOnceOrWhenPolled()
    {
        try (Run graph = graphOfFive())
        {
            final Node[] n = nodes(graph);
            final NodeHeap heap = new NodeHeap(8, ScheduleOrder.MEDIAPIPE);
            heap.add(n[0]);
            heap.add(n[1]);
            heap.add(n[2]);
            final int slotOfTwo = n[2].heapSlot;
            assertSame(n[0], heap.poll());
            heap.forget(n[0]); // not queued: its slot goes back now
            assertEquals(-1, n[0].heapSlot);
            heap.forget(n[1]); // queued: it stays queued, in its place
            assertEquals(2, heap.slotsHeld());
            assertSame(n[1], heap.poll());
            assertEquals(-1, n[1].heapSlot, "given back when polled");
            assertEquals(1, heap.slotsHeld());
            assertEquals(slotOfTwo, n[2].heapSlot, "the others keep theirs");

            heap.add(n[3]); // a slot given back is taken again
            assertTrue(n[3].heapSlot >= 0);
            heap.add(n[1]); // a forgotten node queued again (a wake-up still in the inbox) takes one anew
            assertTrue(n[1].heapSlot >= 0);
            assertNotEquals(n[1].heapSlot, n[3].heapSlot);
            assertSame(n[1], heap.poll());
            assertEquals(-1, n[1].heapSlot, "and gives it back when polled");
            assertSame(n[2], heap.poll());
            assertSame(n[3], heap.poll());
            assertEquals(2, heap.slotsHeld());
            assertTrue(heap.heldNodes().containsAll(List.of(n[2], n[3])));
        }
    }

    @Test
    void theSlotTableGrowsWhenMoreNodesHoldSlotsThanItHasRoomFor()
    {
        try (Run graph = graphOfFive())
        {
            final Node[] n = nodes(graph);
            final NodeHeap heap = new NodeHeap(2, ScheduleOrder.MEDIAPIPE);
            for (int round = 0; round < 2; round++)
            {
                for (int i = 4; i >= 0; i -= 2)
                {
                    heap.add(n[i]);
                    if (i > 0)
                    {
                        heap.add(n[i - 1]);
                        assertSame(n[i - 1], heap.poll());
                    }
                    assertSame(n[i], heap.poll());
                }
            }
            assertEquals(5, heap.slotsHeld());
            assertEquals(List.of(n), heap.heldNodes().stream().sorted((a, b) -> a.id - b.id).toList());
        }
    }

    /**
     * Subgraphs added and removed while the run goes: when the run has ended, the worker's heap
     * holds slots for the graph's own nodes alone. Without the removal's {@code forget}, each
     * removed node would keep a slot, and the table its node, for good.
     */
    @Test
    @Timeout(60)
    void removedSubgraphsLeaveNoSlotBehind() throws Exception
    {
        final GraphConfig chain = GraphConfig.builder()
            .type("Chain")
            .inputStream("frames")
            .node("x", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("mid"))
            .node("y", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build();
        final Run graph = new Run(GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .build());
        final Node a = graph.node("a");
        final List<Node> removed = new ArrayList<>();
        try
        {
            graph.start();
            final AtomicLong delivered = new AtomicLong();
            for (int round = 0; round < 20; round++)
            {
                final String name = "sub" + round;
                graph.hotplug().add(name, chain, Map.of(), Map.of("out", p -> delivered.incrementAndGet()), Map.of())
                    .get(10, TimeUnit.SECONDS);
                removed.add(graph.node(name + "__x"));
                removed.add(graph.node(name + "__y"));
                for (long ts = 0; ts < 5; ts++)
                {
                    graph.inputs.addPacket(name + "__frames", ts, ts);
                }
                graph.inputs.addPacket("in", round, round);
                final SubgraphRemoval removal = graph.hotplug().remove(name, Duration.ofSeconds(10), Duration.ofSeconds(10))
                    .get(20, TimeUnit.SECONDS);
                assertTrue(removal.drained(), name);
            }
            assertEquals(100, delivered.get());
            graph.inputs.closeInput("in");
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), graph.report());
        }
        finally
        {
            graph.close(); // joins the worker: its heap can be read here
        }
        final List<Node> held = graph.scheduler.workers.get(0).heldNodes();
        assertEquals(List.of(a), held, "slots held after " + removed.size() + " removed nodes");
        for (final Node node : removed)
        {
            assertEquals(-1, node.heapSlot, node.name);
        }
    }
}
