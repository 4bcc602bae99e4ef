package dev.framewire.core.config;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Static subgraph expansion through the public API: registry, expander, and a run of the flat graph. */
@Timeout(60)
class SubgraphExpanderTest
{
    private static SubgraphRegistry registry() throws Exception
    {
        final SubgraphRegistry registry = new SubgraphRegistry();
        assertEquals("PassTwiceSubgraph", registry.register(MediaPipeConstructsTest.resource("pass_twice_subgraph.pbtxt")));
        return registry;
    }

    @Test
    void nodesArePrefixedInternalStreamsMadeUniqueAndBoundariesBound() throws Exception
    {
        final GraphConfig parent = GraphConfigText.readStructure(MediaPipeConstructsTest.resource("uses_subgraph.pbtxt"));
        final GraphConfig flat = SubgraphExpander.expand(parent, registry());
        final List<String> names = new ArrayList<>();
        for (final NodeConfig node : flat.nodes())
        {
            names.add(node.name() + " " + node.inputStreams() + " -> " + node.outputStreams() + " " +
                node.inputSidePackets());
        }
        assertEquals(List.of(
            "a__first [in] -> [a__middle] []",
            "a__second [a__middle] -> [between] [LABEL:name]",
            "b__first [between] -> [b__middle] []",
            "b__second [b__middle] -> [out] [LABEL:b__label]"), names);
        assertEquals(flat, flat.checkStructure());
        assertEquals(2, parent.nodes().size(), "the parent is not changed");
    }

    @Test
    void theExpandedGraphRuns() throws Exception
    {
        final GraphConfig parent = GraphConfigText.parseStructure(
            "input_stream: \"in\"\noutput_stream: \"out\"\n" +
            "node { name: \"a\" calculator: \"PassTwiceSubgraph\" input_stream: \"IN:in\" output_stream: \"OUT:mid\" }\n" +
            "node { name: \"b\" calculator: \"PassTwiceSubgraph\" input_stream: \"IN:mid\" output_stream: \"OUT:out\" }\n",
            "g.pbtxt");
        final SubgraphRegistry registry = new SubgraphRegistry();
        // the side packet would need a value at start; this use gives none, so take a subgraph without it
        registry.register(GraphConfig.builder().type("PassTwiceSubgraph").inputStream("IN:source")
            .outputStream("OUT:result")
            .node("first", n -> n.calculator("PassThroughCalculator").inputStream("source").outputStream("middle"))
            .node("second", n -> n.calculator("PassThroughCalculator").inputStream("middle").outputStream("result"))
            .build());
        final List<Long> seen = new CopyOnWriteArrayList<>();
        try (Graph graph = new Graph(SubgraphExpander.expand(parent, registry)))
        {
            graph.observe("out", p -> seen.add(p.getLong()));
            graph.start();
            for (long ts = 0; ts < 5; ts++)
            {
                graph.addPacket("in", ts * 10, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of(0L, 10L, 20L, 30L, 40L), seen);
    }

    @Test
    void anUnknownTagNestingAndRecursionAreErrors() throws Exception
    {
        final SubgraphRegistry registry = registry();
        GraphConfigException ex = assertThrows(GraphConfigException.class, () -> SubgraphExpander.expand(
            GraphConfigText.parseStructure("input_stream: \"in\"\noutput_stream: \"out\"\n" +
                "node { name: \"a\" calculator: \"PassTwiceSubgraph\" input_stream: \"IMAGE:in\" output_stream: \"OUT:out\" }\n",
                "g.pbtxt"), registry));
        assertEquals(List.of("g.pbtxt:3:1: node 'a' gives input stream 'IMAGE:0' to subgraph 'PassTwiceSubgraph', which " +
            "has no such input stream; its input streams are [IN:source]"), ex.errors());

        registry.register(GraphConfig.builder().type("Outer").inputStream("IN:x").outputStream("OUT:y")
            .node("inner", n -> n.calculator("PassTwiceSubgraph").inputStream("IN:x").outputStream("OUT:y")).build());
        final GraphConfig nested = SubgraphExpander.expand(GraphConfig.builder().inputStream("in").outputStream("out")
            .node("o", n -> n.calculator("Outer").inputStream("IN:in").outputStream("OUT:out")).build(), registry);
        assertEquals(List.of("o__inner__first", "o__inner__second"),
            nested.nodes().stream().map(NodeConfig::name).toList());

        registry.register(GraphConfig.builder().type("Loop").inputStream("IN:x").outputStream("OUT:y")
            .node("self", n -> n.calculator("Loop").inputStream("IN:x").outputStream("OUT:y")).build());
        ex = assertThrows(GraphConfigException.class, () -> SubgraphExpander.expand(GraphConfig.builder()
            .inputStream("in").outputStream("out")
            .node("l", n -> n.calculator("Loop").inputStream("IN:in").outputStream("OUT:out")).build(), registry));
        assertTrue(ex.errors().get(0).contains("inside itself (Loop -> Loop)"), ex.errors().toString());
    }

    @Test
    void aGraphWithoutSubgraphsIsReturnedAsIsAndATypelessGraphCannotBeRegistered() throws Exception
    {
        final GraphConfig plain = GraphConfig.builder().inputStream("in").outputStream("in").build();
        assertSame(plain, SubgraphExpander.expand(plain, registry()));
        assertThrows(IllegalArgumentException.class, () -> new SubgraphRegistry().register(plain));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new SubgraphRegistry()
            .register(GraphConfig.builder().type("PassThroughCalculator").build()));
        assertTrue(ex.getMessage().contains("already a registered calculator"), ex.getMessage());
        assertFalse(new SubgraphRegistry().contains("PassTwiceSubgraph"));
    }
    /**
     * MediaPipe keeps a CPU and a GPU variant of some subgraphs under one type name, and its build
     * links one: registering a directory with both must not pick one silently.
     */
    @Test
    void aTypeTwoFilesUnderADirectoryDefineIsAnErrorUntilOneIsRegisteredByItself(@TempDir final Path dir) throws Exception
    {
        final String variant = "type: \"TwinSubgraph\"\ninput_stream: \"%s:in\"\noutput_stream: \"OUT:out\"\n" +
            "node { calculator: \"PassThroughCalculator\" input_stream: \"in\" output_stream: \"out\" }\n";
        final Path cpu = Files.writeString(dir.resolve("twin_cpu.pbtxt"), String.format(variant, "IMAGE"));
        final Path gpu = Files.writeString(dir.resolve("twin_gpu.pbtxt"), String.format(variant, "IMAGE_GPU"));
        final SubgraphRegistry registry = new SubgraphRegistry();
        assertEquals(List.of("TwinSubgraph", "TwinSubgraph"), registry.registerAll(dir));
        registry.registerAll(dir); // the same directory again: still the same two files
        final GraphConfig parent = GraphConfigText.parseStructure(
            "input_stream: \"frames\"\noutput_stream: \"out\"\n" +
            "node { name: \"twin\" calculator: \"TwinSubgraph\" input_stream: \"IMAGE:frames\" output_stream: \"OUT:out\" }\n",
            "parent.pbtxt");
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> SubgraphExpander.expand(parent, registry));
        assertEquals(List.of("parent.pbtxt:3:1: node 'twin' uses subgraph 'TwinSubgraph', but 2 files define subgraph type 'TwinSubgraph': " +
            cpu + ", " + gpu + "; register the one meant by itself (--subgraph FILE, or SubgraphRegistry.register)"),
            ex.errors());

        assertEquals("TwinSubgraph", registry.register(cpu));
        final GraphConfig flat = SubgraphExpander.expand(parent, registry);
        assertEquals(List.of("twin__passthrough_0"), flat.nodes().stream().map(NodeConfig::name).toList());
        assertEquals(List.of("frames"), flat.nodes().get(0).inputStreams());
    }
}
