package dev.framewire.tools;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code framewire jfr summary FILE.jfr}: per-node latency percentiles from
 * {@code dev.framewire.NodeProcess} (HdrHistogram), drops by node and reason
 * ({@code dev.framewire.Drop}), allocation hot spots (the top stack frame of
 * {@code jdk.ObjectAllocationSample} by weight), lock contention ({@code jdk.JavaMonitorEnter} by
 * monitor class) and parking ({@code jdk.ThreadPark} by the class parked on); and a PNG chart of
 * per-node latency. Record with {@code scripts/profile.sh}, which uses {@code scripts/framewire.jfc}.
 */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {
        "Summarizes a JFR recording of a Framewire run: per-node latency percentiles, drops, allocation " +
            "hot spots and lock contention; draws a per-node latency chart (PNG)."})
public final class JfrSummaryCommand implements Callable<Integer>
{
    static final String NODE_PROCESS = "dev.framewire.NodeProcess";
    static final String DROP = "dev.framewire.Drop";
    static final String BACKPRESSURE = "dev.framewire.Backpressure";
    static final String ALLOCATION = "jdk.ObjectAllocationSample";
    static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    static final String THREAD_PARK = "jdk.ThreadPark";

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE.jfr", description = "The recording.")
    private Path file;

    @Option(names = "--chart", paramLabel = "PNG",
        description = "Where to draw the per-node latency chart (default: FILE-nodes.png beside the recording).")
    private Path chart;

    @Option(names = "--no-chart", description = "Draw no chart.")
    private boolean noChart;

    @Option(names = "--top", paramLabel = "N", defaultValue = "10",
        description = "Rows of allocation and lock tables (default: ${DEFAULT-VALUE}).")
    private int top;

    /** What a recording holds, accumulated event by event; also fed by {@code jfr top}. */
    static final class Summary
    {
        final Map<String, Histogram> nodes = new TreeMap<>();
        final Map<String, Long> drops = new TreeMap<>();
        final Map<String, Long> backpressure = new TreeMap<>();
        final Map<String, long[]> allocations = new TreeMap<>(); // frame -> {weight, samples}
        final Map<String, long[]> monitors = new TreeMap<>();    // class -> {count, total ns, max ns}
        final Map<String, long[]> parks = new TreeMap<>();
        long events;

        void accept(final RecordedEvent event)
        {
            events++;
            switch (event.getEventType().getName())
            {
                case NODE_PROCESS:
                    nodes.computeIfAbsent(event.getString("node"), k -> new Histogram(TimeUnit.MINUTES.toNanos(10), 3))
                        .recordValue(Math.max(0, event.getDuration().toNanos()));
                    break;
                case DROP:
                    drops.merge(event.getString("node") + "\t" + event.getString("reason"), 1L, Long::sum);
                    break;
                case BACKPRESSURE:
                    backpressure.merge(event.getString("stream"), 1L, Long::sum);
                    break;
                case ALLOCATION:
                {
                    final long[] a = allocations.computeIfAbsent(topFrame(event.getStackTrace()) + "\t" +
                        className(event, "objectClass"), k -> new long[2]);
                    a[0] += event.getLong("weight");
                    a[1]++;
                    break;
                }
                case MONITOR_ENTER:
                    wait(monitors, className(event, "monitorClass"), event);
                    break;
                case THREAD_PARK:
                    wait(parks, className(event, "parkedClass"), event);
                    break;
                default:
                    events--;
            }
        }

        private static void wait(final Map<String, long[]> into, final String key, final RecordedEvent event)
        {
            final long[] w = into.computeIfAbsent(key, k -> new long[3]);
            final long nanos = event.getDuration().toNanos();
            w[0]++;
            w[1] += nanos;
            w[2] = Math.max(w[2], nanos);
        }

        private static String className(final RecordedEvent event, final String field)
        {
            if (!event.hasField(field) || event.getClass(field) == null)
            {
                return "(none)";
            }
            return event.getClass(field).getName();
        }

        private static String topFrame(final RecordedStackTrace stack)
        {
            if (stack == null || stack.getFrames().isEmpty())
            {
                return "(no stack trace)";
            }
            final RecordedFrame frame = stack.getFrames().get(0);
            return frame.getMethod().getType().getName() + "." + frame.getMethod().getName() +
                (frame.getLineNumber() > 0 ? ":" + frame.getLineNumber() : "");
        }

        /** The per-node latency table, in µs. */
        void printNodes(final PrintWriter out)
        {
            out.printf("Node latency (%s), µs:%n", NODE_PROCESS);
            if (nodes.isEmpty())
            {
                out.println("  (no events: was the recording made with scripts/framewire.jfc, or " +
                    NODE_PROCESS + " enabled?)");
                return;
            }
            final int width = Math.max(4, nodes.keySet().stream().mapToInt(String::length).max().orElse(4));
            out.printf(Locale.ROOT, "  %-" + width + "s %10s %9s %9s %9s %9s %9s %11s%n",
                "node", "calls", "p50", "p90", "p99", "p99.9", "max", "total ms");
            for (final Map.Entry<String, Histogram> e : nodes.entrySet())
            {
                final Histogram h = e.getValue();
                out.printf(Locale.ROOT, "  %-" + width + "s %10d %9.1f %9.1f %9.1f %9.1f %9.1f %11.1f%n", e.getKey(),
                    h.getTotalCount(), us(h.getValueAtPercentile(50)), us(h.getValueAtPercentile(90)),
                    us(h.getValueAtPercentile(99)), us(h.getValueAtPercentile(99.9)), us(h.getMaxValue()),
                    h.getMean() * h.getTotalCount() / 1e6);
            }
        }

        void print(final PrintWriter out, final int top)
        {
            printNodes(out);
            out.println();
            out.printf("Drops (%s):%n", DROP);
            if (drops.isEmpty())
            {
                out.println("  none");
            }
            drops.forEach((k, n) -> out.printf("  %-30s %-12s %10d%n", k.split("\t")[0], k.split("\t")[1], n));
            if (!backpressure.isEmpty())
            {
                out.println();
                out.printf("Backpressure (%s), by stream:%n", BACKPRESSURE);
                backpressure.forEach((k, n) -> out.printf("  %-30s %10d%n", k, n));
            }
            out.println();
            final long totalWeight = allocations.values().stream().mapToLong(a -> a[0]).sum();
            out.printf("Allocation hot spots (%s, top frame by weight):%n", ALLOCATION);
            if (allocations.isEmpty())
            {
                out.println("  none sampled");
            }
            allocations.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0]))
                .limit(top)
                .forEach(e -> out.printf(Locale.ROOT, "  %10.2f MB %5.1f%% %7d samples  %s  (%s)%n",
                    e.getValue()[0] / 1e6, 100.0 * e.getValue()[0] / Math.max(1, totalWeight), e.getValue()[1],
                    e.getKey().split("\t")[0], e.getKey().split("\t")[1]));
            out.println();
            printWaits(out, "Lock contention (" + MONITOR_ENTER + ", by monitor class):", monitors, top);
            out.println();
            printWaits(out, "Parking (" + THREAD_PARK + ", by class parked on):", parks, top);
        }

        private static void printWaits(final PrintWriter out, final String title, final Map<String, long[]> waits,
            final int top)
        {
            out.println(title);
            if (waits.isEmpty())
            {
                out.println("  none above the recording's threshold");
                return;
            }
            out.printf("  %10s %12s %10s  %s%n", "count", "total ms", "max ms", "class");
            waits.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[1]))
                .limit(top)
                .forEach(e -> out.printf(Locale.ROOT, "  %10d %12.2f %10.2f  %s%n", e.getValue()[0],
                    e.getValue()[1] / 1e6, e.getValue()[2] / 1e6, e.getKey()));
        }

        /** Bars of p50, p99 and max per node, in µs (log scale). */
        void chart(final Path png, final String title) throws IOException
        {
            System.setProperty("java.awt.headless", "true");
            final CategoryChart chart = new CategoryChartBuilder().width(Math.max(700, 120 * nodes.size())).height(500)
                .title(title).xAxisTitle("node").yAxisTitle("process time (µs)").build();
            chart.getStyler().setXAxisLabelRotation(nodes.size() > 6 ? 45 : 0);
            final List<String> names = new ArrayList<>(nodes.keySet());
            for (final double p : new double[]{50, 99, 100})
            {
                chart.addSeries(p == 100 ? "max" : "p" + (int)p, names, names.stream()
                    .map(n -> us(p == 100 ? nodes.get(n).getMaxValue() : nodes.get(n).getValueAtPercentile(p)))
                    .collect(Collectors.toList()));
            }
            final Path parent = png.toAbsolutePath().getParent();
            if (parent != null)
            {
                Files.createDirectories(parent);
            }
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        }

        private static double us(final double nanos)
        {
            return nanos / 1000.0;
        }
    }

    @Override
    public Integer call() throws IOException
    {
        if (!Files.isRegularFile(file))
        {
            throw new CommandFailure("no such recording: " + file);
        }
        final Summary summary = new Summary();
        try (RecordingFile recording = new RecordingFile(file))
        {
            while (recording.hasMoreEvents())
            {
                summary.accept(recording.readEvent());
            }
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.printf("recording: %s (%d events summarized)%n%n", file, summary.events);
        summary.print(out, top);
        if (!noChart && !summary.nodes.isEmpty())
        {
            final Path png = chart != null ? chart : file.resolveSibling(
                file.getFileName().toString().replaceFirst("\\.jfr$", "") + "-nodes.png");
            summary.chart(png, "Node process time: " + file.getFileName());
            out.println();
            out.println("chart: " + png);
        }
        out.flush();
        return 0;
    }
}
