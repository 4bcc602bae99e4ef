package dev.framewire.micrometer;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The names and labels a Prometheus registry gives every meter, as docs/METRICS.md lists them. */
@Timeout(60)
class PrometheusNamesTest
{
    @Test
    void everyMeterScrapesUnderItsDocumentedName() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .inputStream("in")
            .node("cam0__pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .node("cam0__latency", n -> n.calculator("LatencyStampCalculator").inputStream("out")
                .inputSidePacket("RECORDER:recorder"))
            .build();
        final Recorder recorder = new Recorder(3);
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (Graph graph = new Graph(config))
        {
            graph.timeProcessCalls();
            FramewireMetrics.builder(graph).graphName("g").latency("cam0__latency", recorder).build().bindTo(registry);
            graph.start(Map.of("recorder", recorder));
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final String text = registry.scrape();
            final Set<String> names = new TreeSet<>();
            for (final String line : text.split("\n"))
            {
                if (!line.startsWith("#") && !line.isBlank())
                {
                    names.add(line.substring(0, line.indexOf('{')));
                }
            }
            assertEquals(new TreeSet<>(Set.of(
                "framewire_graph_failures_total", "framewire_graph_memory_drops_total",
                "framewire_latency_packets_total", "framewire_latency_seconds",
                "framewire_node_calls_in_flight", "framewire_node_calls_total",
                "framewire_node_packets_dropped_total", "framewire_node_packets_in_total",
                "framewire_node_packets_out_total", "framewire_node_process_seconds_count",
                "framewire_node_process_seconds_sum", "framewire_node_queue_depth",
                "framewire_offheap_limit_hard_bytes", "framewire_offheap_limit_soft_bytes", "framewire_offheap_max_bytes",
                "framewire_offheap_peak_bytes", "framewire_offheap_reserved_bytes", "framewire_offheap_used_bytes")),
                names, text);
            assertTrue(text.contains("framewire_node_packets_in_total{camera=\"cam0\",graph=\"g\",node=\"cam0__latency\"} 10"),
                text);
            assertTrue(text.contains("framewire_latency_packets_total{camera=\"cam0\",graph=\"g\",node=\"cam0__latency\"} 10"),
                text);
            assertTrue(text.contains("framewire_latency_seconds{camera=\"cam0\",graph=\"g\",node=\"cam0__latency\"," +
                "quantile=\"0.99\"}"), text);
        }
        finally
        {
            registry.close();
        }
    }
}
