package dev.framewire.core.calculators.image;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.calculators.image.ImageTestSupport.Captured;
import static dev.framewire.core.calculators.image.ImageTestSupport.assertPixels;
import static dev.framewire.core.calculators.image.ImageTestSupport.capture;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class SyntheticCameraCalculatorTest
{
    private static GraphConfig camera(final Object... options)
    {
        return GraphConfig.builder()
            .node("camera", n ->
            {
                n.calculator("SyntheticCameraCalculator").outputStream("video");
                for (int i = 0; i < options.length; i += 2)
                {
                    n.option((String)options[i], options[i + 1]);
                }
            })
            .outputStream("video")
            .build();
    }

    private static List<Captured> frames(final GraphConfig config) throws Exception
    {
        final List<Captured> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(config))
        {
            graph.observe("video", capture(out));
            graph.start();
            graph.waitUntilDone();
        }
        return out;
    }

    @Test
    void bareGradientHasExactPixelsAndUnpacedTimestamps() throws Exception
    {
        final List<Captured> out = frames(camera("width", 4, "height", 3, "fps", 0, "frames", 2, "seed", 5,
            "shapes", 0));
        assertEquals(2, out.size());
        assertEquals(PixelFormat.RGBA32, out.get(0).format);
        assertEquals(4, out.get(0).width);
        assertEquals(3, out.get(0).height);
        // R = x * 255 / 3, G = y * 255 / 2, B = 64 + 5, A = 255
        assertPixels(new int[]{
            0x000045FF, 0x550045FF, 0xAA0045FF, 0xFF0045FF,
            0x007F45FF, 0x557F45FF, 0xAA7F45FF, 0xFF7F45FF,
            0x00FF45FF, 0x55FF45FF, 0xAAFF45FF, 0xFFFF45FF}, out.get(0).rgba());
        assertArrayEquals(out.get(0).bytes, out.get(1).bytes);
        assertEquals(0, out.get(0).timestamp);
        assertEquals(16_667, out.get(1).timestamp);
    }

    @Test
    void pacedFramesAreDueAtTheirTimestamps() throws Exception
    {
        final long start = System.nanoTime();
        final List<Captured> out = frames(camera("width", 8, "height", 8, "fps", 60.0, "frames", 4));
        final long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(4, out.size());
        assertEquals(List.of(0L, 16_666L, 33_333L, 50_000L),
            Arrays.asList(out.get(0).timestamp, out.get(1).timestamp, out.get(2).timestamp, out.get(3).timestamp));
        assertTrue(elapsedMillis >= 49, "frame 3 is due 50 ms after frame 0, the run took " + elapsedMillis + " ms");
    }

    @Test
    void sameSeedSameFramesOtherSeedOtherFrames() throws Exception
    {
        final List<Captured> a = frames(camera("width", 64, "height", 48, "fps", 0, "frames", 5, "seed", 7));
        final List<Captured> b = frames(camera("width", 64, "height", 48, "fps", 0, "frames", 5, "seed", 7));
        final List<Captured> c = frames(camera("width", 64, "height", 48, "fps", 0, "frames", 5, "seed", 8));
        for (int i = 0; i < 5; i++)
        {
            assertArrayEquals(a.get(i).bytes, b.get(i).bytes, "frame " + i);
            assertFalse(Arrays.equals(a.get(i).bytes, c.get(i).bytes), "frame " + i);
        }
        assertFalse(Arrays.equals(a.get(0).bytes, a.get(1).bytes), "the shapes move");
    }

    @Test
    void cancellationStopsAParkedCamera() throws Exception
    {
        final CountDownLatch first = new CountDownLatch(1);
        try (Graph graph = new Graph(camera("width", 4, "height", 4, "fps", 0.05)))
        {
            graph.observe("video", p -> first.countDown());
            graph.start();
            assertTrue(first.await(10, TimeUnit.SECONDS));
            graph.cancel(); // the camera is parked until frame 1, due in 20 s
            assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), "the cancel ended the run before frame 1 was due");
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled());
        }
    }

    /**
     * With {@code reserve_frames}, open makes room for the frames and the background before the
     * first frame: Full HD-ish RGBA frames take one 4 MiB slot a slab, so the class has exactly
     * the reserved slots, and two frames in flight at most add none.
     */
    @Test
    void reserveFramesMakesRoomAtOpenSoFramesAllocateNoSlab() throws Exception
    {
        final GraphConfig config = camera("width", 1280, "height", 720, "fps", 0, "frames", 3, "shapes", 0,
            "reserve_frames", 4);
        try (Graph graph = new Graph(config))
        {
            final int frameClass = classOf(graph, PixelFormat.RGBA32.frameBytes(720, PixelFormat.RGBA32.minStride(1280)));
            final CountDownLatch opened = new CountDownLatch(1);
            final long[] slotsAtFirstFrame = new long[1];
            graph.observe("video", p ->
            {
                if (opened.getCount() == 1)
                {
                    slotsAtFirstFrame[0] = graph.pool().slotsTotal(frameClass);
                    opened.countDown();
                }
            });
            graph.start();
            graph.waitUntilDone();
            assertEquals(5, slotsAtFirstFrame[0], "4 frames and the background, made at open");
            assertEquals(5, graph.pool().slotsTotal(frameClass), "no slab added while running");
        }
        // refused at validation, from the range the contract declares, before anything opens
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(camera("reserve_frames", -1)));
        assertEquals(List.of("node 'camera': option 'reserve_frames' is -1; valid is 0..1024"), ex.errors());
    }

    private static int classOf(final Graph graph, final int bytes)
    {
        for (int i = 0; i < graph.pool().sizeClassCount(); i++)
        {
            if (graph.pool().slotBytes(i) >= bytes)
            {
                return i;
            }
        }
        throw new AssertionError(bytes + " B fits no size class");
    }

    @Test
    void badSizeFailsAtValidation()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(camera("width", 0)));
        assertEquals(List.of("node 'camera': option 'width' is 0; valid is 1..16384"), ex.errors());
    }
}
