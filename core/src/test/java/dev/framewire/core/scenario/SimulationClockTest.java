package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.SimulationClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static dev.framewire.core.scenario.Scenarios.snapshot;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A graph on a {@link SimulationClock} (MediaPipe's {@code SimulationClockExecutor}): calculators
 * read simulated time through their context, time moves only when every node is idle or sleeping
 * on the clock and the test's thread sleeps on it too, and sleepers wake in the order of their
 * wake-up times, each alone, however the threads are scheduled.
 */
class SimulationClockTest
{
    private static final long MS = 1_000_000;

    @Test
    @Timeout(30)
    void calculatorsReadSimulatedTimeThroughTheirContext() throws Exception
    {
        final SimulationClock clock = new SimulationClock(5 * MS);
        final List<Long> seen = syncList();
        final GraphConfig config = GraphConfig.builder()
            .clock(clock)
            .inputStream("in")
            .outputStream("out")
            .node("stamp", n -> n.calculator(() -> ctx -> ctx.output(0).addLong(ctx.nanoTime(), ctx.inputTimestamp()))
                .inputStream("in").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> seen.add(p.getLong()));
            clock.threadStart();
            graph.start();
            for (long i = 0; i < 5; i++)
            {
                graph.addPacket("in", i, i);
                clock.sleep(10 * MS);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            clock.threadFinish();
        }
        assertEquals(List.of(5 * MS, 15 * MS, 25 * MS, 35 * MS, 45 * MS), snapshot(seen));
        assertEquals(55 * MS, clock.nanoTime());
    }

    /**
     * Two nodes sleep in their calls, 30 ms and 10 ms, on workers of their own, while the test's
     * thread sleeps 100 ms: time moves to each wake-up in turn, and each node's output carries the
     * time it woke at.
     */
    @Test
    @Timeout(30)
    void sleepersWakeInTheOrderOfTheirTimes() throws Exception
    {
        final SimulationClock clock = new SimulationClock();
        final List<String> woke = syncList();
        final GraphConfig config = GraphConfig.builder()
            .clock(clock)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in")
            .outputStream("slow", "fast")
            .node("slow", n -> n.calculator(() -> sleeper("slow", 30 * MS, woke)).inputStream("in").outputStream("slow")
                .inputSidePacket("CLOCK:clock"))
            .node("fast", n -> n.calculator(() -> sleeper("fast", 10 * MS, woke)).inputStream("in").outputStream("fast")
                .inputSidePacket("CLOCK:clock"))
            .build();
        try (Graph graph = new Graph(config))
        {
            clock.threadStart();
            graph.start(Map.of("clock", clock));
            graph.addPacket("in", 1L, 0);
            clock.sleep(100 * MS);
            assertEquals(List.of("fast@" + 10 * MS, "slow@" + 30 * MS), snapshot(woke));
            assertEquals(100 * MS, clock.nanoTime());
            graph.closeAllInputs();
            graph.waitUntilDone();
            clock.threadFinish();
        }
    }

    /** Sleeps {@code nanos} on the CLOCK side packet in each call, then notes when it woke. */
    private static Calculator sleeper(final String name, final long nanos, final List<String> woke)
    {
        return new Calculator()
        {
            @Override
            public void process(final CalculatorContext ctx) throws Exception
            {
                ((SimulationClock)ctx.sidePacket("CLOCK")).sleep(nanos);
                woke.add(name + "@" + ctx.nanoTime());
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }
        };
    }
}
