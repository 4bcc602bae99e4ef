package dev.framewire.core.config;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.OptionsExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MediaPipe's graph constructs, the encoding checks and fields given twice, through GraphConfigText. */
class MediaPipeConstructsTest
{
    @TempDir
    Path dir;

    static Path resource(final String name) throws URISyntaxException
    {
        return Path.of(MediaPipeConstructsTest.class.getResource("/config/" + name).toURI());
    }

    @Test
    void everyConstructParsesAndIsKept() throws Exception
    {
        final GraphConfig config = GraphConfigText.read(resource("mediapipe_constructs.pbtxt"));
        assertEquals(List.of("in", "aux"), config.inputStreams());
        assertEquals(List.of("VIDEO:in", "aux"), config.inputStreamSpecs());
        assertEquals(List.of("out"), config.outputStreams());
        assertEquals(List.of("MODEL:model_path"), config.inputSidePackets());
        assertEquals(List.of("stats"), config.outputSidePackets());
        assertEquals(2, config.executors().get(GraphConfig.DEFAULT_EXECUTOR).workers(), "num_threads");
        assertEquals(3, config.executors().get("pool").workers(), "ThreadPoolExecutorOptions.num_threads");

        final NodeConfig limit = config.nodes().get(0);
        assertEquals(1, limit.extensions().size());
        final OptionsExtension flow = limit.extensions().get(0);
        assertEquals("mediapipe.FlowLimiterCalculatorOptions", flow.type());
        assertTrue(flow.text().contains("max_in_flight: 1") && flow.text().contains("max_in_queue: 1"), flow.text());
        assertTrue(flow.location().endsWith("mediapipe_constructs.pbtxt:25"), flow.location());
        assertEquals(List.of("FINISHED"), List.copyOf(limit.backEdges()));

        final NodeConfig join = config.nodes().get(1);
        assertEquals(List.of("stats"), join.outputSidePackets());
        assertEquals(InputPolicy.Kind.SYNC_SETS, join.inputPolicy().kind());
        assertEquals(List.of(List.of("limited"), List.of("aux")), join.inputPolicy().syncSets());
        assertEquals("mediapipe.ThresholdingCalculatorOptions", join.extensions().get(0).type());
        assertTrue(join.extensions().get(0).text().contains("label: \"a \\\"quoted\\\" }\""), join.extensions().get(0).text());
        assertEquals(InputPolicy.Kind.DEFAULT, config.nodes().get(2).inputPolicy().kind(), "the graph's handler");

        // and it validates as a whole (Framewire's calculators)
        try (Graph graph = new Graph(config))
        {
            assertEquals(4, graph.config().nodes().size());
        }
    }

    @Test
    void tagsTypeAndSidePacketsSurviveWriting() throws Exception
    {
        final GraphConfig sub = GraphConfigText.readStructure(resource("pass_twice_subgraph.pbtxt"));
        final GraphConfig again = GraphConfigText.parseStructure(GraphConfigText.write(sub), "written");
        assertEquals("PassTwiceSubgraph", again.type());
        assertEquals(List.of("IN:source"), again.inputStreamSpecs());
        assertEquals(List.of("OUT:result"), again.outputStreamSpecs());
        assertEquals(List.of("LABEL:label"), again.inputSidePackets());
        assertEquals(GraphConfigText.write(sub), GraphConfigText.write(again));
    }

    @Test
    void anUnknownFieldInsideAMessageIsStillAnError()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parseStructure(
            "output_stream: \"o\"\nnode {\n  calculator: \"X\"\n  outptu_stream: \"o\"\n}\n", "g.pbtxt"));
        assertTrue(ex.errors().get(0).startsWith("g.pbtxt:4:") && ex.errors().get(0).contains("'outptu_stream'") &&
            ex.errors().get(0).contains("output_stream"), ex.errors().toString());
    }

    @Test
    void aFieldGivenTwiceIsAnErrorNamingItAndBothLines()
    {
        GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            "max_queue_size: 4\ninput_stream: \"in\"\nmax_queue_size: 8\n", "g.pbtxt"));
        assertEquals(List.of("g.pbtxt:3:1: field 'max_queue_size' of CalculatorGraphConfig is given twice (lines 1 and " +
            "3); it takes one value"), ex.errors());
        ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parseStructure(
            "node {\n  name: \"a\"\n  calculator: \"X\"\n  name: \"b\"\n}\n", "g.pbtxt"));
        assertEquals(List.of("g.pbtxt:4:3: field 'name' of Node is given twice (lines 2 and 4); it takes one value"),
            ex.errors());
    }

    @Test
    void encodingProblemsAreNamed() throws IOException
    {
        final byte[] text = "output_stream: \"o\"\n".getBytes(StandardCharsets.UTF_8);
        assertEncodingError(concat(new byte[] {(byte)0xEF, (byte)0xBB, (byte)0xBF}, text), "byte order mark (EF BB BF)");
        assertEncodingError(concat(new byte[] {(byte)0xFF, (byte)0xFE}, "o".getBytes(StandardCharsets.UTF_16LE)),
            "the file is UTF-16");
        assertEncodingError("a: 1\n".getBytes(StandardCharsets.UTF_16BE), "UTF-16 without a byte order mark");
        assertEncodingError(new byte[] {'n', 'o', 'd', 'e', '\n', 0x08, 0x01, 0, 0x12}, ":2: the file is binary");
        assertEncodingError("node { name: \"caf\u00e9\" }".getBytes(StandardCharsets.ISO_8859_1),
            ":1: the file is not valid UTF-8 (byte 0xE9 at offset 17)");
    }

    @Test
    void unknownCalculatorsAreListedInOneErrorWithTheirLines()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            "input_stream: \"in\"\noutput_stream: \"c\"\n" +
            "node { name: \"a\" calculator: \"FooCalculator\" input_stream: \"in\" output_stream: \"b\" }\n" +
            "node { name: \"b\" calculator: \"BarCalculator\" input_stream: \"b\" output_stream: \"c\" }\n" +
            "node { name: \"c\" calculator: \"FooCalculator\" input_stream: \"b\" output_stream: \"d\" }\n", "g.pbtxt"));
        assertEquals(1, ex.errors().size(), ex.errors().toString());
        assertTrue(ex.errors().get(0).startsWith("g.pbtxt: 2 unknown calculators: 'FooCalculator' at g.pbtxt:3:1 " +
            "node 'a', g.pbtxt:5:1 node 'c'; 'BarCalculator' at g.pbtxt:4:1 node 'b'; registered calculators are ["),
            ex.errors().get(0));
    }

    @Test
    void validationErrorsOfAParsedGraphGiveFileAndLine()
    {
        final GraphConfig config = GraphConfigText.parse("input_stream: \"in\"\noutput_stream: \"out\"\n" +
            "node {\n  name: \"p\"\n  calculator: \"PassThroughCalculator\"\n  input_stream: \"nowhere\"\n" +
            "  output_stream: \"out\"\n}\n", "g.pbtxt");
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config));
        assertTrue(ex.errors().stream().anyMatch(e -> e.startsWith("g.pbtxt:3:1: input stream 'nowhere' of node 'p'")),
            ex.errors().toString());
    }

    @Test
    void structureOnlyChecksStreamsWithoutCalculators()
    {
        final String text = "input_stream: \"IMAGE:image\"\noutput_stream: \"DETECTIONS:detections\"\n" +
            "node { calculator: \"ImageToTensorCalculator\" input_stream: \"IMAGE:image\" output_stream: \"TENSORS:t\"\n" +
            "  options { [mediapipe.ImageToTensorCalculatorOptions.ext] { output_tensor_width: 128 } } }\n" +
            "node { calculator: \"InferenceCalculator\" input_stream: \"TENSORS:t\" output_stream: \"DETECTIONS:detections\" }\n";
        final GraphConfig config = GraphConfigText.parseStructure(text, "g.pbtxt");
        assertEquals(config, config.checkStructure());
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> GraphConfigText.parseStructure(text.replace("TENSORS:t\" output_stream", "TENSORS:u\" output_stream"),
                "g.pbtxt").checkStructure());
        assertTrue(ex.errors().get(0).startsWith("g.pbtxt:5:1: input stream 'u' of node 'inference_1' is produced by " +
            "no node"), ex.errors().toString());
    }

    private void assertEncodingError(final byte[] bytes, final String expected) throws IOException
    {
        final Path file = Files.write(dir.resolve("g.pbtxt"), bytes);
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.read(file));
        assertTrue(ex.errors().get(0).startsWith(file.toString()) && ex.errors().get(0).contains(expected),
            ex.errors().toString());
    }

    private static byte[] concat(final byte[] a, final byte[] b)
    {
        final byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

}
