package dev.framewire.core.execution;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphAnalysis;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failure names what failed: an observer that throws is blamed, not the node whose output fed
 * it; a worker pinned to a CPU this process cannot run on is refused at validation, naming the
 * executor, the worker and the field, not failed at run time as a node called {@code worker}.
 */
@Timeout(30)
class FailureBlameTest
{
    private static GraphConfig.Builder countToPass(final long count)
    {
        return parked(1)
            .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", count))
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("n").outputStream("out"))
            .outputStream("out");
    }

    @ParameterizedTest
    @EnumSource(value = FailurePolicy.class, names = {"FAIL_RUN", "DROP_TIMESTAMP"})
    void anObserverThatThrowsIsBlamedNotTheNodeThatFedIt(final FailurePolicy policy) throws Exception
    {
        final List<Long> seen = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(countToPass(5).failurePolicy(policy).build()))
        {
            graph.observe("out", packet ->
            {
                if (packet.timestamp() == 3)
                {
                    throw new IllegalStateException("display gone");
                }
                seen.add(packet.timestamp());
            });
            graph.start();
            final List<GraphFailure> failures;
            if (policy == FailurePolicy.FAIL_RUN)
            {
                failures = assertThrows(GraphException.class, graph::waitUntilDone).failures();
            }
            else
            {
                graph.waitUntilDone();
                failures = graph.failures();
                assertEquals(List.of(0L, 1L, 2L, 4L), seen, "the run went on past the observer's failure");
            }
            assertEquals(1, failures.size(), String.valueOf(failures));
            final GraphFailure failure = failures.get(0);
            assertTrue(failure.node().startsWith("observer of stream 'out' ("), failure.node());
            assertEquals(3, failure.timestamp(), "the packet the observer was given");
            final String text = failure.toString();
            assertTrue(text.startsWith("observer of stream 'out' (") && text.contains(") at input timestamp 3: "),
                text);
            assertTrue(text.contains("threw on the packet at 3: java.lang.IllegalStateException: display gone"), text);
            assertFalse(text.contains("node 'pass'"), text);
        }
    }

    @Test
    void aNodeThatThrowsIsStillBlamedByName() throws Exception
    {
        final GraphConfig config = parked(1)
            .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 5))
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                throw new IllegalStateException("bad input");
            }).inputStream("n").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphFailure failure = assertThrows(GraphException.class, graph::waitUntilDone).failures().get(0);
            assertEquals("boom", failure.node());
            assertTrue(failure.toString().startsWith("node 'boom' at input timestamp 0: "), failure.toString());
        }
    }

    @Test
    void aCpuThisProcessCannotRunOnIsRefusedAtValidationNamingTheExecutorAndTheField()
    {
        final GraphConfig config = countToPass(5)
            .executor("fast", ExecutorConfig.of(2, IdleKind.PARK).pinnedTo(0, 999))
            .build();
        for (final Runnable check : List.<Runnable>of(() -> new Graph(config), () -> GraphAnalysis.of(config)))
        {
            final GraphConfigException ex = assertThrows(GraphConfigException.class, check::run);
            assertTrue(ex.getMessage().contains("executor 'fast' pins worker 1 to CPU 999 (field cpu), which this " +
                "process cannot run on; valid are the CPUs "), ex.getMessage());
            assertFalse(ex.getMessage().contains("worker'"), ex.getMessage());
        }
    }

    @Test
    void aFailureOutsideANodeWithoutATimestampSaysWhatFailedAndNoTimestamp()
    {
        final GraphFailure failure = new GraphFailure("worker framewire-fast-1", Timestamp.UNSET,
            new IllegalStateException("x"));
        assertEquals("worker framewire-fast-1: java.lang.IllegalStateException: x", failure.toString());
    }
}
