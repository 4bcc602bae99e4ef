package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.show;
import static dev.framewire.core.policy.PolicyFixtures.snapshot;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static dev.framewire.core.policy.PolicyFixtures.valueOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cycles: any cycle must be closed by a declared back edge (MediaPipe's
 * {@code input_stream_info { back_edge: true }}), otherwise the config is rejected naming the nodes
 * on it. A running sum closes the loop through a one-step delay; the early-close policy lets the
 * loop end when its real input ends (the loop's own input never would).
 */
class CycleTest
{
    /** Sums its input with the previous sum fed back on LOOP, into a new frame. */
    private static final class Accumulate implements Calculator
    {
        private final List<String> log;

        Accumulate(final List<String> log)
        {
            this.log = log;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            log.add(show(ctx));
            final Input in = ctx.input("in");
            if (in.isEmpty())
            {
                return;
            }
            final Input loop = ctx.input("LOOP");
            final long previous = loop.isEmpty() ? 0 : loop.payload().buffer().getLong(0);
            final Payload sum = ctx.pool().acquireFrame(4, 4, PixelFormat.GRAY8);
            sum.mutableBuffer().putLong(0, previous + in.payload().buffer().getLong(0));
            ctx.output(0).add(sum, ctx.inputTimestamp());
        }

        @Override
        public void close(final CalculatorContext ctx)
        {
            log.add("close");
        }
    }

    /** Emits its input one timestamp later (the payload by reference). */
    private static final class Delay implements Calculator
    {
        @Override
        public void process(final CalculatorContext ctx)
        {
            ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp() + 1);
        }
    }

    private static GraphConfig runningSum(final List<String> log, final boolean backEdge)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("accumulate", n ->
            {
                n.calculator(() -> new Accumulate(log)).inputStream("in", "LOOP:loop").outputStream("sum")
                    .inputPolicy(InputPolicy.earlyClose());
                if (backEdge)
                {
                    n.backEdge("LOOP");
                }
            })
            .node("delay", n -> n.calculator(Delay::new).inputStream("sum").outputStream("loop"))
            .outputStream("sum")
            .build();
    }

    @Test
    @Timeout(20)
    void aCycleWithoutABackEdgeIsRejectedNamingItsNodes()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(runningSum(syncList(), false)).close());
        assertEquals(1, ex.errors().size(), ex.getMessage());
        final String error = ex.errors().get(0);
        assertTrue(error.contains("cycle through nodes [accumulate, delay]") ||
            error.contains("cycle through nodes [delay, accumulate]"), error);
        assertTrue(error.contains("back edge"), "says what to declare: " + error);
    }

    @Test
    @Timeout(20)
    void theSameCycleWithABackEdgeRuns() throws Exception
    {
        final List<String> log = syncList();
        final List<String> sums = syncList();
        try (Graph graph = new Graph(runningSum(log, true)))
        {
            graph.observe("sum", p -> sums.add(valueOf(p.value()) + "@" + p.timestamp()));
            graph.start();
            for (long ts = 0; ts < 5; ts++)
            {
                addFrame(graph, "in", ts + 1, ts);
                graph.waitUntilIdle();
            }
            assertDrained(List.of(
                "0: 1@0 _@0",
                "1: 2@1 1@1",
                "2: 3@2 3@2",
                "3: 4@3 6@3",
                "4: 5@4 10@4"), log, "the back edge holds up only the first timestamp's wait");
            assertEquals(List.of("1@0", "3@1", "6@2", "10@3", "15@4"), snapshot(sums));

            graph.closeInput("in");
            graph.waitUntilDone();
            assertDrained(List.of("close"), log, "in done: the loop closes early");
            assertEquals(1, graph.dropCount("accumulate"), "the sum fed back at 5 is dropped and released");
        }
    }
}
