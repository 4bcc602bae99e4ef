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
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The default policy with {@code batch_size} (MediaPipe's DefaultInputStreamHandlerTest: Batches,
 * BatchIsFlushedWhenClosing, DoesntPropagateTimestampWhenBatching), and the early-close policy
 * (MediaPipe's EarlyCloseInputStreamHandler).
 */
class BatchAndEarlyCloseTest
{
    private static GraphConfig batching(final List<String> log, final int batch)
    {
        return GraphConfig.builder()
            .inputStream("input0")
            .node("batcher", n -> n.calculator(() -> new Recorder(log).forwarding()).inputStream("input0")
                .outputStream("output0").inputPolicy(InputPolicy.batch(batch)))
            .outputStream("output0")
            .build();
    }

    @Test
    @Timeout(20)
    void inputSetsAreHandedOverTwoAtATime() throws Exception
    {
        final List<String> log = syncList();
        final List<Long> out = syncList();
        try (Graph graph = new Graph(batching(log, 2)))
        {
            graph.observe("output0", p -> out.add(p.timestamp()));
            graph.start();
            addFrame(graph, "input0", 1);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "one input set is not a batch of two");

            addFrame(graph, "input0", 2);
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1", "2: 2@2"), log, "a batch of two, in order");

            addFrame(graph, "input0", 3);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "the next batch waits for its second input set");

            addFrame(graph, "input0", 4);
            graph.waitUntilIdle();
            assertDrained(List.of("3: 3@3", "4: 4@4"), log, "the second batch");
            assertEquals(List.of(1L, 2L, 3L, 4L), PolicyFixtures.snapshot(out));

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "nothing left");
        }
    }

    @Test
    @Timeout(20)
    void theRestIsFlushedWhenTheInputsClose() throws Exception
    {
        final List<String> log = syncList();
        final List<Long> out = syncList();
        try (Graph graph = new Graph(batching(log, 2)))
        {
            graph.observe("output0", p -> out.add(p.timestamp()));
            graph.start();
            addFrame(graph, "input0", 1);
            addFrame(graph, "input0", 2);
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1", "2: 2@2"), log, "a batch of two");

            addFrame(graph, "input0", 3);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "half a batch waits");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("3: 3@3", "close"), log, "flushed at close, then closed");
            assertEquals(List.of(1L, 2L, 3L), PolicyFixtures.snapshot(out));
        }
    }

    /**
     * While batching, a node with offset 0 propagates only the first timestamp of the pending
     * batch: the join after it settles timestamps below the batch and no further.
     */
    @Test
    @Timeout(20)
    void aBatchingNodePropagatesOnlyTheFirstTimestampOfItsBatch() throws Exception
    {
        final List<String> join = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input0", "input1")
            .node("batcher", n -> n.calculator("PassThroughCalculator").inputStream("input1")
                .outputStream("input1_batched").inputPolicy(InputPolicy.batch(3)))
            .node("join", n -> n.calculator(() -> new Recorder(join)).inputStream("input0", "input1_batched"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "input0", 0);
            graph.waitUntilIdle();
            assertDrained(List.of(), join, "nothing settled on the batcher's output");

            addFrame(graph, "input0", 1);
            addFrame(graph, "input1", 1);
            graph.waitUntilIdle();
            assertDrained(List.of("0: 0@0 _@0"), join, "the batcher propagates its first pending timestamp, 1");

            addFrame(graph, "input0", 2);
            addFrame(graph, "input1", 2);
            graph.waitUntilIdle();
            assertDrained(List.of(), join, "still batching: the bound stays at 1");

            addFrame(graph, "input0", 3);
            addFrame(graph, "input1", 3);
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1 1@1", "2: 2@2 2@2", "3: 3@3 3@3"), join, "the batch is complete");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), join, "close");
        }
    }

    /**
     * Early close: the node closes as soon as any input is done and empty; packets still queued on
     * the other inputs are dropped, counted and released.
     */
    @Test
    @Timeout(20)
    void closesAsSoonAsAnyInputIsDoneDroppingWhatIsQueued() throws Exception
    {
        final List<String> log = syncList();
        final List<String> downstream = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("early", n -> n.calculator(() -> new Recorder(log).forwarding()).inputStream("a", "b")
                .outputStream("a_out", "b_out").inputPolicy(InputPolicy.earlyClose()))
            .node("after", n -> n.calculator(() -> new Recorder(downstream)).inputStream("a_out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "a", 1);
            addFrame(graph, "b", 1);
            addFrame(graph, "a", 2);
            addFrame(graph, "a", 3);
            graph.waitUntilIdle();
            assertDrained(List.of("1: 1@1 1@1"), log, "1 settled; 2 and 3 wait for b");
            assertDrained(List.of("1: 1@1"), downstream, "1 passed on");

            graph.closeInput("b");
            graph.waitUntilIdle();
            assertDrained(List.of("close"), log, "b done: close at once, although b's close settles 2 and 3");
            assertEquals(2, graph.dropCount("early"), "a@2 and a@3 dropped");
            assertDrained(List.of("close"), downstream, "outputs closed with the node, while a is still open");

            graph.closeInput("a");
            graph.waitUntilDone();
            assertDrained(List.of(), log, "nothing after close");
        }
    }
}
