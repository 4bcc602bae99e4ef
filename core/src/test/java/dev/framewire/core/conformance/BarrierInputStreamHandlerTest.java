package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/barrier_input_stream_handler_test.cc}: the
 * handler is driven through a running graph, three graph inputs into one barrier node whose calls
 * are recorded as {@code "ts a=v@t b=v@t c=v@t"}. One difference kept on purpose: MediaPipe's barrier
 * turns timestamp checks off, so its test queues packets at 10, 30, 20 and twice at 0 on one input;
 * Framewire's queues keep every stream ascending, so the ported case uses ascending timestamps.
 */
class BarrierInputStreamHandlerTest
{
    private static String show(final Input input)
    {
        return (input.isEmpty() ? "-" : String.valueOf(input.value())) + "@" + Timestamp.toString(input.timestamp());
    }

    private static Calculator recorder(final List<String> calls)
    {
        return new Calculator()
        {
            @Override
            public void process(final CalculatorContext ctx)
            {
                calls.add(Timestamp.toString(ctx.inputTimestamp()) + " a=" + show(ctx.input(0)) + " b=" +
                    show(ctx.input(1)) + " c=" + show(ctx.input(2)));
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                calls.add("close");
            }
        };
    }

    // barrier_input_stream_handler_test.cc, TEST_F(BarrierInputStreamHandlerTest, SimulateProcessNode)
    @Test
    @Timeout(20)
    void simulateProcessNode() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("input_a", "input_b", "input_c")
            .node("node", n -> n.calculator(() -> recorder(calls))
                .inputStream("input_a", "input_b", "input_c").inputPolicy(InputPolicy.barrier()))
            .build()))
        {
            graph.start();
            graph.addPacket("input_a", "packet 1", 10);
            graph.addPacket("input_a", "packet 2", 20);
            graph.addPacket("input_a", "packet 3", 30);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(calls), "input_b and input_c hold nothing yet");
            graph.addPacket("input_b", "packet 1", 0);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(calls), "input_c holds nothing yet");
            graph.addPacket("input_c", "packet 1", 0);
            graph.addPacket("input_c", "packet 2", 1);
            graph.waitUntilIdle();
            assertEquals(List.of("0 a=packet 1@10 b=packet 1@0 c=packet 1@0"), snapshot(calls),
                "every input holds a packet: the heads go, whatever their timestamps, at the lowest");
            graph.addPacket("input_c", "packet 3", 2);
            graph.waitUntilIdle();
            assertEquals(1, calls.size(), "input_b is empty again: " + snapshot(calls));
            graph.addPacket("input_b", "packet 2", 1);
            graph.closeInput("input_b");
            graph.waitUntilIdle();
            assertEquals(List.of("0 a=packet 1@10 b=packet 1@0 c=packet 1@0", "1 a=packet 2@20 b=packet 2@1 c=packet 2@1",
                "close"), snapshot(calls), "input_b done and empty: the node closes");
            assertEquals(2, graph.dropCount("node"), "packet 3 of input_a and input_c are dropped at the close");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    void readFromTextConfig() throws Exception
    {
        final GraphConfig config = GraphConfigText.parse("input_stream: \"a\"\ninput_stream: \"b\"\n" +
            "node { calculator: \"PassThroughCalculator\" input_stream: \"a\" input_stream: \"b\" " +
            "output_stream: \"x\" output_stream: \"y\"\n" +
            "  input_stream_handler { input_stream_handler: \"BarrierInputStreamHandler\" } }\n", "barrier.pbtxt");
        assertEquals(InputPolicy.barrier(), config.nodes().get(0).inputPolicy());
        assertEquals(InputPolicy.barrier(),
            GraphConfigText.parse(GraphConfigText.write(config), "written.pbtxt").nodes().get(0).inputPolicy());
    }
}
