package dev.framewire.core.execution;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.stream.Collectors;

import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A node's failure is one WARN line (where, timestamp, the cause's first line), not a stack trace:
 * a graph under DROP_TIMESTAMP whose node fails now and then filled the log with traces. The
 * causes stay whole in {@code Graph.failures()}; their traces go to DEBUG.
 */
@Timeout(30)
class FailureLogLinesTest
{
    @Test
    void eachFailureIsOneWarnLineWithoutAStackTrace() throws Exception
    {
        final GraphConfig config = parked(1)
            .failurePolicy(FailurePolicy.DROP_TIMESTAMP)
            .node("count", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 6))
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                if (ctx.inputTimestamp() % 2 == 1)
                {
                    throw new IllegalStateException("odd input\nsecond line of the message");
                }
            }).inputStream("n"))
            .build();
        final String log;
        try (Graph graph = new Graph(config))
        {
            log = Execution.runCapturingLog(graph);
            assertEquals(3, graph.failureCount());
            assertEquals(1, graph.failures().get(0).cause().getStackTrace().length > 0 ? 1 : 0, "the cause is whole");
        }
        final List<String> lines = log.lines().filter(l -> l.contains("boom")).collect(Collectors.toList());
        assertEquals(List.of(
            "WARN dev.framewire.core.Graph - node 'boom' at input timestamp 1: java.lang.IllegalStateException: odd " +
                "input [...]",
            "WARN dev.framewire.core.Graph - node 'boom' at input timestamp 3: java.lang.IllegalStateException: odd " +
                "input [...]",
            "WARN dev.framewire.core.Graph - node 'boom' at input timestamp 5: java.lang.IllegalStateException: odd " +
                "input [...]"),
            lines.stream().map(l -> l.substring(l.indexOf("WARN"))).collect(Collectors.toList()), log);
        assertFalse(log.contains("\tat "), "no stack trace at WARN: " + log);
        assertFalse(log.contains("second line of the message"), log);
    }
}
