package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.calculators.PacketCollector;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LatencyStampCalculator: records graph-input-to-here latency of every packet into an HdrHistogram
 * {@link Recorder} and passes the packets on unchanged.
 */
class LatencyStampTest
{
    @Test
    @Timeout(20)
    void recordsOneNonNegativeValuePerPacketAndPassesThemOn() throws Exception
    {
        final Recorder recorder = new Recorder(3);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("latency", n -> n.calculator("LatencyStampCalculator").inputStream("mid").outputStream("out")
                .inputSidePacket("RECORDER:recorder"))
            .node("sink", n -> n.calculator("CollectorSinkCalculator").inputStream("out")
                .inputSidePacket("COLLECTOR:collector"))
            .build();
        final int packets = 50;
        // the collector after the graph: it is closed first, releasing the payloads it kept, and
        // then the graph's close checks that no payload is left
        try (Graph graph = new Graph(config); PacketCollector collector = new PacketCollector())
        {
            graph.start(Map.of("recorder", recorder, "collector", collector));
            for (long ts = 0; ts < packets; ts++)
            {
                addFrame(graph, "in", ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final Histogram histogram = recorder.getIntervalHistogram();
            assertEquals(packets, histogram.getTotalCount(), "one value per packet");
            assertTrue(histogram.getMinValue() >= 0, "min " + histogram.getMinValue());
            final List<PacketCollector.Entry> seen = collector.entries();
            assertEquals(packets, seen.size(), "every packet passed on");
            for (int ts = 0; ts < packets; ts++)
            {
                assertEquals(ts, seen.get(ts).timestamp());
                assertEquals(Long.toString(ts), valueOf(seen.get(ts).value()), "the frame itself, unchanged");
            }
        }
    }
}
