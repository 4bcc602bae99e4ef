package dev.framewire.core.execution;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §3.1: the watchdog fails a run in which work is pending and nothing has progressed for
 * its timeout, with a report whose verdict names the culprit. Here a node is stuck on a latch.
 */
@Timeout(30)
class WatchdogTest
{
    @Test
    void aNodeStuckOnALatchFailsTheRunWithAVerdictNamingItAndItsStack() throws Exception
    {
        final CountDownLatch never = new CountDownLatch(1);
        final GraphConfig config = parked(1).timeoutGuardMillis(300)
            .node("src", n -> n.calculator(() -> frameSource(5, 8, 8)).outputStream("frames"))
            .node("stuck", n -> n.calculator(() -> ctx ->
            {
                if (ctx.inputTimestamp() == 3)
                {
                    never.await(); // what a hung device read or a forgotten lock looks like
                }
            }).inputStream("frames"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final GraphException failure;
            try
            {
                graph.start();
                assertTrue(graph.awaitDone(20, TimeUnit.SECONDS), "the watchdog did not end the run");
            }
            finally
            {
                never.countDown(); // let the worker go, so that the run can stop
            }
            failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertEquals(1, failure.failures().size(), failure.getMessage());
            final GraphFailure guard = failure.failures().get(0);
            assertEquals("watchdog", guard.node());
            assertEquals(Timestamp.UNSET, guard.timestamp());
            final String report = guard.cause().getMessage();
            final String[] lines = report.split("\n");
            assertTrue(lines[0].startsWith("no node has run for "), report);
            assertTrue(lines[1].startsWith("verdict: node 'stuck' has been in a call for input timestamp 3 for "),
                report);
            assertTrue(report.contains("in node 'stuck'"), report);
            assertTrue(report.contains("java.util.concurrent.CountDownLatch.await("), "the stuck worker's stack:\n" +
                report);
            assertTrue(report.contains("dev.framewire.core.execution.WatchdogTest.lambda$"), "down to the calculator:\n" +
                report);
        }
    }
}
