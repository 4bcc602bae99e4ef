package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.calculators.GateCalculator;
import dev.framewire.core.calculators.PassThroughCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/mux_input_stream_handler_test.cc}, through
 * a running graph. MediaPipe's MuxCalculator and RoundRobinDemuxCalculator are written here as test
 * calculators; its GateCalculator is Framewire's.
 */
class MuxInputStreamHandlerTest
{
    /** MediaPipe's MuxCalculator: passes the data input the SELECT input (the last one) names. */
    private static Calculator mux()
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final int select = (int)ctx.input(ctx.inputCount() - 1).getLong();
                final Input in = ctx.input(select);
                if (!in.isEmpty())
                {
                    ctx.output(0).add(in.value(), ctx.inputTimestamp());
                }
            }
        };
    }

    /** MediaPipe's RoundRobinDemuxCalculator: packet i goes to output i mod n, its index to SELECT (the last). */
    private static Calculator roundRobinDemux()
    {
        return new Calculator()
        {
            private int next;

            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final int outputs = ctx.outputCount() - 1;
                ctx.output(next).add(ctx.input(0).value(), ctx.inputTimestamp());
                ctx.output(outputs).addLong(next, ctx.inputTimestamp());
                next = (next + 1) % outputs;
            }
        };
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, AtomicAccessToControlAndDataStreams)
    @Test
    @Timeout(60)
    void atomicAccessToControlAndDataStreams() throws Exception
    {
        final GraphConfig.Builder b = GraphConfig.builder().inputStream("input").outputStream("output")
            .node("demux", n -> n.calculator(MuxInputStreamHandlerTest::roundRobinDemux).inputStream("input")
                .outputStream("OUTPUT:0:input0", "OUTPUT:1:input1", "OUTPUT:2:input2", "OUTPUT:3:input3",
                    "OUTPUT:4:input4", "SELECT:select"));
        for (int i = 0; i < 5; i++)
        {
            final int k = i;
            b.node("pass" + k, n -> n.calculator(PassThroughCalculator.class).inputStream("input" + k)
                .outputStream("output" + k));
        }
        b.node("mux", n -> n.calculator(MuxInputStreamHandlerTest::mux).inputStream("INPUT:0:output0",
            "INPUT:1:output1", "INPUT:2:output2", "INPUT:3:output3", "INPUT:4:output4", "SELECT:select")
            .outputStream("OUTPUT:output").inputPolicy(InputPolicy.mux()));
        try (Graph graph = new Graph(b.build()))
        {
            final List<String> out = observe(graph, "output");
            graph.start();
            final List<String> expected = new ArrayList<>();
            for (int i = 0; i < 2000; i++)
            {
                graph.addPacket("input", i, i);
                expected.add(i + "@" + i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(expected, snapshot(out));
        }
    }

    private static GraphConfig gateAndMux()
    {
        final GraphConfig.Builder b = GraphConfig.builder()
            .inputStream("input0", "input1", "input2", "select", "allow0", "allow1", "allow2")
            .outputStream("output");
        for (int i = 0; i < 3; i++)
        {
            final int k = i;
            b.node("gate" + k, n -> n.calculator(GateCalculator.class).inputStream("ALLOW:allow" + k, "input" + k)
                .outputStream("output" + k));
        }
        return b.node("mux", n -> n.calculator(MuxInputStreamHandlerTest::mux)
            .inputStream("INPUT:0:output0", "INPUT:1:output1", "INPUT:2:output2", "SELECT:select")
            .outputStream("OUTPUT:output").inputPolicy(InputPolicy.mux())).build();
    }

    /**
     * MediaPipe's SendInput: one packet on every input at {@code at}, then WaitUntilIdle; a step is
     * {input0, input1, input2, select, allow0, allow1, allow2} (allow as 0 or 1).
     */
    private static void send(final Graph graph, final int[] step, final long at) throws InterruptedException
    {
        for (int i = 0; i < 3; i++)
        {
            graph.addPacket("input" + i, step[i], at);
        }
        graph.addPacket("select", (long)step[3], at);
        for (int i = 0; i < 3; i++)
        {
            graph.addPacket("allow" + i, step[4 + i] == 1, at);
        }
        graph.waitUntilIdle();
    }

    /** Sends step i at timestamp i + 1, checking the output after each against {@code expected}. */
    private static void run(final int[][] steps, final List<List<String>> expected) throws Exception
    {
        try (Graph graph = new Graph(gateAndMux()))
        {
            final List<String> out = observe(graph, "output");
            graph.start();
            for (int i = 0; i < steps.length; i++)
            {
                send(graph, steps[i], i + 1);
                assertEquals(expected.get(i), snapshot(out), "after step " + (i + 1));
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(expected.get(steps.length - 1), snapshot(out), "after the close");
        }
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, BasicMuxing)
    @Test
    @Timeout(20)
    void basicMuxing() throws Exception
    {
        run(new int[][]{{1000, 900, 800, 0, 1, 0, 0}, {1000, 900, 800, 1, 0, 1, 0}, {1000, 900, 800, 2, 0, 0, 1}},
            List.of(List.of("1000@1"), List.of("1000@1", "900@2"), List.of("1000@1", "900@2", "800@3")));
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, MuxingNonEmptyInputs)
    @Test
    @Timeout(20)
    void muxingNonEmptyInputs() throws Exception
    {
        run(new int[][]{{1000, 900, 800, 0, 1, 1, 1}, {1000, 900, 800, 1, 1, 1, 1}, {1000, 900, 800, 2, 1, 1, 1}},
            List.of(List.of("1000@1"), List.of("1000@1", "900@2"), List.of("1000@1", "900@2", "800@3")));
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, MuxingAllTimestampBoundUpdates)
    @Test
    @Timeout(20)
    void muxingAllTimestampBoundUpdates() throws Exception
    {
        run(new int[][]{{1000, 900, 800, 0, 0, 0, 0}, {1000, 900, 800, 1, 0, 0, 0}, {1000, 900, 800, 2, 0, 0, 0}},
            List.of(List.of(), List.of(), List.of()));
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, MuxingSlectedTimestampBoundUpdates)
    @Test
    @Timeout(20)
    void muxingSelectedTimestampBoundUpdates() throws Exception
    {
        run(new int[][]{{1000, 900, 800, 0, 0, 1, 1}, {1000, 900, 800, 1, 1, 0, 1}, {1000, 900, 800, 2, 1, 1, 0}},
            List.of(List.of(), List.of(), List.of()));
    }

    // mux_input_stream_handler_test.cc, TEST(MuxInputStreamHandlerTest, MuxingSometimesTimestampBoundUpdates)
    @Test
    @Timeout(20)
    void muxingSometimesTimestampBoundUpdates() throws Exception
    {
        run(new int[][]{{1000, 900, 800, 0, 0, 0, 0}, {1000, 900, 800, 1, 0, 1, 0}, {1000, 900, 800, 2, 1, 1, 0},
                {1000, 900, 800, 2, 1, 1, 1}, {700, 600, 500, 0, 1, 0, 0}},
            List.of(List.of(), List.of("900@2"), List.of("900@2"), List.of("900@2", "800@4"),
                List.of("900@2", "800@4", "700@5")));
    }

    /** MediaPipe's MakePairCalculator, recorded: the select value and the mux output, or - when empty. */
    private static Calculator pairRecorder(final List<String> pairs)
    {
        return ctx -> pairs.add(ctx.input(0).getLong() + "@" + ctx.input(0).timestamp() + " " +
            (ctx.input(1).isEmpty() ? "-" : String.valueOf(ctx.input(1).value())) + "@" + ctx.input(1).timestamp());
    }

    // mux_input_stream_handler_test.cc,
    // TEST(MuxInputStreamHandlerTest, TimestampBoundUpdateWhenControlPacketEarlierThanDataPacket)
    @Test
    @Timeout(20)
    void timestampBoundUpdateWhenControlPacketEarlierThanDataPacket() throws Exception
    {
        final List<String> pairs = Conformance.syncList();
        try (Graph graph = new Graph(GraphConfig.builder().inputStream("input0", "input1", "select")
            .node("mux", n -> n.calculator(MuxInputStreamHandlerTest::mux)
                .inputStream("INPUT:0:input0", "INPUT:1:input1", "SELECT:select").outputStream("OUTPUT:output")
                .inputPolicy(InputPolicy.mux()))
            .node("pair", n -> n.calculator(() -> pairRecorder(pairs)).inputStream("select", "output"))
            .build()))
        {
            graph.start();
            graph.addPacket("select", 0L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(pairs));
            graph.addPacket("input0", 1000, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("0@1 -@1"), snapshot(pairs), "a later data packet settles the control timestamp");
            graph.addPacket("input1", 900, 1);
            graph.addPacket("input1", 800, 4);
            graph.waitUntilIdle();
            assertEquals(List.of("0@1 -@1"), snapshot(pairs));
            graph.addPacket("select", 0L, 2);
            graph.waitUntilIdle();
            assertEquals(List.of("0@1 -@1", "0@2 1000@2"), snapshot(pairs));
            graph.addPacket("select", 1L, 3);
            graph.waitUntilIdle();
            assertEquals(List.of("0@1 -@1", "0@2 1000@2", "1@3 -@3"), snapshot(pairs));
            graph.addPacket("select", 1L, 4);
            graph.waitUntilIdle();
            assertEquals(List.of("0@1 -@1", "0@2 1000@2", "1@3 -@3", "1@4 800@4"), snapshot(pairs));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /** MediaPipe's DemuxUntimedCalculator: INPUT to OUTPUT:select, no bound on the others (no offset). */
    private static Calculator demuxUntimed()
    {
        return ctx ->
        {
            final int select = (int)ctx.input("SELECT").getLong();
            final Input in = ctx.input("INPUT");
            if (!in.isEmpty())
            {
                ctx.output(select).addLong(in.getLong(), ctx.inputTimestamp());
            }
        };
    }

    /** MediaPipe's DoubleIntCalculator / SquareIntCalculator: an int function at the input timestamp. */
    private static Calculator intFunction(final boolean square)
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final long v = ctx.input(0).getLong();
                ctx.output(0).addLong(square ? v * v : 2 * v, ctx.inputTimestamp());
            }
        };
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, IfThenElse2): an if-then-else graph whose
    // branches carry no bounds; the mux handler waits only for the branch SELECT names.
    @Test
    @Timeout(20)
    void calculatorGraphIfThenElse2() throws Exception
    {
        final GraphConfig config = GraphConfig.builder().inputStream("in", "select").outputStream("out")
            .node("demux", n -> n.calculator(MuxInputStreamHandlerTest::demuxUntimed)
                .inputStream("INPUT:in", "SELECT:select").outputStream("OUTPUT:0:left", "OUTPUT:1:right"))
            .node("pass1", n -> n.calculator(PassThroughCalculator.class).inputStream("left").outputStream("left1"))
            .node("double", n -> n.calculator(() -> intFunction(false)).inputStream("left1").outputStream("left2"))
            .node("pass2", n -> n.calculator(PassThroughCalculator.class).inputStream("left2").outputStream("left3"))
            .node("square", n -> n.calculator(() -> intFunction(true)).inputStream("right").outputStream("right1"))
            .node("mux", n -> n.calculator(MuxInputStreamHandlerTest::mux)
                .inputStream("INPUT:0:left3", "INPUT:1:right1", "SELECT:select").outputStream("OUTPUT:out")
                .inputPolicy(InputPolicy.mux()))
            .build();
        final int applyDouble = 0;
        final int applySquare = 1;
        final int[][] batches = {{1, applyDouble}, {2, applySquare}, {3, applyDouble, 4, applyDouble},
            {5, applySquare}, {6, applyDouble}, {7, applySquare, 8, applySquare, 9, applySquare, 10, applyDouble}};
        final List<List<Long>> expected = List.of(List.of(2L), List.of(2L, 4L), List.of(2L, 4L, 6L, 8L),
            List.of(2L, 4L, 6L, 8L, 25L), List.of(2L, 4L, 6L, 8L, 25L, 12L),
            List.of(2L, 4L, 6L, 8L, 25L, 12L, 49L, 64L, 81L, 20L));
        try (Graph graph = new Graph(config))
        {
            final List<Long> out = Conformance.syncList();
            graph.observe("out", p -> out.add((Long)p.value()));
            graph.start();
            long timestamp = 0;
            for (int b = 0; b < batches.length; b++)
            {
                for (int k = 0; k < batches[b].length; k += 2)
                {
                    timestamp++;
                    graph.addPacket("in", batches[b][k], timestamp);
                    graph.addPacket("select", (long)batches[b][k + 1], timestamp);
                }
                graph.waitUntilIdle();
                assertEquals(expected.get(b), snapshot(out), "after batch " + (b + 1));
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(10, out.size());
        }
    }

    @Test
    @Timeout(20)
    void aSelectOutOfRangeFailsTheRunNamingTheInput() throws Exception
    {
        try (Graph graph = new Graph(gateAndMux()))
        {
            graph.start();
            graph.addPacket("select", 7L, 1);
            graph.closeAllInputs();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.getMessage().contains("'select'") && ex.getMessage().contains("valid are 0..2"),
                ex.getMessage());
        }
    }

    @Test
    void readFromTextConfigAndCheckedAtValidation() throws Exception
    {
        final GraphConfig config = GraphConfigText.parse("input_stream: \"a\"\ninput_stream: \"s\"\n" +
            "node { calculator: \"PassThroughCalculator\" input_stream: \"INPUT:0:a\" input_stream: \"SELECT:s\" " +
            "output_stream: \"x\" output_stream: \"y\"\n" +
            "  input_stream_handler { input_stream_handler: \"MuxInputStreamHandler\" } }\n", "mux.pbtxt");
        assertEquals(InputPolicy.mux(), config.nodes().get(0).inputPolicy());
        final Exception ex = assertThrows(Exception.class, () -> new Graph(GraphConfig.builder().inputStream("a")
            .node("m", n -> n.calculator(PassThroughCalculator.class).inputStream("a").outputStream("b")
                .inputPolicy(InputPolicy.mux())).build()).close());
        assertTrue(ex.getMessage().contains("'m'") && ex.getMessage().contains("needs a SELECT input"), ex.getMessage());
    }
}
