package dev.framewire.tools;

import dev.framewire.core.SubgraphRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** validate and dot on graphs of calculators Framewire does not have, and with subgraph files. */
@Timeout(60)
class MediaPipeGraphCommandTest
{
    /** A MediaPipe-style graph (written for this test): tagged graph streams, options extensions, unknown calculators. */
    static final String FOREIGN = String.join("\n",
        "input_stream: \"IMAGE:image\"",
        "output_stream: \"DETECTIONS:detections\"",
        "input_side_packet: \"MODEL:model\"",
        "node {",
        "  calculator: \"ImageToTensorCalculator\"",
        "  input_stream: \"IMAGE:image\"",
        "  output_stream: \"TENSORS:tensors\"",
        "  options { [mediapipe.ImageToTensorCalculatorOptions.ext] { output_tensor_width: 128 } }",
        "}",
        "node {",
        "  calculator: \"InferenceCalculator\"",
        "  input_stream: \"TENSORS:tensors\"",
        "  input_side_packet: \"MODEL:model\"",
        "  output_stream: \"TENSORS:raw\"",
        "  node_options: { [type.googleapis.com/mediapipe.InferenceCalculatorOptions] { delegate { xnnpack {} } } }",
        "}",
        "node {",
        "  calculator: \"TensorsToDetectionsCalculator\"",
        "  input_stream: \"TENSORS:raw\"",
        "  output_stream: \"DETECTIONS:detections\"",
        "}",
        "");

    @TempDir
    Path dir;

    @AfterEach
    void forgetSubgraphs()
    {
        SubgraphRegistry.global().unregister("CliPassSubgraph");
    }

    @Test
    void fullValidateListsEveryUnknownCalculatorInOneError() throws Exception
    {
        final Path file = Cli.write(dir, "foreign.pbtxt", FOREIGN);
        final Cli.Result r = Cli.run("validate", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("3 unknown calculators: 'ImageToTensorCalculator' at " + file + ":4:1 node " +
            "'imagetotensor_0'; 'InferenceCalculator' at " + file + ":10:1 node 'inference_1'; " +
            "'TensorsToDetectionsCalculator' at " + file + ":17:1"), r.toString());
        assertTrue(r.err().contains("validate --structure-only"), r.toString());
    }

    @Test
    void structureOnlyChecksStreamsWithoutTheCalculators() throws Exception
    {
        final Path file = Cli.write(dir, "foreign.pbtxt", FOREIGN);
        Cli.Result r = Cli.run("validate", "--structure-only", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid structure: 3 nodes, 4 streams", r.out().trim(), r.toString());

        final Path broken = Cli.write(dir, "broken.pbtxt", FOREIGN.replace("input_stream: \"TENSORS:raw\"",
            "input_stream: \"TENSORS:missing\""));
        r = Cli.run("validate", "--structure-only", broken.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(broken + ":17:1: input stream 'missing' of node 'tensorstodetections_2' is " +
            "produced by no node or graph input"), r.toString());
    }

    @Test
    void dotDrawsAGraphOfUnknownCalculators() throws Exception
    {
        final Path file = Cli.write(dir, "foreign.pbtxt", FOREIGN);
        final Cli.Result r = Cli.run("dot", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("\"node:inference_1\" -> \"node:tensorstodetections_2\" [label=\"TENSORS:raw\"]"),
            r.out());
        assertTrue(r.out().contains("\"input:image\" -> \"node:imagetotensor_0\" [label=\"IMAGE:image\"]"), r.out());
    }

    @Test
    void subgraphFilesAreRegisteredAndExpanded() throws Exception
    {
        final Path sub = Cli.write(dir, "pass_subgraph.pbtxt", String.join("\n",
            "type: \"CliPassSubgraph\"",
            "input_stream: \"IN:x\"",
            "output_stream: \"OUT:y\"",
            "node { name: \"p\" calculator: \"PassThroughCalculator\" input_stream: \"x\" output_stream: \"inner\" }",
            "node { name: \"q\" calculator: \"PassThroughCalculator\" input_stream: \"inner\" output_stream: \"y\" }",
            ""));
        final Path graph = Cli.write(dir, "uses.pbtxt", String.join("\n",
            "input_stream: \"in\"",
            "output_stream: \"out\"",
            "node { name: \"s\" calculator: \"CliPassSubgraph\" input_stream: \"IN:in\" output_stream: \"OUT:out\" }",
            ""));
        Cli.Result r = Cli.run("validate", "--subgraph", sub.toString(), graph.toString());
        assertEquals(0, r.exit(), r.toString());
        assertEquals("valid: 2 nodes, 3 streams", r.out().trim(), r.toString());

        SubgraphRegistry.global().unregister("CliPassSubgraph");
        Files.createDirectories(dir.resolve("subs"));
        Files.move(sub, dir.resolve("subs/pass_subgraph.pbtxt"));
        r = Cli.run("dot", "--subgraph-dir", dir.resolve("subs").toString(), graph.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("\"node:s__p\" -> \"node:s__q\" [label=\"s__inner\"]"), r.out());

        SubgraphRegistry.global().unregister("CliPassSubgraph");
        r = Cli.run("validate", graph.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains(": node 's': unknown calculator 'CliPassSubgraph'"), r.toString());
        assertFalse(r.err().contains("\tat "), r.toString());
    }
}
