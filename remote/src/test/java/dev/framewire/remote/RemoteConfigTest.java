package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.framewire.remote.RemoteTestSupport.channel;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The calculators by name from {@code .pbtxt}, as docs/REMOTE.md shows them, and their option errors. */
class RemoteConfigTest
{
    @Test
    @Timeout(60)
    void theTwoHalvesOfTheDocsExampleRunFromText() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final GraphConfig a = GraphConfigText.parse(String.join("\n",
            "input_stream: \"gray\"",
            "node {",
            "  name: \"tx\"",
            "  calculator: \"AeronPublisherCalculator\"",
            "  input_stream: \"gray\"",
            "  option { name: \"channel\" string_value: \"" + channel + "\" }",
            "  option { name: \"stream_id\" int_value: 10 }",
            "  option { name: \"key_file\" string_value: \"" + RemoteTestSupport.keyFile() + "\" }",
            "  option { name: \"term_length\" int_value: 1048576 }",
            "}"), "a.pbtxt");
        final GraphConfig b = GraphConfigText.parse(String.join("\n",
            "output_stream: \"gray\"",
            "executor { name: \"rx\" num_threads: 1 idle_strategy: PARK }",
            "node {",
            "  name: \"rx\"",
            "  calculator: \"AeronSubscriberCalculator\"",
            "  executor: \"rx\"",
            "  output_stream: \"gray\"",
            "  output_stream: \"STATUS:gray_status\"",
            "  option { name: \"channel\" string_value: \"" + channel + "\" }",
            "  option { name: \"stream_id\" int_value: 10 }",
            "  option { name: \"key_file\" string_value: \"" + RemoteTestSupport.keyFile() + "\" }",
            "}"), "b.pbtxt");
        final List<Long> got = new ArrayList<>();
        try (Graph receiver = new Graph(b); Graph sender = new Graph(a))
        {
            receiver.observe("gray", p -> got.add(p.timestamp() * 1000 + p.getLong()));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("gray");
            for (long ts = 0; ts < 20; ts++)
            {
                in.addPacket(ts + 1, ts);
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
        }
        final List<Long> expected = new ArrayList<>();
        for (long ts = 0; ts < 20; ts++)
        {
            expected.add(ts * 1000 + ts + 1);
        }
        assertEquals(expected, got);
    }

    @Test
    void theSplitIngestGraphsAreValidAndMeetOnOneChannel() throws Exception
    {
        final Path graphs = TwoProcessTest.jvmConfig().getParent().getParent().resolve("graphs");
        final GraphConfig cameras = GraphConfigText.read(graphs.resolve("split_ingest_cameras.pbtxt"));
        final GraphConfig analysis = GraphConfigText.read(graphs.resolve("split_ingest_analysis.pbtxt"));
        try (Graph a = new Graph(cameras); Graph b = new Graph(analysis)) // validates every node's options
        {
            final NodeConfig tx = node(cameras, AeronPublisherCalculator.NAME);
            final NodeConfig rx = node(analysis, AeronSubscriberCalculator.NAME);
            assertEquals(tx.options().get("channel"), rx.options().get("channel"));
            assertEquals(tx.options().get("stream_id"), rx.options().get("stream_id"));
            assertEquals("split_ingest.key", tx.options().get("key_file"), "the link is authenticated");
            assertEquals(tx.options().get("key_file"), rx.options().get("key_file"));
        }
    }

    private static NodeConfig node(final GraphConfig config, final String calculator)
    {
        return config.nodes().stream().filter(n -> calculator.equals(n.calculator())).findFirst()
            .orElseThrow(() -> new AssertionError("no " + calculator + " in the graph"));
    }

    @Test
    @Timeout(60)
    void aTermLengthThatIsNoPowerOfTwoFailsOpenNamingTheOption() throws Exception
    {
        try (Graph sender = new Graph(publisher("aeron:ipc", streamId(), n -> n.option("term_length", 3_000_000L))))
        {
            sender.start();
            final GraphException ex = assertThrows(GraphException.class, sender::waitUntilDone);
            assertTrue(ex.getMessage().contains("node 'tx' (AeronPublisherCalculator): option 'term_length' is 3000000; " +
                "valid is a power of two"), ex.getMessage());
        }
    }

    @Test
    @Timeout(60)
    void aChannelThatIsNoAeronUriFailsOpenNamingIt() throws Exception
    {
        try (Graph sender = new Graph(publisher("udp://127.0.0.1:1234", streamId(), n -> { })))
        {
            sender.start();
            final GraphException ex = assertThrows(GraphException.class, sender::waitUntilDone);
            assertTrue(ex.getMessage().contains("option 'channel' is 'udp://127.0.0.1:1234', not an Aeron channel"),
                ex.getMessage());
        }
    }
}
