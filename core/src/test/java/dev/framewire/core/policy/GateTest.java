package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.snapshot;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static dev.framewire.core.policy.PolicyFixtures.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GateCalculator (MediaPipe's gate_calculator_test): an ALLOW stream decides per timestamp, an
 * empty ALLOW input counts as {@code empty_packets_as_allow}; a DISALLOW (or ALLOW) side packet
 * decides for the whole run and, when it disallows, closes the outputs; without either, the
 * {@code allow} option decides, false unless set. Dropped packets are counted and released.
 *
 * <p>The optional {@code STATE_CHANGE} output (MediaPipe's *WithStateChange* and
 * *InitialNoStateTransition cases): a {@code Boolean} at the input timestamp of each input set
 * whose decision differs from the one before; the first input set is compared with
 * {@code initial_gate_state}. It is not a data output, wherever the config lists it, and its
 * bound follows the input timestamp like the data outputs' (offset 0), so consumers settle the
 * timestamps without a change with an empty input.
 */
class GateTest
{
    /** MediaPipe's Allow: ALLOW true, false, true, false lets 0 and 2 through. */
    @Test
    @Timeout(20)
    void anAllowStreamDecidesPerTimestamp() throws Exception
    {
        final List<String> after = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "allow")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data", "ALLOW:allow").outputStream("out"))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 4; ts++)
            {
                addFrame(graph, "data", ts);
                graph.addPacket("allow", ts % 2 == 0, ts);
                graph.waitUntilIdle();
            }
            assertDrained(List.of("0: 0@0", "2: 2@2"), after, "allowed at 0 and 2");
            assertEquals(2, graph.dropCount("gate"));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), after, "close");
        }
    }

    /** An ALLOW input empty at a settled timestamp: dropped, unless empty_packets_as_allow. */
    @ParameterizedTest(name = "empty_packets_as_allow={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(20)
    void anEmptyAllowInputCountsAsTheOptionSays(final boolean emptyAsAllow) throws Exception
    {
        final List<String> after = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "allow")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data", "ALLOW:allow").outputStream("out")
                .option("empty_packets_as_allow", emptyAsAllow))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "data", 4);
            graph.setInputBound("allow", 5);
            graph.waitUntilIdle();
            assertDrained(emptyAsAllow ? List.of("4: 4@4") : List.of(), after, "ALLOW empty at 4");
            assertEquals(emptyAsAllow ? 0 : 1, graph.dropCount("gate"));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * A DISALLOW side packet decides for the whole run. When it disallows, the gate closes its
     * outputs at its first input set, as MediaPipe does, so the consumers finish early.
     */
    @ParameterizedTest(name = "DISALLOW={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(20)
    void aDisallowSidePacketDecidesForTheRun(final boolean disallow) throws Exception
    {
        final List<String> after = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data").outputStream("out")
                .inputSidePacket("DISALLOW:disallow"))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start(Map.of("disallow", disallow));
            addFrame(graph, "data", 1);
            graph.waitUntilIdle();
            assertDrained(disallow ? List.of("close") : List.of("1: 1@1"), after, "after the first packet");
            addFrame(graph, "data", 2);
            graph.waitUntilIdle();
            assertDrained(disallow ? List.of() : List.of("2: 2@2"), after, "after the second packet");
            assertEquals(disallow ? 2 : 0, graph.dropCount("gate"));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(disallow ? List.of() : List.of("close"), after, "at the end");
        }
    }

    /** Without ALLOW or DISALLOW, the allow option decides; MediaPipe's default is false. */
    @Test
    @Timeout(20)
    void withoutControlTheAllowOptionDecidesAndDefaultsToFalse() throws Exception
    {
        final List<String> unset = syncList();
        final List<String> allowed = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data")
            .node("unset", n -> n.calculator("GateCalculator").inputStream("data").outputStream("unset_out"))
            .node("allowed", n -> n.calculator("GateCalculator").inputStream("data").outputStream("allowed_out")
                .option("allow", true))
            .node("after_unset", n -> n.calculator(() -> new Recorder(unset)).inputStream("unset_out"))
            .node("after_allowed", n -> n.calculator(() -> new Recorder(allowed)).inputStream("allowed_out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "data", 42);
            addFrame(graph, "data", 43);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of("close"), PolicyFixtures.snapshot(unset), "option not set: nothing passes");
            assertEquals(2, graph.dropCount("unset"));
            assertEquals(List.of("42: 42@42", "43: 43@43", "close"), PolicyFixtures.snapshot(allowed));
            assertEquals(0, graph.dropCount("allowed"));
        }
    }

    /**
     * MediaPipe's AllowWithStateChange, DisallowWithStateChange and their NoDataStreams variants:
     * decisions disallow, allow, allow, disallow at 42..45 report true at 43 and false at 45 only.
     * STATE_CHANGE is listed before the data output, as in MediaPipe's example config: the data
     * still goes to the untagged output.
     */
    @ParameterizedTest(name = "{0} stream, data stream: {1}")
    @CsvSource({"ALLOW, true", "DISALLOW, true", "ALLOW, false", "DISALLOW, false"})
    @Timeout(20)
    void stateChangeReportsEachNewDecisionAtItsTimestamp(final String controlTag, final boolean withData)
        throws Exception
    {
        final List<String> after = syncList();
        final List<String> states = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "control")
            .node("gate", n ->
            {
                n.calculator("GateCalculator").inputStream(controlTag + ":control")
                    .outputStream("STATE_CHANGE:state_change");
                if (withData)
                {
                    n.inputStream("data").outputStream("out");
                }
            })
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream(withData ? "out" : "data"))
            .node("states", n -> n.calculator(() -> new Recorder(states).processingBounds())
                .inputStream("state_change"))
            .build();
        final boolean[] allow = {false, true, true, false};
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int i = 0; i < allow.length; i++)
            {
                final long ts = 42 + i;
                // both inputs of a timestamp at once, under pause: a worker that ran the gate between
                // them would, rightly, move STATE_CHANGE's bound on the data alone, a bound-only call
                // at ts - 1 that this test is not about
                graph.pause();
                if (withData)
                {
                    addFrame(graph, "data", ts);
                }
                graph.addPacket("control", controlTag.equals("ALLOW") == allow[i], ts);
                graph.resume();
                graph.waitUntilIdle();
            }
            assertDrained(List.of("42: _@42", "43: true@43", "44: _@44", "45: false@45"), states,
                "a change at 43 (now allowed) and at 45 (now disallowed); 42 is the first decision, 44 the same");
            assertDrained(withData ? List.of("43: 43@43", "44: 44@44") : List.of(), after, "allowed at 43 and 44");
            assertEquals(withData ? 2 : 0, graph.dropCount("gate"));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), states, "STATE_CHANGE closes with the gate");
        }
    }

    /**
     * A gate whose decision never changes, with STATE_CHANGE declared: no packet on it, but its
     * bound follows every input set, so its consumer settles each timestamp with an empty input.
     */
    @Test
    @Timeout(20)
    void aGateThatNeverChangesEmitsNoStateChangeButMovesItsBound() throws Exception
    {
        final List<String> after = syncList();
        final List<String> states = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "allow")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data", "ALLOW:allow")
                .outputStream("out", "STATE_CHANGE:state_change"))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .node("states", n -> n.calculator(() -> new Recorder(states).processingBounds())
                .inputStream("state_change"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 3; ts++)
            {
                graph.pause(); // both inputs at once: see stateChangeReportsEachNewDecisionAtItsTimestamp
                addFrame(graph, "data", ts);
                graph.addPacket("allow", true, ts);
                graph.resume();
                graph.waitUntilIdle();
            }
            assertDrained(List.of("0: _@0", "1: _@1", "2: _@2"), states, "no change, three settled timestamps");
            assertDrained(List.of("0: 0@0", "1: 1@1", "2: 2@2"), after, "all allowed");
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), states, "closed at the end");
            assertDrained(List.of("close"), after, "closed at the end");
        }
    }

    /**
     * An ALLOW input empty at a settled timestamp is a decision like any other: without
     * {@code empty_packets_as_allow} it disallows, which is a change after an allowed timestamp.
     */
    @ParameterizedTest(name = "empty_packets_as_allow={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(20)
    void anEmptyAllowInputCanChangeTheState(final boolean emptyAsAllow) throws Exception
    {
        final List<String> after = syncList();
        final List<String> states = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "allow")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data", "ALLOW:allow")
                .outputStream("out", "STATE_CHANGE:state_change").option("empty_packets_as_allow", emptyAsAllow))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .node("states", n -> n.calculator(() -> new Recorder(states).processingBounds())
                .inputStream("state_change"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            // each timestamp's inputs at once: see stateChangeReportsEachNewDecisionAtItsTimestamp
            graph.pause();
            addFrame(graph, "data", 1);
            graph.addPacket("allow", true, 1);
            graph.resume();
            graph.waitUntilIdle();
            graph.pause();
            addFrame(graph, "data", 2);
            graph.setInputBound("allow", 3);
            graph.resume();
            graph.waitUntilIdle();
            graph.pause();
            addFrame(graph, "data", 3);
            graph.addPacket("allow", true, 3);
            graph.resume();
            graph.waitUntilIdle();
            assertDrained(emptyAsAllow ? List.of("1: _@1", "2: _@2", "3: _@3") :
                List.of("1: _@1", "2: false@2", "3: true@3"), states, "ALLOW empty at 2");
            assertDrained(emptyAsAllow ? List.of("1: 1@1", "2: 2@2", "3: 3@3") : List.of("1: 1@1", "3: 3@3"), after,
                "data at 1..3");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * MediaPipe's AllowInitialNoStateTransition and StateChangeTriggeredWithInitialGateStateOption,
     * from text config: the first decision (allow, at 42) is a change only against an initial state
     * that is not it; GATE_UNINITIALIZED, the default, is never a change, UNSPECIFIED always is.
     * Disallowing at 44 is a change in every case.
     */
    @ParameterizedTest(name = "initial_gate_state={0}")
    @CsvSource({"'', ''", "GATE_UNINITIALIZED, ''", "GATE_ALLOW, ''", "GATE_DISALLOW, true@42",
        "UNSPECIFIED, true@42"})
    @Timeout(20)
    void theFirstDecisionIsAChangeOnlyAgainstADifferentInitialGateState(final String initial, final String first)
        throws Exception
    {
        final GraphConfig config = GraphConfigText.parse(String.join("\n",
            "input_stream: \"data\"",
            "input_stream: \"allow\"",
            "output_stream: \"out\"",
            "output_stream: \"state_change\"",
            "node {",
            "  name: \"gate\"",
            "  calculator: \"GateCalculator\"",
            "  input_stream: \"data\"",
            "  input_stream: \"ALLOW:allow\"",
            "  output_stream: \"out\"",
            "  output_stream: \"STATE_CHANGE:state_change\"",
            initial.isEmpty() ? "" : "  option { name: \"initial_gate_state\" string_value: \"" + initial + "\" }",
            "}",
            ""), "gate.pbtxt");
        final List<String> out = syncList();
        final List<String> states = syncList();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> out.add(valueOf(p.value()) + "@" + p.timestamp()));
            graph.observe("state_change", p -> states.add(valueOf(p.value()) + "@" + p.timestamp()));
            graph.start();
            final boolean[] allow = {true, true, false};
            for (int i = 0; i < allow.length; i++)
            {
                addFrame(graph, "data", 42 + i);
                graph.addPacket("allow", allow[i], 42 + i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(first.isEmpty() ? List.of("false@44") : List.of(first, "false@44"), snapshot(states));
            assertEquals(List.of("42@42", "43@43"), snapshot(out));
        }
    }

    /**
     * A DISALLOW side packet decides for the run: no change after the first input set, and its
     * close of the data outputs leaves STATE_CHANGE open, its bound following every input set.
     * Against {@code initial_gate_state: GATE_ALLOW} the first input set is a change to false.
     */
    @ParameterizedTest(name = "initial_gate_state={0}")
    @ValueSource(strings = {"GATE_UNINITIALIZED", "GATE_ALLOW"})
    @Timeout(20)
    void aDisallowingSidePacketClosesTheDataOutputsButNotStateChange(final String initial) throws Exception
    {
        final List<String> after = syncList();
        final List<String> states = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data").inputSidePacket("DISALLOW:disallow")
                .outputStream("STATE_CHANGE:state_change", "out").option("initial_gate_state", initial))
            .node("after", n -> n.calculator(() -> new Recorder(after)).inputStream("out"))
            .node("states", n -> n.calculator(() -> new Recorder(states).processingBounds())
                .inputStream("state_change"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start(Map.of("disallow", true));
            addFrame(graph, "data", 1);
            graph.waitUntilIdle();
            addFrame(graph, "data", 2);
            graph.waitUntilIdle();
            assertDrained(List.of("close"), after, "the data output closed at the first input set");
            assertDrained(List.of(initial.equals("GATE_ALLOW") ? "1: false@1" : "1: _@1", "2: _@2"), states,
                "STATE_CHANGE still open");
            assertEquals(2, graph.dropCount("gate"));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), states, "STATE_CHANGE closes with the gate");
        }
    }

    /** An initial_gate_state that is not one of MediaPipe's GateState names is refused at validation. */
    @Test
    void aBadInitialGateStateIsRefusedAtValidation()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfig.builder()
            .inputStream("data")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("data").outputStream("out")
                .option("initial_gate_state", "ALLOW"))
            .outputStream("out").build()));
        assertEquals(List.of("node 'gate': option 'initial_gate_state' is 'ALLOW'; valid are [UNSPECIFIED, " +
            "GATE_UNINITIALIZED, GATE_ALLOW, GATE_DISALLOW]"), ex.errors());
    }

    /**
     * STATE_CHANGE is not a data output: one data input with only a STATE_CHANGE output fails at
     * open, and so does an initial_gate_state that is not one of MediaPipe's GateState names.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no data output | GATE_UNINITIALIZED | 1 data inputs and 0 data outputs (STATE_CHANGE is not a data output)"})
    @Timeout(20)
    void aMisconfiguredGateFailsAtOpenNamingTheProblem(final String what, final String initial, final String message)
        throws Exception
    {
        final boolean dataOutput = what.startsWith("bad");
        final GraphConfig config = GraphConfig.builder()
            .inputStream("data", "allow")
            .node("gate", n ->
            {
                n.calculator("GateCalculator").inputStream("data", "ALLOW:allow")
                    .outputStream("STATE_CHANGE:state_change").option("initial_gate_state", initial);
                if (dataOutput)
                {
                    n.outputStream("out");
                }
            })
            .outputStream("state_change")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("gate", ex.failures().get(0).node());
            final String cause = ex.failures().get(0).cause().getMessage();
            assertTrue(cause.startsWith("node 'gate': ") && cause.endsWith(message), cause);
        }
    }
}
