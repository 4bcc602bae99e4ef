package dev.framewire.core;

import java.util.List;

/**
 * The run did not end cleanly: it failed (with every {@link GraphFailure}) or was cancelled.
 */
public final class GraphException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final transient List<GraphFailure> failures;
    private final boolean cancelled;
    private final transient List<String> blockedNodes;

    GraphException(final List<GraphFailure> failures, final boolean cancelled)
    {
        this(failures, cancelled, List.of());
    }

    GraphException(final List<GraphFailure> failures, final boolean cancelled, final List<String> blockedNodes)
    {
        super(message(failures, cancelled, blockedNodes), failures.isEmpty() ? null : failures.get(0).cause());
        this.failures = List.copyOf(failures);
        this.cancelled = cancelled;
        this.blockedNodes = List.copyOf(blockedNodes);
        for (int i = 1; i < failures.size(); i++)
        {
            addSuppressed(failures.get(i).cause());
        }
    }

    private static String message(
        final List<GraphFailure> failures, final boolean cancelled, final List<String> blockedNodes)
    {
        if (failures.isEmpty())
        {
            return cancelled ? "graph run cancelled" : "graph run failed";
        }
        final StringBuilder sb = new StringBuilder();
        sb.append("graph run failed with ").append(failures.size()).append(failures.size() == 1 ? " failure" : " failures");
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
     * Every failure, first one first.
     *
     * @return the failures; empty for a cancellation without failure.
     */
    public List<GraphFailure> failures()
    {
        return failures;
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
