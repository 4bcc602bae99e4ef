package dev.framewire.core;

import dev.framewire.core.internal.sched.Worker;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run whose workers get no thread ({@link Graph#startWithoutWorkerThreads()}), driven by the test's
 * thread as {@code HopPathBenchmark} drives it: the packets go through and the run ends as a
 * threaded one does.
 */
class DrivenRunTest
{
    @Test
    void theCallerRunsTheWorkersDutyCyclesAndTheRunEnds() throws Exception
    {
        final Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("hop", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.BUSY_SPIN))
            .build());
        final List<Long> seen = new ArrayList<>();
        graph.observe("out", packet -> seen.add(packet.getLong()));
        try
        {
            final List<Worker> workers = graph.run().startWithoutWorkerThreads();
            assertEquals(1, workers.size());
            final Worker worker = workers.get(0);
            worker.onStart();
            assertTrue(Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.getName().equals(worker.name)),
                "a thread named after the worker runs: the start gave the worker a thread");
            final GraphInputHandle in = graph.input("in");
            worker.doWork(); // the start queued the node: this cycle opens it
            for (long ts = 1; ts <= 100; ts++)
            {
                assertTrue(in.tryAddPacket(ts * 10, ts));
                assertFalse(seen.contains(ts * 10), "nothing runs the node but this thread");
                worker.doWork(); // one duty cycle: polls the input, runs the node
                assertEquals(ts * 10, seen.get(seen.size() - 1));
            }
            in.close();
            driveToEnd(graph, worker);
            assertEquals(100, seen.size());
        }
        finally
        {
            graph.close();
        }
    }

    /**
     * The worker's poll runs a polled node at once only when nothing else is queued: with a deeper
     * node already on the heap, the heap's order (deeper first, MediaPipe's) still decides.
     */
    @Test
    void aPolledNodeWaitsBehindADeeperQueuedNode() throws Exception
    {
        final Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("first", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("second", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.BUSY_SPIN))
            .build());
        final List<String> calls = new ArrayList<>();
        graph.observe("mid", packet -> calls.add("first@" + packet.timestamp()));
        graph.observe("out", packet -> calls.add("second@" + packet.timestamp()));
        try
        {
            final Worker worker = graph.run().startWithoutWorkerThreads().get(0);
            worker.onStart();
            while (worker.doWork() > 0)
            {
                // opens both nodes
            }
            final GraphInputHandle in = graph.input("in");
            assertTrue(in.tryAddPacket(1, 1L));
            worker.doWork(); // polls the input and runs "first", which queues "second" on the heap
            assertEquals(List.of("first@1"), calls);
            assertTrue(in.tryAddPacket(2, 2L));
            worker.doWork(); // "first" is ready again, but "second" is queued and deeper
            assertEquals(List.of("first@1", "second@1"), calls);
            worker.doWork();
            worker.doWork();
            assertEquals(List.of("first@1", "second@1", "first@2", "second@2"), calls);
            in.close();
            driveToEnd(graph, worker);
        }
        finally
        {
            graph.close();
        }
    }

    /** Runs duty cycles until the run ends (its inputs closed), then waits for it, throwing its failure. */
    private static void driveToEnd(final Graph graph, final Worker worker) throws Exception
    {
        for (int cycles = 0; cycles < 1000 && !graph.awaitDone(0, TimeUnit.NANOSECONDS); cycles++)
        {
            worker.doWork();
        }
        assertTrue(graph.awaitDone(0, TimeUnit.NANOSECONDS), graph::report);
        graph.waitUntilDone();
    }
}
