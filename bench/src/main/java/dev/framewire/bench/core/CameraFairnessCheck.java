package dev.framewire.bench.core;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Many cameras on few workers (issue 16): {@code cameras} synthetic 320x240 RGBA cameras at
 * {@code fps}, each a subgraph added to a running graph ({@code Graph.addSubgraph}: grayscale, half
 * size, motion detection) on 2 parked workers, fed through its own graph input by one pacing thread
 * (as a service's network threads would), frame {@code i} of every camera due at {@code i / fps}
 * s. For each camera: frames delivered (no starvation) and the end-to-end latency from the frame's
 * due time to its motion boxes leaving the subgraph (an observer on the worker), percentiles after a
 * warm-up; then the spread of the cameras' p99 against the median camera's. Not JMH: it measures
 * fairness across cameras, not speed, and checks its own answer (every frame sent is delivered).
 *
 * <pre>java @.mvn/jvm.config -cp bench/target/benchmarks.jar dev.framewire.bench.core.CameraFairnessCheck \
 *     [cameras=32] [seconds=20] [fps=30] [order=BMF|MEDIAPIPE|COMPLETION_PRESSURE] [workers=2]</pre>
 */
public final class CameraFairnessCheck
{
    private static final int WIDTH = 320;
    private static final int HEIGHT = 240;
    private static final int PATTERNS = 16;

    private CameraFairnessCheck()
    {
    }

    /**
     * Runs the check and prints a table.
     *
     * @param args {@code cameras seconds fps order workers}, each optional.
     * @throws Exception if the graph fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final int cameras = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        final int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        final double fps = args.length > 2 ? Double.parseDouble(args[2]) : 30;
        final ScheduleOrder order = args.length > 3 ? ScheduleOrder.valueOf(args[3]) : ScheduleOrder.BMF;
        final int workers = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        final int frames = (int)(seconds * fps);
        final int warmup = (int)Math.min(frames / 4, 2 * fps);
        final long periodNanos = (long)(1e9 / fps);

        final GraphConfig base = baseGraph(workers, order);
        final GraphConfig camera = cameraTemplate("FairnessCamera");

        final long[] dueNanos = new long[frames];
        final Histogram[] latency = new Histogram[cameras];
        final AtomicLongArray delivered = new AtomicLongArray(cameras);
        final GraphInputHandle[] inputs = new GraphInputHandle[cameras];
        final long[] doneAt = new long[1];
        final long[] cpu = new long[3];
        try (Graph graph = new Graph(base))
        {
            graph.start();
            graph.pool().reserve(PixelFormat.RGBA32.frameBytes(HEIGHT, PixelFormat.RGBA32.minStride(WIDTH)),
                cameras * 6 + PATTERNS);
            final Payload[] patterns = patterns(graph, PATTERNS, 16);
            for (int c = 0; c < cameras; c++)
            {
                final int cam = c;
                latency[c] = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
                final Histogram histogram = latency[c];
                graph.addSubgraph("cam" + c, camera, Map.of("threshold", 25L), Map.of("boxes", packet ->
                {
                    final int i = (int)Math.round(packet.timestamp() * fps / 1e6);
                    final long now = System.nanoTime();
                    delivered.incrementAndGet(cam);
                    if (i >= warmup)
                    {
                        histogram.recordValue(Math.max(0, now - dueNanos[i]));
                    }
                })).get(10, TimeUnit.SECONDS);
                inputs[c] = graph.input("cam" + c + "__frames");
            }
            final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            cpu[0] = processCpuNanos();
            for (int i = 0; i < frames; i++)
            {
                final long due = start + i * periodNanos;
                dueNanos[i] = due;
                long left;
                while ((left = due - System.nanoTime()) > 0)
                {
                    LockSupport.parkNanos(left);
                }
                final long timestamp = (long)(i * 1e6 / fps);
                for (int k = 0; k < cameras; k++)
                {
                    final int c = (k + i) % cameras; // no camera is always first in line
                    final Payload frame = graph.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32);
                    final Payload pattern = patterns[(i + c) % PATTERNS];
                    frame.mutableBuffer().putBytes(0, pattern.buffer(), 0, pattern.length());
                    inputs[c].addPacket(frame, timestamp);
                }
            }
            for (int c = 0; c < cameras; c++)
            {
                graph.removeSubgraph("cam" + c).get(30, TimeUnit.SECONDS);
            }
            doneAt[0] = System.nanoTime();
            cpu[1] = processCpuNanos();
            cpu[2] = doneAt[0] - start;
            for (final Payload pattern : patterns)
            {
                pattern.release();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        report(cameras, workers, fps, frames, warmup, order, latency, delivered);
        System.out.printf("this process used %.2f cores over the run (its CPU time / wall time); system load average " +
            "%.1f at the end%n", (cpu[1] - cpu[0]) / (double)cpu[2],
            java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static long processCpuNanos()
    {
        final java.lang.management.OperatingSystemMXBean os =
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean ?
            ((com.sun.management.OperatingSystemMXBean)os).getProcessCpuTime() : -1;
    }

    /**
     * RGBA frames of the cameras' size with a box at different places, so that motion detection
     * finds motion: the box of frame {@code p} starts {@code p * step} pixels from the left.
     *
     * @param graph the graph whose pool the frames come from.
     * @param count how many frames.
     * @param step  how far the box moves from one frame to the next.
     * @return the frames, each to be released by the caller.
     */
    static Payload[] patterns(final Graph graph, final int count, final int step)
    {
        final Payload[] patterns = new Payload[count];
        for (int p = 0; p < count; p++)
        {
            final Payload frame = graph.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32);
            final int stride = frame.stride();
            for (int y = 0; y < HEIGHT; y++)
            {
                for (int x = 0; x < WIDTH; x++)
                {
                    final boolean box = x >= p * step && x < p * step + 48 && y >= 80 && y < 160;
                    frame.mutableBuffer().putInt(y * stride + x * 4, box ? 0xFFFFFFFF : 0xFF000000 | (x & 0xFF) << 8 | y & 0xFF);
                }
            }
            patterns[p] = frame;
        }
        return patterns;
    }

    private static void report(
        final int cameras, final int workers, final double fps, final int frames, final int warmup,
        final ScheduleOrder order, final Histogram[] latency, final AtomicLongArray delivered)
    {
        System.out.printf("%d cameras %dx%d at %.0f fps on %d parked workers, order %s, %d frames each (%d warm-up), " +
            "%d cores%n", cameras, WIDTH, HEIGHT, fps, workers, order, frames, warmup,
            Runtime.getRuntime().availableProcessors());
        System.out.println("camera  delivered  p50_us  p99_us  max_us");
        final double[] p99 = new double[cameras];
        final List<String> starved = new ArrayList<>();
        for (int c = 0; c < cameras; c++)
        {
            p99[c] = latency[c].getValueAtPercentile(99) / 1e3;
            System.out.printf("cam%-4d %9d %7.0f %7.0f %7.0f%n", c, delivered.get(c),
                latency[c].getValueAtPercentile(50) / 1e3, p99[c], latency[c].getMaxValue() / 1e3);
            if (delivered.get(c) != frames)
            {
                starved.add("cam" + c + " delivered " + delivered.get(c) + " of " + frames);
            }
        }
        final double[] sorted = p99.clone();
        Arrays.sort(sorted);
        final double median = (sorted[(cameras - 1) / 2] + sorted[cameras / 2]) / 2;
        System.out.printf("p99 across cameras: min %.0f us, median %.0f us, max %.0f us; max/median %.2f, " +
            "median/min %.2f%n", sorted[0], median, sorted[cameras - 1], sorted[cameras - 1] / median, median / sorted[0]);
        System.out.println(starved.isEmpty() ? "every camera delivered every frame" : "STARVED: " + starved);
    }

    /**
     * The graph the cameras are added to: a two-node chain on a graph input {@code tick}, so that
     * the executor's workers run before the first camera comes. Shared with {@link HotplugSoak}.
     */
    static GraphConfig baseGraph(final int workers, final ScheduleOrder order)
    {
        return GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, IdleKind.PARK))
            .scheduleOrder(order)
            .maxQueueSize(4)
            .timeoutGuardMillis(0)
            .inputStream("tick")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("tick").outputStream("ticked"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("ticked").outputStream("out"))
            .outputStream("out")
            .build();
    }

    /** One camera as a subgraph template: gray, half size, motion at the parameter {@code threshold}. */
    static GraphConfig cameraTemplate(final String type)
    {
        return GraphConfig.builder()
            .type(type)
            .inputStream("frames")
            .node("gray", n -> n.calculator("ColorConvertCalculator").inputStream("frames").outputStream("gray")
                .option("conversion", "RGBA_TO_GRAY8"))
            .node("half", n -> n.calculator("ResizeCalculator").inputStream("gray").outputStream("half")
                .option("factor", 0.5))
            .node("motion", n -> n.calculator("MotionDetectorCalculator").inputStream("FRAME:half")
                .outputStream("BOXES:boxes", "FRAME:moving").option("threshold", "$threshold"))
            .outputStream("boxes")
            .build();
    }
}
