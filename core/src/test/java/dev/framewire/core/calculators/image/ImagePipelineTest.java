package dev.framewire.core.calculators.image;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's chain end to end on small frames: camera, gray, half size, motion, annotate, snapshots.
 *
 * <p>The cameras are paced faster than needed but not flat out: a source that is held back by a
 * full queue on every frame can be left idle for good by a lost wake-up in the engine (reported
 * with issue 6's image calculators), which would make these tests flaky rather than wrong.
 */
@Timeout(60)
class ImagePipelineTest
{
    @TempDir
    Path dir;

    private GraphConfig pipeline(final long frames)
    {
        return GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .executor("io", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(4)
            .node("camera", n -> n.calculator("SyntheticCameraCalculator").outputStream("rgba").executor("camera")
                .option("width", 160).option("height", 120).option("fps", 1000).option("frames", frames).option("seed", 3))
            .node("gray", n -> n.calculator("ColorConvertCalculator").inputStream("rgba").outputStream("gray"))
            .node("half", n -> n.calculator("ResizeCalculator").inputStream("gray").outputStream("small"))
            .node("motion", n -> n.calculator("MotionDetectorCalculator").inputStream("FRAME:small")
                .outputStream("BOXES:boxes", "FRAME:frames").option("cell", 8).option("min_pixels", 20))
            .node("annotate", n -> n.calculator("AnnotateCalculator").inputStream("FRAME:frames", "BOXES:boxes")
                .outputStream("annotated"))
            .node("snapshots", n -> n.calculator("SnapshotSinkCalculator").inputStream("annotated").executor("io")
                .option("every", 10).option("directory", dir.toString()))
            .build();
    }

    @Test
    void movingShapesAreFoundAndSnapshotsWritten() throws Exception
    {
        final AtomicInteger frames = new AtomicInteger();
        final AtomicInteger withBoxes = new AtomicInteger();
        try (Graph graph = new Graph(pipeline(40)))
        {
            graph.observe("annotated", p -> frames.incrementAndGet());
            graph.observe("boxes", p ->
            {
                if (BoxListDescriptor.count(p.payload().buffer()) > 0)
                {
                    withBoxes.incrementAndGet();
                }
            });
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(40, frames.get());
        assertTrue(withBoxes.get() >= 30, withBoxes.get() + " of 39 frame pairs had motion");
        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(4, files.count());
        }
    }

    /**
     * Steady state allocates nothing per frame in the calculators: what the worker threads allocate
     * between two points of an endless run, per frame of six nodes, stays under a bound far below
     * any per-frame array, string, boxed value or heap copy of a frame (a 32x24 gray frame alone is
     * 768 bytes). The bound is not 0 because the engine's own per-call cost is measured elsewhere
     * (PayloadFlowTest) and is, at the time of writing, up to a 48-byte NodeProcessEvent per call
     * where C2 does not scalar-replace it.
     */
    @Test
    void steadyStateAllocatesNothingPerFrame() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final AtomicLong frames = new AtomicLong();
        final CountDownLatch warm = new CountDownLatch(1);
        final GraphConfig config = GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(4)
            .node("camera", n -> n.calculator("SyntheticCameraCalculator").outputStream("rgba").executor("camera")
                .option("width", 64).option("height", 48).option("fps", 4000))
            .node("gray", n -> n.calculator("ColorConvertCalculator").inputStream("rgba").outputStream("gray"))
            .node("half", n -> n.calculator("ResizeCalculator").inputStream("gray").outputStream("small"))
            .node("bc", n -> n.calculator("BrightnessContrastCalculator").inputStream("small").outputStream("bright")
                .option("brightness", 5))
            .node("motion", n -> n.calculator("MotionDetectorCalculator").inputStream("FRAME:bright")
                .outputStream("BOXES:boxes", "FRAME:frames").option("cell", 8).option("min_pixels", 5))
            .node("annotate", n -> n.calculator("AnnotateCalculator").inputStream("FRAME:frames", "BOXES:boxes")
                .outputStream("annotated"))
            .outputStream("annotated")
            .build();
        // leak tracking (on in the tests) records a stack trace per acquire: off here, for the count
        try (PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(false));
             Graph graph = new Graph(config, pool))
        {
            graph.observe("annotated", p ->
            {
                if (frames.incrementAndGet() == 12_000)
                {
                    warm.countDown();
                }
            });
            graph.start();
            assertTrue(warm.await(30, TimeUnit.SECONDS));
            final long[] ids = workerIds();
            final long bytesBefore = sum(threads.getThreadAllocatedBytes(ids));
            final long framesBefore = frames.get();
            Thread.sleep(1000);
            final long bytesAfter = sum(threads.getThreadAllocatedBytes(ids));
            final long framesAfter = frames.get();
            graph.cancel();
            graph.awaitDone(5, TimeUnit.SECONDS);
            final long perFrame = (bytesAfter - bytesBefore) / Math.max(1, framesAfter - framesBefore);
            System.out.println("steady state: " + (bytesAfter - bytesBefore) + " bytes allocated on the workers over " +
                (framesAfter - framesBefore) + " frames");
            assertTrue(framesAfter - framesBefore > 100, "only " + (framesAfter - framesBefore) + " frames");
            assertTrue(perFrame < 128, perFrame + " bytes allocated per frame on the workers (" +
                (bytesAfter - bytesBefore) + " bytes over " + (framesAfter - framesBefore) + " frames)");
        }
    }

    private static long[] workerIds()
    {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("framewire-") && !t.getName().contains("guard"))
            .mapToLong(Thread::getId).toArray();
    }

    private static long sum(final long[] values)
    {
        long s = 0;
        for (final long v : values)
        {
            s += Math.max(0, v);
        }
        return s;
    }
}
