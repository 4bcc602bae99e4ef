package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.journal.RunEnding;
import org.HdrHistogram.Histogram;
import org.agrona.collections.Long2LongHashMap;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One side of {@code framewire demo --split} ({@link DemoSplit} makes the two graphs): the cameras'
 * process, which starts the analysis process as a child JVM, runs its half and prints the table; or
 * the analysis process, which runs its half until the cameras' streams close.
 *
 * <p>Latency is end to end across both processes and measured as the single-process demo measures
 * it, from a frame leaving its camera to the annotated frame leaving the annotator, by reading the
 * same clock at both ends: {@code System.nanoTime()}, which on Linux is {@code CLOCK_MONOTONIC}, one
 * clock for every process of the host. The cameras' process logs {@code (timestamp, nanoTime)} per
 * frame sent, the analysis process per frame annotated; the analysis writes its log to a file when
 * it ends and the cameras' process joins the two by timestamp (timestamps cross the link exactly).
 * Nothing extra crosses with the frame. Across hosts the two clocks differ, and this join would
 * need synchronised clocks (PTP) and a wall-clock stamp; it is a one-host measurement, and says so.
 *
 * <p>Threading: the command's thread runs everything but the observers (on the workers that run the
 * camera and the annotator, one each per log) and the child's output forwarder.
 */
final class SplitRun
{
    /** The line the analysis prints once its graph runs: the cameras may start. */
    static final String READY = "analysis ready";
    private static final String ARRIVALS = "arrivals.txt";
    /** The link's key, made for the run in the exchange directory (owner-only) and deleted after it. */
    static final String KEY = "link.key";
    private static final String ANALYSIS_SIDE = "process 2 (analysis)";
    private static final String ANALYSIS_JOURNAL = "journal of " + ANALYSIS_SIDE + ": ";
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long START_TIMEOUT = TimeUnit.SECONDS.toNanos(60);
    /** How often the cameras' process looks whether the analysis process is still alive. */
    private static final long CHILD_POLL = TimeUnit.MILLISECONDS.toNanos(200);

    private final CommandSpec spec;
    private final JournalOptions journal;
    private final List<DemoGraph.Chain> chains;
    private final DemoSplit.Sides sides;
    private final double duration;
    private final double fps;
    private final long warmupFrames;
    private final int logCapacity;
    private long framesAnalysed;
    /** The analysis process's run journal, as its output named it (the forwarder's thread writes it). */
    private volatile String analysisJournal;

    SplitRun(
        final CommandSpec spec,
        final JournalOptions journal,
        final List<DemoGraph.Chain> chains,
        final DemoSplit.Sides sides,
        final double duration,
        final double fps,
        final boolean real,
        final long warmupFrames,
        final long framesPerCamera)
    {
        this.spec = spec;
        this.journal = journal;
        this.chains = chains;
        this.sides = sides;
        this.duration = duration;
        this.fps = real ? 1000 : fps;
        this.warmupFrames = warmupFrames;
        this.logCapacity = (int)Math.min(1 << 20, framesPerCamera > 0 ? framesPerCamera + 16 : 1 << 18);
    }

    /**
     * A fresh owner-only directory for the two processes to share, with a new random key for their
     * link in it ({@link #KEY}): the UDP port on 127.0.0.1 then takes only this run's messages.
     *
     * @return the directory.
     */
    static Path exchange() throws java.io.IOException
    {
        final Path exchange = Files.createTempDirectory("framewire-split-"); // rwx------ on POSIX
        dev.framewire.remote.RemoteKey.generate(exchange.resolve(KEY));
        return exchange;
    }

    /** Frames annotated in the analysis process, over all cameras (after {@link #cameras}). */
    long framesAnalysed()
    {
        return framesAnalysed;
    }

    // ---------------------------------------------------------------- process 1

    /**
     * The cameras' process: starts the analysis, runs the cameras' half, waits for the analysis to
     * end, prints the table.
     *
     * @param args this command's own arguments, given to the analysis process too.
     * @param exchange the directory the two processes share (owner-only, made by {@link #exchange()}).
     * @return the exit code.
     */
    int cameras(final List<String> args, final Path exchange) throws Exception
    {
        final PrintWriter out = spec.commandLine().getOut();
        final Process child = startAnalysis(args, exchange);
        final CountDownLatch ready = new CountDownLatch(1);
        final Thread forwarder = new Thread(() -> forward(child, out, ready), "framewire-split-analysis-output");
        forwarder.setDaemon(true);
        forwarder.start();
        try
        {
            awaitReady(child, forwarder, ready);
            final SplitTimeLog[] sent = new SplitTimeLog[chains.size()];
            long drops = 0;
            final boolean childDied;
            GraphException failure = null;
            final long start = System.nanoTime();
            final long end;
            final GraphConfig config = journal.apply(sides.cameras(), List.of());
            try (Graph graph = GraphFiles.validate("the cameras' half", config))
            {
                for (int c = 0; c < sent.length; c++)
                {
                    sent[c] = new SplitTimeLog(logCapacity);
                    graph.observe(chains.get(c).cameraStream(), sent[c]);
                }
                DemoCommand.start(graph);
                childDied = drive(out, graph, sent, child, start);
                end = System.nanoTime();
                failure = DemoCommand.failure(graph);
                drops += DemoCommand.drops(graph, config);
            }
            if (childDied)
            {
                return 1;
            }
            // closed: the publishers' CLOSE crosses, and the analysis ends at it
            if (!child.waitFor(60, TimeUnit.SECONDS))
            {
                throw new CommandFailure("--split: the analysis process did not end within 60 s of the cameras' " +
                    "(its output is above)");
            }
            forwarder.join(TimeUnit.SECONDS.toMillis(5));
            if (failure != null)
            {
                final PrintWriter err = spec.commandLine().getErr();
                err.println("the cameras' run failed:");
                for (final GraphFailure f : failure.failures())
                {
                    err.println("  " + f);
                }
                err.flush();
                return 1;
            }
            final Long2LongHashMap[] arrivals = readArrivals(exchange.resolve(ARRIVALS));
            if (arrivals == null || child.exitValue() != 0)
            {
                spec.commandLine().getErr().println("--split: the analysis process ended with exit code " +
                    child.exitValue() + (arrivals == null ? " and no arrivals log" : "") + " (its output is above)");
                spec.commandLine().getErr().flush();
                return 1;
            }
            final long first = SplitTimeLog.first(sent);
            report(out, sent, arrivals, (end - (first != 0 ? first : start)) / 1e9, drops);
            final Path own = journaled(out, "process 1 (cameras)");
            if (own != null && analysisJournal != null)
            {
                out.println("  follow the frames across the link: scripts/framewire journal postmortem " + own + " " +
                    analysisJournal);
            }
            out.flush();
            return 0;
        }
        finally
        {
            if (child.isAlive())
            {
                child.destroyForcibly();
            }
            Files.deleteIfExists(exchange.resolve(ARRIVALS));
            Files.deleteIfExists(exchange.resolve(KEY));
            Files.deleteIfExists(exchange);
        }
    }

    /** Waits for the analysis process to say it is ready, or fails naming why it is not. */
    private static void awaitReady(final Process child, final Thread forwarder, final CountDownLatch ready)
        throws InterruptedException
    {
        final long until = System.nanoTime() + START_TIMEOUT;
        while (!ready.await(100, TimeUnit.MILLISECONDS))
        {
            if (!child.isAlive() || System.nanoTime() > until)
            {
                forwarder.join(TimeUnit.SECONDS.toMillis(5));
                throw new CommandFailure("--split: the analysis process " + (child.isAlive() ?
                    "did not start within 60 s" : "ended with exit code " + child.exitValue() + " before it ran") +
                    " (its output is above)");
            }
        }
    }

    /**
     * Runs the cameras until they are done, --duration is up, or the analysis process died; prints
     * the frame rate once a second.
     *
     * @return true if the analysis process died (the cameras were cancelled).
     */
    private boolean drive(final PrintWriter out, final Graph graph, final SplitTimeLog[] sent, final Process child,
        final long start) throws InterruptedException
    {
        long deadline = start + START_TIMEOUT;
        boolean running = false;
        long tick = start;
        long last = 0;
        while (true)
        {
            final long first = SplitTimeLog.first(sent);
            if (!running && first != 0)
            {
                running = true;
                deadline = first + (long)(duration * SECOND) + (fps > 0 ? 2 * SECOND : 0);
            }
            final long next = tick + SECOND;
            // a short wait, so that a dead analysis process is seen at once, not at the end
            if (graph.awaitDone(Math.max(0, Math.min(Math.min(next, deadline), System.nanoTime() + CHILD_POLL) -
                System.nanoTime()), TimeUnit.NANOSECONDS))
            {
                return false;
            }
            if (!child.isAlive() && child.exitValue() != 0) // 0: it ended at the publishers' CLOSE
            {
                final PrintWriter err = spec.commandLine().getErr();
                err.println("--split: the analysis process ended with exit code " + child.exitValue() +
                    " while the cameras ran (its output is above); stopping the cameras");
                err.flush();
                graph.cancel("the analysis process ended");
                return true;
            }
            final long now = System.nanoTime();
            if (now >= deadline)
            {
                graph.cancel(RunEnding.DURATION_REASON + ": --duration " + duration + " s");
                return false;
            }
            if (now >= next)
            {
                final long frames = SplitTimeLog.total(sent);
                out.printf(Locale.ROOT, "[%4.0f s] frames captured %8d  %7.1f fps%n", (now - start) / 1e9, frames,
                    (frames - last) * 1e9 / (now - tick));
                out.flush();
                last = frames;
                tick = now;
            }
        }
    }

    /** The same java, JVM flags and class path as this one, running {@code framewire demo ARGS --split-analysis DIR}. */
    private static Process startAnalysis(final List<String> args, final Path exchange) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String flag : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            // a debugger's or agent's port or file would clash with this process's
            if (!flag.startsWith("-agentlib") && !flag.startsWith("-javaagent") && !flag.startsWith("-Xrunjdwp"))
            {
                command.add(flag);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(FramewireCommand.class.getName());
        command.add("demo");
        command.addAll(args);
        command.add("--split-analysis");
        command.add(exchange.toString());
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private void forward(final Process child, final PrintWriter out, final CountDownLatch ready)
    {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                out.println("  [analysis] " + line);
                out.flush();
                if (line.equals(READY))
                {
                    ready.countDown();
                }
                else if (line.startsWith(ANALYSIS_JOURNAL))
                {
                    analysisJournal = line.substring(ANALYSIS_JOURNAL.length());
                }
            }
        }
        catch (final IOException ex)
        {
            out.println("  [analysis] (its output could not be read: " + ex + ")");
            out.flush();
        }
    }

    private Long2LongHashMap[] readArrivals(final Path file) throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            return null;
        }
        final Long2LongHashMap[] arrivals = new Long2LongHashMap[chains.size()];
        for (int c = 0; c < arrivals.length; c++)
        {
            arrivals[c] = new Long2LongHashMap(Long.MIN_VALUE);
        }
        boolean complete = false;
        for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
        {
            if (line.equals("end"))
            {
                complete = true;
                break;
            }
            final String[] f = line.split(" ");
            arrivals[Integer.parseInt(f[0])].put(Long.parseLong(f[1]), Long.parseLong(f[2]));
        }
        return complete ? arrivals : null;
    }

    private void report(
        final PrintWriter out,
        final SplitTimeLog[] sent,
        final Long2LongHashMap[] arrivals,
        final double seconds,
        final long drops)
    {
        final Histogram all = new Histogram(HIGHEST_NANOS, 3);
        final Histogram[] latency = new Histogram[sent.length];
        final long[] analysed = new long[sent.length];
        long warm = 0;
        for (int c = 0; c < sent.length; c++)
        {
            latency[c] = new Histogram(HIGHEST_NANOS, 3);
            final SplitTimeLog log = sent[c];
            for (int i = 0; i < log.count(); i++)
            {
                final long arrived = arrivals[c].get(log.timestamp(i));
                if (arrived == Long.MIN_VALUE)
                {
                    continue;
                }
                analysed[c]++;
                if (DemoCamera.frameIndex(log.timestamp(i), fps) < warmupFrames)
                {
                    warm++;
                    continue;
                }
                latency[c].recordValue(Math.max(0, Math.min(HIGHEST_NANOS, arrived - log.nanos(i))));
            }
            all.add(latency[c]);
        }
        out.println();
        out.printf(Locale.ROOT, "end-to-end latency across both processes, camera (process 1) to annotated frame " +
            "(process 2) (ms)%s:%n", warm > 0 ? ", without each camera's first " + warmupFrames + " frames of video (" + warm +
            " in all, JIT warm-up)" : "");
        out.printf(Locale.ROOT, "%-8s %9s %9s %8s %9s %9s %9s %9s%n", "camera", "captured", "analysed", "fps", "p50", "p99",
            "p99.9", "max");
        long totalSent = 0;
        long totalAnalysed = 0;
        for (int c = 0; c < sent.length; c++)
        {
            totalSent += sent[c].count();
            totalAnalysed += analysed[c];
            row(out, chains.get(c).camera(), sent[c].count(), analysed[c], seconds, latency[c]);
        }
        row(out, "all", totalSent, totalAnalysed, seconds, all);
        framesAnalysed = totalAnalysed;
        out.println();
        out.println("clock: System.nanoTime() in both processes, CLOCK_MONOTONIC, one clock for every process of this " +
            "host; nothing but the frame crosses the link (frames are matched by timestamp)");
        out.printf(Locale.ROOT, "dropped in process 1 (flow limiters, and the publishers when the link or the " +
            "analysis could not take a frame): %d; captured but not analysed: %d%n", drops, totalSent - totalAnalysed);
    }

    private static void row(
        final PrintWriter out, final String name, final long sent, final long analysed, final double seconds,
        final Histogram h)
    {
        final boolean any = h.getTotalCount() > 0;
        out.printf(Locale.ROOT, "%-8s %9d %9d %8.1f %9.3f %9.3f %9.3f %9.3f%n", name, sent, analysed, analysed / seconds,
            any ? h.getValueAtPercentile(50) / 1e6 : 0.0, any ? h.getValueAtPercentile(99) / 1e6 : 0.0,
            any ? h.getValueAtPercentile(99.9) / 1e6 : 0.0, any ? h.getMaxValue() / 1e6 : 0.0);
    }

    // ---------------------------------------------------------------- process 2

    /**
     * The analysis process: runs its half until the cameras' streams close (or their process is gone),
     * then writes what it annotated, and when, to {@code exchange/arrivals.txt}.
     *
     * @param exchange the directory the cameras' process reads the log from.
     * @return the exit code.
     */
    int analysis(final Path exchange) throws IOException, InterruptedException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final SplitTimeLog[] arrived = new SplitTimeLog[chains.size()];
        final GraphConfig config = journal.apply(sides.analysis(), List.of());
        GraphException failure = null;
        long drops = 0;
        try (Graph graph = GraphFiles.validate("the analysis half", config))
        {
            for (int c = 0; c < arrived.length; c++)
            {
                arrived[c] = new SplitTimeLog(logCapacity);
                graph.observe(chains.get(c).endStream(), arrived[c]);
            }
            DemoCommand.start(graph);
            out.println(READY);
            out.flush();
            // the cameras' process ends it with the streams' close; this is only a guard against a lost one
            if (!graph.awaitDone((long)(duration * SECOND) + 3 * START_TIMEOUT, TimeUnit.NANOSECONDS))
            {
                out.println("the cameras' streams did not close in time; cancelling");
                graph.cancel("stopped: the cameras' streams did not close in time");
            }
            failure = DemoCommand.failure(graph);
            drops += DemoCommand.drops(graph, config);
        }
        if (failure != null)
        {
            out.println("the analysis run failed:");
            for (final GraphFailure f : failure.failures())
            {
                out.println("  " + f);
            }
            out.flush();
            return 1;
        }
        final StringBuilder log = new StringBuilder();
        long frames = 0;
        for (int c = 0; c < arrived.length; c++)
        {
            frames += arrived[c].count();
            for (int i = 0; i < arrived[c].count(); i++)
            {
                log.append(c).append(' ').append(arrived[c].timestamp(i)).append(' ').append(arrived[c].nanos(i))
                    .append('\n');
            }
        }
        log.append("end\n");
        Files.writeString(exchange.resolve(ARRIVALS), log, StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "analysis done: %d frames annotated; dropped or rejected in process 2: %d%n", frames,
            drops);
        journaled(out, ANALYSIS_SIDE);
        out.flush();
        return 0;
    }

    private Path journaled(final PrintWriter out, final String side)
    {
        final Path run = journal.lastRun();
        if (run != null)
        {
            out.println("journal of " + side + ": " + run);
        }
        return run;
    }
}
