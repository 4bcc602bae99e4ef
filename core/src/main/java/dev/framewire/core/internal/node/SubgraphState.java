package dev.framewire.core.internal.node;

/**
 * Where a hot-plugged subgraph is in its life, as its nodes and the scheduler read it: the run's
 * {@code Subgraph} extends it, and a node holds it without naming the run's type.
 *
 * <p>Threading: the flags are set under the hot-plug lock or by the nodes' workers, and read by
 * any thread (volatile).
 */
public abstract class SubgraphState
{
    /** Every node has opened: its sources may run. */
    public volatile boolean allOpened;
    /** Being removed: inputs closed, sources close at their next step. */
    public volatile boolean draining;
    /** Being removed without draining: each node tears down at its next step, dropping what is queued. */
    public volatile boolean cancelled;
}
