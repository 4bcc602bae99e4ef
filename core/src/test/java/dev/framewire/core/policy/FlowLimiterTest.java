package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OutputPoller;
import dev.framewire.core.Packet;
import dev.framewire.core.policy.PolicyFixtures.GatedStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.framewire.core.policy.PolicyFixtures.WAIT_MILLIS;
import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.next;
import static dev.framewire.core.policy.PolicyFixtures.snapshot;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FlowLimiterCalculator in its loop (MediaPipe's flow_limiter_calculator_test: FramesDropped,
 * FinishedTimestamps, FinishedLost, auxiliary inputs), made deterministic: the slow stage waits for
 * permits the test hands out on an executor of its own, and the test waits on what the graph
 * reports (the ALLOW stream through a poller, the stage's starts), never on time.
 *
 * <p>ALLOW says, per main-stream frame, whether it was let through (true) or dropped (false).
 */
class FlowLimiterTest
{
    private static GraphConfig loop(
        final long maxInFlight, final long maxInQueue, final long inFlightTimeout, final Supplier<Calculator> stage)
    {
        return GraphConfig.builder()
            .inputStream("frames")
            .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                .inputStream("frames", "FINISHED:finished").backEdge("FINISHED")
                .outputStream("limited", "ALLOW:allow")
                .option("max_in_flight", maxInFlight)
                .option("max_in_queue", maxInQueue)
                .option("in_flight_timeout", inFlightTimeout))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .node("stage", n -> n.calculator(stage).inputStream("limited").outputStream("finished").executor("slow"))
            .outputStream("allow", "finished")
            .build();
    }

    private static void assertAllow(final OutputPoller allow, final boolean expected, final long timestamp)
        throws InterruptedException
    {
        assertTrue(allow.next(WAIT_MILLIS, TimeUnit.MILLISECONDS), "an ALLOW packet for timestamp " + timestamp);
        final Packet packet = allow.packet();
        assertEquals(timestamp, packet.timestamp(), "ALLOW timestamp");
        assertEquals(expected, packet.get(Boolean.class), "ALLOW at " + timestamp);
    }

    /**
     * FramesDropped (max_in_flight 1, max_in_queue 1): while frame i*10 is in flight, i*10+5 waits
     * in the limiter's queue and is dropped when i*10+10 arrives; i*10+10 goes once i*10 finishes.
     */
    @Test
    @Timeout(30)
    void oneInFlightOneQueuedTheRestDropped() throws Exception
    {
        final Semaphore permits = new Semaphore(0);
        final BlockingQueue<Long> entered = GatedStage.reports();
        final List<Long> finished = syncList();
        try (Graph graph = new Graph(loop(1, 1, 0, () -> new GatedStage(permits, entered))))
        {
            final OutputPoller allow = graph.poller("allow");
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.start();
            addFrame(graph, "frames", 0);
            for (int i = 0; i < 9; i++)
            {
                assertAllow(allow, true, i * 10);
                addFrame(graph, "frames", i * 10 + 5);   // waits in the limiter's queue
                addFrame(graph, "frames", i * 10 + 10);  // drops the one waiting
                assertAllow(allow, false, i * 10 + 5);
                permits.release(1);
            }
            assertAllow(allow, true, 90);
            permits.release(1);
            graph.closeInput("frames");
            graph.waitUntilDone();
            assertEquals(List.of(0L, 10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L), snapshot(finished),
                "timestamps unchanged, the extra frames dropped");
            assertEquals(9, graph.dropCount("limiter"));
        }
    }

    /** max_in_flight 1, max_in_queue 0: a frame arriving while one is in flight is dropped at once. */
    @Test
    @Timeout(30)
    void oneInFlightNoQueue() throws Exception
    {
        final Semaphore permits = new Semaphore(0);
        final BlockingQueue<Long> entered = GatedStage.reports();
        final List<Long> finished = syncList();
        try (Graph graph = new Graph(loop(1, 0, 0, () -> new GatedStage(permits, entered))))
        {
            final OutputPoller allow = graph.poller("allow");
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.start();
            addFrame(graph, "frames", 0);
            assertAllow(allow, true, 0);
            assertEquals(0, next(entered, "the stage to start on 0"));
            for (long ts = 1; ts <= 4; ts++)
            {
                addFrame(graph, "frames", ts);
                assertAllow(allow, false, ts);
            }
            permits.release(1);
            graph.waitUntilIdle(); // the stage is free again: FINISHED 0 has reached the limiter
            assertEquals(List.of(0L), snapshot(finished));

            addFrame(graph, "frames", 5);
            assertAllow(allow, true, 5);
            assertEquals(5, next(entered, "the stage to start on 5"));
            addFrame(graph, "frames", 6);
            assertAllow(allow, false, 6);
            permits.release(1);
            graph.waitUntilIdle();

            graph.closeInput("frames");
            graph.waitUntilDone();
            assertEquals(List.of(0L, 5L), snapshot(finished));
            assertEquals(5, graph.dropCount("limiter"), "1, 2, 3, 4 and 6");
            assertTrue(entered.isEmpty(), "the stage saw only 0 and 5: " + entered);
        }
    }

    /** max_in_flight 2, max_in_queue 0: two frames in the subgraph at once, then drops until one finishes. */
    @Test
    @Timeout(30)
    void twoInFlight() throws Exception
    {
        final Semaphore permits = new Semaphore(0);
        final BlockingQueue<Long> entered = GatedStage.reports();
        final List<Long> finished = syncList();
        try (Graph graph = new Graph(loop(2, 0, 0, () -> new GatedStage(permits, entered))))
        {
            final OutputPoller allow = graph.poller("allow");
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.start();
            addFrame(graph, "frames", 0);
            assertAllow(allow, true, 0);
            addFrame(graph, "frames", 1);
            assertAllow(allow, true, 1);
            addFrame(graph, "frames", 2);
            assertAllow(allow, false, 2);
            addFrame(graph, "frames", 3);
            assertAllow(allow, false, 3);
            assertEquals(0, next(entered, "the stage to start on 0"));

            permits.release(1);
            // Once the stage starts on 1, FINISHED 0 is queued at the limiter, and the limiter takes
            // the lowest timestamp first: FINISHED 0 frees a slot before frame 4 is looked at.
            assertEquals(1, next(entered, "the stage to start on 1"));
            addFrame(graph, "frames", 4);
            assertAllow(allow, true, 4);
            addFrame(graph, "frames", 5);
            assertAllow(allow, false, 5);

            permits.release(2);
            assertEquals(4, next(entered, "the stage to start on 4"));
            graph.waitUntilIdle();
            graph.closeInput("frames");
            graph.waitUntilDone();
            assertEquals(List.of(0L, 1L, 4L), snapshot(finished));
            assertEquals(3, graph.dropCount("limiter"), "2, 3 and 5");
        }
    }

    /**
     * Emits nothing for the timestamps in {@code lose}; with {@code keepBound} it still declares
     * offset 0, so its output bound moves past a lost timestamp, otherwise the timestamp is lost
     * completely (MediaPipe's DropCalculator with drop_timestamps false and true).
     */
    private static final class Losing implements Calculator
    {
        private final Set<Long> lose;
        private final boolean keepBound;

        Losing(final Set<Long> lose, final boolean keepBound)
        {
            this.lose = lose;
            this.keepBound = keepBound;
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            if (keepBound)
            {
                ctx.setOffset(0);
            }
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            if (!lose.contains(ctx.inputTimestamp()))
            {
                ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
            }
        }
    }

    private static List<String> allowTrace(final List<String> allow)
    {
        return snapshot(allow);
    }

    private static List<String> expectedAllow(final long from, final long to, final long step, final boolean value)
    {
        final List<String> out = new ArrayList<>();
        for (long ts = from; ts <= to; ts += step)
        {
            out.add(ts + "=" + value);
        }
        return out;
    }

    /**
     * FinishedTimestamps: FINISHED may come as a packet or as a timestamp bound. The stage loses
     * frame 20's packet but its offset moves the bound past 20, which frees the slot as a packet
     * would: frame 30 goes.
     */
    @Test
    @Timeout(30)
    void aFinishedBoundFreesTheSlotLikeAPacket() throws Exception
    {
        final List<Long> finished = syncList();
        final List<String> allow = syncList();
        try (Graph graph = new Graph(loop(1, 0, 0, () -> new Losing(Set.of(20L), true))))
        {
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.observe("allow", p -> allow.add(p.timestamp() + "=" + p.get(Boolean.class)));
            graph.start();
            for (long ts = 0; ts <= 40; ts += 10)
            {
                addFrame(graph, "frames", ts);
                graph.waitUntilIdle();
            }
            graph.closeInput("frames");
            graph.waitUntilDone();
            assertEquals(expectedAllow(0, 40, 10, true), allowTrace(allow), "every frame let through");
            assertEquals(List.of(0L, 10L, 30L, 40L), snapshot(finished));
            assertEquals(0, graph.dropCount("limiter"));
        }
    }

    /**
     * FinishedLost: the stage loses frame 40 completely (no packet, no bound). Without a timeout the
     * limiter waits for it forever and drops every later frame.
     */
    @Test
    @Timeout(30)
    void aLostFrameBlocksTheLimiterWithoutATimeout() throws Exception
    {
        final List<Long> finished = syncList();
        final List<String> allow = syncList();
        try (Graph graph = new Graph(loop(1, 0, 0, () -> new Losing(Set.of(40L), false))))
        {
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.observe("allow", p -> allow.add(p.timestamp() + "=" + p.get(Boolean.class)));
            graph.start();
            for (long ts = 0; ts <= 200; ts += 10)
            {
                addFrame(graph, "frames", ts);
                graph.waitUntilIdle();
            }
            graph.closeInput("frames");
            graph.waitUntilDone();
            final List<String> expected = expectedAllow(0, 40, 10, true);
            expected.addAll(expectedAllow(50, 200, 10, false));
            assertEquals(expected, allowTrace(allow));
            assertEquals(List.of(0L, 10L, 20L, 30L), snapshot(finished));
            assertEquals(16, graph.dropCount("limiter"));
        }
    }

    /**
     * FinishedLost with in_flight_timeout 100 (timestamp units, as MediaPipe): frame 40 is given up
     * once a frame more than 100 beyond it arrives (150, not 140), and that frame goes.
     */
    @Test
    @Timeout(30)
    void inFlightTimeoutReleasesTheSlotOfALostFrame() throws Exception
    {
        final List<Long> finished = syncList();
        final List<String> allow = syncList();
        try (Graph graph = new Graph(loop(1, 0, 100, () -> new Losing(Set.of(40L), false))))
        {
            graph.observe("finished", p -> finished.add(p.timestamp()));
            graph.observe("allow", p -> allow.add(p.timestamp() + "=" + p.get(Boolean.class)));
            graph.start();
            for (long ts = 0; ts <= 200; ts += 10)
            {
                addFrame(graph, "frames", ts);
                graph.waitUntilIdle();
            }
            graph.closeInput("frames");
            graph.waitUntilDone();
            final List<String> expected = expectedAllow(0, 40, 10, true);
            expected.addAll(expectedAllow(50, 140, 10, false));
            expected.addAll(expectedAllow(150, 200, 10, true));
            assertEquals(expected, allowTrace(allow));
            assertEquals(List.of(0L, 10L, 20L, 30L, 150L, 160L, 170L, 180L, 190L, 200L), snapshot(finished));
            assertEquals(10, graph.dropCount("limiter"), "50 to 140");
        }
    }

    /**
     * An auxiliary input follows the main stream's decisions: its packet at a timestamp goes when
     * the main frame there went, and is dropped (and counted) when it was dropped.
     */
    @Test
    @Timeout(30)
    void anAuxiliaryStreamFollowsTheMainStreamsDecisions() throws Exception
    {
        final Semaphore permits = new Semaphore(0);
        final BlockingQueue<Long> entered = GatedStage.reports();
        final List<Long> limited = syncList();
        final List<Long> aux = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("frames", "side")
            .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                .inputStream("frames", "side", "FINISHED:finished").backEdge("FINISHED")
                .outputStream("limited", "side_limited", "ALLOW:allow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .node("stage", n -> n.calculator(() -> new GatedStage(permits, entered)).inputStream("limited")
                .outputStream("finished").executor("slow"))
            .outputStream("allow", "side_limited")
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller allow = graph.poller("allow");
            graph.observe("limited", p -> limited.add(p.timestamp()));
            graph.observe("side_limited", p -> aux.add(p.timestamp()));
            graph.start();
            addFrame(graph, "side", 0);
            addFrame(graph, "frames", 0);
            assertAllow(allow, true, 0);
            assertEquals(0, next(entered, "the stage to start on 0"));
            addFrame(graph, "frames", 10);
            addFrame(graph, "side", 10);
            assertAllow(allow, false, 10);
            permits.release(1);
            graph.waitUntilIdle();
            assertEquals(List.of(0L), snapshot(aux), "side@0 went with frame 0, side@10 was dropped with frame 10");

            addFrame(graph, "side", 20);
            addFrame(graph, "frames", 20);
            assertAllow(allow, true, 20);
            permits.release(1);
            graph.waitUntilIdle();
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of(0L, 20L), snapshot(limited));
            assertEquals(List.of(0L, 20L), snapshot(aux));
            assertEquals(2, graph.dropCount("limiter"), "frames@10 and side@10");
        }
    }
}
