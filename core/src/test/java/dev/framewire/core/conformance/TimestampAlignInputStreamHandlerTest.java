package dev.framewire.core.conformance;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.InputPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/timestamp_align_input_stream_handler_test.cc},
 * from the same text configs (the handler's options in MediaPipe's extension syntax).
 */
class TimestampAlignInputStreamHandlerTest
{
    private static final String INITIALIZATION = "input_stream: \"input_video\"\n" +
        "input_stream: \"input_camera\"\n" +
        "output_stream: \"output_video\"\n" +
        "output_stream: \"output_camera\"\n" +
        "node {\n" +
        "  calculator: \"PassThroughCalculator\"\n" +
        "  input_stream: \"VIDEO:input_video\"\n" +
        "  input_stream: \"CAMERA:input_camera\"\n" +
        "  output_stream: \"VIDEO:output_video\"\n" +
        "  output_stream: \"CAMERA:output_camera\"\n" +
        "  input_stream_handler {\n" +
        "    input_stream_handler: \"TimestampAlignInputStreamHandler\"\n" +
        "    options: {\n" +
        "      [mediapipe.TimestampAlignInputStreamHandlerOptions.ext]: {\n" +
        "        timestamp_base_tag_index: \"CAMERA\"\n" +
        "      }\n" +
        "    }\n" +
        "  }\n" +
        "}\n";

    // timestamp_align_input_stream_handler_test.cc, TEST(TimestampAlignInputStreamHandlerTest, Initialization)
    @Test
    @Timeout(20)
    void initialization() throws Exception
    {
        final GraphConfig config = GraphConfigText.parse(INITIALIZATION, "initialization.pbtxt");
        assertEquals(InputPolicy.timestampAlign("CAMERA"), config.nodes().get(0).inputPolicy());
        assertEquals(InputPolicy.timestampAlign("CAMERA"), GraphConfigText.parse(GraphConfigText.write(config),
            "written.pbtxt").nodes().get(0).inputPolicy(), "the option survives writing the config");
        try (Graph graph = new Graph(config))
        {
            final List<String> video = observe(graph, "output_video");
            final List<String> camera = observe(graph, "output_camera");
            graph.start();
            graph.addPacket("input_camera", 1, 101);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(video));
            assertEquals(List.of("1@101"), snapshot(camera), "the base stream's packet goes at once");
            graph.addPacket("input_camera", 2, 102);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(video));
            assertEquals(List.of("1@101", "2@102"), snapshot(camera));
            graph.addPacket("input_video", 1, 1);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(video), "buffered until the base has a packet too");
            assertEquals(2, camera.size());
            graph.addPacket("input_camera", 3, 103);
            graph.waitUntilIdle();
            assertEquals(List.of("1@103"), snapshot(video), "video 1 is camera 103: offset 102");
            assertEquals(List.of("1@101", "2@102", "3@103"), snapshot(camera));
            graph.addPacket("input_camera", 4, 104);
            graph.waitUntilIdle();
            assertEquals(1, video.size());
            assertEquals(3, camera.size(), "the base gets no special treatment now: it waits for video");
            graph.addPacket("input_video", 4, 4);
            graph.waitUntilIdle();
            assertEquals(1, video.size());
            assertEquals(List.of("1@101", "2@102", "3@103", "4@104"), snapshot(camera));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("1@103", "4@106"), snapshot(video));
            assertEquals(4, camera.size());
        }
    }

    private static final String TICK_RATE = "input_stream: \"input_video\"\n" +
        "input_stream: \"input_camera\"\n" +
        "output_stream: \"output_video\"\n" +
        "output_stream: \"output_camera\"\n" +
        "node {\n" +
        "  calculator: \"PacketClonerCalculator\"\n" +
        "  input_stream: \"input_camera\"\n" +
        "  input_stream: \"input_video\"\n" +
        "  input_stream: \"input_video\"\n" +
        "  output_stream: \"output_camera\"\n" +
        "  output_stream: \"output_video\"\n" +
        "  input_stream_handler {\n" +
        "    input_stream_handler: \"TimestampAlignInputStreamHandler\"\n" +
        "    options: {\n" +
        "      [mediapipe.TimestampAlignInputStreamHandlerOptions.ext]: {\n" +
        "        timestamp_base_tag_index: \":0\"  # input_camera\n" +
        "      }\n" +
        "    }\n" +
        "  }\n" +
        "}\n";

    // timestamp_align_input_stream_handler_test.cc, TEST(TimestampAlignInputStreamHandlerTest, TickRate)
    @Test
    @Timeout(20)
    void tickRate() throws Exception
    {
        try (Graph graph = new Graph(GraphConfigText.parse(TICK_RATE, "tick_rate.pbtxt")))
        {
            final List<String> video = observe(graph, "output_video");
            final List<String> camera = observe(graph, "output_camera");
            graph.start();
            graph.addPacket("input_video", 0, 0);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(video), "the base stream has seen no packet");
            assertEquals(List.of(), snapshot(camera));
            graph.addPacket("input_camera", 0, 100_000_000);
            graph.waitUntilIdle();
            assertEquals(List.of("0@100000000"), snapshot(video));
            assertEquals(List.of("0@100000000"), snapshot(camera));
            graph.addPacket("input_video", 1, 500_000);
            graph.waitUntilIdle();
            assertEquals(1, video.size());
            assertEquals(1, camera.size());
            graph.addPacket("input_video", 2, 1_000_000);
            graph.addPacket("input_camera", 1, 101_000_000);
            graph.waitUntilIdle();
            assertEquals(List.of("0@100000000", "1@100500000", "2@101000000"), snapshot(video));
            assertEquals(List.of("0@100000000", "0@100500000", "1@101000000"), snapshot(camera));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(3, video.size());
            assertEquals(3, camera.size());
        }
    }

    @Test
    void aBaseNamingNoInputIsFoundAtValidation()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfigText.parse(
            INITIALIZATION.replace("timestamp_base_tag_index: \"CAMERA\"", "timestamp_base_tag_index: \"AUDIO\""),
            "bad.pbtxt")).close());
        assertTrue(ex.getMessage().contains("timestamp_base_tag_index 'AUDIO'") &&
            ex.getMessage().contains("[VIDEO:0, CAMERA:0]"), ex.getMessage());
        final GraphConfigException missing = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            INITIALIZATION.replace("timestamp_base_tag_index: \"CAMERA\"", ""), "missing.pbtxt"));
        assertTrue(missing.getMessage().contains("timestamp_base_tag_index"), missing.getMessage());
    }
}
