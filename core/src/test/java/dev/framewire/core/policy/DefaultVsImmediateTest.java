package dev.framewire.core.policy;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.pauseAndWait;
import static dev.framewire.core.policy.PolicyFixtures.syncList;

/**
 * The default and the immediate policy on the same input, and the immediate policy's exact input
 * sets (MediaPipe's ImmediateInputStreamHandler tests: SimulateProcessNode, StreamDoneReady,
 * VerifyPacketsReleaseOrder, ProcessTimestampBounds), driven through graph inputs.
 */
class DefaultVsImmediateTest
{
    private static GraphConfig join(final List<String> log, final InputPolicy policy, final boolean processBounds,
        final String... inputs)
    {
        return GraphConfig.builder()
            .inputStream(inputs)
            .node("join", n -> n.calculator(() ->
            {
                final Recorder recorder = new Recorder(log);
                return processBounds ? recorder.processingBounds() : recorder;
            }).inputStream(inputs).inputPolicy(policy))
            .build();
    }

    /** Stream b's packets arrive late: default waits and aligns them; nothing is dropped. */
    @Test
    @Timeout(20)
    void defaultAlignsALateStream() throws Exception
    {
        final List<String> log = syncList();
        try (Graph graph = new Graph(join(log, InputPolicy.DEFAULT, false, "a", "b")))
        {
            graph.start();
            for (long ts = 1; ts <= 5; ts++)
            {
                addFrame(graph, "a", ts);
            }
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "nothing is settled on 'b' yet: the join waits");

            for (long ts = 1; ts <= 5; ts++)
            {
                addFrame(graph, "b", ts);
            }
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1 1@1", "2: 2@2 2@2", "3: 3@3 3@3", "4: 4@4 4@4", "5: 5@5 5@5"), log,
                "each timestamp once, both packets together, ascending");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "nothing was left to process at close");
        }
    }

    /**
     * The same input under the immediate policy: every packet is handed over alone as soon as it
     * arrives, the other input empty carrying its settled timestamp (Unstarted before anything
     * arrived on it, one below its bound after); across streams the input timestamps go back.
     */
    @Test
    @Timeout(20)
    void immediateHandsOverOnePacketAtATime() throws Exception
    {
        final List<String> log = syncList();
        try (Graph graph = new Graph(join(log, InputPolicy.immediate(), false, "a", "b")))
        {
            graph.start();
            for (long ts = 1; ts <= 5; ts++)
            {
                addFrame(graph, "a", ts);
            }
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1 _@Unstarted", "2: 2@2 _@Unstarted", "3: 3@3 _@Unstarted",
                "4: 4@4 _@Unstarted", "5: 5@5 _@Unstarted"), log, "a's packets, without waiting for b");

            for (long ts = 1; ts <= 5; ts++)
            {
                addFrame(graph, "b", ts);
            }
            graph.waitUntilIdle();
            assertDrained(List.of("1: _@5 1@1", "2: _@5 2@2", "3: _@5 3@3", "4: _@5 4@4", "5: _@5 5@5"), log,
                "b's packets alone; a is empty, settled up to 5");

            // As MediaPipe (kept there for compatibility): an input becoming done without
            // bound-only processing calls the node once more, every input empty, at the lowest
            // bound of the others.
            graph.closeInput("a");
            graph.waitUntilIdle();
            assertDrained(List.of("6: _@Max _@5"), log, "a became done");

            graph.closeInput("b");
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "the last input became done: close, no extra call");
        }
    }

    /**
     * MediaPipe's SimulateProcessNode: packets queued on three inputs before the node runs. The
     * lowest ready timestamp goes first and every input ready at it is filled with it.
     */
    @Test
    @Timeout(20)
    void immediateTakesTheLowestReadyTimestampAndFillsEveryInputReadyAtIt() throws Exception
    {
        final List<String> log = syncList();
        try (Graph graph = new Graph(join(log, InputPolicy.immediate(), false, "a", "b", "c")))
        {
            graph.start();
            pauseAndWait(graph);
            addFrame(graph, "a", 10);
            addFrame(graph, "a", 30);
            addFrame(graph, "a", 40);
            addFrame(graph, "b", 10);
            addFrame(graph, "c", 10);
            addFrame(graph, "c", 30);
            addFrame(graph, "c", 40);
            addFrame(graph, "b", 30);
            graph.closeInput("b");
            graph.resume();
            graph.waitUntilIdle();
            assertDrained(List.of("10: 10@10 10@10 10@10", "30: 30@30 30@30 30@30", "40: 40@40 _@Max 40@40"), log,
                "b became done with a packet at 40 ready elsewhere: no extra call for it");

            pauseAndWait(graph);
            graph.closeInput("a");
            graph.closeInput("c");
            graph.resume();
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "all done together: close");
        }
    }

    /**
     * MediaPipe's VerifyPacketsReleaseOrder and ProcessTimestampBounds: with bound-only processing,
     * an empty input carries one below its stream's next packet (or bound), and once every input is
     * done the node is called at Max, every input empty at Max, before it closes.
     */
    @Test
    @Timeout(20)
    void immediateWithBoundsReleasesQueuedPacketsInTimestampOrder() throws Exception
    {
        final List<String> log = syncList();
        try (Graph graph = new Graph(join(log, InputPolicy.immediate(), true, "a", "b", "c")))
        {
            graph.start();
            pauseAndWait(graph);
            addFrame(graph, "a", 1);
            addFrame(graph, "b", 2);
            addFrame(graph, "c", 3);
            addFrame(graph, "a", 5);
            addFrame(graph, "b", 5);
            addFrame(graph, "c", 5);
            graph.resume();
            graph.waitUntilIdle();
            assertDrained(List.of(
                "1: 1@1 _@1 _@2",
                "2: _@4 2@2 _@2",
                "3: _@4 _@4 3@3",
                "5: 5@5 5@5 5@5"), log, "queued packets, lowest timestamp first");

            pauseAndWait(graph);
            graph.closeAllInputs();
            graph.resume();
            graph.waitUntilDone();
            assertDrained(List.of("Max: _@Max _@Max _@Max", "close"), log, "every input done");
        }
    }

    /** MediaPipe's StreamDoneReady: a bound that moves without a packet does not call an immediate node. */
    @Test
    @Timeout(20)
    void immediateIgnoresBoundsWithoutBoundOnlyProcessing() throws Exception
    {
        final List<String> log = syncList();
        try (Graph graph = new Graph(join(log, InputPolicy.immediate(), false, "a", "b", "c")))
        {
            graph.start();
            addFrame(graph, "a", 10);
            graph.waitUntilIdle();
            assertDrained(List.of("10: 10@10 _@Unstarted _@Unstarted"), log, "a packet");

            graph.setInputBound("a", 200);
            graph.setInputBound("c", 50);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "bounds alone");

            graph.closeInput("b");
            graph.waitUntilIdle();
            assertDrained(List.of("50: _@199 _@Max _@49"), log, "b became done: one call, at the lowest other bound");

            graph.closeInput("a");
            graph.waitUntilIdle();
            assertDrained(List.of("50: _@Max _@Max _@49"), log, "a became done: one more call, at c's bound");
            graph.closeInput("c");
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "all done");
        }
    }
}
