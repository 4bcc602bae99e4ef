package dev.framewire.micrometer.example;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the example of docs/METRICS.md and checks what it registered. */
@Timeout(60)
class MetricsExampleTest
{
    @Test
    void theExampleRegistersEachCamerasMeters() throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MetricsExample.run(registry, 500);
        for (final String camera : new String[] {"cam0", "cam1"})
        {
            assertEquals(500, registry.get("framewire.node.packets.in").tags("graph", "ingest", "camera", camera,
                "node", camera + "__decode").functionCounter().count());
            assertEquals(500, registry.get("framewire.node.process").tags("node", camera + "__latency")
                .functionTimer().count());
            assertEquals(500, registry.get("framewire.latency.packets").tags("camera", camera).functionCounter()
                .count(), camera + ": every packet's latency recorded");
            final double p99 = registry.get("framewire.latency").tags("camera", camera, "quantile", "0.99").gauge()
                .value();
            assertTrue(p99 >= 0 && p99 < 60, camera + " p99 " + p99 + " s");
        }
        assertTrue(registry.getMetersAsString().contains("framewire.offheap.used(GAUGE)[graph='ingest']"),
            registry.getMetersAsString());
    }

    @Test
    void theMainMethodRuns() throws Exception
    {
        MetricsExample.main(new String[0]);
    }
}
