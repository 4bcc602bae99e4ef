package dev.framewire.core;

import dev.framewire.core.internal.node.Node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Local nodes ({@link ScheduleState#makeLocal()}): a node whose every producer runs on its own
 * worker is claimed and let go idle by that worker alone, with plain stores. Which nodes are local,
 * and that a claim from another thread (the start, failure isolation) is handed to the worker as a
 * command instead of racing the worker's plain stores: another thread schedules the local nodes
 * again and again while packets flow, and every packet still arrives once, in order, and the run
 * ends (a lost or doubled run shows as a missing packet, a hang, or the own-worker assertion).
 */
class LocalScheduleTest
{
    private static final int STAGES = 4;

    /** stage0 and stage1 on executor "a", stage2 and stage3 on "b", one worker each. */
    private static GraphConfig chainOverTwoWorkers()
    {
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor("a", ExecutorConfig.of(1, IdleKind.PARK))
            .executor("b", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(4)
            .inputStream("in")
            .outputStream("out");
        String upstream = "in";
        for (int i = 0; i < STAGES; i++)
        {
            final String in = upstream;
            final String out = i == STAGES - 1 ? "out" : "s" + i;
            final String on = i < 2 ? "a" : "b";
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out)
                .executor(on));
            upstream = out;
        }
        return builder.build();
    }

    private static Node node(final Graph graph, final String name)
    {
        for (final Node node : graph.run().nodes())
        {
            if (node.name.equals(name))
            {
                return node;
            }
        }
        throw new AssertionError("no node " + name);
    }

    @Test
    void aNodeIsLocalWhenEveryProducerRunsOnItsWorker() throws Exception
    {
        try (Graph graph = new Graph(chainOverTwoWorkers()))
        {
            graph.start();
            assertEquals(List.of(false, true, false, true), List.of(
                node(graph, "stage0").local, // fed by a graph input
                node(graph, "stage1").local, // by stage0, on its worker
                node(graph, "stage2").local, // by stage1, on the other worker
                node(graph, "stage3").local));
            // and so the journal may stamp their calls with their worker's last reading (see below)
            assertEquals(List.of(false, true, false, true), List.of(
                node(graph, "stage0").inputsFromItsWorker,
                node(graph, "stage1").inputsFromItsWorker,
                node(graph, "stage2").inputsFromItsWorker,
                node(graph, "stage3").inputsFromItsWorker));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * Which calls the journal may stamp with the worker's last clock reading
     * ({@code NodeFeeds.inputsAllFromItsWorker}, {@code JournalSink.processBeginSameWorker}): only a
     * node every input of which is emitted by a node pinned to the same worker. Not one fed by a
     * graph input, even one its worker polls (a local node); not a source; not a
     * {@code max_in_flight} node or one fed by it, whose calls run on any of the executor's workers.
     */
    @Test
    @Timeout(60)
    void onlyANodeFedFromItsOwnWorkerIsJournaledWithoutAHandOver() throws Exception
    {
        try (Graph graph = new Graph(GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
            .executor("lanes", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in")
            .outputStream("m")
            .outputStream("x")
            .node("polled", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("a"))
            .node("after", n -> n.calculator("PassThroughCalculator").inputStream("a").outputStream("b"))
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 3))
            .node("fed", n -> n.calculator("PassThroughCalculator").inputStream("n").outputStream("m"))
            .node("wide", n -> n.calculator("PassThroughCalculator").inputStream("b").outputStream("w")
                .executor("lanes").maxInFlight(2))
            .node("afterWide", n -> n.calculator("PassThroughCalculator").inputStream("w").outputStream("x")
                .executor("lanes"))
            .build()))
        {
            graph.start();
            assertTrue(node(graph, "polled").local, "the polled input's node is local");
            assertEquals(List.of(false, true, false, true, false, false), List.of(
                node(graph, "polled").inputsFromItsWorker, // a graph input's packets are the adder's
                node(graph, "after").inputsFromItsWorker,
                node(graph, "source").inputsFromItsWorker,
                node(graph, "fed").inputsFromItsWorker, // the source is pinned to the same worker
                node(graph, "wide").inputsFromItsWorker,
                node(graph, "afterWide").inputsFromItsWorker));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * A graph input's queue into a node on a yielding (or busy-spinning) worker is polled by that
     * worker: the adder never claims the node, so the node is local; on a parked worker the adder
     * schedules it, so it is not. Both run every packet once, in order.
     */
    @Test
    @Timeout(60)
    void aNodeFedByAPolledGraphInputIsLocal() throws Exception
    {
        for (final IdleKind idle : List.of(IdleKind.YIELD, IdleKind.PARK))
        {
            final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
            try (Graph graph = new Graph(GraphConfig.builder()
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, idle))
                .maxQueueSize(8)
                .inputStream("in")
                .outputStream("out")
                .node("hop", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
                .build()))
            {
                graph.observe("out", packet -> seen.add(packet.getLong()));
                graph.start();
                assertEquals(idle == IdleKind.YIELD, node(graph, "hop").local, idle.toString());
                final GraphInputHandle in = graph.input("in");
                for (long ts = 0; ts < 20_000; ts++)
                {
                    in.addPacket(ts, ts);
                }
                in.close();
                graph.waitUntilDone();
            }
            assertEquals(20_000, seen.size(), idle.toString());
            for (int i = 0; i < seen.size(); i++)
            {
                assertEquals(i, seen.get(i), idle.toString());
            }
        }
    }

    @Test
    @Timeout(60)
    void claimsFromOtherThreadsGoThroughTheWorkerAndLoseNoPacket() throws Exception
    {
        final int packets = 50_000;
        final AtomicLong arrived = new AtomicLong();
        final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        final AtomicBoolean stop = new AtomicBoolean();
        try (Graph graph = new Graph(chainOverTwoWorkers()))
        {
            graph.observe("out", packet ->
            {
                if (packet.timestamp() <= last.get() || packet.getLong() != packet.timestamp() * 3)
                {
                    errors.add("packet " + packet + " after " + last.get());
                }
                last.set(packet.timestamp());
                arrived.incrementAndGet();
            });
            graph.start();
            final Node[] local = {node(graph, "stage1"), node(graph, "stage3")};
            final Thread meddler = new Thread(() ->
            {
                try
                {
                    while (!stop.get())
                    {
                        for (final Node node : local)
                        {
                            node.schedule(); // as failure isolation does, from a thread that is not the node's worker
                        }
                        Thread.yield();
                    }
                }
                catch (final Throwable t)
                {
                    errors.add("the meddler failed: " + t);
                }
            }, "meddler");
            meddler.start();
            try
            {
                for (long ts = 0; ts < packets; ts++)
                {
                    graph.addPacket("in", ts * 3, ts);
                }
                graph.closeInput("in");
                assertTrue(graph.awaitDone(30, TimeUnit.SECONDS), graph.report());
            }
            finally
            {
                stop.set(true);
                meddler.join();
            }
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors.size() > 10 ? errors.subList(0, 10) : errors);
        assertEquals(packets, arrived.get());
    }
}
