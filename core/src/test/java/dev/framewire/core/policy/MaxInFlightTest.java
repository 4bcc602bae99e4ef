package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Packet;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import static dev.framewire.core.policy.PolicyFixtures.WAIT_MILLIS;
import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.await;
import static dev.framewire.core.policy.PolicyFixtures.snapshot;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static dev.framewire.core.policy.PolicyFixtures.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code max_in_flight}: up to N {@code process} calls of one node at once on a multi-worker
 * executor, its outputs and bounds still delivered in input-timestamp order.
 *
 * <p>Overlap is proven, not timed: an odd timestamp's call waits until the next even timestamp's
 * call has run, which calls made one after another could never do (the wait would time out and
 * fail the run). Every frame is an off-heap payload, so closing the graph is also the leak check.
 */
class MaxInFlightTest
{
    /**
     * Odd timestamps wait for the call of the next timestamp to finish first; even ones run at
     * once. Each call forwards its frame at its input timestamp (or, for a timestamp in
     * {@code silent}, emits nothing) and logs when it finished.
     */
    static final class OutOfOrder implements Calculator
    {
        final Map<Long, CountDownLatch> evenDone = new ConcurrentHashMap<>();
        final List<Long> finished = syncList();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final List<Long> silent = new ArrayList<>();
        boolean offset;
        long failAt = Long.MIN_VALUE;

        private CountDownLatch latch(final long even)
        {
            return evenDone.computeIfAbsent(even, k -> new CountDownLatch(1));
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            if (offset)
            {
                ctx.setOffset(0);
            }
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            final int now = running.incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            try
            {
                final long ts = ctx.inputTimestamp();
                if (ts % 2 == 1 && !latch(ts + 1).await(WAIT_MILLIS, TimeUnit.MILLISECONDS))
                {
                    throw new IllegalStateException("the call at " + ts + " never overlapped the one at " + (ts + 1));
                }
                if (ts == failAt)
                {
                    throw new IllegalStateException("bad frame at " + ts);
                }
                if (!silent.contains(ts))
                {
                    ctx.output(0).add(ctx.input(0).value(), ts);
                }
                finished.add(ts);
            }
            finally
            {
                running.decrementAndGet();
                latch(ctx.inputTimestamp()).countDown();
            }
        }
    }

    private static GraphConfig.Builder parallel(final OutOfOrder calculator, final int maxInFlight,
        final Consumer<NodeConfig.Builder> more)
    {
        return parallel("slow", calculator, maxInFlight, more);
    }

    /** in -> {@code node} (on executor 'pool' of two parked workers, {@code maxInFlight}) -> out. */
    private static GraphConfig.Builder parallel(final String node, final Calculator calculator, final int maxInFlight,
        final Consumer<NodeConfig.Builder> more)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor("pool", ExecutorConfig.of(2, IdleKind.PARK))
            .node(node, n ->
            {
                n.calculator(() -> calculator).inputStream("in").outputStream("out").executor("pool")
                    .maxInFlight(maxInFlight);
                more.accept(n);
            });
    }

    private static List<String> observe(final Graph graph, final String stream)
    {
        final List<String> seen = syncList();
        graph.observe(stream, (Packet p) -> seen.add(valueOf(p.value()) + "@" + Timestamp.toString(p.timestamp())));
        return seen;
    }

    @Test
    @Timeout(30)
    void callsOverlapAndOutputsLeaveInTimestampOrder() throws Exception
    {
        final OutOfOrder calculator = new OutOfOrder();
        try (Graph graph = new Graph(parallel(calculator, 2, n -> { }).build()))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            for (long ts = 1; ts <= 20; ts++)
            {
                addFrame(graph, "in", ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();

            final List<String> expected = new ArrayList<>();
            for (long ts = 1; ts <= 20; ts++)
            {
                expected.add(ts + "@" + ts);
            }
            assertEquals(expected, snapshot(out), "delivered in input-timestamp order");
            final List<Long> finished = snapshot(calculator.finished);
            assertTrue(finished.indexOf(2L) < finished.indexOf(1L), "the call at 2 finished before the one at 1: " +
                finished);
            assertEquals(2, calculator.mostAtOnce.get(), "two calls at once, never more");
        }
    }

    /**
     * The call at 2 emits nothing and finishes first; with offset 0 it moves the bound to 3. Were
     * that bound delivered before the call at 1 retired, the packet at 1 would be below the
     * stream's bound and fail the run; the join downstream also sees both input sets, in order.
     */
    @Test
    @Timeout(30)
    void boundsOfALaterCallWaitForTheEarlierCalls() throws Exception
    {
        final OutOfOrder calculator = new OutOfOrder();
        calculator.offset = true;
        calculator.silent.add(2L);
        calculator.silent.add(4L);
        final List<String> join = syncList();
        final GraphConfig config = parallel(calculator, 2, n -> { })
            .inputStream("side")
            .node("join", n -> n.calculator(() -> new PolicyFixtures.Recorder(join)).inputStream("side", "out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= 4; ts++)
            {
                addFrame(graph, "side", ts);
                addFrame(graph, "in", ts);
            }
            graph.waitUntilIdle();
            assertEquals(List.of("1: 1@1 1@1", "2: 2@2 _@2", "3: 3@3 3@3", "4: 4@4 _@4"), snapshot(join),
                "the join settles every timestamp, in order, with the silent calls' bounds");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(30)
    void moreLanesThanWorkersRunAsManyAtOnceAsThereAreWorkers() throws Exception
    {
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final CountDownLatch twoIn = new CountDownLatch(2);
        final Calculator calculator = ctx ->
        {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            twoIn.countDown();
            twoIn.await(WAIT_MILLIS, TimeUnit.MILLISECONDS); // the first two calls meet
            ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
            running.decrementAndGet();
        };
        final GraphConfig config = parallel("slow", calculator, 4, n -> { })
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            for (long ts = 1; ts <= 50; ts++)
            {
                addFrame(graph, "in", ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(50, snapshot(out).size());
            for (int i = 0; i < 50; i++)
            {
                assertEquals((i + 1) + "@" + (i + 1), snapshot(out).get(i), "in order");
            }
            assertEquals(2, mostAtOnce.get(), "four lanes on two workers: two calls at once");
        }
    }

    /** What the test checks once frames 1 to 8 are in and the inputs closed. */
    private interface AfterFailure
    {
        void check(Graph graph, List<String> out) throws Exception;
    }

    /** Frames 1 to 8 through 'slow' (two calls at once), which fails at 3, under {@code policy}. */
    private static void failAtThree(final FailurePolicy policy, final AfterFailure then) throws Exception
    {
        final OutOfOrder calculator = new OutOfOrder();
        calculator.failAt = 3;
        try (Graph graph = new Graph(parallel(calculator, 2, n -> { }).failurePolicy(policy).build()))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            for (long ts = 1; ts <= 8; ts++)
            {
                try
                {
                    addFrame(graph, "in", ts);
                }
                catch (final IllegalStateException ex)
                {
                    // the failure at 3 may end the run before every frame is in; only then
                    assertTrue(policy != FailurePolicy.DROP_TIMESTAMP && ex.getMessage().contains("run that has ended"),
                        ex.getMessage());
                    break;
                }
            }
            graph.closeAllInputs();
            then.check(graph, out);
        }
    }

    @Test
    @Timeout(30)
    void aFailingCallFailsTheRunAtItsTimestampAndLeaksNothing() throws Exception
    {
        failAtThree(FailurePolicy.FAIL_RUN, (graph, out) ->
        {
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("slow", ex.failures().get(0).node());
            assertEquals(3, ex.failures().get(0).timestamp());
            assertTrue(ex.failures().get(0).cause().getMessage().contains("bad frame at 3"));
            final List<String> delivered = snapshot(out);
            assertTrue(delivered.size() <= 2 && List.of("1@1", "2@2").subList(0, delivered.size()).equals(delivered),
                "only what came before 3, in order: " + delivered);
        });
    }

    @Test
    @Timeout(30)
    void dropTimestampSkipsTheFailedCallAndKeepsTheRestInOrder() throws Exception
    {
        failAtThree(FailurePolicy.DROP_TIMESTAMP, (graph, out) ->
        {
            graph.waitUntilDone(); // the run goes on past the failure
            assertEquals(List.of("1@1", "2@2", "4@4", "5@5", "6@6", "7@7", "8@8"), snapshot(out));
            assertEquals(1, graph.failures().size());
            assertEquals("slow", graph.failures().get(0).node());
            assertEquals(3, graph.failures().get(0).timestamp());
            assertEquals(1, graph.dropCount("slow"), "the failed timestamp counts as dropped");
        });
    }

    /** ISOLATE: the node fails at 3 and stays failed; calls after it that were in flight are released. */
    @Test
    @Timeout(30)
    void isolateReleasesTheCallsAfterTheFailedOne() throws Exception
    {
        failAtThree(FailurePolicy.ISOLATE, (graph, out) ->
        {
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals(1, ex.failures().size(), ex.getMessage());
            assertEquals(3, ex.failures().get(0).timestamp());
            assertEquals(List.of("1@1", "2@2"), snapshot(out), "what came before the failure, nothing after");
        });
    }

    @Test
    @Timeout(30)
    void theReportShowsTheCallsInFlight() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch bothIn = new CountDownLatch(2);
        final Calculator calculator = ctx ->
        {
            bothIn.countDown();
            release.await(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
        };
        final GraphConfig config = parallel("slow", calculator, 2, n -> { })
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            addFrame(graph, "in", 1);
            addFrame(graph, "in", 2);
            assertTrue(bothIn.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), "two calls in flight");
            final String report = graph.report();
            assertTrue(report.contains("slow [open") && report.contains("executor 'pool', 2 of max_in_flight 2 calls in flight"),
                report);
            release.countDown();
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /** The watchdog names the call that is stuck, with its own timestamp, while the other worker idles. */
    @Test
    @Timeout(30)
    void theWatchdogNamesTheStuckCall() throws Exception
    {
        final CountDownLatch never = new CountDownLatch(1);
        final Calculator calculator = ctx ->
        {
            if (ctx.inputTimestamp() == 2)
            {
                never.await();
            }
            ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
        };
        final GraphConfig config = parallel("slow", calculator, 2, n -> { })
            .timeoutGuardMillis(300)
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> out = observe(graph, "out");
            try
            {
                graph.start();
                for (long ts = 1; ts <= 3; ts++)
                {
                    addFrame(graph, "in", ts);
                }
                assertTrue(graph.awaitDone(20, TimeUnit.SECONDS), "the watchdog did not end the run");
            }
            finally
            {
                never.countDown();
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final String report = ex.failures().get(0).cause().getMessage();
            assertTrue(report.split("\n")[1].startsWith("verdict: node 'slow' has been in a call for input timestamp 2 for "),
                report);
            assertEquals(List.of("1@1"), snapshot(out), "3 finished but waits behind 2, and is released");
        }
    }

    /** Cancelling while calls are in flight: they see it, return, and what they held is released. */
    @Test
    @Timeout(30)
    void cancelWhileCallsAreInFlightReleasesEverything() throws Exception
    {
        final CountDownLatch bothIn = new CountDownLatch(2);
        final Calculator calculator = ctx ->
        {
            bothIn.countDown();
            while (!ctx.isCancelled())
            {
                Thread.onSpinWait();
                Thread.yield();
            }
            ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
        };
        final GraphConfig config = parallel("stuck", calculator, 2, n -> { })
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= 5; ts++)
            {
                addFrame(graph, "in", ts);
            }
            assertTrue(bothIn.await(WAIT_MILLIS, TimeUnit.MILLISECONDS), "two calls in flight");
            graph.cancel();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled());
        }
    }

    @Test
    void invalidMaxInFlightIsRejectedWithTheNodeAndWhatIsValid()
    {
        final GraphConfigException zero = assertThrows(GraphConfigException.class, () -> new Graph(
            parallel(new OutOfOrder(), 0, n -> { }).build()).close());
        assertTrue(zero.getMessage().contains("node 'slow'") && zero.getMessage().contains("max_in_flight 0") &&
            zero.getMessage().contains("valid is 1"), zero.getMessage());

        final GraphConfigException source = assertThrows(GraphConfigException.class, () -> new Graph(
            GraphConfig.builder()
                .outputStream("out")
                .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("out").maxInFlight(2))
                .build()).close());
        assertTrue(source.getMessage().contains("node 'count'") && source.getMessage().contains("is a source"),
            source.getMessage());

        final GraphConfigException batch = assertThrows(GraphConfigException.class, () -> new Graph(
            parallel(new OutOfOrder(), 2, n -> n.inputPolicy(InputPolicy.batch(4))).build())
            .close());
        assertTrue(batch.getMessage().contains("node 'slow'") && batch.getMessage().contains("batch_size 4"),
            batch.getMessage());
    }

    @Test
    void maxInFlightRoundTripsThroughTheTextConfig()
    {
        final String text = "input_stream: \"in\"\noutput_stream: \"out\"\n" +
            "executor { name: \"pool\" num_threads: 2 }\n" +
            "node { calculator: \"PassThroughCalculator\" input_stream: \"in\" output_stream: \"out\" " +
            "executor: \"pool\" max_in_flight: 3 }\n";
        final GraphConfig config = GraphConfigText.parse(text, "test.pbtxt");
        assertEquals(3, config.nodes().get(0).maxInFlight());
        assertTrue(GraphConfigText.write(config).contains("max_in_flight: 3"), GraphConfigText.write(config));
        assertEquals(1, GraphConfigText.parse(text.replace(" max_in_flight: 3", ""), "test.pbtxt").nodes().get(0)
            .maxInFlight(), "1 by default");
    }

    /**
     * Determinism with calls in flight: a diamond whose two branches each run two calls at once
     * (emitting on different subsets of timestamps, offset 0, each call delayed by a pseudo-random
     * time of its timestamp) joins into a default-policy node. Every run sees the same input sets
     * (which timestamps, which packets), the ones one call at a time would give. An empty input's
     * settled timestamp is not compared: it depends on what has already arrived, as in MediaPipe.
     */
    @Test
    @Timeout(120)
    void aDiamondOfParallelBranchesJoinsTheSameWayEveryRun() throws Exception
    {
        final List<String> expected = new ArrayList<>();
        for (long ts = 0; ts < 60; ts++)
        {
            if (ts % 2 == 0 || ts % 3 == 0) // no call when both are empty (no bound-only processing)
            {
                expected.add(ts + ": " + (ts % 2 == 0 ? ts * 2 : "_") + " " + (ts % 3 == 0 ? ts * 3 : "_"));
            }
        }
        for (int run = 0; run < 30; run++)
        {
            final List<String> sets = syncList();
            final GraphConfig config = GraphConfig.builder()
                .inputStream("in")
                .executor("pool", ExecutorConfig.of(2, IdleKind.PARK))
                .node("halves", n -> n.calculator(() -> new EveryNth(2)).inputStream("in").outputStream("h")
                    .executor("pool").maxInFlight(2))
                .node("thirds", n -> n.calculator(() -> new EveryNth(3)).inputStream("in").outputStream("t")
                    .executor("pool").maxInFlight(2))
                .node("join", n -> n.calculator(() -> ctx -> sets.add(ctx.inputTimestamp() + ": " +
                    (ctx.input(0).isEmpty() ? "_" : ctx.input(0).getLong()) + " " +
                    (ctx.input(1).isEmpty() ? "_" : ctx.input(1).getLong()))).inputStream("h", "t"))
                .maxQueueSize(8)
                .build();
            try (Graph graph = new Graph(config))
            {
                graph.start();
                for (long ts = 0; ts < 60; ts++)
                {
                    graph.addPacket("in", ts, ts);
                }
                graph.closeAllInputs();
                graph.waitUntilDone();
            }
            assertEquals(expected, snapshot(sets), "run " + run);
        }
    }

    /** Passes {@code ts * modulus} on when {@code ts % modulus == 0}, after a delay of its timestamp; stateless. */
    private static final class EveryNth implements Calculator
    {
        private final long modulus;

        EveryNth(final long modulus)
        {
            this.modulus = modulus;
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            ctx.setOffset(0);
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long ts = ctx.inputTimestamp();
            LockSupport.parkNanos((ts * 0x9E3779B97F4A7C15L >>> 48) % 50_000);
            if (ts % modulus == 0)
            {
                ctx.output(0).addLong(ctx.input(0).getLong() * modulus, ts);
            }
        }
    }

    /** Pass-through with two calls at once, real payloads: nothing lost, nothing leaked, in order. */
    @Test
    @Timeout(60)
    void manyFramesThroughAParallelPassThroughArriveInOrder() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor("pool", ExecutorConfig.of(2, IdleKind.PARK))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid")
                .executor("pool").maxInFlight(2))
            .node("pass2", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out")
                .executor("pool").maxInFlight(2))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> out = syncList();
            graph.observe("out", p -> out.add(p.timestamp()));
            graph.start();
            for (long ts = 0; ts < 5_000; ts++)
            {
                addFrame(graph, "in", ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final List<Long> seen = snapshot(out);
            assertEquals(5_000, seen.size());
            for (int i = 0; i < seen.size(); i++)
            {
                assertEquals(i, seen.get(i).longValue(), "in order");
            }
        }
    }
}
