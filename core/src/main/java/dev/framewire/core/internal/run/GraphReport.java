package dev.framewire.core.internal.run;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Lane;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SourceRetry;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.InputPort;

import java.util.function.Consumer;

/**
 * The text of {@link Graph#report()}: a verdict (the culprit in one sentence), then every node,
 * queue, poller and worker, and who holds off-heap memory. Read from any thread while the run goes
 * on: every figure is a racy snapshot, for diagnostics.
 */
public final class GraphReport
{
    private GraphReport()
    {
    }

    /**
     * The report of {@code graph} now.
     *
     * @param graph the graph.
     * @return several lines.
     */
    public static String of(final Run graph)
    {
        final StringBuilder sb = new StringBuilder(1024);
        final long now = graph.config().clock().nanoTime();
        sb.append("verdict: ").append(verdict(graph, now)).append('\n');
        sb.append("nodes:\n");
        for (final Node node : graph.nodes())
        {
            sb.append("  ").append(node.name).append(" [").append(lifecycleName(node.lifecycle)).append(", ")
                .append(stateName(node.state()));
            if (node.lanes == null)
            {
                sb.append(", worker ").append(node.worker.name()).append(']');
            }
            else
            {
                sb.append(", executor '").append(node.config.executor()).append("', ").append(node.callsInFlight())
                    .append(" of max_in_flight ").append(node.lanes.count()).append(" calls in flight]");
            }
            if (node.lanes == null && Worker.of(node).current() == node)
            {
                final long callNanos = Worker.of(node).observedCallNanos(now);
                if (callNanos >= 0)
                {
                    sb.append(" in a call for input timestamp ").append(Timestamp.toString(node.inputTimestamp))
                        .append(" for ").append(callNanos / 1_000_000).append(" ms");
                }
            }
            if (node.isThrottled())
            {
                sb.append(" held back by a full queue");
            }
            if (node.lifecycle == Node.UNOPENED)
            {
                sb.append(graph.outputSidePackets.waitedFor(node));
            }
            if (node.drops > 0)
            {
                sb.append(", ").append(node.drops).append(" dropped");
            }
            final SourceRetry retry = node.retry;
            final int failedCalls = retry == null ? 0 : retry.failedCalls(); // racy: diagnostics
            if (failedCalls > 0)
            {
                sb.append(", its last ").append(failedCalls).append(failedCalls == 1 ? " call" : " calls")
                    .append(" failed (called again").append(retry.retryAtNanos != 0 ? " after a wait)" : ")");
            }
            sb.append('\n');
            final Consumer<StringBuilder> line = node.reportLine;
            if (line != null)
            {
                appendLine(sb, node, line);
            }
            for (final InputPort port : node.inputs)
            {
                final InputQueue queue = port.queue;
                sb.append("    input '").append(queue.streamName).append("': ").append(queue.size()).append(" queued");
                if (queue.limit != Integer.MAX_VALUE)
                {
                    sb.append(" (limit ").append(queue.limit).append(queue.isFull() ? ", FULL" : "").append(')');
                }
                sb.append(", bound ").append(Timestamp.toString(queue.boundRacy())).append('\n');
            }
        }
        for (final InputQueue queue : graph.pollerQueues())
        {
            sb.append("  poller of '").append(queue.streamName).append("': ").append(queue.size())
                .append(" queued (limit ").append(queue.limit).append(")\n");
        }
        if (graph.memory.holdsSources())
        {
            sb.append("memory: ").append(memory(graph).replace("\n", "\n  ")).append('\n');
        }
        sb.append("workers:\n");
        for (final Worker worker : graph.workers())
        {
            final Node current = worker.current();
            sb.append("  ").append(worker.name).append(" [").append(worker.lifecycleName()).append("] ")
                .append(current == null ? "idle" : "in node '" + current.name + "'").append(", ")
                .append(worker.queued()).append(" queued, ").append(worker.runs).append(" runs\n");
            final Thread thread = worker.thread;
            if (current != null && thread != null)
            {
                for (final StackTraceElement frame : thread.getStackTrace())
                {
                    sb.append("      at ").append(frame).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * The calculator's own line under its node's (see {@link CalculatorContext#reportLine}), each
     * line it writes indented; one that throws leaves what it wrote out and says how it failed.
     */
    private static void appendLine(final StringBuilder sb, final Node node, final Consumer<StringBuilder> line)
    {
        sb.append("    ");
        final int start = sb.length();
        try
        {
            line.accept(sb);
        }
        catch (final VirtualMachineError error)
        {
            throw error;
        }
        catch (final Throwable ex)
        {
            sb.setLength(start);
            sb.append("the report line of node '").append(node.name).append("' (").append(node.calculator.getClass()
                .getName()).append(") failed: ").append(ex);
        }
        for (int i = sb.length() - 1; i >= start; i--)
        {
            if (sb.charAt(i) == '\n')
            {
                sb.insert(i + 1, "    ");
            }
        }
        sb.append('\n');
    }

    /**
     * The culprit in one sentence: the node a worker has been stuck in longest, else the full
     * queues, else the inputs whose bound does not settle for a node with packets waiting.
     */
    private static String verdict(final Run graph, final long now)
    {
        Node stuck = null;
        long stuckAt = Timestamp.UNSET;
        Worker stuckOn = null;
        long longest = -1;
        for (final Worker worker : graph.workers())
        {
            final Node current = worker.current();
            final Lane lane = worker.currentLane; // a max_in_flight call: its own timestamp
            final long callNanos = worker.observedCallNanos(now);
            if (current != null && callNanos > longest)
            {
                longest = callNanos;
                stuck = current;
                stuckAt = lane != null ? lane.timestamp : current.inputTimestamp;
                stuckOn = worker;
            }
        }
        if (stuck != null)
        {
            return "node '" + stuck.name + "' has been in a call for input timestamp " +
                Timestamp.toString(stuckAt) + " for " + longest / 1_000_000 + " ms, on worker " + stuckOn.name;
        }
        final StringBuilder full = new StringBuilder();
        for (final InputQueue queue : graph.queues())
        {
            if (queue.isFull())
            {
                full.append(full.length() == 0 ? "" : "; ").append(queue).append(" is full (").append(queue.size())
                    .append(" of ").append(queue.limit).append(')');
            }
        }
        if (full.length() > 0)
        {
            return full.toString();
        }
        final StringBuilder unsettled = new StringBuilder();
        for (final Node node : graph.nodes())
        {
            boolean waiting = false;
            for (final InputPort port : node.inputs)
            {
                waiting |= port.queue.size() > 0;
            }
            if (!waiting || node.lifecycle != Node.OPEN)
            {
                continue;
            }
            for (final InputPort port : node.inputs)
            {
                if (port.queue.size() == 0 && port.queue.boundRacy() < Timestamp.ONE_OVER_POST_STREAM)
                {
                    unsettled.append(unsettled.length() == 0 ? "" : "; ").append("node '").append(node.name)
                        .append("' has packets waiting but input '").append(port.streamName)
                        .append("' does not settle past ").append(Timestamp.toString(port.queue.boundRacy()));
                }
            }
        }
        if (unsettled.length() > 0)
        {
            return unsettled.toString();
        }
        if (graph.memory.holdsSources())
        {
            return "sources are held back at the memory soft limit (" + graph.pool().budget().bytesInUse() + " B in use, " +
                "soft limit " + graph.pool().budget().softLimitBytes() + " B) and no node is running to free any: the " +
                "bytes are held by calculators or by the caller (see memory below)";
        }
        return "no node is running and no queue is full";
    }

    /** Who holds off-heap bytes: queued payload bytes per stream and consumer. Racy, for diagnostics. */
    public static String memory(final Run graph)
    {
        final StringBuilder sb = new StringBuilder("held off-heap bytes by stream:");
        boolean any = false;
        for (final InputQueue queue : graph.queues())
        {
            final long bytes = queue.queuedPayloadBytes();
            if (bytes > 0)
            {
                any = true;
                sb.append("\n  ").append(queue).append(": ").append(queue.size()).append(" queued, ").append(bytes)
                    .append(" B");
            }
        }
        if (!any)
        {
            sb.append(" none queued (held by calculators or by the caller)");
        }
        sb.append("\npool: ").append(graph.pool().budget().bytesInUse()).append(" B in use, soft limit ")
            .append(graph.pool().budget().softLimitBytes()).append(" B, hard limit ").append(graph.pool().budget().hardLimitBytes())
            .append(" B");
        return sb.toString();
    }

    private static String lifecycleName(final int lifecycle)
    {
        return lifecycle == Node.UNOPENED ? "unopened" : lifecycle == Node.OPEN ? "open" : "closed";
    }

    private static String stateName(final int state)
    {
        switch (state)
        {
            case Node.IDLE:
                return "idle";
            case Node.SCHEDULED:
                return "queued or running";
            default:
                return "queued or running, more input arrived";
        }
    }
}
