package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CalculatorContext#reportLine}: a calculator's own line under its node's in
 * {@link Graph#report()}, made on the reporting thread while the run goes on and after it ended;
 * a line that throws leaves the rest of the report whole and says it failed.
 */
@Timeout(30)
class ReportLineTest
{
    /** Counts its packets in a volatile field and shows the count, on two lines, in reports. */
    private static final class Counting implements Calculator
    {
        volatile long packets;

        @Override
        public void open(final CalculatorContext ctx)
        {
            ctx.reportLine(sb -> sb.append("counted ").append(packets).append(" packets\nlast line"));
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            packets++;
        }
    }

    private static GraphConfig.Builder twoNodes(final Calculator counting, final Calculator other)
    {
        return GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .inputStream("in")
            .node("counter", n -> n.calculator(() -> counting).inputStream("in"))
            .node("other", n -> n.calculator(() -> other).inputStream("in"));
    }

    @Test
    void aCalculatorsLineShowsItsFiguresUnderItsNodeWhileRunningAndAfter() throws Exception
    {
        final Counting counting = new Counting();
        try (Graph graph = new Graph(twoNodes(counting, ctx -> { }).build()))
        {
            graph.start();
            for (long ts = 0; ts < 3; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            awaitCondition("three packets counted", 10_000, () -> counting.packets == 3);

            final String running = graph.report();
            final int node = running.indexOf("  counter [open");
            assertTrue(node >= 0, running);
            final String afterNode = running.substring(running.indexOf('\n', node) + 1);
            assertTrue(afterNode.startsWith("    counted 3 packets\n    last line\n    input 'in'"), running);
            assertFalse(running.substring(running.indexOf("  other [")).contains("counted"),
                "only the node that asked has the line:\n" + running);

            graph.addPacket("in", 4L, 4);
            graph.closeAllInputs();
            graph.waitUntilDone();
            final String done = graph.report();
            assertTrue(done.contains("  counter [closed") && done.contains("    counted 4 packets\n"), done);
        }
    }

    @Test
    void aLineThatThrowsSaysSoAndLeavesTheRestOfTheReportWhole() throws Exception
    {
        final Calculator broken = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.reportLine(sb ->
                {
                    sb.append("half a line");
                    throw new IllegalStateException("no figures yet");
                });
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
            }
        };
        final Counting counting = new Counting();
        try (Graph graph = new Graph(twoNodes(counting, broken).build()))
        {
            graph.start();
            graph.addPacket("in", 1L, 0);
            awaitCondition("the packet counted", 10_000, () -> counting.packets == 1);

            final String report = graph.report();
            assertTrue(report.contains("\n    the report line of node 'other' (" + broken.getClass().getName() +
                ") failed: java.lang.IllegalStateException: no figures yet\n    input 'in'"), report);
            assertFalse(report.contains("half a line"), report);
            assertTrue(report.contains("    counted 1 packets\n"), "the other node's line is made:\n" + report);
            assertTrue(report.contains("workers:\n"), "the report goes on to its end:\n" + report);

            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(1, graph.callCount("other"), "the failed line does not touch the run");
        }
    }
}
