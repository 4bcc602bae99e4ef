package dev.framewire.core;

import java.util.List;
import java.util.Map;

/**
 * The run did not end cleanly: it failed (with every {@link GraphFailure}) or was cancelled.
 */
public final class GraphException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final transient List<GraphFailure> failures;
    /** Whether the run was cancelled rather than failed. */
    private final boolean cancelled;
    private final transient List<String> blockedNodes;
    /** How many failures there were in all, kept or not. */
    private final long failureCount;

    /**
     * A run that failed or was cancelled.
     *
     * @param failures  the failures, first one first.
     * @param cancelled whether the run was cancelled.
     */
    public GraphException(final List<GraphFailure> failures, final boolean cancelled)
    {
        this(failures, cancelled, List.of(), failures.size(), Map.of());
    }

    /**
     * @param failures     the failures kept (the first and the last few), first one first.
     * @param cancelled    whether the run was cancelled.
     * @param blockedNodes the nodes the failures blocked (isolate policy).
     * @param failureCount how many there were in all.
     * @param counts       all of them by node and cause, when more failed than were kept.
     */
    public GraphException(
        final List<GraphFailure> failures,
        final boolean cancelled,
        final List<String> blockedNodes,
        final long failureCount,
        final Map<String, Long> counts)
    {
        super(message(failures, cancelled, blockedNodes, failureCount, counts),
            failures.isEmpty() ? null : failures.get(0).cause());
        this.failureCount = failureCount;
        this.failures = List.copyOf(failures);
        this.cancelled = cancelled;
        this.blockedNodes = List.copyOf(blockedNodes);
        for (int i = 1; i < failures.size(); i++)
        {
            addSuppressed(failures.get(i).cause());
        }
    }

    private static String message(
        final List<GraphFailure> failures,
        final boolean cancelled,
        final List<String> blockedNodes,
        final long failureCount,
        final Map<String, Long> counts)
    {
        if (failures.isEmpty())
        {
            return cancelled ? "graph run cancelled" : "graph run failed";
        }
        final StringBuilder sb = new StringBuilder();
        sb.append("graph run failed with ").append(failureCount).append(failureCount == 1 ? " failure" : " failures");
        if (failureCount > failures.size())
        {
            sb.append(" (the first and the last ").append(failures.size() - 1).append(" shown; all of them by node and " +
                "cause:");
            counts.forEach((key, count) -> sb.append("\n    ").append(key).append(": ").append(count));
            sb.append(')');
        }
        for (final GraphFailure failure : failures)
        {
            sb.append("\n  ").append(failure);
        }
        if (!blockedNodes.isEmpty())
        {
            sb.append("\nblocked (an input lost its last live producer): ").append(blockedNodes);
        }
        return sb.toString();
    }

    /**
     * The failures kept, first one first: every failure, or, when there were more than the graph
     * keeps ({@link GraphConfig.Builder#keptFailures(int)}), the first and the last ones.
     *
     * @return the failures; empty for a cancellation without failure.
     */
    public List<GraphFailure> failures()
    {
        return failures;
    }

    /**
     * How many failures there were in all, kept or not.
     *
     * @return the count.
     */
    public long failureCount()
    {
        return failureCount;
    }

    /**
     * Nodes blocked under {@link FailurePolicy#ISOLATE}: they never ran after an upstream failure.
     *
     * @return node names; empty under other policies.
     */
    public List<String> blockedNodes()
    {
        return blockedNodes;
    }

    /**
     * Whether the run ended because it was cancelled rather than because something failed.
     *
     * @return true for a cancellation.
     */
    public boolean isCancelled()
    {
        return cancelled;
    }
}
