package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.NodeConfig;
import dev.framewire.journal.RunEnding;
import dev.framewire.offheap.MemoryBudget;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * {@code framewire run GRAPH.pbtxt}: loads, validates and runs a graph, prints progress once a
 * second, and at the end a table of latency percentiles per stream and end to end, throughput,
 * drops and the off-heap peak.
 *
 * <p>Measuring: an {@link EntryTimes} observer on every entry stream (source node outputs, graph
 * inputs) remembers when each timestamp came in; a {@link StreamMeter} on every other stream
 * records, per packet, the time since its timestamp first came in on an entry stream upstream of
 * it. So a stream's latency is everything before it: queueing and the calls of every node on the
 * way, including the producing call. The end streams are the graph's output streams, or, without
 * any, the streams its sink nodes read; their rows are the end-to-end latency. Observers run on the
 * workers, so they cost the run a clock read and a lookup per packet and stream.
 *
 * <p>Stopping: the run ends by itself when its sources stop; {@code --duration} cancels it after so
 * many seconds, {@code --frames} once so many packets reached the end streams, Ctrl-C at once; all
 * three are reported as a normal stop, with the table. Graph input streams get no packets from
 * this command: they are closed at the start.
 *
 * <p>Metrics: {@code --metrics-port N} serves the graph's meters ({@code framewire-micrometer}) as
 * Prometheus text at {@code http://127.0.0.1:N/metrics} for the length of the run
 * ({@link MetricsEndpoint}), and times the nodes' calls for them; without it nothing listens.
 *
 * <p>Journal: the run is journaled into {@code ./journals} ({@link JournalOptions}: {@code --journal
 * DIR}, {@code --no-journal}, {@code --capture STREAM...}), with checksums of the end streams'
 * payloads so that {@code framewire journal diff} can compare runs; the last line names the run's
 * journal directory.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {
        "Runs a graph file (.pbtxt): validates it, starts it, prints progress every second, and at the end " +
            "latency percentiles (p50, p99, p99.9, max) per stream and end to end, throughput, drops and the " +
            "off-heap peak.",
        "Latency of a stream: from when a packet's timestamp first entered the graph (on a source node's " +
            "output or a graph input upstream) to when the packet left the call that produced it on that stream.",
        "The run ends when its sources stop, after --duration, after --frames, or on Ctrl-C."})
public final class RunCommand implements Callable<Integer>
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long POLL = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long FRAMES_POLL = TimeUnit.MILLISECONDS.toNanos(5);
    private static final Pattern LONG = Pattern.compile("[-+]?\\d{1,18}");
    private static final Pattern DOUBLE = Pattern.compile("[-+]?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][-+]?\\d+)?");
    /** Most end streams named on the progress line; beyond, only the total. */
    private static final int PROGRESS_STREAMS = 4;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH.pbtxt", description = "The graph file.")
    private Path file;

    @Option(names = "--side", paramLabel = "NAME=VALUE",
        description = "An input side packet; repeatable. A value that parses as a long, a double or true/false " +
            "is given as one, anything else as a string.")
    private Map<String, String> sides = new LinkedHashMap<>();

    @ArgGroup(exclusive = true)
    private Limit limit;

    /** At most one of the ways to cut a run short. */
    static final class Limit
    {
        @Option(names = "--duration", paramLabel = "S",
            description = "Stop (cancel) the run after S seconds, counted from the start.")
        Double duration;

        @Option(names = "--frames", paramLabel = "N",
            description = "Stop (cancel) the run once N packets in all reached the end streams.")
        Long frames;
    }

    @Option(names = "--warmup", paramLabel = "S", defaultValue = "0",
        description = "Seconds at the start whose packets are counted but left out of the percentiles, while " +
            "the JIT compiles (default: ${DEFAULT-VALUE}).")
    private double warmup;

    @Option(names = "--metrics-bind", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
        description = "Address the metrics and health endpoint listens on (default: ${DEFAULT-VALUE}; 0.0.0.0 " +
            "for all).")
    private String metricsBind;

    @Option(names = "--metrics-port", paramLabel = "N",
        description = "Serve the graph's metrics (packets, drops, queues, calls and their time, off-heap memory) in " +
            "Prometheus text format at http://127.0.0.1:N/metrics while the run lasts; loopback only, 0 for any free " +
            "port (printed). Off by default: no listener.")
    private Integer metricsPort;

    @Mixin
    private JournalOptions journal = new JournalOptions();

    private volatile boolean stopRequested;

    @Override
    public Integer call() throws InterruptedException
    {
        checkOptions();
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final GraphConfig read = GraphFiles.read(file);
        final Topology topology = new Topology(read);
        final GraphConfig config = journal.apply(read, topology.endStreams());
        final Map<String, Object> sidePackets = sidePackets();
        final Map<String, Recorder> stampRecorders = stampRecorders(config, sidePackets);

        final CountDownLatch reported = new CountDownLatch(1);
        final Thread hook = new Thread(() ->
        {
            stopRequested = true;
            try
            {
                reported.await(10, TimeUnit.SECONDS); // let the report be printed before the JVM goes
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }, "framewire-run-stop");

        final Graph graph = GraphFiles.validate(file.toString(), config);
        final AtomicBoolean recording = new AtomicBoolean(warmup <= 0);
        final Map<String, EntryTimes> entries = new LinkedHashMap<>();
        final List<StreamMeter> meters = new ArrayList<>();
        final List<StreamMeter> ends = new ArrayList<>();
        final MemoryBudget budget = graph.pool().budget();
        boolean reportedRun = false;
        MetricsEndpoint metrics = null;
        try
        {
            instrument(graph, topology, recording, entries, meters, ends);
            describe(out, config, topology);
            metrics = metrics(graph, out);
            Runtime.getRuntime().addShutdownHook(hook);
            start(graph, sidePackets);
            final long start = System.nanoTime();
            if (!config.inputStreams().isEmpty())
            {
                graph.closeAllInputs();
            }
            final String stoppedBy = await(graph, out, start, recording, ends, budget);
            final long end = System.nanoTime();
            GraphException failure = null;
            try
            {
                graph.waitUntilDone();
            }
            catch (final GraphException ex)
            {
                if (!(ex.isCancelled() && stoppedBy != null))
                {
                    failure = ex;
                }
            }
            final double seconds = (end - start) / 1e9;
            out.println(stoppedBy == null ? String.format(Locale.ROOT, "the run ended by itself after %.2f s", seconds)
                : String.format(Locale.ROOT, "stopped after %.2f s (%s)", seconds, stoppedBy));
            RunReport.report(out, graph, topology, entries, meters, ends, stampRecorders, seconds, budget,
                warmup);
            reportedRun = true;
            journaled(out);
            failures(err, graph, failure);
            if (failure == null && RunReport.deliveredNothing(err, graph, ends))
            {
                return 1;
            }
            return failure != null ? 1 : 0;
        }
        finally
        {
            if (metrics != null)
            {
                metrics.close();
            }
            try
            {
                graph.close();
            }
            catch (final IllegalStateException ex)
            {
                if (reportedRun)
                {
                    err.println("at close: " + ex.getMessage());
                    err.flush();
                }
            }
            reported.countDown();
            removeHook(hook);
            out.flush();
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException | IllegalArgumentException shuttingDownOrNeverAdded)
        {
            // the JVM is going down (Ctrl-C: the hook waits for the report) or the hook was not added yet
        }
    }

    /** With {@code --metrics-port}: the endpoint, started and announced; otherwise null. */
    private MetricsEndpoint metrics(final Graph graph, final PrintWriter out)
    {
        if (metricsPort == null)
        {
            return null;
        }
        final MetricsEndpoint metrics = MetricsEndpoint.start(graph, graphName(), metricsBind, metricsPort);
        out.println("  metrics: " + metrics.url() + " (Prometheus text format, while the run lasts); health: " +
            metrics.url().replace(MetricsEndpoint.PATH, MetricsEndpoint.READY) + " and " + MetricsEndpoint.LIVE);
        out.flush();
        return metrics;
    }

    /** Starts the graph; a missing side packet or an unwritable journal is the user's to fix. */
    private static void start(final Graph graph, final Map<String, Object> sidePackets)
    {
        try
        {
            graph.start(sidePackets);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandFailure(ex.getMessage() + " (give them with --side NAME=VALUE)");
        }
        catch (final UncheckedIOException ex)
        {
            throw new CommandFailure(ex.getMessage() + " (give another directory with --journal DIR, or " +
                "--no-journal)");
        }
    }

    /** The failures on stderr: the run's, or those its failure policy let it go on after. */
    private static void failures(final PrintWriter err, final Graph graph, final GraphException failure)
    {
        final List<GraphFailure> failures = failure != null ? failure.failures() : graph.failures();
        if (failures.isEmpty())
        {
            return;
        }
        err.println(failure != null ? "the run failed:" : "failures (the run went on, as its failure " +
            "policy says):");
        for (final GraphFailure f : failures)
        {
            err.println("  " + f);
        }
        if (failure != null && !failure.blockedNodes().isEmpty())
        {
            err.println("  blocked (an input lost its last live producer): " + failure.blockedNodes());
        }
        err.flush();
    }

    /** Where the journal is (the graph closes it when the run is waited for), and what reads it. */
    private void journaled(final PrintWriter out)
    {
        final Path run = journal.lastRun();
        if (run != null)
        {
            out.println("journal: " + run + " (framewire journal postmortem|dump|replay " + run + ")");
        }
    }

    private void checkOptions()
    {
        if (limit != null && limit.duration != null && !(limit.duration > 0 && limit.duration <= 31_536_000))
        {
            throw new ParameterException(spec.commandLine(), "--duration must be in (0, 31536000] seconds, was " +
                limit.duration);
        }
        if (limit != null && limit.frames != null && limit.frames < 1)
        {
            throw new ParameterException(spec.commandLine(), "--frames must be 1 or more, was " + limit.frames);
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65_535))
        {
            throw new ParameterException(spec.commandLine(), "--metrics-port must be a port in [0, 65535] (0 for any " +
                "free one), was " + metricsPort);
        }
        if (!(warmup >= 0))
        {
            throw new ParameterException(spec.commandLine(), "--warmup must be 0 or more seconds, was " + warmup);
        }
    }

    /** The metrics' {@code graph} tag: the file's name without its extension. */
    private String graphName()
    {
        final String name = file.getFileName().toString();
        final int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private Map<String, Object> sidePackets()
    {
        final Map<String, Object> values = new LinkedHashMap<>();
        sides.forEach((name, text) -> values.put(name, sideValue(text)));
        return values;
    }

    /**
     * A {@code --side} value: a {@code Long}, {@code Double} or {@code Boolean} when the text is
     * one, else the text.
     *
     * @param text the text after '='.
     * @return the value.
     */
    static Object sideValue(final String text)
    {
        if (LONG.matcher(text).matches())
        {
            return Long.parseLong(text);
        }
        if (DOUBLE.matcher(text).matches())
        {
            return Double.parseDouble(text);
        }
        if (text.equals("true") || text.equals("false"))
        {
            return Boolean.parseBoolean(text);
        }
        return text;
    }

    /**
     * A LatencyStampCalculator needs an HdrHistogram Recorder as its RECORDER side packet; the
     * command gives it one unless --side did, and reports what it recorded.
     */
    private static Map<String, Recorder> stampRecorders(final GraphConfig config, final Map<String, Object> sides)
    {
        final Map<String, Recorder> recorders = new LinkedHashMap<>();
        for (final NodeConfig node : config.nodes())
        {
            if (!node.calculator().equals("LatencyStampCalculator"))
            {
                continue;
            }
            for (final String side : node.inputSidePackets())
            {
                final String name = Topology.streamName(side);
                if (side.startsWith("RECORDER:") && !sides.containsKey(name))
                {
                    final Recorder recorder = new Recorder(StreamMeter.HIGHEST_NANOS, 3);
                    sides.put(name, recorder);
                    recorders.put(node.name(), recorder);
                }
            }
        }
        return recorders;
    }

    private static void instrument(
        final Graph graph,
        final Topology topology,
        final AtomicBoolean recording,
        final Map<String, EntryTimes> entries,
        final List<StreamMeter> meters,
        final List<StreamMeter> ends)
    {
        final List<String> endStreams = topology.endStreams();
        for (final String stream : topology.streams())
        {
            if (topology.isEntry(stream))
            {
                final EntryTimes times = new EntryTimes(stream);
                graph.observe(stream, times); // before any meter on the stream: observers run in order
                entries.put(stream, times);
            }
        }
        for (final String stream : topology.streams())
        {
            final boolean end = endStreams.contains(stream);
            if (topology.isEntry(stream) && !end)
            {
                continue;
            }
            final List<EntryTimes> origins = new ArrayList<>();
            for (final String origin : topology.originsOf(stream))
            {
                origins.add(entries.get(origin));
            }
            final String producer = topology.producerOf(stream);
            final StreamMeter meter = new StreamMeter(producer.equals(Topology.GRAPH_INPUT) ? "(graph input)" :
                producer, stream, end, origins.toArray(new EntryTimes[0]), recording);
            graph.observe(stream, meter);
            meters.add(meter);
            if (end)
            {
                ends.add(meter);
            }
        }
    }

    private void describe(final PrintWriter out, final GraphConfig config, final Topology topology)
    {
        int sources = 0;
        for (final NodeConfig node : config.nodes())
        {
            sources += node.inputStreams().isEmpty() ? 1 : 0;
        }
        out.printf(Locale.ROOT, "framewire run %s: %d nodes (%d source%s), %d streams, end streams %s%n", file,
            config.nodes().size(), sources, sources == 1 ? "" : "s", topology.streams().size(),
            topology.endStreams());
        final StringBuilder executors = new StringBuilder();
        config.executors().forEach((name, executor) -> executors.append(executors.length() == 0 ? "" : ", ")
            .append(name).append(' ').append(executor.workers()).append('x').append(executor.idle()));
        if (executors.length() > 0)
        {
            out.println("  executors: " + executors);
        }
        if (!config.inputStreams().isEmpty())
        {
            out.println("  graph input streams " + config.inputStreams() + " get no packets from run; they are " +
                "closed at the start");
        }
        out.println("  stops: " + (limit != null && limit.duration != null ?
            "after " + RunReport.trim(limit.duration) + " s" :
            limit != null && limit.frames != null ? "after " + limit.frames + " packets on the end streams" :
            "when the sources stop") + ", or on Ctrl-C");
        if (journal.retentionLine() != null)
        {
            out.println("  " + journal.retentionLine());
        }
        out.flush();
    }

    /** Waits for the end of the run, printing progress; returns what stopped it, or null if it ended by itself. */
    private String await(
        final Graph graph,
        final PrintWriter out,
        final long start,
        final AtomicBoolean recording,
        final List<StreamMeter> ends,
        final MemoryBudget budget) throws InterruptedException
    {
        final long deadline = limit != null && limit.duration != null ? start + (long)(limit.duration * SECOND) :
            Long.MAX_VALUE;
        final long frames = limit != null && limit.frames != null ? limit.frames : 0;
        final long warmupEnd = start + (long)(warmup * SECOND);
        final long[] lastCounts = new long[ends.size()];
        long tick = start;
        while (true)
        {
            final long now = System.nanoTime();
            final long next = tick + SECOND;
            final long wake = Math.min(Math.min(next, deadline), now + (frames > 0 ? FRAMES_POLL : POLL));
            if (graph.awaitDone(Math.max(0, wake - now), TimeUnit.NANOSECONDS))
            {
                return null;
            }
            final long after = System.nanoTime();
            if (!recording.get() && after >= warmupEnd)
            {
                recording.set(true);
            }
            if (stopRequested)
            {
                graph.cancel("stopped: Ctrl-C or SIGTERM");
                return "Ctrl-C or SIGTERM";
            }
            if (frames > 0 && RunReport.total(ends) >= frames)
            {
                graph.cancel("stopped: frame count reached, --frames " + frames);
                return "--frames " + frames;
            }
            if (after >= deadline)
            {
                graph.cancel(RunEnding.DURATION_REASON + ": --duration " + RunReport.trim(limit.duration) + " s");
                return "--duration " + RunReport.trim(limit.duration);
            }
            if (after >= next)
            {
                progress(out, graph, (after - start) / 1e9, (after - tick) / 1e9, ends, lastCounts, budget);
                tick = after;
            }
        }
    }

    private static void progress(
        final PrintWriter out,
        final Graph graph,
        final double elapsed,
        final double interval,
        final List<StreamMeter> ends,
        final long[] lastCounts,
        final MemoryBudget budget)
    {
        final StringBuilder sb = new StringBuilder(160);
        sb.append(String.format(Locale.ROOT, "[%4.0f s]", elapsed));
        long total = 0;
        long last = 0;
        for (int i = 0; i < ends.size(); i++)
        {
            final long count = ends.get(i).packets();
            if (ends.size() > 1 && ends.size() <= PROGRESS_STREAMS)
            {
                sb.append(String.format(Locale.ROOT, " %s %.0f/s", ends.get(i).stream(),
                    (count - lastCounts[i]) / interval));
            }
            total += count;
            last += lastCounts[i];
            lastCounts[i] = count;
        }
        sb.append(String.format(Locale.ROOT, "%s out %d (%.1f/s)  drops %d  off-heap %s",
            ends.size() > 1 && ends.size() <= PROGRESS_STREAMS ? " |" : "", total,
            (total - last) / interval, RunReport.drops(graph), RunReport.mib(budget.bytesInUse())));
        out.println(sb);
        out.flush();
    }
}
