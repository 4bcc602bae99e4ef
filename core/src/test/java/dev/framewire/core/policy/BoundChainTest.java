package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.policy.PolicyFixtures.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.policy.PolicyFixtures.addFrame;
import static dev.framewire.core.policy.PolicyFixtures.assertDrained;
import static dev.framewire.core.policy.PolicyFixtures.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Timestamp bounds through a chain of nodes that emit nothing for some timestamps: a gate that
 * drops (offset 0), a pass-through (offset 0), and a calculator that emits nothing for odd
 * timestamps but declares offset 0. The default-policy join at the end must not wait: it sees the
 * input set of timestamp T before any packet above T has entered the graph.
 */
class BoundChainTest
{
    /** Passes even timestamps on and emits nothing for odd ones; offset 0 moves the bound anyway. */
    private static final class EvenOnly implements Calculator
    {
        @Override
        public void open(final CalculatorContext ctx)
        {
            ctx.setOffset(0);
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            if (ctx.inputTimestamp() % 2 == 0)
            {
                ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
            }
        }
    }

    @Test
    @Timeout(20)
    void aJoinAfterSilentNodesDoesNotWait() throws Exception
    {
        final List<String> join = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b", "allow")
            .node("gate", n -> n.calculator("GateCalculator").inputStream("b", "ALLOW:allow").outputStream("b1"))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("b1").outputStream("b2"))
            .node("even", n -> n.calculator(EvenOnly::new).inputStream("b2").outputStream("b3"))
            .node("join", n -> n.calculator(() -> new Recorder(join)).inputStream("a", "b3"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= 6; ts++)
            {
                final boolean allow = ts % 3 != 0;
                graph.addPacket("allow", allow, ts);
                addFrame(graph, "b", ts);
                addFrame(graph, "a", ts);
                graph.waitUntilIdle();
                final boolean through = allow && ts % 2 == 0;
                assertDrained(List.of(ts + ": " + ts + "@" + ts + " " + (through ? ts : "_") + "@" + ts), join,
                    "timestamp " + ts + (allow ? "" : ", dropped by the gate") + (ts % 2 == 1 ? ", silent node" : "") +
                        ": settled at once");
            }
            assertEquals(2, graph.dropCount("gate"), "the gate dropped 3 and 6");

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), join, "close");
        }
    }

    /** The same, with the join's other input arriving first: the chain's bound alone settles it. */
    @Test
    @Timeout(20)
    void theChainsBoundSettlesTheJoinWhenTheOtherPacketIsAlreadyThere() throws Exception
    {
        final List<String> join = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("b").outputStream("b1"))
            .node("even", n -> n.calculator(EvenOnly::new).inputStream("b1").outputStream("b2"))
            .node("pass2", n -> n.calculator("PassThroughCalculator").inputStream("b2").outputStream("b3"))
            .node("join", n -> n.calculator(() -> new Recorder(join)).inputStream("a", "b3"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= 4; ts++)
            {
                addFrame(graph, "a", ts);
                graph.waitUntilIdle();
                assertDrained(List.of(), join, "a@" + ts + " waits for the chain");
                addFrame(graph, "b", ts);
                graph.waitUntilIdle();
                assertDrained(List.of(ts + ": " + ts + "@" + ts + " " + (ts % 2 == 0 ? ts : "_") + "@" + ts), join,
                    "b@" + ts + " settles " + ts + " through three nodes");
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertDrained(List.of("close"), join, "close");
        }
    }
}
