package dev.framewire.micrometer.example;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;
import dev.framewire.micrometer.FramewireMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.Recorder;

import java.util.Map;

/**
 * The example of {@code docs/METRICS.md}: a service registers Framewire's metrics in its own
 * Micrometer registry. Two cameras, each an instance of one subgraph (so each node's
 * {@code camera} tag is its camera), a process timer per node, and each camera's end-to-end
 * latency from its {@code LatencyStampCalculator}. {@code MetricsExampleTest} runs it.
 */
public final class MetricsExample
{
    private MetricsExample()
    {
    }

    /**
     * Runs the example into a {@link SimpleMeterRegistry} and prints its meters.
     *
     * @param args none.
     * @throws Exception if the run fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final SimpleMeterRegistry registry = new SimpleMeterRegistry(); // the service's own: Prometheus, OTLP, ...
        run(registry, 1_000);
        System.out.println(registry.getMetersAsString());
    }

    /**
     * Builds the two-camera graph, binds its metrics to {@code registry}, and runs {@code frames}
     * packets through each camera.
     *
     * @param registry the service's registry.
     * @param frames   packets per camera.
     * @throws Exception if the run fails.
     */
    public static void run(final MeterRegistry registry, final int frames) throws Exception
    {
        // One camera's chain, a subgraph: its nodes become cam0__decode, cam0__latency, ...
        final SubgraphRegistry subgraphs = new SubgraphRegistry();
        subgraphs.register(GraphConfig.builder().type("CameraChain")
            .inputStream("IN:frames")
            .node("decode", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("decoded"))
            .node("latency", n -> n.calculator("LatencyStampCalculator").inputStream("decoded")
                .inputSidePacket("RECORDER:recorder"))          // unbound: becomes cam0__recorder, cam1__recorder
            .build());
        final GraphConfig config = SubgraphExpander.expand(GraphConfig.builder()
            .inputStream("cam0_frames").inputStream("cam1_frames")
            .node("cam0", n -> n.calculator("CameraChain").inputStream("IN:cam0_frames"))
            .node("cam1", n -> n.calculator("CameraChain").inputStream("IN:cam1_frames"))
            .build(), subgraphs);

        final Recorder cam0Latency = new Recorder(3);
        final Recorder cam1Latency = new Recorder(3);
        try (Graph graph = new Graph(config))
        {
            graph.timeProcessCalls();                              // optional: framewire.node.process
            FramewireMetrics.builder(graph)
                .graphName("ingest")                               // the graph tag
                .latency("cam0__latency", cam0Latency)             // framewire.latency quantiles per camera
                .latency("cam1__latency", cam1Latency)
                .build()
                .bindTo(registry);                                 // the registry keeps the meters
            graph.start(Map.of("cam0__recorder", cam0Latency, "cam1__recorder", cam1Latency));
            final GraphInputHandle cam0 = graph.input("cam0_frames");
            final GraphInputHandle cam1 = graph.input("cam1_frames");
            for (long ts = 0; ts < frames; ts++)
            {
                cam0.addPacket(ts, ts);
                cam1.addPacket(ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
