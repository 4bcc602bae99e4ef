package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OutputPoller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/calculators/core/flow_limiter_calculator_test.cc}.
 *
 * <p>MediaPipe runs most of these cases on a simulation clock: frames arrive every 10 ms, a
 * SleepCalculator takes 22 ms (or 12, or a first 500 ms) per frame, a DropCalculator drops the
 * third frame, and FINISHED closes the loop. Here the same timeline is played out event by event,
 * with no clock: the sleeper takes frame {@code t} only once the test sends it a tick at {@code t}
 * (its other input), which the test does at the simulated time the frame's sleep would end, and the
 * graph settles ({@link Graph#waitUntilIdle()}) after every event. ALLOW says when a frame starts;
 * the sleeper works through started frames one at a time, as MediaPipe's does.
 */
class FlowLimiterCalculatorTest
{
    private static final long FRAME_US = 10_000;

    /** MediaPipe's DropCalculator: drops the third packet, and with DROP_TIMESTAMPS its bound too. */
    static Calculator dropCalculator(final boolean dropTimestamps)
    {
        return new Calculator()
        {
            private int packetCount;

            @Override
            public void contract(final Contract contract)
            {
                contract.processTimestampBounds(true);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final boolean present = !ctx.input(0).isEmpty();
                if (present)
                {
                    packetCount++;
                }
                final boolean drop = packetCount == 3;
                if (!drop && present)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
                if (!drop || !dropTimestamps)
                {
                    ctx.output(0).setNextTimestampBound(ctx.inputTimestamp() + 1);
                }
            }
        };
    }

    /** The sleeper: offset 0, passes its frame on once the tick at its timestamp (or the tick's close) says so. */
    private static Calculator sleeper()
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (!ctx.input(0).isEmpty())
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }
        };
    }

    /** The loop of MediaPipe's test graph and the simulated time it is played out in. */
    private static final class Loop implements AutoCloseable
    {
        final Graph graph;
        final List<String> out1 = syncList();
        final List<String> out2 = syncList();
        final List<String> allow = syncList();
        private final long warmupUs;
        private final long sleepUs;
        private final Deque<Long> sleeperQueue = new ArrayDeque<>();
        private long now;
        private long busyUntil = -1;
        private long busyTs;
        private boolean first = true;
        private int allowSeen;

        Loop(final boolean twoStreams, final long maxInQueue, final long inFlightTimeout, final long warmupUs,
            final long sleepUs, final boolean dropTimestamps)
        {
            this.warmupUs = warmupUs;
            this.sleepUs = sleepUs;
            final GraphConfig.Builder b = GraphConfig.builder()
                .inputStream(twoStreams ? new String[] {"in_1", "in_2", "tick"} : new String[] {"in_1", "tick"})
                .outputStream(twoStreams ? new String[] {"out_1", "allow", "in_2_sampled"} :
                    new String[] {"out_1", "allow"})
                .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                    .inputStream(twoStreams ? new String[] {"in_1", "in_2", "FINISHED:out_1"} :
                        new String[] {"in_1", "FINISHED:out_1"})
                    .backEdge("FINISHED")
                    .outputStream(twoStreams ? new String[] {"in_1_sampled", "in_2_sampled", "ALLOW:allow"} :
                        new String[] {"in_1_sampled", "ALLOW:allow"})
                    .option("max_in_flight", 1L).option("max_in_queue", maxInQueue)
                    .option("in_flight_timeout", inFlightTimeout))
                .node("sleeper", n -> n.calculator(FlowLimiterCalculatorTest::sleeper)
                    .inputStream("in_1_sampled", "tick").outputStream("out_1_sampled"))
                .node("drop", n -> n.calculator(() -> dropCalculator(dropTimestamps)).inputStream("out_1_sampled")
                    .outputStream("out_1"));
            graph = new Graph(b.build());
            graph.observe("out_1", p -> out1.add(String.valueOf(p.getLong())));
            graph.observe("allow", p -> allow.add(p.value() + "@" + p.timestamp()));
            if (twoStreams)
            {
                graph.observe("in_2_sampled", p -> out2.add(String.valueOf(p.getLong())));
            }
            graph.start();
        }

        /** Lets the graph take in the last event, and starts the sleeper on frames ALLOW let through. */
        private void settle() throws InterruptedException
        {
            graph.waitUntilIdle();
            final List<String> seen = snapshot(allow);
            for (; allowSeen < seen.size(); allowSeen++)
            {
                final String decision = seen.get(allowSeen);
                if (decision.startsWith("true@"))
                {
                    sleeperQueue.add(Long.parseLong(decision.substring("true@".length())));
                }
            }
            if (busyUntil < 0 && !sleeperQueue.isEmpty())
            {
                busyTs = sleeperQueue.poll();
                busyUntil = now + (first ? warmupUs : sleepUs);
                first = false;
            }
        }

        /** Simulated time moves to {@code t}: the sleeps that end by then end, in order. */
        void advanceTo(final long t) throws InterruptedException
        {
            while (busyUntil >= 0 && busyUntil <= t)
            {
                now = busyUntil;
                busyUntil = -1;
                graph.addPacket("tick", 0L, busyTs);
                settle();
            }
            now = t;
        }

        /** MediaPipe's input packet {@code i} (value i at i * 10 ms) on a stream, at the present time. */
        void add(final String stream, final int i) throws InterruptedException
        {
            graph.addPacket(stream, (long)i, i * FRAME_US);
            settle();
        }

        /** Closes the inputs, lets the frames in flight and queued finish, and ends the run. */
        void finish() throws Exception
        {
            graph.closeInput("in_1");
            if (graph.config().inputStreams().contains("in_2"))
            {
                graph.closeInput("in_2");
            }
            settle();
            advanceTo(Long.MAX_VALUE / 2);
            graph.closeInput("tick");
            graph.waitUntilDone();
        }

        @Override
        public void close()
        {
            graph.close();
        }
    }

    private static List<String> values(final int... indexes)
    {
        final List<String> result = new ArrayList<>();
        for (final int i : indexes)
        {
            result.add(String.valueOf(i));
        }
        return result;
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedTimestamps)
    @Test
    @Timeout(30)
    void finishedTimestamps() throws Exception
    {
        try (Loop loop = new Loop(false, 1, 0, 22_000, 22_000, false))
        {
            for (int i = 0; i <= 8; i++)
            {
                loop.advanceTo(i * FRAME_US);
                loop.add("in_1", i);
            }
            loop.advanceTo(9 * FRAME_US);
            loop.finish();
            assertEquals(List.of("true@0", "false@10000", "true@20000", "false@30000", "true@40000", "false@50000",
                "true@60000", "false@70000", "true@80000"), snapshot(loop.allow));
            assertEquals(values(0, 2, 6, 8), snapshot(loop.out1),
                "4 is dropped downstream, but its bound comes back as FINISHED");
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedLost)
    @Test
    @Timeout(30)
    void finishedLost() throws Exception
    {
        try (Loop loop = new Loop(false, 1, 100_000, 22_000, 22_000, true))
        {
            for (int i = 0; i <= 20; i++)
            {
                loop.advanceTo(i * FRAME_US);
                loop.add("in_1", i);
            }
            loop.advanceTo(21 * FRAME_US);
            loop.finish();
            assertEquals(values(0, 2, 14, 17, 19, 20), snapshot(loop.out1),
                "4 is lost downstream; the limiter gives up on it once 15 is 100 ms past it");
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedDelayed)
    @Test
    @Timeout(30)
    void finishedDelayed() throws Exception
    {
        try (Loop loop = new Loop(false, 1, 100_000, 500_000, 22_000, false))
        {
            for (int i = 0; i <= 70; i++)
            {
                loop.advanceTo(i * FRAME_US);
                loop.add("in_1", i);
            }
            loop.advanceTo(71 * FRAME_US);
            loop.finish();
            assertEquals(values(0, 10, 30, 40, 50, 60, 63, 65, 67, 69, 70), snapshot(loop.out1));
        }
    }

    /** The arrivals of MediaPipe's TwoInputStreams and ZeroQueue cases: in_2 one behind, then one ahead. */
    private static void twoStreamArrivals(final Loop loop) throws Exception
    {
        loop.add("in_1", 0);
        for (int i = 1; i < 10; i++)
        {
            loop.advanceTo(i * FRAME_US);
            loop.add("in_1", i);
            loop.add("in_2", i - 1);
        }
        for (int i = 10; i < 21; i++)
        {
            loop.advanceTo(i * FRAME_US);
            loop.add("in_2", i + 1);
            loop.add("in_1", i);
        }
        loop.advanceTo(21 * FRAME_US);
        loop.finish();
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, TwoInputStreams)
    @Test
    @Timeout(30)
    void twoInputStreams() throws Exception
    {
        try (Loop loop = new Loop(true, 1, 100_000, 22_000, 22_000, true))
        {
            twoStreamArrivals(loop);
            assertEquals(values(0, 2, 14, 17, 19, 20), snapshot(loop.out1));
            assertEquals(values(0, 2, 4, 14, 17, 19, 20, 21), snapshot(loop.out2),
                "in_2 follows in_1's decisions, and passes what comes after in_1's last frame");
        }
    }

    /** ZeroQueue's ALLOW stream: 0, 2, 4, 15, 17 and 19 let through, the other frames to 20 dropped. */
    static List<String> zeroQueueAllow()
    {
        final List<String> expectedAllow = new ArrayList<>();
        final boolean[] allowed = new boolean[21];
        for (final int i : new int[] {0, 2, 4, 15, 17, 19})
        {
            allowed[i] = true;
        }
        for (int i = 0; i <= 20; i++)
        {
            expectedAllow.add(allowed[i] + "@" + i * FRAME_US);
        }
        return expectedAllow;
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, ZeroQueue)
    @Test
    @Timeout(30)
    void zeroQueue() throws Exception
    {
        try (Loop loop = new Loop(true, 0, 100_000, 12_000, 12_000, true))
        {
            twoStreamArrivals(loop);
            assertEquals(values(0, 2, 15, 17, 19), snapshot(loop.out1));
            assertEquals(values(0, 2, 4, 15, 17, 19), snapshot(loop.out2));
            final List<String> expectedAllow = zeroQueueAllow();
            assertEquals(expectedAllow, snapshot(loop.allow));
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorSemaphoreTest, FramesDropped)
    @Test
    @Timeout(30)
    void framesDropped() throws Exception
    {
        final Semaphore exit = new Semaphore(0);
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in_1")
            .outputStream("out_1", "allow")
            .node("limiter", n -> n.calculator("FlowLimiterCalculator").inputStream("in_1", "FINISHED:out_1")
                .backEdge("FINISHED").outputStream("in_1_sampled", "ALLOW:allow")
                .option("max_in_flight", 1L).option("max_in_queue", 1L))
            .node("lambda", n -> n.calculator(() -> ctx ->
            {
                if (!exit.tryAcquire(10, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("never let out at " + ctx.inputTimestamp());
                }
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }).inputStream("in_1_sampled").outputStream("out_1"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> out = syncList();
            graph.observe("out_1", p ->
            {
                assertEquals(p.getLong(), p.timestamp(), "value and timestamp");
                out.add(p.timestamp());
            });
            final OutputPoller allow = graph.poller("allow");
            graph.start();
            graph.addPacket("in_1", 0L, 0);
            for (long i = 0; i < 9; i++)
            {
                assertTrue(allow.next(5, TimeUnit.SECONDS));
                assertEquals(Boolean.TRUE, allow.packet().value(), "ALLOW at " + allow.packet().timestamp());
                graph.addPacket("in_1", i * 10 + 5, i * 10 + 5);
                graph.addPacket("in_1", i * 10 + 10, i * 10 + 10);
                assertTrue(allow.next(5, TimeUnit.SECONDS));
                assertEquals(Boolean.FALSE, allow.packet().value(), "ALLOW at " + allow.packet().timestamp());
                exit.release();
            }
            exit.release();
            graph.closeInput("in_1");
            graph.waitUntilDone();
            assertEquals(List.of(0L, 10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L), snapshot(out));
        }
    }
}
