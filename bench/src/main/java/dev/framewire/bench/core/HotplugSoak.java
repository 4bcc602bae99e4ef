package dev.framewire.bench.core;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The hot-plug soak (issue 16): cameras added to and removed from a running graph every second
 * while frames flow, for a long time, watching what a service that runs for months must keep
 * flat. Not JMH and not run in CI: it measures leaks, not speed, and checks its own answer.
 *
 * <p>The graph: 2 parked workers in BMF's order, a base chain of its own, and {@code cameras}
 * synthetic 320x240 RGBA cameras, each a subgraph added with {@code Graph.addSubgraph} (grayscale,
 * half size, motion detection), fed through its own graph input by one pacing thread at
 * {@code fps} (as a service's network threads would: {@code tryAddPacket}, a refused frame is the
 * feeder's to release and is counted). Every {@code churn} the oldest camera is removed (drained,
 * asynchronously: the feeder never waits for it) and a new one added, so each second one subgraph
 * leaves and one joins while the others' frames flow.
 *
 * <p>Every {@code report} seconds it prints the off-heap bytes in use and reserved (the pool's
 * slabs), the heap used after a full GC ({@code System.gc()}), the JVM's thread count and the
 * process's open file descriptors ({@code /proc/self/fd}), and what flowed. It fails (exit 1) if,
 * against the first report (the baseline, after the JIT and the pool warmed up):
 * <ul>
 *   <li>the heap used after GC grew by more than {@value #HEAP_GROWTH_MIB} MiB;</li>
 *   <li>the thread count grew by more than {@value #THREAD_GROWTH} (the JDK's asynchronous pool
 *       makes a thread per delayed task on 2 cores, so a few come and go);</li>
 *   <li>the open file descriptors grew by more than {@value #FD_GROWTH};</li>
 *   <li>the pool's reserved slab bytes grew by more than a quarter and {@value #RESERVED_GROWTH_MIB}
 *       MiB;</li>
 * </ul>
 * and at the end, once every camera is removed: if any off-heap byte is still in use, a subgraph is
 * still in the graph, a removal failed, or a camera's frames do not add up (every frame it took was
 * delivered to its output or counted in its removal's dropped packets).
 *
 * <pre>java @.mvn/jvm.config -Dframewire.leakTracking=true -cp bench/target/benchmarks.jar \
 *     dev.framewire.bench.core.HotplugSoak [seconds=600] [cameras=8] [fps=15] [report=30] [churn_ms=1000]</pre>
 * or {@code scripts/soak-hotplug.sh [seconds]}.
 */
public final class HotplugSoak
{
    static final int HEAP_GROWTH_MIB = 16;
    static final int THREAD_GROWTH = 4;
    static final int FD_GROWTH = 8;
    static final int RESERVED_GROWTH_MIB = 4;
    private static final int WIDTH = 320;
    private static final int HEIGHT = 240;
    private static final int PATTERNS = 8;
    private static final long MIB = 1 << 20;

    private HotplugSoak()
    {
    }

    /** One camera in the graph: its input, what was sent and delivered. */
    private static final class Camera
    {
        final String name;
        final AtomicLong delivered = new AtomicLong();
        GraphInputHandle input;
        long frame;
        long sent;

        Camera(final String name)
        {
            this.name = name;
        }
    }

    /** A camera being removed: its removal's future, checked when done. */
    private record Leaving(Camera camera, CompletableFuture<SubgraphRemoval> removal)
    {
    }

    /** What is measured at a report. */
    private record Sample(long offHeapInUse, long offHeapReserved, long heapAfterGc, int threads, long fds)
    {
    }

    /**
     * Runs the soak and prints its figures.
     *
     * @param args {@code seconds cameras fps report churn_ms}, each optional.
     * @throws Exception if the graph fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final long seconds = args.length > 0 ? Long.parseLong(args[0]) : 600;
        final int cameras = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        final double fps = args.length > 2 ? Double.parseDouble(args[2]) : 15;
        final long reportSeconds = args.length > 3 ? Long.parseLong(args[3]) : 30;
        final long churnMillis = args.length > 4 ? Long.parseLong(args[4]) : 1000;
        final long periodNanos = (long)(1e9 / fps);

        final GraphConfig base = CameraFairnessCheck.baseGraph(2, ScheduleOrder.BMF);
        final GraphConfig template = CameraFairnessCheck.cameraTemplate("SoakCamera");

        printHeader(cameras, fps, churnMillis, seconds, reportSeconds);

        final List<String> failures = new ArrayList<>();
        final ArrayDeque<Camera> live = new ArrayDeque<>();
        final List<Leaving> leaving = new ArrayList<>();
        long added = 0;
        long removed = 0;
        long refused = 0;
        long sentTotal = 0;
        final AtomicLong deliveredTotal = new AtomicLong();
        Sample baseline = null;
        Sample last = null;
        final MemoryBudget budget;
        try (Graph graph = new Graph(base))
        {
            budget = graph.pool().budget();
            graph.start();
            final Payload[] patterns = CameraFairnessCheck.patterns(graph, PATTERNS, 32);
            for (int c = 0; c < cameras; c++)
            {
                live.addLast(add(graph, template, "cam" + added++, deliveredTotal));
            }
            final long start = System.nanoTime();
            final long end = start + TimeUnit.SECONDS.toNanos(seconds);
            long nextChurn = start + TimeUnit.MILLISECONDS.toNanos(churnMillis);
            long nextReport = start + TimeUnit.SECONDS.toNanos(reportSeconds);
            long due = start;
            while (true)
            {
                awaitDue(due);
                final long now = System.nanoTime();
                if (now >= end)
                {
                    break;
                }
                final int refusedNow = sendFrames(graph, live, patterns, fps);
                refused += refusedNow;
                sentTotal += live.size() - refusedNow;
                due += periodNanos;
                if (now >= nextChurn)
                {
                    nextChurn += TimeUnit.MILLISECONDS.toNanos(churnMillis);
                    final Camera old = live.pollFirst();
                    leaving.add(new Leaving(old, graph.removeSubgraph(old.name, Duration.ofSeconds(5),
                        Duration.ofSeconds(5))));
                    live.addLast(add(graph, template, "cam" + added++, deliveredTotal));
                    removed += settle(leaving, failures, false);
                }
                if (now >= nextReport)
                {
                    nextReport += TimeUnit.SECONDS.toNanos(reportSeconds);
                    last = sample(budget);
                    if (baseline == null)
                    {
                        baseline = last;
                    }
                    print((now - start) / 1e9, added, removed, sentTotal, deliveredTotal.get(), refused, last);
                    due = Math.max(due, System.nanoTime()); // the GC's pause is not made up with a burst
                }
            }
            removeAll(graph, live, leaving);
            removed += settle(leaving, failures, true);
            for (final Payload pattern : patterns)
            {
                pattern.release();
            }
            if (!graph.subgraphs().isEmpty())
            {
                failures.add("subgraphs still in the graph at the end: " + graph.subgraphs());
            }
            final Sample end1 = sample(budget);
            print((System.nanoTime() - start) / 1e9, added, removed, sentTotal, deliveredTotal.get(), refused, end1);
            if (end1.offHeapInUse() != 0)
            {
                failures.add("off-heap bytes still in use with every camera gone: " + end1.offHeapInUse());
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        if (baseline != null && last != null)
        {
            checkGrowth(failures, baseline, last);
        }
        System.out.printf(Locale.ROOT, "%d cameras added and %d removed; %d frames sent, %d delivered, %d refused at " +
            "the door (a full queue); load average %.1f at the end%n", added, removed, sentTotal, deliveredTotal.get(),
            refused, loadAverage());
        finish(failures);
    }

    /** What the soak runs, and the report's column heads. */
    private static void printHeader(
        final int cameras, final double fps, final long churnMillis, final long seconds, final long reportSeconds)
    {
        System.out.printf(Locale.ROOT, "hot-plug soak: %d cameras %dx%d RGBA at %.0f fps on 2 parked workers, one " +
            "removed and one added every %d ms, for %d s; report every %d s; %d cores, load average %.1f%n",
            cameras, WIDTH, HEIGHT, fps, churnMillis, seconds, reportSeconds,
            Runtime.getRuntime().availableProcessors(), loadAverage());
        System.out.println("    time  added removed  frames_sent delivered refused  offheap_in_use  offheap_reserved" +
            "  heap_after_gc  threads  fds");
    }

    /** Parks until {@code due} (a {@link System#nanoTime()} value). */
    private static void awaitDue(final long due)
    {
        long left;
        while ((left = due - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(left);
        }
    }

    /** Offers each live camera its next frame; returns how many the graph refused (a full queue). */
    private static int sendFrames(
        final Graph graph, final ArrayDeque<Camera> live, final Payload[] patterns, final double fps)
    {
        int refused = 0;
        for (final Camera cam : live)
        {
            final Payload frame = graph.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32);
            final Payload pattern = patterns[(int)(cam.frame % PATTERNS)];
            frame.mutableBuffer().putBytes(0, pattern.buffer(), 0, pattern.length());
            final long timestamp = cam.frame++ * 1_000_000L / (long)fps;
            if (cam.input.tryAddPacket(frame, timestamp))
            {
                cam.sent++;
            }
            else
            {
                frame.release(); // refused: the caller keeps its reference
                refused++;
            }
        }
        return refused;
    }

    /** Starts removing every live camera; {@code settle} waits for them. */
    private static void removeAll(final Graph graph, final ArrayDeque<Camera> live, final List<Leaving> leaving)
        throws Exception
    {
        while (!live.isEmpty())
        {
            final Camera old = live.pollFirst();
            leaving.add(new Leaving(old, graph.removeSubgraph(old.name, Duration.ofSeconds(5),
                Duration.ofSeconds(5))));
        }
    }

    /** Adds a failure for each figure that grew past its bound from the first report to the last. */
    private static void checkGrowth(final List<String> failures, final Sample baseline, final Sample last)
    {
        bound(failures, "heap used after GC", baseline.heapAfterGc(), last.heapAfterGc(), HEAP_GROWTH_MIB * MIB);
        bound(failures, "threads", baseline.threads(), last.threads(), THREAD_GROWTH);
        bound(failures, "open file descriptors", baseline.fds(), last.fds(), FD_GROWTH);
        bound(failures, "off-heap reserved", baseline.offHeapReserved(), last.offHeapReserved(),
            Math.max(baseline.offHeapReserved() / 4, RESERVED_GROWTH_MIB * MIB));
    }

    /** Prints the verdict, and exits with 1 if anything failed. */
    private static void finish(final List<String> failures)
    {
        if (!failures.isEmpty())
        {
            System.out.println("FAILED:");
            failures.forEach(f -> System.out.println("  " + f));
            System.exit(1);
        }
        System.out.println("flat: nothing grew beyond its bound against the first report, and nothing leaked");
    }

    private static Camera add(
        final Graph graph, final GraphConfig template, final String name, final AtomicLong deliveredTotal)
        throws Exception
    {
        final Camera cam = new Camera(name);
        graph.addSubgraph(name, template, Map.of("threshold", 25L), Map.of("boxes", packet ->
        {
            cam.delivered.incrementAndGet();
            deliveredTotal.incrementAndGet();
        })).get(30, TimeUnit.SECONDS);
        cam.input = graph.input(name + "__frames");
        return cam;
    }

    /**
     * Checks the removals that are done (all of them, waiting, when {@code all}): each must have
     * completed, and its camera's frames add up.
     *
     * @return how many were done.
     */
    private static int settle(final List<Leaving> leaving, final List<String> failures, final boolean all)
        throws InterruptedException
    {
        int done = 0;
        for (int i = leaving.size() - 1; i >= 0; i--)
        {
            final Leaving l = leaving.get(i);
            if (!all && !l.removal().isDone())
            {
                continue;
            }
            leaving.remove(i);
            done++;
            try
            {
                final SubgraphRemoval removal = l.removal().get(30, TimeUnit.SECONDS);
                final Camera cam = l.camera();
                if (cam.sent != cam.delivered.get() + removal.droppedPackets())
                {
                    failures.add(cam.name + ": " + cam.sent + " frames taken, " + cam.delivered.get() +
                        " delivered and " + removal.droppedPackets() + " dropped");
                }
            }
            catch (final Exception ex)
            {
                failures.add(l.camera().name + ": removal failed: " + ex);
            }
        }
        return done;
    }

    private static void bound(final List<String> failures, final String what, final long first, final long last,
        final long allowed)
    {
        if (last - first > allowed)
        {
            failures.add(what + " grew from " + first + " to " + last + ", more than the " + allowed + " allowed");
        }
    }

    private static Sample sample(final MemoryBudget budget) throws IOException
    {
        for (int i = 0; i < 2; i++)
        {
            System.gc();
        }
        final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        return new Sample(budget.bytesInUse(), budget.bytesReserved(), heap,
            ManagementFactory.getThreadMXBean().getThreadCount(), openFds());
    }

    /** Open file descriptors of this process: the entries of /proc/self/fd (-1 where there is none). */
    private static long openFds() throws IOException
    {
        final Path fd = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fd))
        {
            return -1;
        }
        long n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(fd))
        {
            for (final Path ignored : entries)
            {
                n++;
            }
        }
        return n - 1; // the directory stream's own
    }

    private static void print(final double at, final long added, final long removed, final long sent,
        final long delivered, final long refused, final Sample s)
    {
        System.out.printf(Locale.ROOT, "%7.0fs %6d %7d %12d %9d %7d %12.1f MiB %13.1f MiB %10.1f MiB %8d %4d%n", at,
            added, removed, sent, delivered, refused, s.offHeapInUse() / (double)MIB, s.offHeapReserved() / (double)MIB,
            s.heapAfterGc() / (double)MIB, s.threads(), s.fds());
    }

    private static double loadAverage()
    {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
