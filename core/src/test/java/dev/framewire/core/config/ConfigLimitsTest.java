package dev.framewire.core.config;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The limits a graph config keeps (issue 41): a config nested 100,000 deep, one of 479,000 nodes
 * and an oversized file each fail fast with an error naming the limit, in time linear in their
 * size; a config at the node limit still parses and validates in seconds (in the tests' 1 GiB heap).
 */
class ConfigLimitsTest
{
    @Test
    @Timeout(10)
    void aHundredThousandNestedNodesAreNestedTooDeep()
    {
        final String text = "node {\n".repeat(100_000) + "}\n".repeat(100_000);
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(text, "deep.pbtxt"));
        assertTrue(ex.getMessage().contains("deep.pbtxt:65: messages nested too deep: more than 64 levels"), ex.getMessage());
    }

    @Test
    @Timeout(20)
    void fourHundredSeventyNineThousandNodesAreMoreThanAConfigMayHold()
    {
        final StringBuilder text = new StringBuilder("input_stream: \"s0\"\n");
        for (int i = 0; i < 479_000; i++)
        {
            text.append("node { calculator: \"P\" }\n");
        }
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> GraphConfigText.parse(text.toString(), "huge.pbtxt"));
        assertTrue(ex.getMessage().contains("huge.pbtxt:4098: more than 4096 nodes, past what a graph config may hold"),
            ex.getMessage());
    }

    @Test
    @Timeout(10)
    void strayBracesInStringsAndCommentsDoNotCount()
    {
        final String text = "# {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n" +
            "input_stream: \"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\\\"\"\n" +
            "output_stream: \"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\\\"\"\n" +
            "node { calculator: \"PassThroughCalculator\" " +
            "input_stream: \"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\\\"\" " +
            "output_stream: \"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\\\"\" }\n";
        final GraphConfig config = GraphConfigText.parse(text, "braces.pbtxt");
        assertEquals(1, config.nodes().size());
    }

    @Test
    @Timeout(60)
    void aChainAtTheNodeLimitParsesAndValidates()
    {
        final StringBuilder text = new StringBuilder("input_stream: \"s0\"\n");
        final int n = 4096;
        for (int i = 0; i < n; i++)
        {
            text.append("node { calculator: \"PassThroughCalculator\" input_stream: \"s").append(i)
                .append("\" output_stream: \"s").append(i + 1).append("\" }\n");
        }
        text.append("output_stream: \"s").append(n).append("\"\n");
        final long start = System.nanoTime();
        final GraphConfig config = GraphConfigText.parse(text.toString(), "chain.pbtxt");
        try (Graph graph = new Graph(config))
        {
            assertEquals(n, config.nodes().size());
        }
        System.out.println(n + "-node chain parsed and validated in " + (System.nanoTime() - start) / 1_000_000 + " ms");
    }

    @Test
    void aFileLargerThanAConfigMayBeIsRefusedBeforeItIsRead(@TempDir final Path dir) throws Exception
    {
        final Path big = dir.resolve("big.pbtxt");
        try (var channel = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE))
        {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {'#'}), 17L * 1024 * 1024); // sparse
        }
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.read(big));
        assertTrue(ex.getMessage().contains("the file is 17825793 bytes, more than a graph config may be (16777216 bytes)"),
            ex.getMessage());
        assertTrue(Files.exists(big));
    }
}
