package dev.framewire.tools;

import dev.framewire.core.GraphConfigText;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyTest
{
    private static final String GRAPH = "input_stream: \"frames\"\n" +
        "node { name: \"tick\" calculator: \"CountingSourceCalculator\" output_stream: \"ticks\" }\n" +
        "node {\n" +
        "  name: \"limiter\" calculator: \"FlowLimiterCalculator\"\n" +
        "  input_stream: \"frames\" input_stream: \"FINISHED:out\"\n" +
        "  input_stream_info { tag_index: \"FINISHED\" back_edge: true }\n" +
        "  output_stream: \"limited\"\n" +
        "}\n" +
        "node {\n" +
        "  name: \"clone\" calculator: \"PacketClonerCalculator\"\n" +
        "  input_stream: \"limited\" input_stream: \"TICK:ticks\" output_stream: \"out\"\n" +
        "}\n" +
        "node { name: \"sink\" calculator: \"CollectorSinkCalculator\" input_stream: \"out\" " +
        "input_side_packet: \"COLLECTOR:c\" }\n";

    private final Topology topology = new Topology(GraphConfigText.parse(GRAPH, "test"));

    @Test
    void streamsAndProducers()
    {
        assertEquals(List.of("frames", "ticks", "limited", "out"), topology.streams());
        assertEquals(Topology.GRAPH_INPUT, topology.producerOf("frames"));
        assertEquals("clone", topology.producerOf("out"));
        assertNull(topology.producerOf("nothing"));
        assertTrue(topology.isEntry("frames"));
        assertTrue(topology.isEntry("ticks"));
        assertFalse(topology.isEntry("limited"));
    }

    @Test
    void backEdgesAreMarkedByTag()
    {
        final List<Topology.Input> inputs = topology.inputsOf("limiter");
        assertEquals(new Topology.Input("limiter", "frames", "frames", false), inputs.get(0));
        assertEquals(new Topology.Input("limiter", "FINISHED:out", "out", true), inputs.get(1));
        assertEquals(2, topology.consumersOf("out").size());
    }

    @Test
    void originsFollowProducersButNotBackEdges()
    {
        assertEquals(Set.of("frames"), topology.originsOf("limited"));
        assertEquals(Set.of("frames", "ticks"), topology.originsOf("out"));
        assertEquals(Set.of("ticks"), topology.originsOf("ticks"));
    }

    @Test
    void endStreamsAreTheSinksInputsWithoutGraphOutputs()
    {
        assertEquals(List.of("out"), topology.endStreams());
        final Topology withOutput = new Topology(GraphConfigText.parse(GRAPH + "output_stream: \"limited\"\n", "t"));
        assertEquals(List.of("limited"), withOutput.endStreams());
    }

    @Test
    void downstreamLeavesBackEdgesOut()
    {
        assertEquals(Set.of("limiter", "clone", "sink"), topology.downstreamOf("limiter"));
        assertEquals(Set.of("clone", "sink"), topology.downstreamOf("clone"));
        assertEquals(Set.of("tick", "clone", "sink"), topology.downstreamOf("tick"));
    }

    @Test
    void streamNamesAndBackEdgeKeys()
    {
        assertEquals("a", Topology.streamName("a"));
        assertEquals("a", Topology.streamName("TAG:a"));
        assertEquals("a", Topology.streamName("TAG:2:a"));
    }
}
