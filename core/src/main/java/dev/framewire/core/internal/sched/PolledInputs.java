package dev.framewire.core.internal.sched;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;

/**
 * The graph-input queues a busy-spinning or yielding {@link Worker} polls each duty cycle instead of
 * being told ({@link InputQueue#polled}): adding a packet then costs the adder no fence, CAS or inbox
 * offer. Static methods over the worker's own fields ({@code polled}, {@code heap},
 * {@code inputsSeen}), so that the duty cycle's path is what it was inside the worker.
 *
 * <p>Threading: {@link #poll(Worker)} by whoever owns the worker's queues (the worker; on a
 * {@code STEALING} executor a thief holding its queue lock); {@link #hasUnseen(Worker)} from any
 * thread.
 */
final class PolledInputs
{
    private PolledInputs()
    {
    }

    /**
     * Schedules the consumers of the worker's polled queues that changed since the last look, and
     * counts those queues in its {@code inputsSeen}. The commonest case skips the heap: when one
     * consumer comes from IDLE and nothing else is queued, the heap would hand it straight back, so
     * it is returned to run now (a heap add and poll, with the keys' computation and two reference
     * stores, less per hop). In any other case they all go on the heap, whose order decides as before.
     *
     * @return the node to run now, or null when the heap holds the next node to run (if any).
     */
    static Node poll(final Worker worker)
    {
        Node direct = null;
        int seen = 0;
        for (final InputQueue queue : worker.polled)
        {
            if (queue.pollChanged())
            {
                final Node consumer = (Node)queue.consumer;
                if (consumer.claimFromOwner())
                {
                    direct = runNowOrQueue(worker, direct, consumer);
                }
                queue.markSeen(); // after the claim: an idle check that finds the queue seen finds its node scheduled
                seen++;
            }
        }
        worker.inputsSeen = seen;
        return direct;
    }

    /**
     * {@link #poll(Worker)}, for a consumer it took from IDLE: the node to run now (this one, when
     * none was chosen yet and the heap is empty), or null with both on the heap.
     */
    private static Node runNowOrQueue(final Worker worker, final Node direct, final Node consumer)
    {
        final NodeHeap heap = worker.heap;
        if (direct == null && heap.isEmpty())
        {
            return consumer;
        }
        if (direct != null)
        {
            heap.add(direct);
        }
        heap.add(consumer);
        return null;
    }

    /** Any thread: whether a polled queue of {@code worker} holds input it has not seen yet. */
    static boolean hasUnseen(final Worker worker)
    {
        for (final InputQueue queue : worker.polled)
        {
            if (queue.pollChanged())
            {
                return true;
            }
        }
        return false;
    }
}
