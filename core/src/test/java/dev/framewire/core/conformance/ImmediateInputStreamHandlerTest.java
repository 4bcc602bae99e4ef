package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
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
 * MediaPipe's {@code mediapipe/framework/stream_handler/immediate_input_stream_handler_test.cc}.
 * MediaPipe drives the handler by hand (add packets, move bounds, ask for an invocation); here the
 * same inputs go to a node of a running graph, three graph inputs {@code input_a}, {@code input_b},
 * {@code input_c} into one immediate node, and each call it gets is recorded. Where MediaPipe puts
 * several packets and bounds in before asking, the graph is paused while they go in, so the node
 * sees them all at once, as MediaPipe's handler does.
 *
 * <p>A call is recorded as {@code "ts a=v@t b=v@t c=v@t"}: the input timestamp, then per input its
 * packet's value or {@code -} when empty, and the timestamp it reports (the settled one when empty).
 * {@code close} is recorded as {@code "close"}. MediaPipe's node calls {@code Process} only for a
 * set with a packet unless it processes timestamp bounds; its handler's empty invocations are, in a
 * graph, bound moves the node does not see.
 */
class ImmediateInputStreamHandlerTest
{
    private static String show(final Input input)
    {
        return (input.isEmpty() ? "-" : String.valueOf(input.value())) + "@" + Timestamp.toString(input.timestamp());
    }

    private static Calculator recorder(final List<String> calls, final boolean processBounds)
    {
        return new Calculator()
        {
            @Override
            public void contract(final Contract contract)
            {
                contract.processTimestampBounds(processBounds);
            }

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

    private static Graph graph(final List<String> calls, final boolean processBounds)
    {
        return new Graph(GraphConfig.builder()
            .inputStream("input_a", "input_b", "input_c")
            .node("node", n -> n.calculator(() -> recorder(calls, processBounds))
                .inputStream("input_a", "input_b", "input_c").inputPolicy(InputPolicy.immediate()))
            .build());
    }

    /** Runs {@code step} with the graph paused, then lets the graph take it all in and settle. */
    private static void atOnce(final Graph graph, final Step step) throws Exception
    {
        graph.pause();
        step.run();
        graph.resume();
        graph.waitUntilIdle();
    }

    @FunctionalInterface
    private interface Step
    {
        void run() throws Exception;
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, EmptyPacketsNotReady)
    @Test
    @Timeout(20)
    void emptyPacketsNotReady() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(calls));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, AnyPacketsReady)
    @Test
    @Timeout(20)
    void anyPacketsReady() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            graph.addPacket("input_a", "packet 1", 10);
            graph.waitUntilIdle();
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted"), snapshot(calls));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, StreamDoneReady)
    @Test
    @Timeout(20)
    void streamDoneReady() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            graph.addPacket("input_a", "packet 1", 10);
            graph.waitUntilIdle();
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted"), snapshot(calls));
            // an input becoming done calls the node once more, every input empty, at the lowest bound,
            // which is PreStream while 'input_c' has seen nothing (MediaPipe's stream_became_done)
            graph.closeInput("input_b");
            graph.waitUntilIdle();
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted",
                "PreStream a=-@10 b=-@Max c=-@Unstarted"), snapshot(calls));
            graph.setInputBound("input_a", 200);
            graph.waitUntilIdle();
            assertEquals(2, snapshot(calls).size(), "a bound alone is no call");
            graph.closeInput("input_a");
            graph.waitUntilIdle();
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted",
                "PreStream a=-@10 b=-@Max c=-@Unstarted",
                "PreStream a=-@Max b=-@Max c=-@Unstarted"), snapshot(calls));
            graph.closeInput("input_c");
            graph.waitUntilDone();
            assertEquals("close", snapshot(calls).get(3));
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, ReadyForCloseAfterTimestampMax)
    @Test
    @Timeout(20)
    void readyForCloseAfterTimestampMax() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            graph.addPacket("input_a", "packet 1", 10);
            graph.waitUntilIdle();
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted"), snapshot(calls));
            final long afterMax = Timestamp.nextAllowedInStream(Timestamp.MAX);
            // all three at once, as MediaPipe's case sets them before the handler looks: one at a
            // time, each input becoming done would be a call with every input empty (see ImmediateSync)
            atOnce(graph, () ->
            {
                graph.setInputBound("input_a", afterMax);
                graph.setInputBound("input_b", afterMax);
                graph.setInputBound("input_c", afterMax);
            });
            assertEquals(List.of("10 a=packet 1@10 b=-@Unstarted c=-@Unstarted", "close"), snapshot(calls),
                "nothing can come after Max on any input: the node closes without the inputs closing");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, ReadyForClose)
    @Test
    @Timeout(20)
    void readyForClose() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            atOnce(graph, () ->
            {
                graph.addPacket("input_b", "packet 1", 1);
                graph.closeInput("input_b");
            });
            assertEquals(List.of("1 a=-@Unstarted b=packet 1@1 c=-@Unstarted"), snapshot(calls));
            atOnce(graph, () ->
            {
                graph.closeInput("input_a");
                graph.closeInput("input_c");
            });
            assertEquals(List.of("1 a=-@Unstarted b=packet 1@1 c=-@Unstarted", "close"), snapshot(calls));
            graph.waitUntilDone();
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, ProcessTimestampBounds)
    @Test
    @Timeout(20)
    void processTimestampBounds() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, true))
        {
            graph.start();
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(calls));
            atOnce(graph, () ->
            {
                graph.addPacket("input_b", "packet 1", 1);
                graph.closeInput("input_b");
            });
            assertEquals(List.of(
                "1 a=-@Unstarted b=packet 1@1 c=-@Unstarted",
                "Max a=-@Unstarted b=-@Max c=-@Unstarted"), snapshot(calls));
            atOnce(graph, () ->
            {
                graph.closeInput("input_a");
                graph.closeInput("input_c");
            });
            assertEquals(List.of(
                "1 a=-@Unstarted b=packet 1@1 c=-@Unstarted",
                "Max a=-@Unstarted b=-@Max c=-@Unstarted",
                "Max a=-@Max b=-@Max c=-@Max",
                "close"), snapshot(calls));
            graph.waitUntilDone();
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, ProcessTimestampBoundsNoOpScheduleInvocations)
    @Test
    @Timeout(20)
    void processTimestampBoundsNoOpScheduleInvocations() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, true))
        {
            graph.start();
            graph.addPacket("input_b", "packet 1", 1);
            graph.waitUntilIdle();
            assertEquals(List.of("1 a=-@Unstarted b=packet 1@1 c=-@Unstarted"), snapshot(calls));
            atOnce(graph, () ->
            {
                graph.closeInput("input_a");
                graph.closeInput("input_c");
            });
            assertEquals(List.of(
                "1 a=-@Unstarted b=packet 1@1 c=-@Unstarted",
                "Max a=-@Max b=-@1 c=-@Max"), snapshot(calls));
            graph.closeInput("input_b");
            graph.waitUntilDone();
            assertEquals(List.of(
                "1 a=-@Unstarted b=packet 1@1 c=-@Unstarted",
                "Max a=-@Max b=-@1 c=-@Max",
                "Max a=-@Max b=-@Max c=-@Max",
                "close"), snapshot(calls));
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, VerifyPacketsReleaseOrder)
    @Test
    @Timeout(20)
    void verifyPacketsReleaseOrder() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, true))
        {
            graph.start();
            atOnce(graph, () ->
            {
                graph.addPacket("input_a", "packet a", 1);
                graph.addPacket("input_b", "packet b", 2);
                graph.addPacket("input_c", "packet c", 3);
            });
            // MediaPipe asks for the first call before 5 arrives; the graph may make all three here
            final List<String> first = snapshot(calls);
            assertEquals("1 a=packet a@1 b=-@1 c=-@2", first.get(0));
            atOnce(graph, () ->
            {
                graph.addPacket("input_a", "packet a", 5);
                graph.addPacket("input_b", "packet b", 5);
                graph.addPacket("input_c", "packet c", 5);
            });
            final List<String> all = snapshot(calls);
            assertEquals(List.of(
                "1 a=packet a@1 b=-@1 c=-@2",
                "2 a=-@" + (first.size() == 1 ? 4 : 1) + " b=packet b@2 c=-@2",
                "3 a=-@" + (first.size() == 1 ? 4 : 1) + " b=-@" + (first.size() == 1 ? 4 : 2) + " c=packet c@3",
                "5 a=packet a@5 b=packet b@5 c=packet c@5"), all.subList(0, 4));
            assertEquals(4, all.size());
            atOnce(graph, graph::closeAllInputs);
            graph.waitUntilDone();
            assertEquals(List.of("Max a=-@Max b=-@Max c=-@Max", "close"), snapshot(calls).subList(4, 6));
        }
    }

    // immediate_input_stream_handler_test.cc, TEST_F(ImmediateInputStreamHandlerTest, SimulateProcessNode)
    // MediaPipe takes one invocation, then adds c@40, b@30 and closes b before the next; a running
    // node would take 30 and 40 at once, so everything goes in while the graph is paused.
    @Test
    @Timeout(20)
    void simulateProcessNode() throws Exception
    {
        final List<String> calls = syncList();
        try (Graph graph = graph(calls, false))
        {
            graph.start();
            atOnce(graph, () ->
            {
                graph.addPacket("input_a", "packet 1", 10);
                graph.addPacket("input_a", "packet 2", 30);
                graph.addPacket("input_a", "packet 3", 40);
                graph.addPacket("input_b", "packet 1", 10);
                graph.addPacket("input_c", "packet 1", 10);
                graph.addPacket("input_c", "packet 2", 30);
                graph.addPacket("input_c", "packet 3", 40);
                graph.addPacket("input_b", "packet 2", 30);
                graph.closeInput("input_b");
            });
            assertEquals(List.of(
                "10 a=packet 1@10 b=packet 1@10 c=packet 1@10",
                "30 a=packet 2@30 b=packet 2@30 c=packet 2@30",
                "40 a=packet 3@40 b=-@Max c=packet 3@40"), snapshot(calls));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
