package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphException;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.offheap.MemoryBudget;
import org.HdrHistogram.Histogram;

import static dev.framewire.tools.DemoCamera.all;
import static dev.framewire.tools.DemoCamera.mib;
import static dev.framewire.tools.DemoCamera.row;
import static dev.framewire.tools.DemoCamera.total;
import static dev.framewire.tools.DemoCamera.trim;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code framewire demo --hotplug}: a base graph with no camera; cameras added as subgraphs, one
 * every {@code --hotplug-every}, up to {@code --hotplug-max}, then removed one by one, oldest first.
 * Runs on the command's thread, which alone adds and removes the cameras and reads their counts.
 */
final class DemoHotplug
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final String graphText;
    private final String graphName;
    /** The cameras' settings; its {@code cameras} is {@code --hotplug-max}. */
    private final DemoGraph.Settings settings;
    private final int cameras;
    private final long everyMillis;
    private final double warmup;
    private final JournalOptions journal;
    private long framesProcessed;

    DemoHotplug(
        final String graphText,
        final String graphName,
        final DemoGraph.Settings settings,
        final int cameras,
        final long everyMillis,
        final double warmup,
        final JournalOptions journal)
    {
        this.graphText = graphText;
        this.graphName = graphName;
        this.settings = settings;
        this.cameras = cameras;
        this.everyMillis = everyMillis;
        this.warmup = warmup;
        this.journal = journal;
    }

    /** Frames that went through annotation, over all cameras, once {@link #run} returned. */
    long framesProcessed()
    {
        return framesProcessed;
    }

    /**
     * Runs it: a base graph with no camera; cameras added as subgraphs, one every
     * {@code --hotplug-every}, up to {@code --hotplug-max}, then removed one by one, oldest first.
     * A line as each camera comes and goes, one a second with each camera's frame rate, and the
     * latency table per camera at the end (each camera's frame rate over its own life).
     */
    int run(final PrintWriter out, final PrintWriter err) throws Exception
    {
        final DemoHotplugGraph demo = DemoHotplugGraph.of(graphText, graphName, settings);
        final double every = everyMillis / 1000.0;
        final double fps = settings.fps();
        out.printf(Locale.ROOT, "framewire demo --hotplug: cameras %dx%d RGBA32 at %s, each a subgraph added to the " +
            "running graph: %d at the start, one more every %s s up to %d, then one fewer every %s s%n",
            settings.width(), settings.height(), fps > 0 ? trim(fps) + " fps" : "full speed", cameras, trim(every),
            settings.cameras(), trim(every));
        out.printf(Locale.ROOT, "  each camera: camera -> flow limiter -> gray -> half size -> motion -> annotate -> " +
            "snapshots (1 frame in %d, into %s)%n", settings.snapshotEvery(), settings.snapshots());
        out.printf(Locale.ROOT, "  executors: up to %d camera threads, %d image worker%s, 1 snapshot writer; " +
            "all park when idle%n", settings.cameras(), settings.workers(), settings.workers() == 1 ? "" : "s");
        out.flush();

        final long stepNanos = TimeUnit.MILLISECONDS.toNanos(everyMillis);
        final double warmupSeconds = Math.min(warmup, every / 2);
        final long warmupFrames = Math.round(warmupSeconds * (fps > 0 ? fps : DemoCommand.NOMINAL_FPS));
        final List<DemoCamera> all = new ArrayList<>();
        final ArrayDeque<DemoCamera> live = new ArrayDeque<>();
        final AtomicLong firstCapture = new AtomicLong();
        final MemoryBudget budget;
        GraphException failure = null;
        final long start;
        final long end;
        try (Graph graph = GraphFiles.validate(demo.source(), journal.apply(demo.base(), List.of())))
        {
            budget = graph.pool().budget();
            graph.start();
            start = System.nanoTime();
            for (int c = 0; c < cameras; c++)
            {
                addCamera(out, graph, demo, all, live, firstCapture, warmupFrames, start);
            }
            boolean adding = live.size() < settings.cameras();
            long step = start + stepNanos;
            long tick = start + SECOND;
            while (true)
            {
                if (graph.awaitDone(Math.max(0, Math.min(step, tick) - System.nanoTime()), TimeUnit.NANOSECONDS))
                {
                    break; // the run failed: the cameras cannot end it otherwise, the graph's hold input is open
                }
                final long now = System.nanoTime();
                if (now >= tick)
                {
                    progress(out, live, budget, (now - start) / 1e9, (now - tick + SECOND) / 1e9);
                    tick += SECOND;
                }
                if (now >= step)
                {
                    step += stepNanos;
                    if (adding)
                    {
                        addCamera(out, graph, demo, all, live, firstCapture, warmupFrames, start);
                        adding = live.size() < settings.cameras();
                    }
                    else
                    {
                        removeCamera(out, graph, live, start);
                        if (live.isEmpty())
                        {
                            break;
                        }
                    }
                }
            }
            end = System.nanoTime();
            graph.closeInput(DemoHotplugGraph.HOLD);
            try
            {
                graph.waitUntilDone();
            }
            catch (final GraphException ex)
            {
                failure = ex;
            }
        }
        framesProcessed = total(all.toArray(new DemoCamera[0]));
        if (failure != null)
        {
            DemoCommand.failed(err, failure);
            return 1;
        }
        report(out, all, (end - start) / 1e9, warmupFrames, warmupSeconds, budget);
        DemoCommand.journaled(out, journal);
        return 0;
    }

    /** The latency table per camera, each camera's frame rate over its own life, and the pool. */
    private static void report(
        final PrintWriter out,
        final List<DemoCamera> all,
        final double seconds,
        final long warmupFrames,
        final double warmupSeconds,
        final MemoryBudget budget)
    {
        out.println();
        out.printf(Locale.ROOT, "end-to-end latency per camera, camera to annotated frame (ms)%s; fps over the " +
            "camera's own time in the graph:%n", warmupFrames > 0 ? ", without each camera's first " +
            trim(warmupSeconds) + " s of video (JIT warm-up)" : "");
        out.printf(Locale.ROOT, "%-8s %9s %8s %9s %9s %9s %9s %9s%n", "camera", "frames", "fps", "p50", "p99", "p99.9",
            "max", "in graph");
        for (final DemoCamera cam : all)
        {
            final double life = (cam.removedAt - cam.addedAt) / 1e9;
            row(out, cam.name, cam.frames.get(), life, cam.latency, String.format(Locale.ROOT, " %8.1fs", life));
        }
        final DemoCamera[] cams = all.toArray(new DemoCamera[0]);
        row(out, "all", total(cams), seconds, all(cams), String.format(Locale.ROOT, " %8.1fs", seconds));
        out.println();
        out.printf(Locale.ROOT, "cameras added: %d, removed: %d, in %.1f s; off-heap peak %s, in use at the end %s%n",
            all.size(), all.size(), seconds, mib(budget.peakBytesInUse()), mib(budget.bytesInUse()));
    }

    private void addCamera(
        final PrintWriter out,
        final Graph graph,
        final DemoHotplugGraph demo,
        final List<DemoCamera> all,
        final ArrayDeque<DemoCamera> live,
        final AtomicLong firstCapture,
        final long warmupFrames,
        final long start) throws Exception
    {
        final int index = all.size();
        final String name = "cam" + index;
        final String prefix = name + SubgraphExpander.SEPARATOR;
        final DemoCamera cam = new DemoCamera(new DemoGraph.Chain(name, prefix + demo.cameraStream(),
            prefix + demo.endStream()), settings.fps(), firstCapture);
        cam.latencyProbe.recordFromFrame = warmupFrames; // before the add: its settings.workers() see it
        final long t0 = System.nanoTime();
        try
        {
            graph.addSubgraph(name, demo.template(), Map.of("seed", (long)index),
                Map.of(demo.cameraStream(), cam.captureStamp, demo.endStream(), cam.latencyProbe))
                .get(30, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new CommandFailure("camera " + name + " could not be added: " + ex.getCause().getMessage());
        }
        cam.addedAt = System.nanoTime();
        all.add(cam);
        live.addLast(cam);
        out.printf(Locale.ROOT, "[%5.1f s] + %s added (its %d nodes open in %.1f ms): %d camera%s%n",
            (cam.addedAt - start) / 1e9, name, demo.template().nodes().size(), (cam.addedAt - t0) / 1e6, live.size(),
            live.size() == 1 ? "" : "s");
        out.flush();
    }

    private static void removeCamera(
        final PrintWriter out, final Graph graph, final ArrayDeque<DemoCamera> live, final long start)
        throws Exception
    {
        final DemoCamera cam = live.pollFirst();
        final SubgraphRemoval removal;
        try
        {
            removal = graph.removeSubgraph(cam.name, Duration.ofSeconds(2), Duration.ofSeconds(5))
                .get(30, TimeUnit.SECONDS);
        }
        catch (final ExecutionException ex)
        {
            throw new CommandFailure("camera " + cam.name + " could not be removed: " + ex.getCause().getMessage());
        }
        cam.removedAt = System.nanoTime();
        final double life = (cam.removedAt - cam.addedAt) / 1e9;
        final Histogram h = cam.latency;
        out.printf(Locale.ROOT, "[%5.1f s] - %s removed (%s) after %.1f s: %d frames, %.1f fps, p50 %.1f ms, " +
            "p99 %.1f ms, %d packets dropped over its life (flow limiter, drain): %d camera%s%n",
            (cam.removedAt - start) / 1e9, cam.name, removal.drained() ? "drained" : "cancelled", life,
            cam.frames.get(), cam.frames.get() / life, h.getTotalCount() > 0 ? h.getValueAtPercentile(50) / 1e6 : 0.0,
            h.getTotalCount() > 0 ? h.getValueAtPercentile(99) / 1e6 : 0.0, removal.droppedPackets(), live.size(),
            live.size() == 1 ? "" : "s");
        out.flush();
    }

    /** One line a second: each live camera's frame rate over the last second, and the pool. */
    private static void progress(
        final PrintWriter out,
        final ArrayDeque<DemoCamera> live,
        final MemoryBudget budget,
        final double at,
        final double window)
    {
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%5.1f s] %d camera%s:", at,
            live.size(), live.size() == 1 ? "" : "s"));
        for (final DemoCamera cam : live)
        {
            final long frames = cam.frames.get();
            line.append(String.format(Locale.ROOT, " %s %.0f fps", cam.name, (frames - cam.lastFrames) / window));
            cam.lastFrames = frames;
        }
        line.append(String.format(Locale.ROOT, "; off-heap in use %s", mib(budget.bytesInUse())));
        out.println(line);
        out.flush();
    }
}
