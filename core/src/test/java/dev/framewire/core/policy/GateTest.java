package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * GateCalculator (MediaPipe's gate_calculator_test): an ALLOW stream decides per timestamp, an
 * empty ALLOW input counts as {@code empty_packets_as_allow}; a DISALLOW (or ALLOW) side packet
 * decides for the whole run and, when it disallows, closes the outputs; without either, the
 * {@code allow} option decides, false unless set. Dropped packets are counted and released.
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
}
