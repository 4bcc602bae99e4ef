package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static dev.framewire.core.execution.Execution.slotBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §5.1: completion pressure runs the node whose inputs free the most bytes, so working
 * memory stays deep and narrow. Measured as the pool's peak bytes on one worker, against
 * MediaPipe's order, on a fan-out of large frames:
 * <pre>
 *   src --frames--> a --a_out--+--> b1 --> b2 --> b3
 *                              +--> c1 --> c2 --> c3
 * </pre>
 * Every step allocates a new 640x480 RGBA32 frame (a 2 MiB slot) and lets its input go.
 */
@Timeout(60)
class CompletionPressureTest
{
    private static final int WIDTH = 640;
    private static final int HEIGHT = 480;
    private static final int FRAMES = 128;

    private static GraphConfig fanOut(final ScheduleOrder order)
    {
        final GraphConfig.Builder b = parked(1).scheduleOrder(order)
            .node("src", n -> n.calculator(() -> frameSource(FRAMES, WIDTH, HEIGHT)).outputStream("frames"))
            .node("a", n -> n.calculator(Execution::newFramePerStep).inputStream("frames").outputStream("a_out"));
        for (final String chain : new String[] {"b", "c"})
        {
            // the last step's output is a graph output nobody observes: its frame is released as it
            // is emitted
            b.outputStream(chain + "3_out");
            b.node(chain + "1", n -> n.calculator(Execution::newFramePerStep).inputStream("a_out")
                .outputStream(chain + "1_out"));
            b.node(chain + "2", n -> n.calculator(Execution::newFramePerStep).inputStream(chain + "1_out")
                .outputStream(chain + "2_out"));
            b.node(chain + "3", n -> n.calculator(Execution::newFramePerStep).inputStream(chain + "2_out")
                .outputStream(chain + "3_out"));
        }
        return b.build();
    }

    private static long peakBytes(final ScheduleOrder order) throws Exception
    {
        try (Graph graph = new Graph(fanOut(order)))
        {
            graph.start();
            graph.waitUntilDone();
            for (final String node : new String[] {"a", "b1", "b2", "b3", "c1", "c2", "c3"})
            {
                assertEquals(FRAMES, graph.callCount(node), node);
            }
            assertEquals(0, graph.pool().budget().bytesInUse());
            return graph.pool().budget().peakBytesInUse();
        }
    }

    @Test
    void completionPressurePeaksNoHigherThanMediaPipeOrderOnAFanOutOfLargeFrames() throws Exception
    {
        final long slot = slotBytes(WIDTH, HEIGHT);
        final long mediaPipe = peakBytes(ScheduleOrder.MEDIAPIPE);
        final long pressure = peakBytes(ScheduleOrder.COMPLETION_PRESSURE);
        System.out.printf("fan-out of %d %dx%d RGBA32 frames in shipments of 64, one worker: peak pool bytes " +
            "MEDIAPIPE %d (%d slots), COMPLETION_PRESSURE %d (%d slots)%n",
            FRAMES, WIDTH, HEIGHT, mediaPipe, mediaPipe / slot, pressure, pressure / slot);
        assertTrue(pressure <= mediaPipe, "completion pressure peaked at " + pressure / slot + " slots, MediaPipe " +
            "order at " + mediaPipe / slot);
        // The floor on one worker: a whole shipment of 64 (in a's queue, or as a's shared outputs)
        // plus one chain step's input and output. Before completionPressure (NodeHeap) counted one run's
        // bytes instead of whole queues, completion pressure drained a, then b1, breadth first: 126.
        assertEquals(64 + 2, pressure / slot);
    }

    /**
     * Where the orders differ: a source emits a shipment of frames for {@code shrink}, a sink that
     * frees one per run, and a shipment of ticks for {@code inflate}, which makes a frame per tick
     * for {@code render}. MediaPipe's order runs the later nodes in topological order first, so
     * the ticks are inflated while the whole shipment of frames waits; completion pressure sees
     * that {@code shrink} frees a frame per run and {@code inflate} nothing, and drains the frames
     * first.
     * <pre>
     *   src --big--> shrink
     *       --tick-> inflate --inflated--> render --rendered--> (nobody)
     * </pre>
     */
    @Test
    void completionPressureFreesTheBigQueueBeforeInflatingTicks() throws Exception
    {
        final long slot = slotBytes(WIDTH, HEIGHT);
        final long mediaPipe = twoStreamPeak(ScheduleOrder.MEDIAPIPE);
        final long pressure = twoStreamPeak(ScheduleOrder.COMPLETION_PRESSURE);
        System.out.printf("frames to a sink beside ticks inflated to frames, %d of each in shipments of 64, one " +
            "worker: peak pool bytes MEDIAPIPE %d (%d slots), COMPLETION_PRESSURE %d (%d slots)%n",
            FRAMES, mediaPipe, mediaPipe / slot, pressure, pressure / slot);
        assertEquals(64, pressure / slot, "a shipment of frames, drained before any tick is inflated");
        assertTrue(pressure < mediaPipe, "completion pressure peaked at " + pressure / slot + " slots, MediaPipe " +
            "order at " + mediaPipe / slot);
    }

    private static long twoStreamPeak(final ScheduleOrder order) throws Exception
    {
        final GraphConfig config = parked(1).scheduleOrder(order)
            .node("src", n -> n.calculator(() -> new Calculator()
            {
                private int next;

                @Override
                public void process(final CalculatorContext ctx)
                {
                    final int end = Math.min(FRAMES, next + ctx.maxShipmentSize());
                    for (; next < end; next++)
                    {
                        ctx.output("big").add(ctx.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32), next);
                        ctx.output("tick").addLong(next, next);
                    }
                    if (next >= FRAMES)
                    {
                        ctx.stop();
                    }
                }
            }).outputStream("big", "tick"))
            .node("shrink", n -> n.calculator(() -> ctx ->
            {
            }).inputStream("big"))
            .node("inflate", n -> n.calculator(() -> ctx -> ctx.output(0)
                .add(ctx.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32), ctx.inputTimestamp()))
                .inputStream("tick").outputStream("inflated"))
            .node("render", n -> n.calculator(Execution::newFramePerStep).inputStream("inflated")
                .outputStream("rendered"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
            assertEquals(FRAMES, graph.callCount("shrink"));
            assertEquals(FRAMES, graph.callCount("render"));
            return graph.pool().budget().peakBytesInUse();
        }
    }
}
