package dev.framewire.core.conformance;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.calculators.PassThroughCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/default_input_stream_handler_test.cc}: the
 * default policy with and without {@code batch_size}.
 */
class DefaultInputStreamHandlerTest
{
    // default_input_stream_handler_test.cc, TEST(DefaultInputStreamHandlerTest, NoBatchingWorks)
    @Test
    @Timeout(20)
    void noBatchingWorks() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input0", "input1")
            .outputStream("output0", "output1")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("input0", "input1")
                .outputStream("output0", "output1").inputPolicy(InputPolicy.batch(1)))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> sink0 = observe(graph, "output0");
            final List<String> sink1 = observe(graph, "output1");
            graph.start();
            graph.addPacket("input0", 1L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sink0));
            assertEquals(List.of(), snapshot(sink1));
            graph.addPacket("input1", 2L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("1@1"), snapshot(sink0), "1 is settled on input1 by its packet at 2");
            assertEquals(List.of(), snapshot(sink1));
            graph.addPacket("input0", 2L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("1@1", "2@2"), snapshot(sink0));
            assertEquals(List.of("2@2"), snapshot(sink1));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    private static GraphConfig batching(final int batch)
    {
        return GraphConfig.builder()
            .inputStream("input0")
            .outputStream("output0")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("input0").outputStream("output0")
                .inputPolicy(InputPolicy.batch(batch)))
            .build();
    }

    // default_input_stream_handler_test.cc, TEST(DefaultInputStreamHandlerTest, Batches)
    @Test
    @Timeout(20)
    void batches() throws Exception
    {
        try (Graph graph = new Graph(batching(2)))
        {
            final List<String> sink = observe(graph, "output0");
            graph.start();
            graph.addPacket("input0", 1L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sink));
            graph.addPacket("input0", 2L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("1@1", "2@2"), snapshot(sink));
            graph.addPacket("input0", 3L, 3);
            graph.waitUntilIdle();
            assertEquals(2, snapshot(sink).size());
            graph.addPacket("input0", 4L, 4);
            graph.waitUntilIdle();
            assertEquals(List.of("1@1", "2@2", "3@3", "4@4"), snapshot(sink));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // default_input_stream_handler_test.cc, TEST(DefaultInputStreamHandlerTest, BatchIsFlushedWhenClosing)
    @Test
    @Timeout(20)
    void batchIsFlushedWhenClosing() throws Exception
    {
        try (Graph graph = new Graph(batching(2)))
        {
            final List<String> sink = observe(graph, "output0");
            graph.start();
            graph.addPacket("input0", 1L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sink));
            graph.addPacket("input0", 2L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("1@1", "2@2"), snapshot(sink));
            graph.addPacket("input0", 3L, 3);
            graph.waitUntilIdle();
            assertEquals(2, snapshot(sink).size());
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("1@1", "2@2", "3@3"), snapshot(sink));
        }
    }

    // default_input_stream_handler_test.cc, TEST(DefaultInputStreamHandlerTest, DoesntPropagateTimestampWhenBatching)
    @Test
    @Timeout(20)
    void doesntPropagateTimestampWhenBatching() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input0", "input1")
            .outputStream("output")
            .node("batch", n -> n.calculator(PassThroughCalculator.class).inputStream("input1")
                .outputStream("input1_batched").inputPolicy(InputPolicy.batch(3)))
            .node("join", n -> n.calculator(PassThroughCalculator.class).inputStream("input0", "input1_batched")
                .outputStream("output", "dummy"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> sink = observe(graph, "output");
            graph.start();
            graph.addPacket("input0", 0L, 0);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sink));
            graph.addPacket("input0", 1L, 1);
            graph.addPacket("input1", 1L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of("0@0"), snapshot(sink), "the batch's first timestamp, 1, bounds 'input1_batched'");
            graph.addPacket("input0", 2L, 2);
            graph.addPacket("input1", 2L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("0@0"), snapshot(sink), "still 1 while the batch fills");
            graph.addPacket("input0", 3L, 3);
            graph.addPacket("input1", 3L, 3);
            graph.waitUntilIdle();
            assertEquals(List.of("0@0", "1@1", "2@2", "3@3"), snapshot(sink));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(4, snapshot(sink).size());
        }
    }
}
