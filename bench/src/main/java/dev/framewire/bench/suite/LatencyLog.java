package dev.framewire.bench.suite;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a latency histogram as a JSON side file beside the JMH results, one per benchmark and
 * contender: the percentiles the docs quote and the curve the charts draw. JMH's own results are
 * of the op; these are of the hop, measured where the packet arrives.
 *
 * <p>The directory is the system property {@value #DIR_PROP} ({@code scripts/bench.sh} sets it
 * to {@code bench-results/<stamp>.latency/}), or {@code bench-results/latency/} under the working
 * directory. Rare path: allocates.
 */
public final class LatencyLog
{
    /** System property naming the directory side files go to. */
    public static final String DIR_PROP = "framewire.suite.latencyDir";

    /** Percentiles quoted in the tables. */
    static final double[] QUOTED = {50, 90, 99, 99.9, 99.99};

    private LatencyLog()
    {
    }

    /**
     * Writes {@code <scenario>__<contender>.json}.
     *
     * @param scenario  e.g. {@code B1.closedLoop}.
     * @param contender e.g. {@code FRAMEWIRE/BUSY_SPIN}.
     * @param histogram nanoseconds.
     * @param extra     more fields (rate, mode).
     */
    public static void write(final String scenario, final String contender, final Histogram histogram,
        final Map<String, Object> extra)
    {
        final Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("scenario", scenario);
        doc.put("contender", contender);
        doc.put("unit", "ns");
        doc.put("count", histogram.getTotalCount());
        final Map<String, Object> pct = new LinkedHashMap<>();
        for (final double p : QUOTED)
        {
            pct.put(Double.toString(p), histogram.getValueAtPercentile(p));
        }
        pct.put("max", histogram.getMaxValue());
        doc.put("percentiles", pct);
        doc.put("mean", histogram.getMean());
        final List<double[]> curve = new ArrayList<>();
        // 1 - 10^-k steps for the percentile curve: 0, 50, 75, ... up to 99.999 and the max.
        for (double p = 0; p < 99.9995; p = 100 - (100 - p) / 2)
        {
            curve.add(new double[]{p, histogram.getValueAtPercentile(p)});
        }
        curve.add(new double[]{100, histogram.getMaxValue()});
        doc.put("curve", curve);
        doc.putAll(extra);
        final Gson gson = new GsonBuilder().setPrettyPrinting().create();
        final Path dir = Path.of(System.getProperty(DIR_PROP, "bench-results/latency"));
        try
        {
            Files.createDirectories(dir);
            final Path file = dir.resolve(scenario + "__" + contender.replace('/', '_') + ".json");
            Files.writeString(file, gson.toJson(doc), StandardCharsets.UTF_8);
            // the file above holds the last fork; every fork's summary goes here, with its host state
            Files.writeString(dir.resolve("forks.txt"), scenario + ' ' + contender + " p50=" +
                histogram.getValueAtPercentile(50) + " p99=" + histogram.getValueAtPercentile(99) + " p99.9=" +
                histogram.getValueAtPercentile(99.9) + " floorP50=" + HostState.forkFloorP50Nanos + '\n',
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.println("(latency of " + scenario + " " + contender + ": " + histogram.getTotalCount() +
                " hops, p50 " + histogram.getValueAtPercentile(50) + " ns, p99 " + histogram.getValueAtPercentile(99) +
                " ns, p99.9 " + histogram.getValueAtPercentile(99.9) + " ns, max " + histogram.getMaxValue() +
                " ns -> " + file + ")");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
