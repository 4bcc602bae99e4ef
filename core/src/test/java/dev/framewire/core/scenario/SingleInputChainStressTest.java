package dev.framewire.core.scenario;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphStats;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chain of one-input pass-through nodes (offset 0, the default policy) whose every hop crosses
 * between two workers, fed by the test thread with packets and bound-only moves: every packet
 * arrives once and in order, and the run ends. A node whose last look found its input empty must
 * still be run again for a packet or bound that arrives between that look and going idle, from
 * another thread (the dirty mark) or from its own worker (a producer that runs after it); a lost
 * wake-up shows here as a run that never ends, and deadlock avoidance (which cannot be needed in a chain)
 * must not raise a queue limit while it runs.
 */
class SingleInputChainStressTest
{
    private static final int STAGES = 6;

    private static void chain(final IdleKind idle, final int packets) throws Exception
    {
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor("a", ExecutorConfig.of(1, idle))
            .executor("b", ExecutorConfig.of(1, idle))
            .maxQueueSize(4)
            .inputStream("in")
            .outputStream("out");
        String upstream = "in";
        for (int i = 0; i < STAGES; i++)
        {
            final String in = upstream;
            final String out = i == STAGES - 1 ? "out" : "s" + i;
            final String on = i % 2 == 0 ? "a" : "b";
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out)
                .executor(on));
            upstream = out;
        }
        final AtomicLong arrived = new AtomicLong();
        final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
        final List<String> errors = syncList();
        try (Graph graph = new Graph(builder.build()))
        {
            graph.observe("out", packet ->
            {
                if (packet.timestamp() <= last.get() || packet.getLong() != packet.timestamp() * 7)
                {
                    errors.add("packet " + packet + " after " + last.get());
                }
                last.set(packet.timestamp());
                arrived.incrementAndGet();
            });
            graph.start();
            long ts = 0;
            for (int i = 0; i < packets; i++)
            {
                graph.addPacket("in", ts * 7, ts);
                ts += 1 + (i % 3);
                if (i % 5 == 0)
                {
                    graph.setInputBound("in", ts); // a bound-only move between packets
                }
            }
            // a chain never deadlocks: deadlock avoidance must not have raised a limit of a running chain (a
            // look at the nodes while an adder had pushed and not yet scheduled, or a node ran, once did)
            for (final GraphStats.NodeStats node : graph.stats().nodes())
            {
                for (final GraphStats.InputStats input : node.inputs())
                {
                    assertEquals(4, input.limit(), node.name() + " " + input.stream() + ": " + graph.report());
                }
            }
            graph.closeInput("in");
            assertTrue(graph.awaitDone(30, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors.size() > 10 ? errors.subList(0, 10) : errors);
        assertEquals(packets, arrived.get());
    }

    @Test
    @Timeout(60)
    void parkingWorkers() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            chain(IdleKind.PARK, 30_000);
        }
    }

    @Test
    @Timeout(60)
    void yieldingWorkers() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            chain(IdleKind.YIELD, 30_000);
        }
    }
}
