package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.syncList;

/**
 * Bound-only processing ({@code Contract.processTimestampBounds(true)}, MediaPipe's
 * ProcessTimestampBounds) under the default policy: the node is also called when only bounds
 * moved, at the highest timestamp settled on every input, once per newly settled timestamp; an
 * empty input carries one below its stream's next packet, or one below its bound.
 */
class BoundOnlyProcessingTest
{
    @Test
    @Timeout(20)
    void callsAtEachNewlySettledTimestamp() throws Exception
    {
        final List<String> log = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("bounds", n -> n.calculator(() -> new Recorder(log).processingBounds()).inputStream("a", "b"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.setInputBound("a", 5);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "nothing settled on b: no call");

            graph.setInputBound("b", 3);
            graph.waitUntilIdle();
            assertDrained(List.of("2: _@4 _@2"), log, "2 settled on both; each input carries one below its bound");

            addFrame(graph, "a", 7);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "a packet at 7 settles nothing new on b");

            graph.setInputBound("b", 7);
            graph.waitUntilIdle();
            assertDrained(List.of("6: _@6 _@6"), log, "a carries one below its next packet, b one below its bound");

            addFrame(graph, "b", 7);
            graph.waitUntilIdle();
            assertDrained(List.of("7: 7@7 7@7"), log, "both packets");

            addFrame(graph, "b", 10);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "7 already processed; 8 not settled on a");

            addFrame(graph, "a", 9);
            graph.waitUntilIdle();
            assertDrained(List.of("9: 9@9 _@9"), log, "9 settled: a's packet, b empty one below its packet at 10");

            graph.closeInput("a");
            graph.waitUntilIdle();
            assertDrained(List.of("10: _@Max 10@10"), log, "a done: b's packet at 10");

            graph.setInputBound("b", 20);
            graph.waitUntilIdle();
            assertDrained(List.of("19: _@Max _@19"), log, "a bound alone, up to 19");

            graph.closeInput("b");
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "every input done: close, no call at Max under the default policy");
        }
    }

    /**
     * Offset 0 and bound-only processing together along a chain: the second node sees every
     * settled timestamp the first one's bound moved to, one call each, and nothing twice.
     */
    @Test
    @Timeout(20)
    void boundsMovedByAnOffsetReachABoundProcessingConsumer() throws Exception
    {
        final List<String> first = syncList();
        final List<String> second = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("first", n -> n.calculator(() -> new Recorder(first).withOffset()).inputStream("in")
                .outputStream("mid"))
            .node("second", n -> n.calculator(() -> new Recorder(second).processingBounds()).inputStream("mid"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "in", 3);
            graph.waitUntilIdle();
            assertDrained(List.of("3: 3@3"), first, "first gets the packet and emits nothing");
            assertDrained(List.of("3: _@3"), second, "second: 3 settled by first's offset bound");

            graph.setInputBound("in", 8);
            graph.waitUntilIdle();
            assertDrained(List.of(), first, "a bound alone does not call first");
            assertDrained(List.of("7: _@7"), second, "first's offset follows its input bound to 8");

            graph.closeInput("in");
            graph.waitUntilDone();
            assertDrained(List.of("close"), first, "first closes");
            assertDrained(List.of("close"), second, "second closes");
        }
    }
}
