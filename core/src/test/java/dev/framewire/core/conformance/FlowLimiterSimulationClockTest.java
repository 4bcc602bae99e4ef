package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;
import dev.framewire.core.SimulationClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MediaPipe's {@code mediapipe/calculators/core/flow_limiter_calculator_test.cc}, the cases that run
 * on a {@code SimulationClockExecutor}, played out as MediaPipe plays them: on a
 * {@link SimulationClock}. The test's thread takes part in the simulation
 * ({@link SimulationClock#threadStart()}), adds a frame every 10 ms of simulated time and sleeps
 * on the clock in between; the SleepCalculator sleeps on the same clock (given as the side packet
 * {@code CLOCK}, as in MediaPipe) for its warm-up and per-frame times; time moves only when every
 * node is idle or sleeping. {@link FlowLimiterCalculatorTest} plays the same cases event by event
 * without a clock.
 *
 * <p>MediaPipe runs them on eight threads; here on four workers of a {@code STEALING} executor, so
 * that no node waits behind the sleeper's call.
 */
class FlowLimiterSimulationClockTest
{
    private static final long US = 1_000;
    private static final long FRAME_US = 10_000;

    /** MediaPipe's SleepCalculator: sleeps WARMUP_TIME on its first packet, SLEEP_TIME on the others, on CLOCK. */
    private static final class SleepCalculator implements Calculator
    {
        private SimulationClock clock;
        private int packetCount;

        @Override
        public void open(final CalculatorContext ctx)
        {
            clock = (SimulationClock)ctx.sidePacket("CLOCK");
            ctx.setOffset(0);
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            packetCount++;
            final long us = (Long)ctx.sidePacket(packetCount == 1 ? "WARMUP_TIME" : "SLEEP_TIME");
            clock.sleep(us * US);
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        }
    }

    /** MediaPipe's test graph on a simulation clock, its observers, and the test thread's part in it. */
    private static final class Simulation implements AutoCloseable
    {
        final SimulationClock clock = new SimulationClock();
        final Graph graph;
        final List<Long> out1 = syncList();
        final List<Long> out2 = syncList();
        final List<String> allow = syncList();

        Simulation(final boolean twoStreams, final long maxInQueue, final long inFlightTimeout, final long warmupUs,
            final long sleepUs, final boolean dropTimestamps)
        {
            final GraphConfig config = GraphConfig.builder()
                .clock(clock)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(4, IdleKind.PARK).scheduling(Scheduling.STEALING))
                .inputStream(twoStreams ? new String[] {"in_1", "in_2"} : new String[] {"in_1"})
                .outputStream(twoStreams ? new String[] {"out_1", "allow", "in_2_sampled"} : new String[] {"out_1", "allow"})
                .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                    .inputStream(twoStreams ? new String[] {"in_1", "in_2", "FINISHED:out_1"} :
                        new String[] {"in_1", "FINISHED:out_1"})
                    .backEdge("FINISHED")
                    .outputStream(twoStreams ? new String[] {"in_1_sampled", "in_2_sampled", "ALLOW:allow"} :
                        new String[] {"in_1_sampled", "ALLOW:allow"})
                    .option("max_in_flight", 1L).option("max_in_queue", maxInQueue)
                    .option("in_flight_timeout", inFlightTimeout))
                .node("sleeper", n -> n.calculator(SleepCalculator::new)
                    .inputSidePacket("WARMUP_TIME:warmup_time", "SLEEP_TIME:sleep_time", "CLOCK:clock")
                    .inputStream("in_1_sampled").outputStream("out_1_sampled"))
                .node("drop", n -> n.calculator(() -> FlowLimiterCalculatorTest.dropCalculator(dropTimestamps))
                    .inputStream("out_1_sampled").outputStream("out_1"))
                .build();
            graph = new Graph(config);
            graph.observe("out_1", p -> out1.add(p.getLong()));
            graph.observe("allow", p -> allow.add(p.value() + "@" + p.timestamp()));
            if (twoStreams)
            {
                graph.observe("in_2_sampled", p -> out2.add(p.getLong()));
            }
            clock.threadStart();
            graph.start(Map.of("warmup_time", warmupUs, "sleep_time", sleepUs, "clock", clock));
        }

        /** MediaPipe's {@code input_packets_[i]}: value i at i * 10 ms. */
        void add(final String stream, final int i) throws InterruptedException
        {
            graph.addPacket(stream, (long)i, i * FRAME_US);
        }

        void sleepUs(final long us) throws InterruptedException
        {
            clock.sleep(us * US);
        }

        /** MediaPipe's ending: close the sources, sleep 40 ms, wait until done. */
        void finish() throws Exception
        {
            graph.closeAllPacketSources();
            sleepUs(40_000);
            graph.waitUntilDone();
            clock.threadFinish();
        }

        int allowCount()
        {
            return snapshot(allow).size();
        }

        String lastAllow()
        {
            final List<String> seen = snapshot(allow);
            return seen.isEmpty() ? "none" : seen.get(seen.size() - 1);
        }

        @Override
        public void close()
        {
            clock.threadFinish();
            graph.close();
        }
    }

    private static List<Long> values(final int... indexes)
    {
        final List<Long> result = new ArrayList<>();
        for (final int i : indexes)
        {
            result.add((long)i);
        }
        return result;
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedTimestamps)
    @Test
    @Timeout(60)
    void finishedTimestamps() throws Exception
    {
        try (Simulation sim = new Simulation(false, 1, 0, 22_000, 22_000, false))
        {
            sim.add("in_1", 0);
            sim.sleepUs(1);
            assertEquals(1, sim.allowCount());
            assertEquals("true@0", sim.lastAllow());
            sim.sleepUs(10_000);
            for (int i = 1; i < 8; i += 2)
            {
                sim.add("in_1", i);
                sim.sleepUs(10_000);
                assertEquals(i, sim.allowCount(), "ALLOW decisions after frame " + i + " waited");
                sim.add("in_1", i + 1);
                sim.sleepUs(1);
                assertEquals(i + 1, sim.allowCount(), "after frame " + (i + 1) + " came");
                assertEquals("false@" + i * FRAME_US, sim.lastAllow(), "frame " + i + " is dropped for " + (i + 1));
                sim.sleepUs(10_000);
                assertEquals(i + 2, sim.allowCount(), "after frame " + (i + 1) + " waited");
                assertEquals("true@" + (i + 1) * FRAME_US, sim.lastAllow(), "frame " + (i + 1) + " goes in");
            }
            sim.finish();
            assertEquals(values(0, 2, 6, 8), snapshot(sim.out1), "4 is dropped downstream, its bound still FINISHES it");
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedLost)
    @Test
    @Timeout(60)
    void finishedLost() throws Exception
    {
        try (Simulation sim = new Simulation(false, 1, 100_000, 22_000, 22_000, true))
        {
            sim.add("in_1", 0);
            sim.sleepUs(10_000);
            for (int i = 1; i < 21; i++)
            {
                sim.add("in_1", i);
                sim.sleepUs(10_000);
            }
            sim.finish();
            assertEquals(values(0, 2, 14, 17, 19, 20), snapshot(sim.out1),
                "4 is lost downstream; the limiter gives up on it after in_flight_timeout");
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, FinishedDelayed)
    @Test
    @Timeout(60)
    void finishedDelayed() throws Exception
    {
        try (Simulation sim = new Simulation(false, 1, 100_000, 500_000, 22_000, false))
        {
            sim.add("in_1", 0);
            sim.sleepUs(10_000);
            for (int i = 1; i < 71; i++)
            {
                sim.add("in_1", i);
                sim.sleepUs(10_000);
            }
            sim.finish();
            assertEquals(values(0, 10, 30, 40, 50, 60, 63, 65, 67, 69, 70), snapshot(sim.out1));
        }
    }

    /** The arrivals of MediaPipe's TwoInputStreams and ZeroQueue cases: in_2 one behind, then one ahead. */
    private static void twoStreamArrivals(final Simulation sim) throws Exception
    {
        sim.add("in_1", 0);
        sim.sleepUs(10_000);
        for (int i = 1; i < 10; i++)
        {
            sim.add("in_1", i);
            sim.add("in_2", i - 1);
            sim.sleepUs(10_000);
        }
        for (int i = 10; i < 21; i++)
        {
            sim.add("in_2", i + 1);
            sim.add("in_1", i);
            sim.sleepUs(10_000);
        }
        sim.finish();
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, TwoInputStreams)
    @Test
    @Timeout(60)
    void twoInputStreams() throws Exception
    {
        try (Simulation sim = new Simulation(true, 1, 100_000, 22_000, 22_000, true))
        {
            twoStreamArrivals(sim);
            assertEquals(values(0, 2, 14, 17, 19, 20), snapshot(sim.out1));
            assertEquals(values(0, 2, 4, 14, 17, 19, 20, 21), snapshot(sim.out2));
        }
    }

    // flow_limiter_calculator_test.cc, TEST_F(FlowLimiterCalculatorTest, ZeroQueue)
    @Test
    @Timeout(60)
    void zeroQueue() throws Exception
    {
        try (Simulation sim = new Simulation(true, 0, 100_000, 12_000, 12_000, true))
        {
            twoStreamArrivals(sim);
            assertEquals(values(0, 2, 15, 17, 19), snapshot(sim.out1));
            assertEquals(values(0, 2, 4, 15, 17, 19), snapshot(sim.out2));
            final List<String> expectedAllow = FlowLimiterCalculatorTest.zeroQueueAllow();
            assertEquals(expectedAllow, snapshot(sim.allow));
        }
    }
}
