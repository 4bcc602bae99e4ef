package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.scenario.Scenarios.show;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The default policy's promise: the same inputs give the same input sets in the same order,
 * whatever the threads do. A diamond, whose branches emit on different subsets of timestamps,
 * joins into a default-policy node; random small delays inside every calculator (and between
 * adds) shake the timing; 100 runs on one worker and 100 on two all see the same input sets.
 */
class DeterminismTest
{
    private static final int TIMESTAMPS = 60;
    private static final int RUNS = 100;

    /** Emits input 0 on output 0 when {@code ts % modulus == 0}; offset 0, so its bound always follows. */
    private static final class EveryNth implements Calculator
    {
        private final long modulus;
        private final Random random;

        EveryNth(final long modulus, final long seed)
        {
            this.modulus = modulus;
            this.random = new Random(seed);
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            ctx.setOffset(0);
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            LockSupport.parkNanos(random.nextInt(50_000));
            final long ts = ctx.inputTimestamp();
            if (ts % modulus == 0)
            {
                ctx.output(0).addLong(ctx.input(0).getLong() * modulus, ts);
            }
        }
    }

    private static List<String> run(final ExecutorConfig executor, final long seed) throws Exception
    {
        final List<String> sets = syncList();
        final Random joinDelays = new Random(seed ^ 0x5DEECE66DL);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("halves", n -> n.calculator(() -> new EveryNth(2, seed)).inputStream("in").outputStream("h"))
            .node("thirds", n -> n.calculator(() -> new EveryNth(3, seed + 1)).inputStream("in").outputStream("t"))
            .node("join", n -> n.calculator(() -> ctx ->
            {
                LockSupport.parkNanos(joinDelays.nextInt(50_000));
                sets.add(show(ctx));
            }).inputStream("h", "t"))
            .executor("default", executor)
            .maxQueueSize(8)
            .build();
        final Random addDelays = new Random(seed + 2);
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < TIMESTAMPS; ts++)
            {
                graph.addPacket("in", ts, ts);
                if (addDelays.nextBoolean())
                {
                    LockSupport.parkNanos(addDelays.nextInt(50_000));
                }
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return sets;
    }

    private static List<String> expected()
    {
        final List<String> expected = new ArrayList<>();
        for (long ts = 0; ts < TIMESTAMPS; ts++)
        {
            if (ts % 2 == 0 || ts % 3 == 0)
            {
                expected.add(ts + ":" + (ts % 2 == 0 ? Long.toString(ts * 2) : "-") + "," +
                    (ts % 3 == 0 ? Long.toString(ts * 3) : "-"));
            }
        }
        return expected;
    }

    private static void assertDeterministic(final ExecutorConfig executor) throws Exception
    {
        final List<String> expected = expected();
        for (int r = 0; r < RUNS; r++)
        {
            assertEquals(expected, run(executor, 1000L * r), "run " + r + " on " + executor);
        }
    }

    @Test
    @Timeout(90)
    void sameInputSetsOnOneWorker() throws Exception
    {
        assertDeterministic(ExecutorConfig.of(1, IdleKind.PARK));
    }

    @Test
    @Timeout(90)
    void sameInputSetsOnTwoWorkers() throws Exception
    {
        assertDeterministic(ExecutorConfig.of(2, IdleKind.PARK));
    }

    @Test
    @Timeout(90)
    void sameInputSetsOnTwoYieldingWorkers() throws Exception
    {
        final List<String> expected = expected();
        for (int r = 0; r < RUNS / 4; r++)
        {
            assertEquals(expected, run(ExecutorConfig.of(2, IdleKind.YIELD), 7L * r), "run " + r);
        }
    }
}
