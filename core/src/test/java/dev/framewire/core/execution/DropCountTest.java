package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Graph#dropCount(String)}, {@link Graph#memoryDropCount()} and the report count dropped
 * packets, not drop events: a dropped input set of three packets counts three.
 */
@Timeout(60)
class DropCountTest
{
    private static final long MIB = 1024 * 1024;

    /** Three graph inputs joined by one node (default policy: one input set per timestamp, three packets). */
    private static GraphConfig.Builder join(final Calculator calculator)
    {
        return parked(1)
            .inputStream("a").inputStream("b").inputStream("c")
            .node("join", n -> n.calculator(() -> calculator).inputStream("a").inputStream("b").inputStream("c"));
    }

    private static void feed(final Graph graph, final int timestamps) throws InterruptedException
    {
        for (long ts = 0; ts < timestamps; ts++)
        {
            for (final String stream : List.of("a", "b", "c"))
            {
                graph.addPacket(stream, ts * 10, ts);
            }
        }
        graph.closeAllInputs();
    }

    @Test
    void aFailedInputSetUnderDropTimestampCountsEachOfItsPackets() throws Exception
    {
        final Calculator failsAtTwoAndFive = ctx ->
        {
            if (ctx.inputTimestamp() == 2 || ctx.inputTimestamp() == 5)
            {
                throw new IllegalStateException("bad input set at " + ctx.inputTimestamp());
            }
        };
        try (Graph graph = new Graph(join(failsAtTwoAndFive).failurePolicy(FailurePolicy.DROP_TIMESTAMP).build()))
        {
            graph.start();
            feed(graph, 8);
            graph.waitUntilDone();

            assertEquals(2, graph.failureCount());
            assertEquals(6, graph.dropCount("join"), "two input sets of three packets");
            assertEquals(8, graph.callCount("join"));
            assertTrue(graph.report().contains("join [closed, idle, worker framewire-default-0], 6 dropped"),
                graph.report());
        }
    }

    @Test
    void anInputSetDroppedAtTheHardLimitUnderDropOldestCountsEachOfItsPackets() throws Exception
    {
        // 1 MiB budget, hard limit 768 KiB: at timestamp 3 the node asks for a 1 MiB frame
        final Calculator bigFrameAtThree = ctx ->
        {
            if (ctx.inputTimestamp() == 3)
            {
                ctx.pool().acquireFrame(512, 512, PixelFormat.RGBA32).release();
            }
        };
        final GraphConfig config = join(bigFrameAtThree)
            .memoryBudget(MIB)
            .memoryLimitPolicy(MemoryLimitPolicy.DROP_OLDEST)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            feed(graph, 6);
            graph.waitUntilDone();
            assertNothingHeld(graph);

            assertEquals(3, graph.dropCount("join"), "the three packets of timestamp 3");
            assertEquals(3, graph.memoryDropCount());
            assertEquals(1, graph.memoryDrops().size(), "one drop");
            assertTrue(graph.memoryDrops().get(0).startsWith("node 'join' dropped its input set at 3 (3 packets): " +
                "cannot acquire a 1048576 B slot"), graph.memoryDrops().get(0));
        }
    }
}
