package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;
import dev.framewire.journal.RunEnding;
import dev.framewire.offheap.MemoryBudget;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The camera-ingest demo: synthetic cameras, each through a flow limiter, grayscale, half size,
 * motion detection and box annotation into a PNG snapshot sink, with live progress and a latency
 * table at the end.
 *
 * <pre>
 *   camN (SyntheticCamera, RGBA32) -&gt; limiter (FlowLimiter, FINISHED back edge from annotate)
 *        -&gt; gray (ColorConvert RGBA_TO_GRAY8) -&gt; half (Resize 0.5) -&gt; motion (MotionDetector)
 *        -&gt; annotate (Annotate FRAME + BOXES) -&gt; snapshots (every Nth, PNG)
 * </pre>
 *
 * <p>The graph is {@code graphs/camera_ingest.pbtxt}, built into the jar (or another file with
 * {@code --graph}); {@link DemoGraph} applies the flags to it: {@code --cameras} keeps the file's
 * first cameras or adds copies of the first camera's chain, and the other flags override the
 * cameras', snapshot sinks' and executors' settings. The flags' defaults are the file's values.
 * Executors, all parking when idle: one thread per camera (a camera parks until each frame is
 * due), {@code --workers} threads for the image nodes, one for the PNG sinks so that encoding does
 * not hold up frames. Each limiter lets 2 frames of its camera into the chain at a time and drops
 * the rest, so a chain that falls behind sheds frames instead of queueing them (and its latency
 * stays near the chain's own); queues hold at most 4 packets. Workers take ready nodes in BMF's
 * order, oldest timestamp first: the cameras are independent chains, and MediaPipe's order (by
 * position in the graph) would let the chains declared last starve the first ones.
 *
 * <p>Latency is end to end per frame: an observer on the camera's stream records
 * {@code System.nanoTime()} when the frame leaves the camera (after it was rendered and its due
 * time came) into a per-camera ring indexed by frame number; an observer on the annotated stream
 * subtracts it when the frame leaves the annotator, into a per-camera HdrHistogram. The ring is
 * written by the camera's worker before the frame is handed on and read by a pipeline worker after
 * it was received, so the engine's queues order the two. The PNG sink runs after the measuring
 * point. Frames of the first {@code --warmup} seconds of video count in the throughput but are
 * left out of the percentiles: they measure the JIT, not the pipeline. The run lasts
 * {@code --duration} from the first frame (a paced run then has 2 s to drain its last frames before
 * it is cancelled), so the JVM's start-up on a busy machine is not taken from it.
 *
 * <p>{@code --hotplug}: the cameras come and go while the graph runs. The first camera's chain
 * becomes a subgraph template ({@link DemoGraph#hotplug}) and each camera is an instance of it added
 * with {@code Graph.addSubgraph} ({@code cam0}, {@code cam1}, ...; nodes {@code cam3__gray}): 2 at
 * the start, one more every {@code --hotplug-every} up to {@code --hotplug-max}, then removed one by
 * one, oldest first, each drained for up to 2 s. A line as each camera comes and goes, one a second
 * with each camera's frame rate, and the latency table per camera at the end. That run is
 * journaled as the others are, with its subgraphs' additions and removals (docs/HOTPLUG.md), and
 * {@code journal replay} adds and removes them again (docs/JOURNAL.md).
 *
 * <p>The run is journaled into {@code ./journals} ({@link JournalOptions}: {@code --journal DIR},
 * {@code --no-journal}, {@code --capture STREAM...}); the last lines say how to run
 * {@code journal postmortem} and {@code journal replay} on it.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = "Runs the camera-ingest demo: synthetic cameras -> gray -> half size -> motion -> annotate -> " +
        "PNG snapshots, printing progress every second and latency percentiles per camera at the end.")
public final class DemoCommand implements Callable<Integer>
{
    /** Frames remembered per camera between capture and annotation; far more than can be in flight. */
    static final int RING = 4096;
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** The frame rate the timestamps of an unpaced camera stand for (SyntheticCameraCalculator). */
    private static final double NOMINAL_FPS = 60;
    /** How long the cameras may take to send their first frame (JVM and JIT start-up on a busy machine). */
    private static final long FIRST_FRAME_TIMEOUT = TimeUnit.SECONDS.toNanos(30);

    @Spec
    private CommandSpec spec;

    @Option(names = "--duration", defaultValue = "20", paramLabel = "S",
        description = "Seconds to run (default: ${DEFAULT-VALUE}).")
    private double duration;

    @Option(names = "--cameras", defaultValue = "4", paramLabel = "N",
        description = "Number of cameras (default: ${DEFAULT-VALUE}).")
    private int cameras;

    @Option(names = "--width", defaultValue = "1280", description = "Camera frame width (default: ${DEFAULT-VALUE}).")
    private int width;

    @Option(names = "--height", defaultValue = "720", description = "Camera frame height (default: ${DEFAULT-VALUE}).")
    private int height;

    @Option(names = "--fps", defaultValue = "60",
        description = "Frames per second per camera, 0 for as fast as the pipeline goes (default: ${DEFAULT-VALUE}).")
    private double fps;

    @Option(names = "--snapshots", defaultValue = "snapshots", paramLabel = "DIR",
        description = "Directory for the PNG snapshots (default: ${DEFAULT-VALUE}).")
    private Path snapshots;

    @Option(names = "--snapshot-every", defaultValue = "60", paramLabel = "N",
        description = "Write every Nth annotated frame of each camera (default: ${DEFAULT-VALUE}).")
    private long snapshotEvery;

    @Option(names = "--warmup", defaultValue = "1", paramLabel = "S",
        description = "Seconds of each camera's video at the start (frames by timestamp) that count but are left " +
            "out of the latency percentiles, while the JIT compiles the hot loops; at most half the duration " +
            "(default: ${DEFAULT-VALUE}).")
    private double warmup;

    @Option(names = "--workers", defaultValue = "2",
        description = "Worker threads for the image nodes (default: ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--graph", paramLabel = "FILE.pbtxt",
        description = "The demo graph (default: the built-in graphs/camera_ingest.pbtxt). Its cameras are its " +
            "SyntheticCameraCalculator nodes, each leading to a SnapshotSinkCalculator; the flags above override " +
            "its settings.")
    private Path graphFile;

    @Option(names = "--source", paramLabel = "URL",
        description = "A real camera or video instead of a synthetic camera, read by ffmpeg (rtsp://..., " +
            "udp://..., a file, /dev/video0); repeat for more cameras. --cameras, --width, --height and --fps " +
            "then come from the sources. Needs ffmpeg (apt-get install ffmpeg).")
    private List<String> sources = new ArrayList<>();

    @Option(names = "--record", paramLabel = "DIR",
        description = "Record into DIR: each --source camera's own stream, copied without re-encoding, in " +
            "segments DIR/CAMERA/CAMERA-<UTC start>.mp4 of --record-segment seconds; and each camera's motion view " +
            "(gray, half size, boxes drawn), re-encoded, as DIR/CAMERA-motion-NNNNN.mp4. Needs ffmpeg.")
    private Path record;

    @Option(names = "--record-segment", defaultValue = "60", paramLabel = "S",
        description = "Length of the recorded clips in seconds (default: ${DEFAULT-VALUE}).")
    private double recordSegment;

    @Option(names = "--split",
        description = "Run the demo as two processes on this machine over Aeron UDP on 127.0.0.1: the cameras, flow " +
            "limiters and grayscale here, half size, motion, annotation and snapshots in a second JVM this one starts; " +
            "the latency table is end to end across both.")
    private boolean split;

    @Option(names = "--split-port", defaultValue = "40125", paramLabel = "PORT",
        description = "With --split: the UDP port on 127.0.0.1 the analysis process receives on (default: " +
            "${DEFAULT-VALUE}).")
    private int splitPort;

    /** Internal: set by a --split run on the analysis process it starts. */
    @Option(names = "--split-analysis", hidden = true, paramLabel = "DIR")
    private Path splitAnalysis;
    @Option(names = "--hotplug",
        description = "Cameras that come and go: each camera is a subgraph (the graph's first camera chain as a " +
            "template) added to the running graph with Graph.addSubgraph. Starts with --cameras cameras (2 unless " +
            "given), adds one every --hotplug-every up to --hotplug-max, then removes them one by one, oldest " +
            "first, and ends; --duration is not used. The run is journaled with its subgraphs, as the others are.")
    private boolean hotplug;

    @Option(names = "--hotplug-every", defaultValue = "5000", paramLabel = "MS",
        description = "With --hotplug: milliseconds between two additions or removals (default: ${DEFAULT-VALUE}).")
    private long hotplugEveryMillis;

    @Option(names = "--hotplug-max", defaultValue = "8", paramLabel = "N",
        description = "With --hotplug: the most cameras at once (default: ${DEFAULT-VALUE}).")
    private int hotplugMax;

    @Mixin
    private JournalOptions journal = new JournalOptions();

    private long framesProcessed;

    /**
     * Frames that went through annotation in the last run, over all cameras.
     *
     * @return the count.
     */
    public long framesProcessed()
    {
        return framesProcessed;
    }

    @Override
    public Integer call() throws Exception
    {
        validate();
        final PrintWriter out = spec.commandLine().getOut();
        if (hotplug)
        {
            return hotplug(out);
        }
        final boolean real = !sources.isEmpty();
        if (real)
        {
            cameras = sources.size();
        }
        final long framesPerCamera = fps > 0 ? Math.max(1, Math.round(duration * fps)) : 0;
        final DemoGraph demo = DemoGraph.of(graphText(), graphFile != null ? graphFile.toString() :
            "graphs/camera_ingest.pbtxt (built in)", new DemoGraph.Settings(cameras, width, height, fps,
            framesPerCamera, snapshotEvery, snapshots, workers), new DemoGraph.Video(sources, record, recordSegment));
        final List<DemoGraph.Chain> chains = demo.chains();
        if (split || splitAnalysis != null)
        {
            final Path exchange = splitAnalysis != null ? splitAnalysis : SplitRun.exchange();
            final DemoSplit.Sides sides = DemoSplit.of(demo, splitPort, width, height, exchange.resolve(SplitRun.KEY));
            final SplitRun run = new SplitRun(spec, journal, chains, sides, duration, fps, real,
                real ? 0 : Math.round(warmupSeconds() * (fps > 0 ? fps : NOMINAL_FPS)), framesPerCamera);
            if (splitAnalysis != null)
            {
                return run.analysis(splitAnalysis);
            }
            out.printf(Locale.ROOT, "framewire demo --split: %d camera%s, two processes over Aeron %s%n", cameras,
                cameras == 1 ? "" : "s", sides.channel());
            out.println("  process 1 (this one): camera -> flow limiter -> gray -> publisher");
            out.println("  process 2 (started here): subscriber -> half size -> motion -> annotate -> snapshots");
            out.flush();
            // the command line as given (the top-level command's too): this command's own arguments follow its name
            final List<String> args = spec.commandLine().getParseResult().originalArgs();
            final int exit = run.cameras(args.subList(args.indexOf(spec.name()) + 1, args.size()), exchange);
            framesProcessed = run.framesAnalysed();
            return exit;
        }
        final Camera[] cams = new Camera[cameras];
        final AtomicLong firstCapture = new AtomicLong();
        // a real source's timestamps are its stream's: latency is matched by millisecond of stream time
        final double clock = real ? 1000 : fps;
        for (int c = 0; c < cameras; c++)
        {
            cams[c] = new Camera(chains.get(c), clock, firstCapture);
        }
        if (real)
        {
            out.printf(Locale.ROOT, "framewire demo: %d video source%s for %s s: %s%n", cameras,
                cameras == 1 ? "" : "s", trim(duration), String.join(", ", sources));
        }
        else
        {
            out.printf(Locale.ROOT, "framewire demo: %d camera%s %dx%d RGBA32 at %s for %s s%n", cameras,
                cameras == 1 ? "" : "s", width, height, fps > 0 ? trim(fps) + " fps" : "full speed", trim(duration));
        }
        if (journal.retentionLine() != null)
        {
            out.println("  " + journal.retentionLine());
        }
        if (record != null)
        {
            out.printf(Locale.ROOT, "  recording into %s, in segments of %s s: %s%n", record, trim(recordSegment),
                sources.isEmpty() ? "each camera's motion view (re-encoded)" :
                "each camera's own stream (copied) and its motion view (re-encoded)");
        }
        out.printf(Locale.ROOT, "  camera -> flow limiter -> gray -> half size -> motion -> annotate -> snapshots " +
            "(1 frame in %d, into %s)%n", snapshotEvery, snapshots);
        out.printf(Locale.ROOT, "  executors: %d camera thread%s, %d image worker%s, 1 snapshot writer; all park " +
            "when idle%n", cameras, cameras == 1 ? "" : "s", workers, workers == 1 ? "" : "s");
        out.flush();

        final long startMillis = System.currentTimeMillis();
        final long start;
        final long end;
        boolean stoppedAtDeadline = false;
        GraphException failure = null;
        final MemoryBudget budget;
        final long drops;
        final GraphConfig config = journal.apply(demo.config(), List.of());
        try (Graph graph = GraphFiles.validate(demo.source(), config))
        {
            budget = graph.pool().budget();
            for (final Camera cam : cams)
            {
                graph.observe(cam.chain.cameraStream(), cam.captureStamp);
                graph.observe(cam.chain.endStream(), cam.latencyProbe);
            }
            final long warmupFrames = real ? 0 : Math.round(warmupSeconds() * (fps > 0 ? fps : NOMINAL_FPS));
            for (final Camera cam : cams)
            {
                cam.latencyProbe.recordFromFrame = warmupFrames; // before start(): the workers see it
            }
            try
            {
                graph.start();
            }
            catch (final UncheckedIOException ex)
            {
                throw new CommandFailure(ex.getMessage() + " (give another directory with --journal DIR, or " +
                    "--no-journal)");
            }
            start = System.nanoTime();
            long deadline = start + FIRST_FRAME_TIMEOUT;
            boolean running = false;
            long tick = start;
            long lastFrames = 0;
            while (true)
            {
                final long first = firstCapture.get();
                if (!running && first != 0)
                {
                    // the run lasts --duration from the first frame, plus 2 s for a paced run to drain
                    running = true;
                    deadline = first + (long)(duration * SECOND) + (fps > 0 ? 2 * SECOND : 0);
                }
                final long next = tick + SECOND;
                if (graph.awaitDone(Math.max(0, Math.min(next, deadline) - System.nanoTime()), TimeUnit.NANOSECONDS))
                {
                    break;
                }
                final long now = System.nanoTime();
                if (now >= deadline)
                {
                    stoppedAtDeadline = !real && (fps > 0 || !running);
                    graph.cancel(running ? RunEnding.DURATION_REASON + ": --duration " + trim(duration) + " s" :
                        "stopped: no frame came within the first-frame timeout");
                    break;
                }
                if (now >= next)
                {
                    final long frames = total(cams);
                    out.printf(Locale.ROOT, "[%4.0f s] frames %8d  %7.1f fps  off-heap in use %8s  peak %8s%n",
                        (now - start) / 1e9, frames, (frames - lastFrames) * 1e9 / (now - tick),
                        mib(budget.bytesInUse()), mib(budget.peakBytesInUse()));
                    out.flush();
                    lastFrames = frames;
                    tick = now;
                }
            }
            end = System.nanoTime();
            try
            {
                graph.waitUntilDone();
            }
            catch (final GraphException ex)
            {
                if (!ex.isCancelled())
                {
                    failure = ex;
                }
            }
            long dropped = 0;
            for (final NodeConfig node : demo.config().nodes())
            {
                dropped += graph.dropCount(node.name());
            }
            drops = dropped;
        }
        framesProcessed = total(cams);
        if (failure != null)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("the run failed:");
            for (final GraphFailure f : failure.failures())
            {
                err.println("  " + f);
            }
            err.flush();
            journaled(out);
            return 1;
        }
        final long first = firstCapture.get();
        report(out, cams, (end - (first != 0 ? first : start)) / 1e9, budget.peakBytesInUse(),
            countSnapshots(startMillis), drops);
        if (stoppedAtDeadline)
        {
            out.printf(Locale.ROOT, "note: the cameras fell behind (%d of %d frames of cam0 through at the deadline); " +
                "the run was stopped there%n", cams[0].frames.get(), framesPerCamera);
        }
        journaled(out);
        out.flush();
        return 0;
    }

    /**
     * {@code --hotplug}: a base graph with no camera; cameras added as subgraphs, one every
     * {@code --hotplug-every}, up to {@code --hotplug-max}, then removed one by one, oldest first.
     * A line as each camera comes and goes, one a second with each camera's frame rate, and the
     * latency table per camera at the end (each camera's frame rate over its own life).
     */
    private int hotplug(final PrintWriter out) throws Exception
    {
        final String name = graphFile != null ? graphFile.toString() : "graphs/camera_ingest.pbtxt (built in)";
        final DemoGraph.Hotplug demo = DemoGraph.hotplug(graphText(), name,
            new DemoGraph.Settings(hotplugMax, width, height, fps, 0, snapshotEvery, snapshots, workers));
        final double every = hotplugEveryMillis / 1000.0;
        out.printf(Locale.ROOT, "framewire demo --hotplug: cameras %dx%d RGBA32 at %s, each a subgraph added to the " +
            "running graph: %d at the start, one more every %s s up to %d, then one fewer every %s s%n", width, height,
            fps > 0 ? trim(fps) + " fps" : "full speed", cameras, trim(every), hotplugMax, trim(every));
        out.printf(Locale.ROOT, "  each camera: camera -> flow limiter -> gray -> half size -> motion -> annotate -> " +
            "snapshots (1 frame in %d, into %s)%n", snapshotEvery, snapshots);
        out.printf(Locale.ROOT, "  executors: up to %d camera threads, %d image worker%s, 1 snapshot writer; all park " +
            "when idle%n", hotplugMax, workers,
            workers == 1 ? "" : "s");
        out.flush();

        final long stepNanos = TimeUnit.MILLISECONDS.toNanos(hotplugEveryMillis);
        final double warmupSeconds = Math.min(warmup, every / 2);
        final long warmupFrames = Math.round(warmupSeconds * (fps > 0 ? fps : NOMINAL_FPS));
        final List<Camera> all = new ArrayList<>();
        final java.util.ArrayDeque<Camera> live = new java.util.ArrayDeque<>();
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
            boolean adding = live.size() < hotplugMax;
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
                        adding = live.size() < hotplugMax;
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
            graph.closeInput(DemoGraph.HOLD);
            try
            {
                graph.waitUntilDone();
            }
            catch (final GraphException ex)
            {
                failure = ex;
            }
        }
        framesProcessed = total(all.toArray(new Camera[0]));
        if (failure != null)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("the run failed:");
            for (final GraphFailure f : failure.failures())
            {
                err.println("  " + f);
            }
            err.flush();
            return 1;
        }
        out.println();
        out.printf(Locale.ROOT, "end-to-end latency per camera, camera to annotated frame (ms)%s; fps over the " +
            "camera's own time in the graph:%n", warmupFrames > 0 ? ", without each camera's first " +
            trim(warmupSeconds) + " s of video (JIT warm-up)" : "");
        out.printf(Locale.ROOT, "%-8s %9s %8s %9s %9s %9s %9s %9s%n", "camera", "frames", "fps", "p50", "p99", "p99.9",
            "max", "in graph");
        for (final Camera cam : all)
        {
            final double life = (cam.removedAt - cam.addedAt) / 1e9;
            row(out, cam.name, cam.frames.get(), life, cam.latency, String.format(Locale.ROOT, " %8.1fs", life));
        }
        final Camera[] cams = all.toArray(new Camera[0]);
        final double seconds = (end - start) / 1e9;
        row(out, "all", total(cams), seconds, all(cams), String.format(Locale.ROOT, " %8.1fs", seconds));
        out.println();
        out.printf(Locale.ROOT, "cameras added: %d, removed: %d, in %.1f s; off-heap peak %s, in use at the end %s%n",
            all.size(), all.size(), seconds, mib(budget.peakBytesInUse()), mib(budget.bytesInUse()));
        journaled(out);
        return 0;
    }

    private void addCamera(
        final PrintWriter out,
        final Graph graph,
        final DemoGraph.Hotplug demo,
        final List<Camera> all,
        final java.util.ArrayDeque<Camera> live,
        final AtomicLong firstCapture,
        final long warmupFrames,
        final long start) throws Exception
    {
        final int index = all.size();
        final String name = "cam" + index;
        final String prefix = name + dev.framewire.core.SubgraphExpander.SEPARATOR;
        final Camera cam = new Camera(new DemoGraph.Chain(name, prefix + demo.cameraStream(),
            prefix + demo.endStream()), fps, firstCapture);
        cam.latencyProbe.recordFromFrame = warmupFrames; // before the add: its workers see it
        final long t0 = System.nanoTime();
        try
        {
            graph.addSubgraph(name, demo.template(), java.util.Map.of("seed", (long)index),
                java.util.Map.of(demo.cameraStream(), cam.captureStamp, demo.endStream(), cam.latencyProbe))
                .get(30, TimeUnit.SECONDS);
        }
        catch (final java.util.concurrent.ExecutionException ex)
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
        final PrintWriter out, final Graph graph, final java.util.ArrayDeque<Camera> live, final long start)
        throws Exception
    {
        final Camera cam = live.pollFirst();
        final dev.framewire.core.SubgraphRemoval removal;
        try
        {
            removal = graph.removeSubgraph(cam.name, java.time.Duration.ofSeconds(2), java.time.Duration.ofSeconds(5))
                .get(30, TimeUnit.SECONDS);
        }
        catch (final java.util.concurrent.ExecutionException ex)
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
        final java.util.ArrayDeque<Camera> live,
        final MemoryBudget budget,
        final double at,
        final double window)
    {
        final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%5.1f s] %d camera%s:", at,
            live.size(), live.size() == 1 ? "" : "s"));
        for (final Camera cam : live)
        {
            final long frames = cam.frames.get();
            line.append(String.format(Locale.ROOT, " %s %.0f fps", cam.name, (frames - cam.lastFrames) / window));
            cam.lastFrames = frames;
        }
        line.append(String.format(Locale.ROOT, "; off-heap in use %s", mib(budget.bytesInUse())));
        out.println(line);
        out.flush();
    }

    /** The last lines: where the journal is and how to read it. */
    private void journaled(final PrintWriter out)
    {
        final Path run = journal.lastRun();
        if (run == null)
        {
            return;
        }
        out.println();
        out.println("journal: " + run);
        out.println("  how the run ended, stream by stream and node by node: scripts/framewire journal postmortem " + run);
        out.println("  run it again from the journal and compare:            scripts/framewire journal replay " + run);
        out.flush();
    }

    private void validate()
    {
        check(duration > 0 && duration <= 86_400, "--duration must be in (0, 86400] seconds, was " + duration);
        check(cameras >= 1 && cameras <= 64, "--cameras must be 1..64, was " + cameras);
        check(width >= 2 && width <= 16384 && height >= 2 && height <= 16384,
            "--width and --height must be 2..16384, were " + width + "x" + height);
        check(fps >= 0 && fps <= 1000, "--fps must be 0 (full speed) up to 1000, was " + fps);
        check(snapshotEvery >= 1, "--snapshot-every must be 1 or more, was " + snapshotEvery);
        check(warmup >= 0, "--warmup must be 0 or more, was " + warmup);
        check(workers >= 1 && workers <= 64, "--workers must be 1..64, was " + workers);
        check(sources.size() <= 64, "at most 64 --source, were " + sources.size());
        check(splitPort > 0 && splitPort <= 65535, "--split-port must be 1..65535, was " + splitPort);
        check(!split || sources.isEmpty() && record == null, "--split runs the synthetic cameras only: drop --source " +
            "and --record");
        check(recordSegment > 0 && recordSegment <= 86_400, "--record-segment must be in (0, 86400] seconds, was " +
            recordSegment);
        if (hotplug)
        {
            check(sources.isEmpty() && record == null, "--hotplug runs synthetic cameras: --source and --record " +
                "are not supported with it");
            check(!split, "--hotplug and --split are separate demos: give one of them");
            check(hotplugMax >= 1 && hotplugMax <= 64, "--hotplug-max must be 1..64, was " + hotplugMax);
            check(hotplugEveryMillis >= 10 && hotplugEveryMillis <= 3_600_000, "--hotplug-every must be 10..3600000 " +
                "ms, was " + hotplugEveryMillis);
            if (!spec.commandLine().getParseResult().hasMatchedOption("--cameras"))
            {
                cameras = Math.min(2, hotplugMax);
            }
            check(cameras <= hotplugMax, "--cameras (" + cameras + ", the cameras at the start) must be at most " +
                "--hotplug-max (" + hotplugMax + ")");
        }
    }

    private double warmupSeconds()
    {
        return Math.min(warmup, duration / 2);
    }

    private void check(final boolean ok, final String message)
    {
        if (!ok)
        {
            throw new ParameterException(spec.commandLine(), message);
        }
    }

    private String graphText()
    {
        if (graphFile == null)
        {
            return DemoGraph.builtInText();
        }
        try
        {
            return Files.readString(graphFile, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new CommandFailure("cannot read demo graph '" + graphFile + "': " + (Files.exists(graphFile) ?
                ex.toString() : "no such file"));
        }
    }

    private void report(
        final PrintWriter out,
        final Camera[] cams,
        final double seconds,
        final long peakBytes,
        final long snapshotFiles,
        final long drops)
    {
        out.println();
        final long warm = total(cams) - all(cams).getTotalCount();
        out.printf(Locale.ROOT, "end-to-end latency, camera to annotated frame (ms)%s:%n", warm > 0 ?
            ", without the first " + trim(warmupSeconds()) + " s of video (" + warm + " frames, JIT warm-up)" : "");
        out.printf(Locale.ROOT, "%-8s %9s %8s %9s %9s %9s %9s%n", "camera", "frames", "fps", "p50", "p99", "p99.9",
            "max");
        long frames = 0;
        for (final Camera cam : cams)
        {
            frames += cam.frames.get();
            row(out, cam.name, cam.frames.get(), seconds, cam.latency);
        }
        row(out, "all", frames, seconds, all(cams));
        out.println();
        out.printf(Locale.ROOT, "throughput: %d frames in %.2f s from the first = %.1f frames/s (target %s)%n",
            frames, seconds, frames / seconds, !sources.isEmpty() ? "the sources' own rate" :
            fps > 0 ? trim(fps * cams.length) + " frames/s" : "as fast as possible");
        out.printf(Locale.ROOT, "dropped by the flow limiters: %d frame%s (a chain that falls behind sheds frames " +
            "rather than queue them)%n", drops, drops == 1 ? "" : "s");
        out.printf(Locale.ROOT, "off-heap peak: %s; snapshots written: %d in %s%n", mib(peakBytes), snapshotFiles,
            snapshots);
    }

    private static void row(
        final PrintWriter out,
        final String name,
        final long frames,
        final double seconds,
        final Histogram h)
    {
        row(out, name, frames, seconds, h, "");
    }

    private static void row(
        final PrintWriter out,
        final String name,
        final long frames,
        final double seconds,
        final Histogram h,
        final String suffix)
    {
        final boolean any = h.getTotalCount() > 0;
        out.printf(Locale.ROOT, "%-8s %9d %8.1f %9.3f %9.3f %9.3f %9.3f%s%n", name, frames, frames / seconds,
            any ? h.getValueAtPercentile(50) / 1e6 : 0.0, any ? h.getValueAtPercentile(99) / 1e6 : 0.0,
            any ? h.getValueAtPercentile(99.9) / 1e6 : 0.0, any ? h.getMaxValue() / 1e6 : 0.0, suffix);
    }

    private long countSnapshots(final long sinceMillis)
    {
        try (Stream<Path> files = Files.list(snapshots))
        {
            return files.filter(p -> p.getFileName().toString().endsWith(".png"))
                .filter(p -> p.toFile().lastModified() >= sinceMillis - 1000).count();
        }
        catch (final IOException ex)
        {
            return 0;
        }
    }

    private static Histogram all(final Camera[] cams)
    {
        final Histogram all = new Histogram(HIGHEST_NANOS, 3);
        for (final Camera cam : cams)
        {
            all.add(cam.latency);
        }
        return all;
    }

    private static long total(final Camera[] cams)
    {
        long sum = 0;
        for (final Camera cam : cams)
        {
            sum += cam.frames.get();
        }
        return sum;
    }

    private static String mib(final long bytes)
    {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }

    /** The frame number a synthetic camera's timestamp stands for (see SyntheticCameraCalculator). */
    static long frameIndex(final long timestamp, final double fps)
    {
        return fps > 0 ? Math.round(timestamp * fps / 1e6) : timestamp / 16_667;
    }

    /**
     * One camera's measurements. The capture ring is written by the camera's worker only, the
     * histogram and the frame count by the worker that runs the camera's annotator only.
     */
    static final class Camera
    {
        final String name;
        final DemoGraph.Chain chain;
        final long[] captureNanos = new long[RING];
        final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
        final AtomicLong frames = new AtomicLong();
        final PacketObserver captureStamp;
        final LatencyProbe latencyProbe;
        /** {@code --hotplug}, on the command's thread: when the camera was added and removed, its frames a second ago. */
        long addedAt;
        long removedAt;
        long lastFrames;

        Camera(final DemoGraph.Chain chain, final double fps, final AtomicLong firstCapture)
        {
            this.name = chain.camera();
            this.chain = chain;
            this.captureStamp = new CaptureStamp(captureNanos, fps, firstCapture);
            this.latencyProbe = new LatencyProbe(captureNanos, fps, latency, frames);
        }
    }

    /** On the camera's stream: when each frame left the camera; the first of all cameras starts the clock. */
    static final class CaptureStamp implements PacketObserver
    {
        private final long[] ring;
        private final double fps;
        private final AtomicLong firstCapture;
        private boolean started;

        CaptureStamp(final long[] ring, final double fps, final AtomicLong firstCapture)
        {
            this.ring = ring;
            this.fps = fps;
            this.firstCapture = firstCapture;
        }

        @Override
        public void onPacket(final Packet packet)
        {
            final long now = System.nanoTime();
            ring[(int)(frameIndex(packet.timestamp(), fps) & (RING - 1))] = now;
            if (!started)
            {
                started = true;
                firstCapture.compareAndSet(0, now);
            }
        }
    }

    /** On the annotated stream: now minus when the frame left the camera, for frames after the warm-up. */
    static final class LatencyProbe implements PacketObserver
    {
        /** Frames numbered below this are counted but not recorded; set before the run. */
        long recordFromFrame;
        private final long[] ring;
        private final double fps;
        private final Histogram histogram;
        private final AtomicLong frames;

        LatencyProbe(final long[] ring, final double fps, final Histogram histogram, final AtomicLong frames)
        {
            this.ring = ring;
            this.fps = fps;
            this.histogram = histogram;
            this.frames = frames;
        }

        @Override
        public void onPacket(final Packet packet)
        {
            final long index = frameIndex(packet.timestamp(), fps);
            final long captured = ring[(int)(index & (RING - 1))];
            if (index >= recordFromFrame)
            {
                histogram.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, System.nanoTime() - captured)));
            }
            frames.setRelease(frames.getPlain() + 1);
        }
    }
}
