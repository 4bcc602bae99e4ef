package dev.framewire.core.config;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphAnalysis;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the graph config text parser and the planner as {@code framewire validate} drives them:
 * bytes decoded as a {@code .pbtxt}, parsed, subgraphs expanded, the structure checked, planned
 * and analysed ({@link GraphAnalysis#of}), and made a {@link Graph} (closed unstarted). The only
 * failure allowed is a {@link GraphConfigException} whose every error says something; any other
 * exception, an out-of-memory or a hang (libFuzzer's {@code -timeout}) is a finding.
 *
 * <p>Regression mode (every {@code mvn verify}) runs the seeds and past findings under
 * {@code GraphConfigFuzzTestInputs/parseAndPlan/}; {@code scripts/fuzz.sh config SECONDS} fuzzes.
 */
class GraphConfigFuzzTest
{
    private static final String SOURCE = "fuzz.pbtxt";

    @FuzzTest
    @DictionaryEntries({"node {", "}", "calculator: \"", "input_stream: \"", "output_stream: \"", "input_side_packet: \"",
        "output_side_packet: \"", "executor {", "options {", "node_options {", "input_stream_handler {",
        "back_edge: true", "max_queue_size: ", "num_threads: ", "type: \"", "name: \"", "PassThroughCalculator",
        "[type.googleapis.com/", "input_stream_info {", "tag_index: \"", "stream_queue_size {", "graph_options {",
        "TAG:0:", ":", "\"", "#", "\\", "-9223372036854775808", "1e999", "nan"})
    void parseAndPlan(final byte[] data)
    {
        final GraphConfig config;
        try
        {
            config = SubgraphExpander.expand(GraphConfigText.parse(GraphConfigText.decode(data, SOURCE), SOURCE),
                SubgraphRegistry.global());
        }
        catch (final GraphConfigException ex)
        {
            assertClear(ex);
            return;
        }
        try
        {
            config.checkStructure();
            GraphAnalysis.of(config).report();
        }
        catch (final GraphConfigException ex)
        {
            assertClear(ex);
            return;
        }
        try (Graph graph = new Graph(config))
        {
            assertFalse(graph.config().nodes().isEmpty() && !config.nodes().isEmpty(), "the graph keeps its nodes");
        }
    }

    @FuzzTest
    void parseStructure(final byte[] data)
    {
        try
        {
            GraphConfigText.parseStructure(GraphConfigText.decode(data, SOURCE), SOURCE).checkStructure();
        }
        catch (final GraphConfigException ex)
        {
            assertClear(ex);
        }
    }

    /** A config error lists at least one error, each of them saying something. */
    static void assertClear(final GraphConfigException ex)
    {
        assertFalse(ex.errors().isEmpty(), "a config exception lists its errors");
        for (final String error : ex.errors())
        {
            assertTrue(error != null && !error.isBlank(), "every error says what is wrong: " + ex.errors());
        }
    }
}
