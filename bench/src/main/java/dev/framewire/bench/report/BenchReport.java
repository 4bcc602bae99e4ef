package dev.framewire.bench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Writes the suite section of docs/BENCHMARKS.md from one run: a table per scenario with every
 * contender's score, its ratio to Framewire's, {@code gc.alloc.rate.norm}, and for the latency
 * scenarios the hop percentiles from the side files; and PNG charts (latency percentile curves per
 * contender, throughput bars) into the charts directory. Only the text between
 * {@value #BEGIN} and {@value #END} is replaced; the rest of the file is left as others wrote it
 * (the markers are appended at the end when missing).
 *
 * <pre>
 *   java -cp bench/target/benchmarks.jar dev.framewire.bench.report.BenchReport \
 *       --jmh bench-results/STAMP.json --latency bench-results/STAMP.latency \
 *       --machine bench-results/STAMP.machine.txt --command "scripts/bench.sh bench.suite" \
 *       --doc docs/BENCHMARKS.md --charts docs/charts
 * </pre>
 */
public final class BenchReport
{
    /** Opens the section this program owns. */
    public static final String BEGIN = "<!-- suite:begin -->";
    /** Closes it. */
    public static final String END = "<!-- suite:end -->";

    private static final String SUITE = ".bench.suite.";

    /** One JMH result row. */
    static final class Row
    {
        String scenario;
        String contender;
        String mode;
        double score;
        double error;
        String unit;
        Double allocNorm;
        Double bytesCopied;
    }

    /** One latency side file. */
    static final class Latency
    {
        String scenario;
        String contender;
        long count;
        Map<String, Double> percentiles = new LinkedHashMap<>();
        List<double[]> curve = new ArrayList<>();
    }

    private BenchReport()
    {
    }

    /**
     * Entry point; see the class comment for the options.
     *
     * @param args the options.
     * @throws IOException when a file cannot be read or written.
     */
    public static void main(final String[] args) throws IOException
    {
        final Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2)
        {
            if (!args[i].startsWith("--"))
            {
                throw new IllegalArgumentException("expected --option value pairs, got '" + args[i] + "'");
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        if (!opts.containsKey("jmh") || !opts.containsKey("doc"))
        {
            System.err.println("usage: BenchReport --jmh RESULTS.json --doc docs/BENCHMARKS.md " +
                "[--latency DIR] [--machine FILE] [--command TEXT] [--charts DIR] [--date TEXT]");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true");
        final String section = generate(
            Path.of(opts.get("jmh")),
            opts.containsKey("latency") ? Path.of(opts.get("latency")) : null,
            opts.containsKey("machine") ? Path.of(opts.get("machine")) : null,
            opts.getOrDefault("command", "(not given)"),
            opts.containsKey("charts") ? Path.of(opts.get("charts")) : null,
            opts.containsKey("charts") ? relativeCharts(Path.of(opts.get("doc")), Path.of(opts.get("charts"))) : null);
        final Path doc = Path.of(opts.get("doc"));
        Files.writeString(doc, replaceSection(Files.exists(doc) ? Files.readString(doc) : "", section),
            StandardCharsets.UTF_8);
        System.out.println("wrote the suite section of " + doc);
    }

    private static String relativeCharts(final Path doc, final Path charts)
    {
        final Path parent = doc.toAbsolutePath().getParent();
        return parent.relativize(charts.toAbsolutePath()).toString().replace('\\', '/');
    }

    /** The document with the text between the markers replaced (markers appended when missing). */
    static String replaceSection(final String doc, final String section)
    {
        final int begin = doc.indexOf(BEGIN);
        final int end = doc.indexOf(END);
        final String body = BEGIN + "\n" + section + END;
        if (begin < 0 || end < begin)
        {
            return doc + (doc.isEmpty() || doc.endsWith("\n") ? "" : "\n") + "\n" + body + "\n";
        }
        return doc.substring(0, begin) + body + doc.substring(end + END.length());
    }

    /** The section's markdown; writes charts when {@code charts} is given. */
    static String generate(final Path jmh, final Path latencyDir, final Path machine, final String command,
        final Path charts, final String chartsLink) throws IOException
    {
        final List<Row> rows = readJmh(jmh);
        final List<Latency> latencies = latencyDir != null && Files.isDirectory(latencyDir) ?
            readLatencies(latencyDir) : List.of();
        final StringBuilder md = new StringBuilder();
        md.append("## Side by side (issue 8)\n\n");
        md.append("Generated by `dev.framewire.bench.report.BenchReport` from one run of the suite in\n")
            .append("`dev.framewire.bench.suite`; rerun it with `scripts/bench.sh 'bench.suite'`, which regenerates\n")
            .append("this section and `docs/charts/`. Ratio: the contender's score over Framewire's in the same\n")
            .append("variant (throughput: above 1 is faster than Framewire; time: below 1 is faster).\n\n");
        md.append("**Command**:\n\n    ").append(command).append("\n\n");
        md.append("**Run**: `").append(jmh.getFileName()).append("`\n\n");
        if (machine != null && Files.exists(machine))
        {
            md.append("**Machine**:\n\n");
            for (final String line : Files.readAllLines(machine))
            {
                md.append("    ").append(line).append('\n');
            }
            md.append('\n');
        }
        final Map<String, List<Row>> byScenario = new TreeMap<>();
        for (final Row row : rows)
        {
            byScenario.computeIfAbsent(row.scenario, k -> new ArrayList<>()).add(row);
        }
        for (final Map.Entry<String, List<Row>> e : byScenario.entrySet())
        {
            md.append("### ").append(e.getKey()).append("\n\n");
            final boolean frames = e.getValue().stream().anyMatch(r -> r.bytesCopied != null);
            md.append("| contender | variant | score | error | units | ratio to Framewire | gc.alloc.rate.norm (B/op) |")
                .append(frames ? " bytes copied per frame |" : "").append('\n');
            md.append("| --- | --- | ---: | ---: | --- | ---: | ---: |").append(frames ? " ---: |" : "").append('\n');
            for (final Row row : e.getValue())
            {
                final Row base = framewireBase(row, e.getValue());
                md.append("| ").append(name(row.contender)).append(" | ").append(variant(row.contender)).append(" | ")
                    .append(num(row.score)).append(" | ± ").append(num(row.error)).append(" | ").append(row.unit)
                    .append(" | ").append(base == null ? "-" : String.format(Locale.ROOT, "%.2f", row.score / base.score))
                    .append(" | ").append(row.allocNorm == null ? "-" : alloc(row.allocNorm)).append(" |");
                if (frames)
                {
                    md.append(' ').append(row.bytesCopied == null || row.score == 0 ? "-" :
                        num(row.bytesCopied / row.score)).append(" |");
                }
                md.append('\n');
            }
            md.append('\n');
            final List<Latency> hops = latencies.stream()
                .filter(l -> sameLoop(l.scenario, e.getKey()))
                .collect(Collectors.toList());
            if (!hops.isEmpty())
            {
                md.append("Hop latency, one way, measured where the value arrives (HdrHistogram, ns; measurement ")
                    .append("iterations only):\n\n");
                md.append("| contender | variant | hops | p50 | p90 | p99 | p99.9 | p99.99 | max | p99 ratio to Framewire |\n");
                md.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
                for (final Latency l : hops)
                {
                    final Latency base = hops.stream()
                        .filter(b -> name(b.contender).equals("FRAMEWIRE") && variant(b.contender).equals(variant(l.contender)))
                        .findFirst().orElse(null);
                    md.append("| ").append(name(l.contender)).append(l.scenario.startsWith("B0") ? " (B0 floor)" : "")
                        .append(" | ").append(variant(l.contender)).append(" | ").append(l.count);
                    for (final String p : new String[]{"50.0", "90.0", "99.0", "99.9", "99.99", "max"})
                    {
                        final Double v = l.percentiles.get(p);
                        md.append(" | ").append(v == null ? "-" : num(v));
                    }
                    md.append(" | ").append(base == null ? "-" : String.format(Locale.ROOT, "%.2f",
                        l.percentiles.get("99.0") / base.percentiles.get("99.0"))).append(" |\n");
                }
                md.append('\n');
                if (charts != null)
                {
                    for (final String variant : hops.stream().map(l -> variant(l.contender)).distinct()
                        .collect(Collectors.toList()))
                    {
                        final String file = "suite-" + e.getKey().replace('.', '-') + "-" + variant + ".png";
                        latencyChart(e.getKey() + " " + variant, hops.stream()
                            .filter(l -> variant(l.contender).equals(variant)).collect(Collectors.toList()),
                            charts.resolve(file));
                        md.append("![").append(e.getKey()).append(' ').append(variant).append(" latency](")
                            .append(chartsLink).append('/').append(file).append(")\n");
                    }
                    md.append('\n');
                }
            }
            else if (charts != null && e.getValue().get(0).mode.equals("thrpt"))
            {
                final String file = "suite-" + e.getKey().replace('.', '-') + ".png";
                throughputChart(e.getKey(), e.getValue(), charts.resolve(file));
                md.append("![").append(e.getKey()).append(" throughput](").append(chartsLink).append('/')
                    .append(file).append(")\n\n");
            }
        }
        return md.toString();
    }

    /** B0's floor appears in B1's tables of the same loop. */
    private static boolean sameLoop(final String latencyScenario, final String jmhScenario)
    {
        final String loop = jmhScenario.substring(jmhScenario.indexOf('.') + 1);
        final String prefix = jmhScenario.substring(0, jmhScenario.indexOf('.'));
        return latencyScenario.equals(jmhScenario) ||
            prefix.startsWith("B1") && latencyScenario.startsWith("B0") && latencyScenario.endsWith("." + loop);
    }

    private static Row framewireBase(final Row row, final List<Row> group)
    {
        Row any = null;
        for (final Row r : group)
        {
            if (name(r.contender).startsWith("FRAMEWIRE"))
            {
                if (variant(r.contender).equals(variant(row.contender)))
                {
                    return r;
                }
                if (any == null)
                {
                    any = r;
                }
            }
        }
        return any;
    }

    static String name(final String contender)
    {
        final int slash = contender.indexOf('/');
        return slash < 0 ? contender : contender.substring(0, slash);
    }

    static String variant(final String contender)
    {
        final int slash = contender.indexOf('/');
        return slash < 0 ? "-" : contender.substring(slash + 1);
    }

    static String num(final double v)
    {
        if (Double.isNaN(v))
        {
            return "NaN";
        }
        if (Math.abs(v) >= 100)
        {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String alloc(final double v)
    {
        return v < 0.5 ? "≈ 0" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** The suite's rows of a JMH JSON result file. */
    static List<Row> readJmh(final Path file) throws IOException
    {
        final JsonArray results = JsonParser.parseString(Files.readString(file)).getAsJsonArray();
        final List<Row> rows = new ArrayList<>();
        for (final JsonElement el : results)
        {
            final JsonObject o = el.getAsJsonObject();
            final String benchmark = o.get("benchmark").getAsString();
            if (!benchmark.contains(SUITE))
            {
                continue;
            }
            final Row row = new Row();
            final String[] parts = benchmark.split("\\.");
            row.scenario = parts[parts.length - 2].replace("Benchmark", "") + "." + parts[parts.length - 1];
            row.contender = o.has("params") && o.getAsJsonObject("params").has("contender") ?
                o.getAsJsonObject("params").get("contender").getAsString() : "-";
            row.mode = o.get("mode").getAsString();
            final JsonObject primary = o.getAsJsonObject("primaryMetric");
            row.score = primary.get("score").getAsDouble();
            row.error = primary.get("scoreError").isJsonPrimitive() ?
                safeDouble(primary.get("scoreError")) : Double.NaN;
            row.unit = primary.get("scoreUnit").getAsString();
            final JsonObject secondary = o.has("secondaryMetrics") ? o.getAsJsonObject("secondaryMetrics") : new JsonObject();
            if (secondary.has("gc.alloc.rate.norm"))
            {
                row.allocNorm = secondary.getAsJsonObject("gc.alloc.rate.norm").get("score").getAsDouble();
            }
            if (secondary.has("bytesCopied"))
            {
                row.bytesCopied = secondary.getAsJsonObject("bytesCopied").get("score").getAsDouble();
            }
            rows.add(row);
        }
        return rows;
    }

    private static double safeDouble(final JsonElement e)
    {
        try
        {
            return e.getAsDouble();
        }
        catch (final NumberFormatException ex)
        {
            return Double.NaN; // JMH writes "NaN" for a single iteration
        }
    }

    /** Every {@code *.json} side file of a latency directory, in name order. */
    static List<Latency> readLatencies(final Path dir) throws IOException
    {
        final List<Latency> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList()))
            {
                final JsonObject o = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
                final Latency l = new Latency();
                l.scenario = o.get("scenario").getAsString();
                l.contender = o.get("contender").getAsString();
                l.count = o.get("count").getAsLong();
                for (final Map.Entry<String, JsonElement> p : o.getAsJsonObject("percentiles").entrySet())
                {
                    l.percentiles.put(p.getKey(), p.getValue().getAsDouble());
                }
                for (final JsonElement point : o.getAsJsonArray("curve"))
                {
                    final JsonArray a = point.getAsJsonArray();
                    l.curve.add(new double[]{a.get(0).getAsDouble(), a.get(1).getAsDouble()});
                }
                out.add(l);
            }
        }
        return out;
    }

    /**
     * Percentile curves: x is the number of nines, -log10(1 - p) (0 is p0, 2 is p99, 3 is p99.9),
     * on a linear axis labelled by percentile (XChart's log x-axis does not finish its ticks over
     * this range); y in µs, log scale.
     */
    static void latencyChart(final String title, final List<Latency> hops, final Path file) throws IOException
    {
        final XYChart chart = new XYChartBuilder().width(900).height(500).title(title + ": hop latency by percentile")
            .xAxisTitle("percentile").yAxisTitle("latency (µs)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(4);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(x ->
        {
            final double p = 100 - 100 * Math.pow(10, -x);
            return String.format(Locale.ROOT, p >= 99.9 ? "%.3f%%" : p >= 99 ? "%.1f%%" : "%.0f%%", p);
        });
        for (final Latency l : hops)
        {
            final List<Double> xs = new ArrayList<>();
            final List<Double> ys = new ArrayList<>();
            for (final double[] point : l.curve)
            {
                if (point[0] < 100)
                {
                    xs.add(-Math.log10(1 - point[0] / 100));
                    ys.add(Math.max(0.001, point[1] / 1000.0));
                }
            }
            chart.addSeries(l.contender + (l.scenario.startsWith("B0") ? " (floor)" : ""), xs, ys);
        }
        Files.createDirectories(file.getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Bars of the throughput of each contender. */
    static void throughputChart(final String title, final List<Row> rows, final Path file) throws IOException
    {
        final CategoryChart chart = new CategoryChartBuilder().width(900).height(500).title(title + ": throughput")
            .xAxisTitle("contender").yAxisTitle(rows.get(0).unit).build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisLabelRotation(30);
        chart.addSeries(title, rows.stream().map(r -> r.contender).collect(Collectors.toList()),
            rows.stream().map(r -> r.score).collect(Collectors.toList()));
        Files.createDirectories(file.getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
