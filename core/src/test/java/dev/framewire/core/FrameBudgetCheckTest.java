package dev.framewire.core;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A memory budget too small to hold one frame of a node whose frame size its options fix is found
 * when the graph is validated, naming the node, the stream, the frame size and the budget; a large
 * enough budget runs, and nodes whose frame sizes are unknown before they run are not checked.
 */
class FrameBudgetCheckTest
{
    private static GraphConfig camera(final long width, final long height, final long budget)
    {
        return GraphConfig.builder().memoryBudget(budget)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("FRAME:frames")
                .option("width", width).option("height", height).option("frames", 3L).option("fps", 0.0))
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("small")
                .option("factor", 0.5))
            .outputStream("small").build();
    }

    @Test
    void aBudgetTooSmallForOneFrameFailsAtStartNamingNodeStreamSizeAndBudget()
    {
        // 1920 x 1080 RGBA32 is 8,294,400 bytes; a 4 MiB budget's hard limit is 3,145,728
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(camera(1920, 1080, 4L << 20)).close());
        assertEquals(1, ex.errors().size(), ex.errors().toString());
        final String error = ex.errors().get(0);
        assertTrue(error.startsWith("node 'cam': one frame on stream 'frames' is 8294400 bytes, but "), error);
        assertTrue(error.contains("memory_budget_bytes 4194304 gives a hard limit of 3145728 bytes"), error);
        assertTrue(error.contains("valid is a memory_budget_bytes of at least 11059200"), error);
    }

    @Test
    void aNodeMustHoldItsInputFrameWhileItFillsItsOutput()
    {
        // 1280 x 720 RGBA32 is 3,686,400 bytes, the filter's 3 MiB; each fits the 6 MiB hard limit of
        // an 8 MiB budget, the two together (6,832,128) do not
        final GraphConfig config = GraphConfig.builder().memoryBudget(8L << 20)
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 1280L).option("height", 720L).option("frames", 1L))
            .node("filter", n -> n.calculator(ThreeMegabyteFilter::new).inputStream("frames").outputStream("out"))
            .outputStream("out").build();
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config).close());
        assertEquals(1, ex.errors().size(), ex.errors().toString());
        final String error = ex.errors().get(0);
        assertTrue(error.startsWith("node 'filter': one frame on stream 'out' is 3145728 bytes, held with its input " +
            "frame on stream 'frames' of 3686400 bytes, 6832128 bytes at once"), error);
        assertTrue(error.contains("hard limit of 6291456 bytes"), error);
    }

    /** A node that declares 3 MiB frames on its output; never run. */
    private static final class ThreeMegabyteFilter implements Calculator
    {
        @Override
        public void contract(final Contract contract)
        {
            contract.outputFrameBytes((node, options) -> 3L << 20);
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            throw new UnsupportedOperationException("validation only");
        }
    }

    @Test
    void aBudgetThatHoldsTheFramesRuns() throws Exception
    {
        final AtomicInteger frames = new AtomicInteger();
        try (Graph graph = new Graph(camera(64, 48, 64L << 20)))
        {
            graph.observe("small", p -> frames.incrementAndGet());
            graph.start();
            assertTrue(graph.awaitDone(30, TimeUnit.SECONDS), "graph did not finish");
            graph.waitUntilDone();
        }
        assertEquals(3, frames.get());
    }

    @Test
    void nodesWhoseFrameSizesAreUnknownAreNotChecked()
    {
        // frames from a graph input: their size is known only when they come, so a tiny budget passes validation
        final GraphConfig config = GraphConfig.builder().memoryBudget(1024)
            .inputStream("frames")
            .node("resize", n -> n.calculator("ResizeCalculator").inputStream("frames").outputStream("small")
                .option("factor", 0.5))
            .outputStream("small").build();
        try (Graph graph = new Graph(config))
        {
            assertEquals(1, graph.config().nodes().size());
        }
    }
}
