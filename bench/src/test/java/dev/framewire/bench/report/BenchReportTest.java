package dev.framewire.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchReportTest
{
    private static String result(final String benchmark, final String contender, final String mode, final double score,
        final String unit, final double alloc, final String extra)
    {
        return "{\"benchmark\":\"dev.framewire.bench.suite." + benchmark + "\",\"mode\":\"" + mode + "\"," +
            "\"params\":{\"contender\":\"" + contender + "\"}," +
            "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":\"NaN\",\"scoreUnit\":\"" + unit + "\"}," +
            "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":" + alloc + "}" + extra + "}}";
    }

    @Test
    void tablesWithRatiosLatencyAndChartsReplacingOnlyItsSection(@TempDir final Path dir) throws Exception
    {
        final Path jmh = dir.resolve("run.json");
        Files.writeString(jmh, "[" +
            result("B2ChainThroughputBenchmark.push", "FRAMEWIRE/1", "thrpt", 1_000_000, "ops/s", 0.01, "") + "," +
            result("B2ChainThroughputBenchmark.push", "DISRUPTOR/1", "thrpt", 3_000_000, "ops/s", 0.0, "") + "," +
            result("B3FanOutFrameBenchmark.frame", "FRAMEWIRE_COW/1", "thrpt", 100, "ops/s", 0.0,
                ",\"bytesCopied\":{\"score\":414720000}") + "," +
            result("B1HopLatencyBenchmark.closedLoop", "FRAMEWIRE/PARK", "avgt", 4000, "ns/op", 0.0, "") + "," +
            result("B1HopLatencyBenchmark.closedLoop", "TPE/PARK", "avgt", 6000, "ns/op", 24.0, "") + "," +
            "{\"benchmark\":\"dev.framewire.bench.offheap.X.y\",\"mode\":\"avgt\",\"primaryMetric\":" +
            "{\"score\":1,\"scoreError\":0,\"scoreUnit\":\"ns/op\"}}]");
        final Path latency = Files.createDirectories(dir.resolve("latency"));
        for (final String[] c : new String[][]{{"FRAMEWIRE/PARK", "2000"}, {"TPE/PARK", "5000"}})
        {
            Files.writeString(latency.resolve(c[0].replace('/', '_') + ".json"),
                "{\"scenario\":\"B1HopLatency.closedLoop\",\"contender\":\"" + c[0] + "\",\"count\":1000," +
                "\"percentiles\":{\"50.0\":1000,\"90.0\":1500,\"99.0\":" + c[1] + ",\"99.9\":9000,\"99.99\":9500,\"max\":10000}," +
                "\"curve\":[[0,500],[50,1000],[99,2000],[100,10000]]}");
        }
        final Path machine = dir.resolve("machine.txt");
        Files.writeString(machine, "nproc: 2\nclocksource: tsc\n");
        final Path doc = dir.resolve("BENCHMARKS.md");
        Files.writeString(doc, "# Benchmarks\n\nkept above\n\n" + BenchReport.BEGIN + "\nold\n" + BenchReport.END +
            "\n\nkept below\n");
        final Path charts = dir.resolve("charts");

        BenchReport.main(new String[]{"--jmh", jmh.toString(), "--latency", latency.toString(),
            "--machine", machine.toString(), "--command", "scripts/bench.sh bench.suite",
            "--doc", doc.toString(), "--charts", charts.toString()});

        final String text = Files.readString(doc);
        assertTrue(text.startsWith("# Benchmarks\n\nkept above\n\n" + BenchReport.BEGIN), text);
        assertTrue(text.endsWith(BenchReport.END + "\n\nkept below\n"), text);
        assertTrue(!text.contains("\nold\n"), text);
        assertTrue(text.contains("| DISRUPTOR | 1 | 3,000,000 | ± NaN | ops/s | 3.00 | ≈ 0 |"), text);
        assertTrue(text.contains("| FRAMEWIRE_COW | 1 | 100 | ± NaN | ops/s | 1.00 | ≈ 0 | 4,147,200 |"), text);
        assertTrue(text.contains("| TPE | PARK | 1000 | 1,000 | 1,500 | 5,000 | 9,000 | 9,500 | 10,000 | 2.50 |"), text);
        assertTrue(text.contains("| TPE | PARK | 6,000 | ± NaN | ns/op | 1.50 | 24.0 |"), text);
        assertTrue(text.contains("clocksource: tsc"), text);
        assertTrue(!text.contains("offheap"), text);
        assertTrue(Files.size(charts.resolve("suite-B2ChainThroughput-push.png")) > 1000);
        assertTrue(Files.size(charts.resolve("suite-B1HopLatency-closedLoop-PARK.png")) > 1000);
        assertTrue(text.contains("](charts/suite-B1HopLatency-closedLoop-PARK.png)"), text);
    }

    @Test
    void appendsTheSectionWhenTheMarkersAreMissing()
    {
        assertEquals("# B\n\n" + BenchReport.BEGIN + "\nnew\n" + BenchReport.END + "\n",
            BenchReport.replaceSection("# B\n", "new\n"));
    }
}
