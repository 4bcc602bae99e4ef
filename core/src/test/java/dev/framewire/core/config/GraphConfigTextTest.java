package dev.framewire.core.config;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.Scheduling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphConfigTextTest
{
    private static final String LIMITED = String.join("\n",
        "# a flow-limited pass-through, MediaPipe style",
        "input_stream: \"in\"",
        "output_stream: \"out\"",
        "max_queue_size: 8",
        "executor { name: \"slow\" num_threads: 1 idle_strategy: PARK }",
        "node {",
        "  calculator: \"FlowLimiterCalculator\"",
        "  input_stream: \"in\"",
        "  input_stream: \"FINISHED:out\"",
        "  input_stream_info { tag_index: \"FINISHED\" back_edge: true }",
        "  output_stream: \"limited\"",
        "  option { name: \"max_in_flight\" int_value: 2 }",
        "}",
        "node {",
        "  name: \"work\"",
        "  calculator: \"PassThroughCalculator\"",
        "  executor: \"slow\"",
        "  input_stream: \"limited\"",
        "  output_stream: \"out\"",
        "}",
        "");

    @Test
    @Timeout(30)
    void parsesAndRunsAMediaPipeStyleGraph() throws Exception
    {
        final GraphConfig config = GraphConfigText.parse(LIMITED, "limited.pbtxt");
        assertEquals(2, config.nodes().size());
        assertEquals("flowlimiter_0", config.nodes().get(0).name());
        assertEquals(2L, config.nodes().get(0).options().get("max_in_flight"));
        assertEquals(List.of("FINISHED"), List.copyOf(config.nodes().get(0).backEdges()));
        assertEquals(8, config.maxQueueSize());
        final AtomicLong seen = new AtomicLong();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> seen.incrementAndGet());
            graph.start();
            for (long ts = 0; ts < 50; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(50, seen.get() + graph.dropCount("flowlimiter_0"));
        }
    }

    @Test
    void unsupportedFieldNamesFileLineAndValidFields()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            "input_stream: \"in\"\nnode {\n  calculator: \"PassThroughCalculator\"\n  input_stream_handlr: {}\n}\n",
            "bad.pbtxt"));
        assertTrue(ex.getMessage().contains("bad.pbtxt:4:"), ex.getMessage());
        assertTrue(ex.getMessage().contains("input_stream_handlr"), ex.getMessage());
        assertTrue(ex.getMessage().contains("input_stream_handler"), ex.getMessage());
    }

    @Test
    void syntaxErrorNamesFileAndLine()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> GraphConfigText.parse("input_stream: \"in\"\nnode { calculator: \"X\"\n", "cut.pbtxt"));
        assertTrue(ex.getMessage().startsWith("invalid graph config: cut.pbtxt:"), ex.getMessage());
    }

    @Test
    void unknownCalculatorAndOptionNameTheirLines()
    {
        final String text = String.join("\n",
            "input_stream: \"in\"",
            "node {",
            "  calculator: \"NoSuchCalculator\"",
            "  input_stream: \"in\"",
            "}",
            "node {",
            "  name: \"limiter\"",
            "  calculator: \"FlowLimiterCalculator\"",
            "  input_stream: \"in\"",
            "  input_stream: \"FINISHED:in\"",
            "  output_stream: \"o\"",
            "  option { name: \"max_in_flite\" int_value: 2 }",
            "  option { name: \"max_in_queue\" string_value: \"two\" }",
            "}");
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> GraphConfigText.parse(text, "g.pbtxt"));
        assertEquals(3, ex.errors().size(), ex.getMessage());
        assertTrue(ex.errors().get(0).startsWith("g.pbtxt:2:"), ex.errors().get(0));
        assertTrue(ex.errors().get(0).contains("unknown calculator 'NoSuchCalculator'") &&
            ex.errors().get(0).contains("PassThroughCalculator"), ex.errors().get(0));
        assertTrue(ex.errors().get(1).startsWith("g.pbtxt:12:") && ex.errors().get(1).contains("max_in_flight"),
            ex.errors().get(1));
        assertTrue(ex.errors().get(2).startsWith("g.pbtxt:13:") && ex.errors().get(2).contains("int_value"),
            ex.errors().get(2));
    }

    @Test
    void unknownInputStreamHandlerListsValidOnes()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            "input_stream: \"in\"\nnode { calculator: \"PassThroughCalculator\" input_stream: \"in\" output_stream: \"o\"" +
                " input_stream_handler { input_stream_handler: \"Nope\" } }", "h.pbtxt"));
        assertTrue(ex.getMessage().contains("ImmediateInputStreamHandler"), ex.getMessage());
    }

    @Test
    void negativeSpinBeforeParkUsIsRejectedNamingTheExecutor()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfigText.parse(
            "input_stream: \"in\"\nexecutor { name: \"cams\" num_threads: 1 spin_before_park_us: -1 }\n" +
                "node { calculator: \"PassThroughCalculator\" input_stream: \"in\" output_stream: \"o\" executor: \"cams\" }\n" +
                "output_stream: \"o\"", "s.pbtxt")).close());
        assertTrue(ex.getMessage().contains("executor 'cams' has spin_before_park_us -1; valid is 0 (park at once) or more"),
            ex.getMessage());
    }

    /** A fuzzing finding (seed finding_num_threads_past_int_range.pbtxt): it was a NumberFormatException. */
    @Test
    void threadPoolNumThreadsPastIntIsAConfigErrorNamingTheExecutor()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> GraphConfigText.parse(
            "input_stream: \"in\"\nexecutor { name: \"pool\" type: \"ThreadPoolExecutor\"\n" +
                "  options { [mediapipe.ThreadPoolExecutorOptions.ext] { num_threads: 55555555555555555555 } } }\n" +
                "node { calculator: \"PassThroughCalculator\" input_stream: \"in\" output_stream: \"o\" }", "t.pbtxt"));
        assertTrue(ex.getMessage().contains("executor 'pool': ThreadPoolExecutorOptions num_threads 55555555555555555555 " +
            "is out of range; valid is a thread count from 1 to 2147483647"), ex.getMessage());
    }

    @Test
    void builderToTextToBuilderGivesTheSameGraph()
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in", "tick")
            .outputStream("out")
            .maxQueueSize(-1)
            .streamQueueSize("mid", 5)
            .reportDeadlock(true)
            .failurePolicy(FailurePolicy.ISOLATE)
            .scheduleOrder(ScheduleOrder.COMPLETION_PRESSURE)
            .memoryBudget(64L << 20)
            .timeoutGuardMillis(5000)
            .inputSetsPerRun(8)
            .roomBatch(16)
            .executor("fast", ExecutorConfig.of(2, IdleKind.YIELD).pinnedTo(0, 1))
            .executor("quiet", ExecutorConfig.of(1, IdleKind.PARK).spinBeforeParkMicros(0))
            .executor("pool", ExecutorConfig.of(2, IdleKind.PARK).scheduling(Scheduling.STEALING))
            .node("gate", n -> n.calculator("GateCalculator").inputStream("in").outputStream("mid")
                .option("allow", false).executor("fast"))
            .node("clone", n -> n.calculator("PacketClonerCalculator").inputStream("mid", "TICK:tick")
                .outputStream("cloned").inputPolicy(InputPolicy.immediate()))
            .node("fix", n -> n.calculator("PassThroughCalculator").inputStream("cloned").outputStream("out")
                .inputPolicy(InputPolicy.fixedSize(4, 2, true)))
            .build();
        final String text = GraphConfigText.write(config);
        final GraphConfig again = GraphConfigText.parse(text, "round-trip");
        assertEquals(text, GraphConfigText.write(again));
        assertEquals(InputPolicy.fixedSize(4, 2, true), again.nodes().get(2).inputPolicy());
        assertEquals(config.executors(), again.executors());
        assertTrue(text.contains("input_sets_per_run: 8"), text);
        assertTrue(text.contains("spin_before_park_us: 0"), text);
        assertEquals(0, again.executors().get("quiet").spinBeforeParkMicros());
        assertTrue(text.contains("scheduling: STEALING"), text);
        assertEquals(Scheduling.STEALING, again.executors().get("pool").scheduling());
        assertEquals(Scheduling.PINNED, again.executors().get("quiet").scheduling());
        assertEquals(8, again.inputSetsPerRun());
        assertTrue(text.contains("room_batch: 16"), text);
        assertEquals(16, again.roomBatch());
        new Graph(again).close(); // still a valid graph
    }
}
