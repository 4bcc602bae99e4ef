package dev.framewire.core.policy;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.policy.PolicyFixtures.WAIT_MILLIS;
import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.next;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixed-size policy (MediaPipe's FixedSizeInputStreamHandler): a queue reaching the trigger
 * size is trimmed to the target size by dropping the oldest timestamps on every input, so the
 * streams stay aligned; every drop is counted and its payload released at once.
 */
class FixedSizeTest
{
    /** A recorder that blocks in each call until the test hands out a permit, reporting when it starts one. */
    private static final class SlowRecorder extends Recorder
    {
        private final Semaphore permits;
        private final BlockingQueue<Long> entered;

        SlowRecorder(final List<String> log, final Semaphore permits, final BlockingQueue<Long> entered)
        {
            super(log);
            this.permits = permits;
            this.entered = entered;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            super.process(ctx);
            entered.add(ctx.inputTimestamp());
            try
            {
                if (!permits.tryAcquire(WAIT_MILLIS, TimeUnit.MILLISECONDS))
                {
                    throw new IllegalStateException("no permit for timestamp " + ctx.inputTimestamp());
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    /**
     * A slow consumer on its own executor: while it works on timestamp 0, timestamps 1..9 queue up
     * on both inputs; when it is free again, the queues are trimmed (trigger 3, target 1) to the
     * newest timestamp, 9, on both inputs alike: 8 packets dropped per input.
     */
    @ParameterizedTest(name = "fixed_min_size={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(20)
    void aSlowConsumerGetsTheNewestAlignedInputSet(final boolean fixedMinSize) throws Exception
    {
        final List<String> log = syncList();
        final Semaphore permits = new Semaphore(0);
        final BlockingQueue<Long> entered = PolicyFixtures.GatedStage.reports();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .node("live", n -> n.calculator(() -> new SlowRecorder(log, permits, entered)).inputStream("a", "b")
                .inputPolicy(InputPolicy.fixedSize(3, 1, fixedMinSize)).executor("slow"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "a", 0);
            addFrame(graph, "b", 0);
            assertEquals(0, next(entered, "the consumer to start on timestamp 0"));
            for (long ts = 1; ts <= 9; ts++)
            {
                addFrame(graph, "a", ts);
                addFrame(graph, "b", ts);
            }
            permits.release(2);
            assertEquals(9, next(entered, "the consumer to start on the next input set"));
            graph.waitUntilIdle();
            assertDrained(List.of("0: 0@0 0@0", "9: 9@9 9@9"), log, "1..8 trimmed on both inputs");
            assertEquals(16, graph.dropCount("live"));

            // Trimmed, the streams are still aligned: later timestamps come together as usual.
            permits.release(2);
            addFrame(graph, "b", 10);
            graph.waitUntilIdle();
            assertDrained(List.of(), log, "10 not settled on a");
            addFrame(graph, "a", 10);
            graph.waitUntilIdle();
            assertDrained(List.of("10: 10@10 10@10"), log, "aligned after trimming");
            assertEquals(10, next(entered, "timestamp 10"));
            assertEquals(16, graph.dropCount("live"));

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "close");
        }
    }

    /**
     * MediaPipe's LateArrivalDrop (trigger 4, target 3) through a pass-through node:
     * <pre>
     *   a: 1 2 3 [4 5 6]
     *   b:     3 4 [5 6 7]
     *   c:        4 5 6 7   (added last)
     * </pre>
     * Without fixed_min_size, b reaching the trigger cuts every stream at 5, and c's late 4 is
     * dropped as if it had come earlier. With it, nothing is dropped: c never reaches the trigger.
     */
    @ParameterizedTest(name = "fixed_min_size={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(20)
    void lateArrivalsBelowTheCutAreDropped(final boolean fixedMinSize) throws Exception
    {
        final List<String> log = syncList();
        final List<String> out = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in_0", "in_1", "in_2")
            .node("pass", n -> n.calculator(() -> new Recorder(log).forwarding()).inputStream("in_0", "in_1", "in_2")
                .outputStream("out_0", "out_1", "out_2").inputPolicy(InputPolicy.fixedSize(4, 3, fixedMinSize)))
            .outputStream("out_0", "out_1", "out_2")
            .build();
        try (Graph graph = new Graph(config))
        {
            for (final String stream : List.of("out_0", "out_1", "out_2"))
            {
                graph.observe(stream, p -> out.add(p.streamName() + "@" + p.timestamp()));
            }
            graph.start();
            for (long ts = 1; ts <= 6; ts++)
            {
                addFrame(graph, "in_0", ts);
            }
            for (long ts = 3; ts <= 7; ts++)
            {
                addFrame(graph, "in_1", ts);
                graph.waitUntilIdle();
            }
            for (long ts = 4; ts <= 7; ts++)
            {
                addFrame(graph, "in_2", ts);
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();

            final List<String> outputs = PolicyFixtures.snapshot(out);
            if (fixedMinSize)
            {
                assertEquals(List.of(
                    "1: 1@1 _@2 _@3",
                    "2: 2@2 _@2 _@3",
                    "3: 3@3 3@3 _@3",
                    "4: 4@4 4@4 4@4",
                    "5: 5@5 5@5 5@5",
                    "6: 6@6 6@6 6@6",
                    "7: _@Max 7@7 7@7",
                    "close"), PolicyFixtures.snapshot(log));
                assertEquals(0, graph.dropCount("pass"));
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), timestamps(outputs, "out_0"));
                assertEquals(List.of(3L, 4L, 5L, 6L, 7L), timestamps(outputs, "out_1"));
                assertEquals(List.of(4L, 5L, 6L, 7L), timestamps(outputs, "out_2"));
            }
            else
            {
                assertEquals(List.of(
                    "5: 5@5 5@5 5@5",
                    "6: 6@6 6@6 6@6",
                    "7: _@Max 7@7 7@7",
                    "close"), PolicyFixtures.snapshot(log));
                // a: 1 2 3 4, b: 3 4, c: 4
                assertEquals(7, graph.dropCount("pass"));
                assertEquals(List.of(5L, 6L), timestamps(outputs, "out_0"));
                assertEquals(List.of(5L, 6L, 7L), timestamps(outputs, "out_1"));
                assertEquals(List.of(5L, 6L, 7L), timestamps(outputs, "out_2"));
            }
        }
    }

    /**
     * MediaPipe's DropsPacketsInFullStream: a source fills its consumer's queue up to
     * max_queue_size and is held back; trimming that queue must report the room it made, or the
     * source would stay held back for ever. The newest packet always survives.
     */
    @Test
    @Timeout(20)
    void trimmingAFullQueueLetsItsSourceGoOn() throws Exception
    {
        final List<Long> passed = syncList();
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(10)
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("input_packets")
                .option("count", 100L).option("batch", 10L))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("input_packets")
                .outputStream("output_packets").inputPolicy(InputPolicy.fixedSize(2, 1, false)))
            .outputStream("output_packets")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("output_packets", p -> passed.add(p.timestamp()));
            graph.start();
            graph.waitUntilDone();
            final List<Long> out = PolicyFixtures.snapshot(passed);
            assertEquals(100, out.size() + graph.dropCount("pass"), "every packet passed or counted as dropped");
            assertEquals(99L, out.get(out.size() - 1), "the newest packet is never trimmed");
            for (int i = 1; i < out.size(); i++)
            {
                assertTrue(out.get(i - 1) < out.get(i), "ascending: " + out);
            }
        }
    }

    /**
     * MediaPipe's ParallelWriteAndRead: three threads feed three inputs at once (trigger 3, target
     * 1). Whatever is trimmed, every input set the node sees holds all three packets of one
     * timestamp: trimming never splits a timestamp across the streams.
     */
    @ParameterizedTest(name = "fixed_min_size={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void parallelWritersStayAligned(final boolean fixedMinSize) throws Exception
    {
        final List<String> log = syncList();
        final String[] inputs = {"in_0", "in_1", "in_2"};
        final GraphConfig config = GraphConfig.builder()
            .inputStream(inputs)
            .node("pass", n -> n.calculator(() -> new Recorder(log)).inputStream(inputs)
                .inputPolicy(InputPolicy.fixedSize(3, 1, fixedMinSize)))
            .build();
        final List<Throwable> errors = syncList();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final List<Thread> writers = new ArrayList<>();
            for (final String input : inputs)
            {
                final Thread writer = new Thread(() ->
                {
                    try
                    {
                        for (long ts = 0; ts < 50; ts++)
                        {
                            addFrame(graph, input, ts);
                        }
                    }
                    catch (final Throwable t)
                    {
                        errors.add(t);
                    }
                }, "writer-" + input);
                writer.setDaemon(true);
                writer.start();
                writers.add(writer);
            }
            for (final Thread writer : writers)
            {
                writer.join(WAIT_MILLIS);
            }
            assertEquals(List.of(), errors);
            graph.closeAllInputs();
            graph.waitUntilDone();

            final List<String> sets = PolicyFixtures.snapshot(log);
            assertEquals("close", sets.get(sets.size() - 1));
            long previous = -1;
            for (final String set : sets.subList(0, sets.size() - 1))
            {
                final long ts = Long.parseLong(set.substring(0, set.indexOf(':')));
                assertEquals(ts + ": " + ts + "@" + ts + " " + ts + "@" + ts + " " + ts + "@" + ts, set,
                    "all three streams at one timestamp");
                assertTrue(ts > previous, "ascending: " + sets);
                previous = ts;
            }
            assertEquals(49, previous, "the newest timestamp is never trimmed");
            assertEquals(150, 3 * (sets.size() - 1) + graph.dropCount("pass"), "every packet seen or dropped");
        }
    }

    private static List<Long> timestamps(final List<String> outputs, final String stream)
    {
        return outputs.stream().filter(s -> s.startsWith(stream + "@"))
            .map(s -> Long.parseLong(s.substring(stream.length() + 1))).toList();
    }
}
