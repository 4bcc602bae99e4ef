package dev.framewire.bench.video;

import dev.framewire.bench.suite.Suite;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Input;
import dev.framewire.core.calculators.video.VideoSourceCalculator;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 14: a 1080p file read through a graph with the {@link VideoSourceCalculator} into a sink
 * that counts frames, beside its ceiling, {@code ffmpeg -i FILE -pix_fmt FMT -f null -}: the same
 * decode and the same pixel format conversion with nothing written anywhere. The score of every
 * method is frames a second ({@link OperationsPerInvocation} is the file's frame count).
 *
 * <ul>
 *   <li>{@link #framewire}: one graph per invocation reads the whole file ({@code realtime} off)
 *       over a pool shared by the trial, as a long-running service would; ffmpeg's start and the
 *       graph's are in the time, as ffmpeg's own start is in the ceiling's. Throws unless the sink
 *       counted exactly the file's frames.</li>
 *   <li>{@link #ffmpegNull}: the ceiling, the ffmpeg process run to completion per invocation.
 *       Throws unless ffmpeg reports the file's frame count.</li>
 *   <li>{@link #framewireSteady}: one graph for the whole trial reading the file in a loop
 *       ({@code loop}); an invocation waits for the file's frame count more frames. This is the
 *       row whose {@code gc.alloc.rate.norm} is the per-frame allocation of the Java side, with
 *       no graph or process start in it. Each iteration checks that the frames' timestamps step
 *       by the frame interval, none missing.</li>
 * </ul>
 *
 * <p>The file, made once per trial in a temporary directory from lavfi's {@code testsrc2}:
 * {@code rawvideo} (yuv420p in NUT: decoding is a copy, so the pipe, the conversion and our side
 * are what cost) or {@code libx264} (yuv420p, what cameras send; decoding dominates).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(2)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@OperationsPerInvocation(VideoSourceBenchmark.FRAMES)
public class VideoSourceBenchmark
{
    static final int WIDTH = 1920;
    static final int HEIGHT = 1080;
    static final int RATE = 30;
    static final int FRAMES = 90;
    /** The frame interval in microseconds, floor and ceiling (1/30 s is not a whole number of them). */
    static final long STEP_MIN = 1_000_000 / RATE;
    static final long STEP_MAX = STEP_MIN + 1;

    @Param({"rawvideo", "libx264"})
    public String codec;

    @Param({"GRAY8", "RGBA32"})
    public String pixelFormat;

    Path dir;
    Path file;
    private PayloadPool pool;
    private GraphConfig config;
    private final Counter counter = new Counter();
    private List<String> ffmpegCommand;

    @Setup(Level.Trial)
    public void makeFile() throws Exception
    {
        dir = Files.createTempDirectory("framewire-vbench");
        file = dir.resolve("rawvideo".equals(codec) ? "clip.nut" : "clip.mp4");
        final List<String> make = new ArrayList<>(Arrays.asList("ffmpeg", "-hide_banner", "-loglevel", "error",
            "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=size=" + WIDTH + "x" + HEIGHT + ":rate=" + RATE,
            "-frames:v", String.valueOf(FRAMES), "-pix_fmt", "yuv420p"));
        if ("rawvideo".equals(codec))
        {
            make.addAll(Arrays.asList("-c:v", "rawvideo"));
        }
        else
        {
            make.addAll(Arrays.asList("-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-bf", "2"));
        }
        make.add(file.toString());
        run(make);
        final String counted = run(List.of("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.toString())).trim();
        if (!counted.equals(String.valueOf(FRAMES)))
        {
            throw new IllegalStateException("ffprobe counts " + counted + " frames in " + file + ", not " + FRAMES);
        }
        pool = new PayloadPool();
        config = graph(file, pixelFormat, false, counter);
        ffmpegCommand = List.of("ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error",
            "-progress", "pipe:1", "-i", file.toString(),
            "-pix_fmt", "GRAY8".equals(pixelFormat) ? "gray" : "rgba", "-f", "null", "-");
    }

    static GraphConfig graph(final Path file, final String pixelFormat, final boolean loop, final Counter counter)
    {
        return GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator(VideoSourceCalculator::new).executor("camera")
                .outputStream("VIDEO:video")
                .option("url", file.toString()).option("pixel_format", pixelFormat)
                .option("realtime", false).option("loop", loop))
            .node("count", n -> n.calculator(() -> new CountingSink(counter)).inputStream("video"))
            .build();
    }

    @Benchmark
    public long framewire() throws Exception
    {
        counter.reset();
        try (Graph graph = new Graph(config, pool))
        {
            graph.start();
            graph.waitUntilDone();
        }
        final long frames = counter.frames;
        if (frames != FRAMES || counter.badSteps != 0)
        {
            throw new IllegalStateException(codec + "/" + pixelFormat + ": the sink counted " + frames +
                " frames, the file has " + FRAMES + " (" + counter.badSteps + " steps off the frame interval)");
        }
        return frames;
    }

    @Benchmark
    public long ffmpegNull() throws Exception
    {
        final String progress = run(ffmpegCommand);
        final int at = progress.lastIndexOf("frame=");
        final long frames = at < 0 ? -1 :
            Long.parseLong(progress.substring(at + 6, progress.indexOf('\n', at)).trim());
        if (frames != FRAMES)
        {
            throw new IllegalStateException("ffmpeg -f null reports " + frames + " frames, the file has " + FRAMES);
        }
        return frames;
    }

    @Benchmark
    public long framewireSteady(final Looping looping)
    {
        return looping.await(FRAMES);
    }

    @TearDown(Level.Trial)
    public void removeFile() throws IOException
    {
        pool.close();
        Suite.deleteTree(dir);
    }

    /** One graph for the trial, reading the file in a loop. */
    @State(Scope.Benchmark)
    public static class Looping
    {
        private final Counter counter = new Counter();
        private final ThreadAllocations allocated = new ThreadAllocations();
        private Graph graph;
        private String label;
        private long framesAtIterationStart;

        @Setup(Level.Trial)
        public void start(final VideoSourceBenchmark bench)
        {
            label = bench.codec + "/" + bench.pixelFormat + " looping";
            graph = new Graph(graph(bench.file, bench.pixelFormat, true, counter), bench.pool);
            graph.start();
        }

        long await(final int frames)
        {
            final Counter counter = this.counter;
            final long target = counter.frames + frames;
            counter.waiter = Thread.currentThread();
            counter.target = target;
            while (counter.frames < target)
            {
                LockSupport.parkNanos(this, 10_000_000L);
                if (graph.failureCount() > 0)
                {
                    throw new IllegalStateException(label + ": " + graph.failures());
                }
            }
            return counter.frames;
        }

        @Setup(Level.Iteration)
        public void snapshot()
        {
            allocated.snapshot();
            framesAtIterationStart = counter.frames;
        }

        @TearDown(Level.Iteration)
        public void verify()
        {
            if (counter.badSteps != 0)
            {
                throw new IllegalStateException(label + ": " + counter.badSteps + " of " + counter.frames +
                    " frames not one frame interval after the one before (a frame lost, or a time rewritten)");
            }
            System.out.println("(" + label + ": " + allocated.perThread(counter.frames - framesAtIterationStart) + ")");
        }

        @TearDown(Level.Trial)
        public void stop()
        {
            graph.close();
        }
    }

    /** What the sink saw: written by the sink's worker, read by the benchmark thread. */
    static final class Counter
    {
        volatile long frames;
        volatile long badSteps;
        volatile long target = Long.MAX_VALUE;
        volatile Thread waiter;
        long lastTimestamp = Long.MIN_VALUE;

        void reset()
        {
            frames = 0;
            badSteps = 0;
            lastTimestamp = Long.MIN_VALUE;
        }
    }

    /** Counts frames and checks they come one frame interval apart; touches no pixel. */
    static final class CountingSink implements Calculator
    {
        private final Counter counter;

        CountingSink(final Counter counter)
        {
            this.counter = counter;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final Input input = ctx.input(0);
            if (input.isEmpty())
            {
                return;
            }
            final Payload frame = (Payload)input.value();
            final Counter counter = this.counter;
            final long ts = input.timestamp();
            final long last = counter.lastTimestamp;
            if (frame.width() != WIDTH || frame.height() != HEIGHT ||
                last != Long.MIN_VALUE && (ts - last < STEP_MIN || ts - last > STEP_MAX))
            {
                counter.badSteps++;
            }
            counter.lastTimestamp = ts;
            final long n = counter.frames + 1;
            counter.frames = n;
            if (n >= counter.target)
            {
                final Thread waiter = counter.waiter;
                if (waiter != null)
                {
                    LockSupport.unpark(waiter);
                }
            }
        }
    }

    /**
     * Heap bytes allocated per thread between two points, outside the measured code: which
     * thread a {@code gc.alloc.rate.norm} comes from (the JMH thread, the graph's workers, the
     * source's reader, the timeout guard).
     */
    static final class ThreadAllocations
    {
        private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)java.lang.management.ManagementFactory.getThreadMXBean();
        private final java.util.Map<Long, Long> before = new java.util.HashMap<>();

        void snapshot()
        {
            before.clear();
            for (final long id : threads.getAllThreadIds())
            {
                before.put(id, threads.getThreadAllocatedBytes(id));
            }
        }

        String perThread(final long frames)
        {
            final StringBuilder out = new StringBuilder("heap B per frame by thread:");
            for (final java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
            {
                if (info == null)
                {
                    continue;
                }
                final long now = threads.getThreadAllocatedBytes(info.getThreadId());
                final long delta = now - before.getOrDefault(info.getThreadId(), 0L);
                if (delta > 0 && frames > 0)
                {
                    out.append(String.format(java.util.Locale.ROOT, " %s %.1f", info.getThreadName(),
                        (double)delta / frames));
                }
            }
            return out.append(" (").append(frames).append(" frames)").toString();
        }
    }

    static String run(final List<String> command) throws IOException, InterruptedException
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0)
        {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" +
                new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
