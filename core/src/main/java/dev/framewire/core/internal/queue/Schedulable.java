package dev.framewire.core.internal.queue;

/**
 * A node as its input queues and ports see it: what a queue wakes when packets or a bound arrive
 * (its consumer) or when it has room again (the producers and sources it holds back), and the name
 * its messages give. Owned here, below the node layer, so that a queue names no node class; the
 * one implementation is {@code node.Node}, so a call through it stays monomorphic on the hot path.
 *
 * <p>Threading: {@link #schedule()} from any thread; {@link #nodeName()} is immutable.
 */
public interface Schedulable
{
    /**
     * Any thread, after publishing packets or a bound and a full fence: makes the node run (soon)
     * on its worker, or does nothing when it is already scheduled.
     */
    void schedule();

    /**
     * The node's name, for messages.
     *
     * @return the name.
     */
    String nodeName();
}
