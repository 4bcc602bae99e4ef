package dev.framewire.core.execution;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Graph inputs into a node on a yielding (or busy-spinning) worker are polled by the worker rather
 * than scheduled by the adding thread. The adder's packets, bounds and close must still reach the
 * node, {@code waitUntilIdle} must not return while a packet sits unseen in a polled queue, and a
 * join must move on a bound that arrives alone.
 */
class PolledInputTest
{
    private static GraphConfig.Builder joinGraph()
    {
        return GraphConfig.builder()
            .inputStream("a")
            .inputStream("b")
            .node("join", n -> n.calculator("PassThroughCalculator").inputStream("a").inputStream("b")
                .outputStream("a_out").outputStream("b_out"))
            .outputStream("a_out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD));
    }

    @Test
    @Timeout(60)
    void waitUntilIdleSeesEveryPacketAddedBeforeIt() throws Exception
    {
        for (int run = 0; run < 50; run++)
        {
            final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
            try (Graph graph = new Graph(joinGraph().build()))
            {
                graph.observe("a_out", p -> seen.add(p.timestamp()));
                graph.start();
                for (long ts = 0; ts < 200; ts++)
                {
                    graph.addPacket("a", ts, ts);
                    graph.setInputBound("b", ts + 1);
                    if (ts % 20 == 19)
                    {
                        graph.waitUntilIdle();
                        assertEquals(ts + 1, seen.size(), "run " + run + ": idle before timestamp " + ts + " was out");
                    }
                }
                graph.closeAllInputs();
                graph.waitUntilDone();
            }
            assertEquals(200, seen.size());
        }
    }

    @Test
    @Timeout(60)
    void aBoundAloneSettlesTheJoinAndCloseEndsTheRun() throws Exception
    {
        final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(joinGraph().build()))
        {
            graph.observe("a_out", p -> seen.add(p.timestamp()));
            graph.start();
            graph.addPacket("a", 1L, 10);
            graph.waitUntilIdle();
            assertEquals(List.of(), seen, "b has not settled 10 yet");
            graph.setInputBound("b", 11);
            graph.waitUntilIdle();
            assertEquals(List.of(10L), seen, "the bound alone, polled, settles 10");
            graph.addPacket("a", 2L, 20);
            graph.closeInput("b");
            graph.closeInput("a");
            graph.waitUntilDone();
            assertEquals(List.of(10L, 20L), seen);
        }
    }
}
