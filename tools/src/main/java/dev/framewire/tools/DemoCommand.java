package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.NodeConfig;
import dev.framewire.journal.RunEnding;
import dev.framewire.offheap.MemoryBudget;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import static dev.framewire.tools.DemoCamera.all;
import static dev.framewire.tools.DemoCamera.mib;
import static dev.framewire.tools.DemoCamera.row;
import static dev.framewire.tools.DemoCamera.total;
import static dev.framewire.tools.DemoCamera.trim;

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
 * becomes a subgraph template ({@link DemoHotplugGraph#of}) and each camera is an instance of it added
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
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    /** The frame rate the timestamps of an unpaced camera stand for (SyntheticCameraCalculator). */
    static final double NOMINAL_FPS = 60;
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
            final DemoHotplug run = new DemoHotplug(graphText(), graphName(), new DemoGraph.Settings(hotplugMax, width,
                height, fps, 0, snapshotEvery, snapshots, workers), cameras, hotplugEveryMillis, warmup, journal);
            final int exit = run.run(out, spec.commandLine().getErr());
            framesProcessed = run.framesProcessed();
            return exit;
        }
        final boolean real = !sources.isEmpty();
        if (real)
        {
            cameras = sources.size();
        }
        final long framesPerCamera = fps > 0 ? Math.max(1, Math.round(duration * fps)) : 0;
        final DemoGraph demo = DemoGraph.of(graphText(), graphName(), new DemoGraph.Settings(cameras, width, height,
            fps, framesPerCamera, snapshotEvery, snapshots, workers), new DemoGraph.Video(sources, record, recordSegment));
        final List<DemoGraph.Chain> chains = demo.chains();
        if (split || splitAnalysis != null)
        {
            return split(out, demo, chains, real, framesPerCamera);
        }
        final DemoCamera[] cams = new DemoCamera[cameras];
        final AtomicLong firstCapture = new AtomicLong();
        // a real source's timestamps are its stream's: latency is matched by millisecond of stream time
        final double clock = real ? 1000 : fps;
        for (int c = 0; c < cameras; c++)
        {
            cams[c] = new DemoCamera(chains.get(c), clock, firstCapture);
        }
        header(out, real);

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
            final long warmupFrames = real ? 0 : Math.round(warmupSeconds() * (fps > 0 ? fps : NOMINAL_FPS));
            for (final DemoCamera cam : cams)
            {
                graph.observe(cam.chain.cameraStream(), cam.captureStamp);
                graph.observe(cam.chain.endStream(), cam.latencyProbe);
                cam.latencyProbe.recordFromFrame = warmupFrames; // before start(): the workers see it
            }
            start(graph);
            start = System.nanoTime();
            stoppedAtDeadline = await(out, graph, cams, firstCapture, start, real);
            end = System.nanoTime();
            failure = failure(graph);
            drops = drops(graph, demo.config());
        }
        framesProcessed = total(cams);
        if (failure != null)
        {
            failed(spec.commandLine().getErr(), failure);
            journaled(out, journal);
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
        journaled(out, journal);
        out.flush();
        return 0;
    }

    /** {@code --split}, or the analysis process a split run starts ({@code --split-analysis}). */
    private int split(
        final PrintWriter out,
        final DemoGraph demo,
        final List<DemoGraph.Chain> chains,
        final boolean real,
        final long framesPerCamera) throws Exception
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

    /** The first lines: the cameras, the chain, the executors. */
    private void header(final PrintWriter out, final boolean real)
    {
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
    }

    /**
     * Waits for the run to end, printing progress once a second; cancels it at the deadline
     * ({@code --duration} from the first frame) and says whether the cameras fell behind.
     */
    private boolean await(
        final PrintWriter out,
        final Graph graph,
        final DemoCamera[] cams,
        final AtomicLong firstCapture,
        final long start,
        final boolean real) throws InterruptedException
    {
        final MemoryBudget budget = graph.pool().budget();
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
                return false;
            }
            final long now = System.nanoTime();
            if (now >= deadline)
            {
                graph.cancel(running ? RunEnding.DURATION_REASON + ": --duration " + trim(duration) + " s" :
                    "stopped: no frame came within the first-frame timeout");
                return !real && (fps > 0 || !running);
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
    }

    /** Starts the graph; a journal directory it cannot write is the user's to fix. */
    static void start(final Graph graph)
    {
        try
        {
            graph.start();
        }
        catch (final UncheckedIOException ex)
        {
            throw new CommandFailure(ex.getMessage() + " (give another directory with --journal DIR, or " +
                "--no-journal)");
        }
    }

    /** Waits for the graph to be done: why it failed, or null if it ended or was cancelled. */
    static GraphException failure(final Graph graph) throws InterruptedException
    {
        try
        {
            graph.waitUntilDone();
            return null;
        }
        catch (final GraphException ex)
        {
            return ex.isCancelled() ? null : ex;
        }
    }

    /** The packets the graph's nodes dropped (the flow limiters). */
    static long drops(final Graph graph, final GraphConfig config)
    {
        long dropped = 0;
        for (final NodeConfig node : config.nodes())
        {
            dropped += graph.dropCount(node.name());
        }
        return dropped;
    }

    /** Why the run failed, node by node. */
    static void failed(final PrintWriter err, final GraphException failure)
    {
        err.println("the run failed:");
        for (final GraphFailure f : failure.failures())
        {
            err.println("  " + f);
        }
        err.flush();
    }

    /** The last lines: where the journal is and how to read it. */
    static void journaled(final PrintWriter out, final JournalOptions journal)
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

    private String graphName()
    {
        return graphFile != null ? graphFile.toString() : "graphs/camera_ingest.pbtxt (built in)";
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
        final DemoCamera[] cams,
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
        for (final DemoCamera cam : cams)
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
}
