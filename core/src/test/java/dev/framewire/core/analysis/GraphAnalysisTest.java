package dev.framewire.core.analysis;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphAnalysis;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The static analyzer (seed 004 §A.7) and the blocked-set rule (§7.1), through the public API only.
 */
class GraphAnalysisTest
{
    /**
     * Seed 004 §4 Phase 1 source and sink checks, for when they land in GraphPlan: they are held back
     * because ImagePipelineTest builds a graph whose only way out is an observer (no sink node, no
     * graph output stream), which the sink check rejects.
     */
    /** A sink for the tests: takes any inputs, has no outputs. */
    public static final class SaveSink implements Calculator
    {
        /** Made by the graph through reflection. */
        public SaveSink()
        {
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
        }
    }

    /**
     * The seed's example: {@code Source -> Resize -> Enhance -> Save}, {@code Resize -> Crop -> Save}.
     *
     * @param saveInputs Save's two input specs: one tag for one socket, untagged for two sockets.
     */
    private static GraphConfig seedExample(final String... saveInputs)
    {
        return GraphConfig.builder()
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("src"))
            .node("resize", n -> n.calculator("PassThroughCalculator").inputStream("src").outputStream("resized"))
            .node("enhance", n -> n.calculator("PassThroughCalculator").inputStream("resized").outputStream("enhanced"))
            .node("crop", n -> n.calculator("PassThroughCalculator").inputStream("resized").outputStream("cropped"))
            .node("save", n -> n.calculator(SaveSink.class).inputStream(saveInputs))
            .build();
    }

    private static GraphAnalysis seedOneSocket()
    {
        return GraphAnalysis.of(seedExample("IMAGE:0:enhanced", "IMAGE:1:cropped"));
    }

    private static GraphAnalysis seedTwoSockets()
    {
        return GraphAnalysis.of(seedExample("enhanced", "cropped"));
    }

    /** a -> b, a -> c, b + c -> d. */
    private static GraphConfig diamond(final String... dInputs)
    {
        return GraphConfig.builder()
            .node("a", n -> n.calculator("CountingSourceCalculator").outputStream("x"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("x").outputStream("y"))
            .node("c", n -> n.calculator("PassThroughCalculator").inputStream("x").outputStream("z"))
            .node("d", n -> n.calculator(SaveSink.class).inputStream(dInputs))
            .build();
    }

    @Test
    void seedExampleSourcesSinksLayersAndLongestPath()
    {
        final GraphAnalysis analysis = seedOneSocket();
        assertEquals(List.of("source", "resize", "enhance", "crop", "save"), analysis.nodes());
        assertEquals(List.of("source"), analysis.sourceNodes());
        assertEquals(List.of("save"), analysis.sinkNodes());
        assertEquals(
            List.of(List.of("source"), List.of("resize"), List.of("enhance", "crop"), List.of("save")),
            analysis.layers());
        // enhance and crop tie at length 4; enhance comes first in config order.
        assertEquals(List.of("source", "resize", "enhance", "save"), analysis.longestPath());
    }

    @Test
    void seedExampleStrictBlocksAndPaths()
    {
        final GraphAnalysis analysis = seedOneSocket();
        // The seed names Enhance as its example of a strict block, but by its definition (in-degree 1,
        // exactly one upstream block) Resize (fed only by Source) and Crop (fed only by Resize) are
        // strict too. Source has in-degree 0 and Save in-degree 2, so neither is.
        assertEquals(Set.of("resize", "enhance", "crop"), analysis.strictBlocks());
        assertEquals(List.of("resize", "enhance", "crop"), List.copyOf(analysis.strictBlocks()));
        final Map<String, Set<String>> paths = analysis.strictPaths();
        assertEquals(List.of("resize", "enhance", "crop"), List.copyOf(paths.keySet()));
        // The seed's strict path of Enhance: { Source, Resize, Enhance }.
        assertEquals(List.of("source", "resize", "enhance"), List.copyOf(paths.get("enhance")));
        assertEquals(List.of("source", "resize"), List.copyOf(paths.get("resize")));
        assertEquals(List.of("source", "resize", "crop"), List.copyOf(paths.get("crop")));
    }

    @Test
    void seedExampleSaveIsThreatened()
    {
        final GraphAnalysis analysis = seedOneSocket();
        // Save is on no strict path. Crop or Enhance failing leaves Save's socket a live connection;
        // Resize (or the sole Source) failing blocks it, as the seed says.
        assertEquals(Map.of("save", Set.of("source", "resize")), analysis.threatenedBlocks());
        assertEquals(List.of("source", "resize"), List.copyOf(analysis.threatenedBlocks().get("save")));
        assertEquals(1.0 / 5, analysis.criticality(), 1e-12);
    }

    @Test
    void seedExampleWithTwoSocketsSaveIsAlsoThreatenedByEachBranch()
    {
        final GraphAnalysis analysis = seedTwoSockets();
        assertEquals(Set.of("resize", "enhance", "crop"), analysis.strictBlocks());
        assertEquals(List.of("source", "resize", "enhance", "crop"),
            List.copyOf(analysis.threatenedBlocks().get("save")));
        assertEquals(1.0 / 5, analysis.criticality(), 1e-12);
    }

    @Test
    void blockedByFollowsTheSocketRule()
    {
        final GraphAnalysis oneSocket = seedOneSocket();
        assertEquals(Set.of(), oneSocket.blockedBy(List.of("crop")));
        assertEquals(Set.of(), oneSocket.blockedBy(List.of("enhance")));
        assertEquals(List.of("enhance", "crop", "save"), List.copyOf(oneSocket.blockedBy(List.of("resize"))));
        assertEquals(Set.of("save"), oneSocket.blockedBy(List.of("enhance", "crop")));
        assertEquals(Set.of("resize", "enhance", "crop", "save"), oneSocket.blockedBy(List.of("source")));
        assertEquals(Set.of(), oneSocket.blockedBy(List.of("save")));
        assertEquals(Set.of(), oneSocket.blockedBy(List.of()));

        final GraphAnalysis twoSockets = seedTwoSockets();
        assertEquals(Set.of("save"), twoSockets.blockedBy(List.of("crop")));
        assertEquals(Set.of("save"), twoSockets.blockedBy(List.of("enhance")));
        assertEquals(Set.of("enhance", "crop", "save"), twoSockets.blockedBy(List.of("resize")));
    }

    @Test
    void blockedByNamesTheNodesWhenGivenAnUnknownOne()
    {
        final IllegalArgumentException ex = assertThrows(
            IllegalArgumentException.class, () -> seedOneSocket().blockedBy(List.of("blur")));
        assertTrue(ex.getMessage().contains("'blur'"), ex.getMessage());
        assertTrue(ex.getMessage().contains("[source, resize, enhance, crop, save]"), ex.getMessage());
    }

    @Test
    void graphInputsAreAlwaysLiveAndNotUpstreamNodes()
    {
        final GraphAnalysis analysis = GraphAnalysis.of(GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("x"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("x").outputStream("y"))
            .node("mix", n -> n.calculator(SaveSink.class).inputStream("FRAME:0:in", "FRAME:1:y"))
            .build());
        assertEquals(List.of(), analysis.sourceNodes());
        assertEquals(List.of("mix"), analysis.sinkNodes());
        // a is fed only by a graph input: in-degree 0, layer 0, not strict.
        assertEquals(Set.of("b", "mix"), analysis.strictBlocks());
        assertEquals(List.of(List.of("a"), List.of("b"), List.of("mix")), analysis.layers());
        // mix's one socket keeps a connection from the graph input, which never fails.
        assertEquals(Set.of("b"), analysis.blockedBy(List.of("a")));
        assertEquals(Map.of(), analysis.threatenedBlocks());
        assertEquals(0.0, analysis.criticality());
    }

    @Test
    void backEdgesAreIgnored()
    {
        final GraphAnalysis analysis = GraphAnalysis.of(GraphConfig.builder()
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("x"))
            .node("limit", n -> n.calculator(SaveSink.class).inputStream("x", "FINISHED:done").backEdge("FINISHED")
                .outputStream("y"))
            .node("work", n -> n.calculator("PassThroughCalculator").inputStream("y").outputStream("done"))
            .outputStream("done")
            .build());
        assertEquals(List.of(List.of("src"), List.of("limit"), List.of("work")), analysis.layers());
        assertEquals(Set.of("limit", "work"), analysis.strictBlocks());
        assertEquals(List.of("src", "limit", "work"), analysis.longestPath());
        // work failing does not block limit through the back edge.
        assertEquals(Set.of(), analysis.blockedBy(List.of("work")));
        assertEquals(Set.of("work"), analysis.blockedBy(List.of("limit")));
        // No sink node, but the graph output stream is a sink: valid.
        assertEquals(List.of(), analysis.sinkNodes());
    }

    @Test
    void diamond()
    {
        final GraphAnalysis oneSocket = GraphAnalysis.of(diamond("IN:0:y", "IN:1:z"));
        assertEquals(List.of(List.of("a"), List.of("b", "c"), List.of("d")), oneSocket.layers());
        assertEquals(List.of("a", "b", "d"), oneSocket.longestPath());
        assertEquals(Set.of("b", "c"), oneSocket.strictBlocks());
        assertEquals(Map.of("b", Set.of("a", "b"), "c", Set.of("a", "c")), oneSocket.strictPaths());
        assertEquals(Map.of("d", Set.of("a")), oneSocket.threatenedBlocks());
        assertEquals(0.25, oneSocket.criticality(), 1e-12);
        assertEquals(Set.of(), oneSocket.blockedBy(List.of("b")));
        assertEquals(Set.of("d"), oneSocket.blockedBy(List.of("b", "c")));
        assertEquals(Set.of("b", "c", "d"), oneSocket.blockedBy(List.of("a")));

        final GraphAnalysis twoSockets = GraphAnalysis.of(diamond("y", "z"));
        assertEquals(Map.of("d", Set.of("a", "b", "c")), twoSockets.threatenedBlocks());
        assertEquals(Set.of("d"), twoSockets.blockedBy(List.of("b")));
        assertEquals(Set.of("d"), twoSockets.blockedBy(List.of("c")));
    }

    @Test
    void redundantBranchesLowerCriticality()
    {
        // Two independent sources feeding one socket: no single failure blocks the sink.
        final GraphAnalysis analysis = GraphAnalysis.of(GraphConfig.builder()
            .node("left", n -> n.calculator("CountingSourceCalculator").outputStream("l"))
            .node("right", n -> n.calculator("CountingSourceCalculator").outputStream("r"))
            .node("save", n -> n.calculator(SaveSink.class).inputStream("IMAGE:0:l", "IMAGE:1:r"))
            .build());
        assertEquals(Set.of(), analysis.strictBlocks());
        assertEquals(Map.of(), analysis.threatenedBlocks());
        assertEquals(0.0, analysis.criticality());
        assertEquals(List.of("left", "save"), analysis.longestPath());
        assertEquals(Set.of("save"), analysis.blockedBy(List.of("left", "right")));
    }

    @Test
    void reportNamesEverySection()
    {
        final String report = seedOneSocket().report();
        assertTrue(report.contains("sources: [source]"), report);
        assertTrue(report.contains("sinks: [save]"), report);
        assertTrue(report.contains("  2: [enhance, crop]"), report);
        assertTrue(report.contains("source -> resize -> enhance -> save"), report);
        assertTrue(report.contains("  enhance: [source, resize, enhance]"), report);
        assertTrue(report.contains("  save: [source, resize]"), report);
        assertTrue(report.contains("criticality: 1/5 = 0.200"), report);
    }

    @Test
    void analysisValidatesLikeAGraph()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphAnalysis.of(
            GraphConfig.builder()
                .node("a", n -> n.calculator("NoSuchCalculator").outputStream("x"))
                .node("b", n -> n.calculator(SaveSink.class).inputStream("nowhere"))
                .build()));
        assertEquals(2, ex.errors().size(), ex.getMessage());
        assertTrue(ex.getMessage().contains("unknown calculator 'NoSuchCalculator'"), ex.getMessage());
        assertTrue(ex.getMessage().contains("input stream 'nowhere' of node 'b'"), ex.getMessage());
    }

    @Test
    void aGraphWithoutSourceIsInvalid()
    {
        // A loop closed by a back edge, and nothing feeding it.
        final GraphConfig config = GraphConfig.builder()
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("LOOP:y").backEdge("LOOP")
                .outputStream("x"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("x").outputStream("y"))
            .node("sink", n -> n.calculator(SaveSink.class).inputStream("x"))
            .build();
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config));
        assertEquals(List.of("the graph has no source: no graph input stream is declared and every node " +
            "[a, b, sink] has input streams; valid is at least one graph input stream (inputStream(...) on the " +
            "graph) or one source node, a node with no input streams (such as CountingSourceCalculator)"), ex.errors());
        assertThrows(GraphConfigException.class, () -> GraphAnalysis.of(config));
    }

    @Test
    void aGraphWithoutSinkIsInvalid()
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("x"))
            .build();
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config));
        assertEquals(List.of("the graph has no sink: no graph output stream is declared and every node [a] has " +
            "output streams; valid is at least one graph output stream (outputStream(...) on the graph) or one " +
            "sink node, a node with no output streams (such as CollectorSinkCalculator)"), ex.errors());
    }

    @Test
    void anEmptyGraphHasNeitherSourceNorSink()
    {
        final GraphConfigException ex = assertThrows(
            GraphConfigException.class, () -> new Graph(GraphConfig.builder().build()));
        assertEquals(2, ex.errors().size(), ex.getMessage());
        assertTrue(ex.errors().get(0).startsWith("the graph has no source: no graph input stream is declared and " +
            "it has no nodes;"), ex.getMessage());
        assertTrue(ex.errors().get(1).startsWith("the graph has no sink: no graph output stream is declared and " +
            "it has no nodes;"), ex.getMessage());
    }

    @Test
    void aGraphInputPassedStraightToAGraphOutputIsValid()
    {
        final GraphAnalysis analysis = GraphAnalysis.of(
            GraphConfig.builder().inputStream("in").outputStream("in").build());
        assertEquals(List.of(), analysis.nodes());
        assertEquals(List.of(), analysis.layers());
        assertEquals(List.of(), analysis.longestPath());
        assertEquals(0.0, analysis.criticality());
    }
}
