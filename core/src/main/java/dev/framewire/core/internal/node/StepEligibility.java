package dev.framewire.core.internal.node;

import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

/**
 * What a node's worker asks after each step ({@link Node#afterRun()}): whether the node wants
 * another step (to open, take an input set, make a source call, close, be torn down or blocked),
 * and, as it goes idle under a {@code room_batch}, the room its input queues still owe the threads
 * they hold back. Stateless: static calls on the node's own fields, so the worker's path gains no
 * dispatch (C2 inlines them as it did the node's private methods they were).
 *
 * <p>Threading: the node's worker (the one running its step).
 */
final class StepEligibility
{
    private StepEligibility()
    {
    }

    /** Whether {@code node} wants another step now; false lets it go idle (unless marked dirty meanwhile). */
    static boolean wantsToRun(final Node node)
    {
        final int life = node.lifecycle;
        final NodeRunState runState = node.runState;
        if (life >= Node.CLOSED || runState.isStopping())
        {
            return false;
        }
        if (node.blockRequested)
        {
            return true;
        }
        if (life == Node.UNOPENED)
        {
            return runState.mayOpen(node); // it waits for side packets set by nodes: idle until one is set
        }
        final SubgraphState subgraph = node.subgraph;
        if (subgraph != null && (subgraph.cancelled || node.isSource && subgraph.draining))
        {
            return true; // it is being removed: a step tears it down, or closes the source
        }
        if (node.isSource)
        {
            // the run's sources closed: a step closes it, held back or not (else a dirty mark
            // taken while it was held back would let it go idle unclosed)
            return runState.sourcesClosed() || runState.sourceMayRun(node);
        }
        final Lanes lanes = node.lanes;
        if (lanes != null)
        {
            return lanes.wantsToRun();
        }
        if (node.isThrottled())
        {
            return false;
        }
        return node.readiness() != Node.NOT_READY;
    }

    /**
     * As {@code node} stops taking packets under a {@code room_batch}: its input queues hand out
     * the room that threads they hold back wait for, which no pop of theirs may come to hand out
     * now ({@link InputQueue#handOutRoomOnIdle()}). Under MediaPipe's rule every pop below the
     * limit has handed it out already.
     */
    static void handOutRoomOnIdle(final Node node)
    {
        for (final InputPort port : node.inputs)
        {
            if (port.queue.handOutRoomOnIdle())
            {
                port.queue.wakeHeldBack();
            }
        }
    }
}
