package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.snapshot;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static dev.framewire.core.policy.PolicyFixtures.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * PacketClonerCalculator (MediaPipe's packet_cloner_calculator_test): on every TICK, the latest
 * packet of each data input at the tick's timestamp. As in MediaPipe it uses the default policy
 * with bound-only processing unless the node config asks for another; the same payload is emitted
 * again and again by reference, and released when the cloner closes.
 *
 * <p>The options for the time before every data input has had a packet (MediaPipe's
 * packet_cloner_calculator.proto), set from text config: none (ticks clone what there is),
 * {@code output_only_when_all_inputs_received} (no packet, no bound) and
 * {@code output_packets_only_when_all_inputs_received} (no packet, but the bounds move).
 *
 * <p>As MediaPipe's test runs each case with and without the TICK tag, each case here runs with
 * the tick at every place it may be ({@link TickAt}): the same packets, timestamps and bounds
 * leave the cloner wherever the tick is.
 */
class PacketClonerTest
{
    /** Where the cloner's tick is among its inputs. */
    enum TickAt
    {
        TAGGED_FIRST,
        /** After the first data input: data input i still goes to output i. */
        TAGGED_BETWEEN,
        /** No TICK tag: MediaPipe's form where the last input is the tick. */
        UNTAGGED_LAST;

        /** The cloner's input streams: the data streams in order, and the tick where this puts it. */
        String[] inputs(final String tick, final String... data)
        {
            final List<String> inputs = new ArrayList<>(List.of(data));
            switch (this)
            {
                case TAGGED_FIRST -> inputs.add(0, "TICK:" + tick);
                case TAGGED_BETWEEN -> inputs.add(1, "TICK:" + tick);
                case UNTAGGED_LAST -> inputs.add(tick);
                default -> throw new AssertionError(this);
            }
            return inputs.toArray(new String[0]);
        }
    }

    private static GraphConfig cloner(final TickAt tickAt, final InputPolicy policy)
    {
        return GraphConfig.builder()
            .inputStream("in1", "in2", "tick")
            .node("cloner", n ->
            {
                n.calculator("PacketClonerCalculator").inputStream(tickAt.inputs("tick", "in1", "in2"))
                    .outputStream("out1", "out2");
                if (policy != null)
                {
                    n.inputPolicy(policy);
                }
            })
            .outputStream("out1", "out2")
            .build();
    }

    private static void observe(final Graph graph, final List<String> out1, final List<String> out2)
    {
        graph.observe("out1", p -> out1.add(valueOf(p.value()) + "@" + p.timestamp()));
        graph.observe("out2", p -> out2.add(valueOf(p.value()) + "@" + p.timestamp()));
    }

    /**
     * MediaPipe's ClonesFiveInputs (with two): under the default policy a tick waits until the data
     * inputs are settled at its timestamp, so ticks beyond the data's bound produce nothing yet.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TickAt.class)
    @Timeout(20)
    void ticksWaitForTheDataToSettleUnderTheDefaultPolicy(final TickAt tickAt) throws Exception
    {
        final List<String> out1 = syncList();
        final List<String> out2 = syncList();
        try (Graph graph = new Graph(cloner(tickAt, null)))
        {
            observe(graph, out1, out2);
            graph.start();
            addFrame(graph, "in1", 10, 10000);
            addFrame(graph, "in2", 20, 10000);
            graph.addPacket("tick", 1000L, 10000);
            graph.addPacket("tick", 1001L, 10001);
            graph.addPacket("tick", 1002L, 10002);
            graph.waitUntilIdle();
            assertEquals(List.of("10@10000"), snapshot(out1), "10001 and 10002 are not settled on the data inputs");
            assertEquals(List.of("20@10000"), snapshot(out2));

            addFrame(graph, "in1", 100, 20000);
            addFrame(graph, "in2", 200, 20000);
            graph.addPacket("tick", 2000L, 20000);
            graph.addPacket("tick", 2001L, 20001);
            graph.addPacket("tick", 2002L, 20002);
            graph.waitUntilIdle();
            assertEquals(List.of("10@10000", "10@10001", "10@10002", "100@20000"), snapshot(out1));
            assertEquals(List.of("20@10000", "20@10001", "20@10002", "200@20000"), snapshot(out2));

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("10@10000", "10@10001", "10@10002", "100@20000", "100@20001", "100@20002"),
                snapshot(out1), "closing the data inputs settles the last ticks");
        }
    }

    /** MediaPipe's ClonesSingleInputEarlierTimestamps: a newer data packet settles the ticks before it. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TickAt.class)
    @Timeout(20)
    void aNewerDataPacketSettlesTheTicksBeforeIt(final TickAt tickAt) throws Exception
    {
        final List<String> out1 = syncList();
        final List<String> out2 = syncList();
        try (Graph graph = new Graph(cloner(tickAt, null)))
        {
            observe(graph, out1, out2);
            graph.start();
            graph.setInputBound("in2", 20000);
            addFrame(graph, "in1", 1, 5000);
            graph.addPacket("tick", 1000L, 10000);
            graph.addPacket("tick", 1001L, 10001);
            graph.addPacket("tick", 1002L, 10002);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(out1), "the ticks wait for in1 to settle");
            addFrame(graph, "in1", 2, 15000);
            graph.waitUntilIdle();
            assertEquals(List.of("1@10000", "1@10001", "1@10002"), snapshot(out1));
            assertEquals(List.of(), snapshot(out2), "nothing ever arrived on in2");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /** MediaPipe's ClonesTwoInputsWithImmediateInputStreamHandler: past, current and future packets. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TickAt.class)
    @Timeout(20)
    void underTheImmediatePolicyATickClonesWhateverArrivedLast(final TickAt tickAt) throws Exception
    {
        final List<String> out1 = syncList();
        final List<String> out2 = syncList();
        try (Graph graph = new Graph(cloner(tickAt, InputPolicy.immediate())))
        {
            observe(graph, out1, out2);
            graph.start();
            graph.addPacket("tick", 0L, 0);             // nothing to clone yet
            graph.waitUntilIdle();
            addFrame(graph, "in1", 1, 10000);            // current packets
            addFrame(graph, "in2", 10, 10000);
            graph.addPacket("tick", 1000L, 10000);
            graph.waitUntilIdle();
            graph.addPacket("tick", 1500L, 15000);       // past packets
            graph.waitUntilIdle();
            addFrame(graph, "in1", 2, 10001);            // past packets
            addFrame(graph, "in2", 20, 10001);
            graph.addPacket("tick", 2000L, 20000);
            graph.waitUntilIdle();
            addFrame(graph, "in1", 3, 30000);            // future packets, in before the tick
            addFrame(graph, "in2", 30, 30000);
            graph.waitUntilIdle();
            graph.addPacket("tick", 3000L, 25000);
            graph.waitUntilIdle();
            addFrame(graph, "in1", 4, 38000);            // packets at different timestamps
            addFrame(graph, "in2", 40, 39000);
            graph.addPacket("tick", 4000L, 40000);
            graph.waitUntilIdle();
            assertEquals(List.of("1@10000", "1@15000", "2@20000", "3@25000", "4@40000"), snapshot(out1));
            assertEquals(List.of("10@10000", "10@15000", "20@20000", "30@25000", "40@40000"), snapshot(out2));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * MediaPipe's PacketClonerCalculatorGatedInputTest: a tick settled without a packet (its gate
     * dropped it) moves the cloner's output bounds past it, so consumers do not wait for it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TickAt.class)
    @Timeout(20)
    void aTickDroppedUpstreamStillMovesTheOutputBounds(final TickAt tickAt) throws Exception
    {
        final List<String> after = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input", "input_enabled", "tick", "tick_enabled")
            .node("tick_gate", n -> n.calculator("GateCalculator").inputStream("tick", "ALLOW:tick_enabled")
                .outputStream("tick_gated"))
            .node("input_gate", n -> n.calculator("GateCalculator").inputStream("input", "ALLOW:input_enabled")
                .outputStream("input_gated"))
            .node("cloner", n -> n.calculator("PacketClonerCalculator")
                .inputStream(tickAt.inputs("tick_gated", "input_gated"))
                .outputStream("output"))
            .node("after", n -> n.calculator(() -> new Recorder(after).processingBounds()).inputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            // Each timestamp's packets go in while the graph is paused, and the test waits for idle
            // before the next: a gate with offset 0 also follows the heads of its queued inputs, so
            // a gate that ran between two of the adds at 200 (its data input there, its ALLOW input
            // not yet) would settle 199 on its way to 200, seen downstream as one more bound-only
            // call; when it runs is the scheduler's, not what this test is about.
            graph.pause();
            graph.addPacket("input_enabled", true, 100);
            addFrame(graph, "input", 1, 100);
            graph.addPacket("tick_enabled", true, 100);
            graph.addPacket("tick", 0L, 100);
            graph.resume();
            graph.waitUntilIdle();
            graph.pause();
            graph.addPacket("input_enabled", true, 110);
            addFrame(graph, "input", 2, 110);
            graph.resume();
            graph.waitUntilIdle();
            graph.pause();
            graph.addPacket("tick_enabled", false, 200);
            graph.addPacket("tick", 0L, 200);
            graph.addPacket("input_enabled", false, 200);
            addFrame(graph, "input", 2, 200);
            graph.resume();
            graph.waitUntilIdle();
            assertDrained(List.of("100: 1@100", "200: _@200"), after,
                "the clone at 100, then the dropped tick at 200 settles 200 downstream");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * The error that refuses {@code config}: its cloner's streams are checked at validation (the
     * calculator's contract check), so {@code validate} refuses what {@code open} would.
     */
    private static String refused(final GraphConfig config)
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config));
        assertEquals(1, ex.errors().size(), ex.errors().toString());
        return ex.errors().get(0);
    }

    /**
     * A lone input without the TICK tag would be the tick with nothing to clone: MediaPipe runs
     * it, doing nothing; we refuse it, naming the node and the valid forms.
     */
    @Test
    @Timeout(20)
    void aLoneInputWithoutATickTagIsRejectedNamingTheNode() throws Exception
    {
        final String failure = refused(GraphConfig.builder()
            .inputStream("in1")
            .node("cloner", n -> n.calculator("PacketClonerCalculator").inputStream("in1"))
            .build());
        assertEquals("node 'cloner': PacketClonerCalculator has 1 input and none tagged TICK: nothing to clone; " +
            "valid is one or more data inputs and a tick, either tagged TICK at any position or untagged as the " +
            "last input, with one output per data input", failure);
    }

    /**
     * Without the tag the last input is the tick, not a data input: an output for it is one too
     * many, and the error says which input was taken for the tick.
     */
    @Test
    @Timeout(20)
    void withoutATickTagAnOutputForTheLastInputIsOneTooMany() throws Exception
    {
        final String failure = refused(GraphConfig.builder()
            .inputStream("in1", "in2", "tick")
            .node("cloner", n -> n.calculator("PacketClonerCalculator").inputStream("in1", "in2", "tick")
                .outputStream("out1", "out2", "out3"))
            .outputStream("out1", "out2", "out3")
            .build());
        assertEquals("node 'cloner': PacketClonerCalculator needs one output per data input, in order: it has 2 " +
            "data inputs (none is tagged TICK, so the last input is the tick) and 3 outputs; valid is 2 outputs",
            failure);
    }

    /**
     * MediaPipe's contract declares untagged data inputs and one TICK only, so a graph with any
     * other tagged input fails validation there; here too, naming the node and input.
     */
    @Test
    @Timeout(20)
    void anInputWithAnotherTagOrASecondTickIsRejectedNamingTheInput() throws Exception
    {
        final String other = refused(GraphConfig.builder()
            .inputStream("in1", "video", "tick")
            .node("cloner", n -> n.calculator("PacketClonerCalculator").inputStream("in1", "VIDEO:video", "TICK:tick")
                .outputStream("out1", "out2"))
            .outputStream("out1", "out2")
            .build());
        assertEquals("node 'cloner': PacketClonerCalculator input 1 ('video') is tagged VIDEO; valid are untagged " +
            "data inputs and at most one input tagged TICK", other);
        final String second = refused(GraphConfig.builder()
            .inputStream("in1", "tick", "tock")
            .node("cloner", n -> n.calculator("PacketClonerCalculator").inputStream("in1", "TICK:0:tick", "TICK:1:tock")
                .outputStream("out1"))
            .outputStream("out1")
            .build());
        assertEquals("node 'cloner': PacketClonerCalculator input 2 ('tock') is tagged TICK again; valid are " +
            "untagged data inputs and at most one input tagged TICK", second);
    }

    /** A lone TICK-tagged input stays accepted, as in MediaPipe: the run ends cleanly with nothing cloned. */
    @Test
    @Timeout(20)
    void aLoneTickTaggedInputIsAccepted() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("tick")
            .node("cloner", n -> n.calculator("PacketClonerCalculator").inputStream("TICK:tick"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("tick", 1000L, 100);
            graph.addPacket("tick", 2000L, 200);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    private static final String NONE = "none";
    private static final String ONLY = "output_only_when_all_inputs_received";
    private static final String BOUNDS = "output_packets_only_when_all_inputs_received";

    /** Every option with every place of the tick. */
    static Stream<Arguments> optionsAndTicks()
    {
        return Stream.of(NONE, ONLY, BOUNDS)
            .flatMap(option -> Stream.of(TickAt.values()).map(tickAt -> Arguments.of(option, tickAt)));
    }

    /**
     * The cloner from text config, with {@code option} set true unless it is {@link #NONE}, and a
     * recorder after it.
     */
    private static GraphConfig clonerWithOption(final String option, final TickAt tickAt, final List<String> after)
    {
        final StringBuilder inputs = new StringBuilder();
        for (final String input : tickAt.inputs("tick", "in1", "in2"))
        {
            inputs.append("  input_stream: \"").append(input).append("\"\n");
        }
        final GraphConfig cloner = GraphConfigText.parse(String.join("\n",
            "input_stream: \"in1\"",
            "input_stream: \"in2\"",
            "input_stream: \"tick\"",
            "node {",
            "  name: \"cloner\"",
            "  calculator: \"PacketClonerCalculator\"",
            inputs + "  output_stream: \"out1\"",
            "  output_stream: \"out2\"",
            option.equals(NONE) ? "" : "  option { name: \"" + option + "\" bool_value: true }",
            "}",
            ""), "cloner.pbtxt");
        return cloner.toBuilder()
            .node("after", n -> n.calculator(() -> new Recorder(after).processingBounds()).inputStream("out1", "out2"))
            .build();
    }

    /**
     * A tick at 100 before in2 has had a packet: without an option it clones in1 and moves both
     * bounds; {@code output_only_when_all_inputs_received} emits nothing and moves no bound, so
     * nothing is settled after the cloner; {@code output_packets_only_when_all_inputs_received}
     * emits nothing but moves the bounds. From the tick at 200, when in2 has had its packet, all
     * three clone both inputs.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("optionsAndTicks")
    @Timeout(20)
    void beforeEveryInputHasHadAPacketTheOptionsHoldBackPacketsOrPacketsAndBounds(final String option,
        final TickAt tickAt) throws Exception
    {
        final List<String> after = syncList();
        try (Graph graph = new Graph(clonerWithOption(option, tickAt, after)))
        {
            graph.start();
            addFrame(graph, "in1", 1, 100);
            graph.setInputBound("in2", 101);
            graph.addPacket("tick", 1000L, 100);
            graph.waitUntilIdle();
            assertDrained(option.equals(NONE) ? List.of("100: 1@100 _@100") :
                option.equals(ONLY) ? List.of() : List.of("100: _@100 _@100"), after, "tick at 100, no in2 yet");

            addFrame(graph, "in2", 20, 200);
            graph.setInputBound("in1", 201);
            graph.addPacket("tick", 2000L, 200);
            graph.waitUntilIdle();
            assertDrained(List.of("200: 1@200 20@200"), after, "tick at 200, every input has had a packet");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), after, "at the end");
        }
    }

    /**
     * in2 never gets a packet and closes: ticks then settle (closing is in2's last bound), but with
     * either option the cloner emits nothing for the rest of the run, and with
     * {@code output_only_when_all_inputs_received} it moves no bound either, so the node after it
     * sees nothing but the close. The held in1 frames are released (the graph's close checks).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("optionsAndTicks")
    @Timeout(20)
    void anInputThatNeverHasAPacketSilencesTheOptionsUntilTheEnd(final String option, final TickAt tickAt)
        throws Exception
    {
        final List<String> after = syncList();
        try (Graph graph = new Graph(clonerWithOption(option, tickAt, after)))
        {
            graph.start();
            addFrame(graph, "in1", 1, 100);
            graph.addPacket("tick", 1000L, 100);
            addFrame(graph, "in1", 2, 200);
            graph.addPacket("tick", 2000L, 200);
            graph.waitUntilIdle();
            assertDrained(List.of(), after, "the ticks wait for in2 to settle");

            graph.closeInput("in2");
            graph.waitUntilIdle();
            assertDrained(option.equals(NONE) ? List.of("100: 1@100 _@100", "200: 2@200 _@200") :
                option.equals(ONLY) ? List.of() : List.of("100: _@100 _@100", "200: _@200 _@200"), after,
                "in2 closed without a packet: the ticks at 100 and 200 settle");

            addFrame(graph, "in1", 3, 300);
            graph.addPacket("tick", 3000L, 300);
            graph.waitUntilIdle();
            assertDrained(option.equals(NONE) ? List.of("300: 3@300 _@300") :
                option.equals(ONLY) ? List.of() : List.of("300: _@300 _@300"), after, "a tick after in2 closed");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), after, "at the end");
        }
    }
}
