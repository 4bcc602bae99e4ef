package dev.framewire.core.internal.sched;

import dev.framewire.core.Scheduling;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.ScheduleState;

import java.util.concurrent.locks.LockSupport;

/**
 * Work stealing between the workers of a {@link Scheduling#STEALING} executor: a worker out of work
 * takes a queued node from a sibling that is in a call, runs one step of it, and hands it back to
 * its own worker's inbox if it wants more. A slow or blocked call then holds up only its own node,
 * as in MediaPipe's thread pool, where any idle thread runs the next ready node.
 *
 * <p>The protocol. A worker's inbox and heap stay its own while it is outside a call: no other
 * thread touches them, and its hot path is as on a {@code PINNED} executor. As it enters a call it
 * lends them ({@link #lendQueues}: its {@code queueLock} goes from {@link #OWNER} to {@link #FREE},
 * one volatile store), and as it leaves the call it takes them back (a CAS from {@code FREE} to
 * {@code OWNER}, spinning while a thief holds them). A thief takes the lock from {@code FREE} to
 * {@link #THIEF} with a CAS, drains the victim's inbox into the victim's heap, takes the first node
 * that may run elsewhere, and gives the lock back: no call runs under it. A node is queued on its
 * own worker only (its heap slot is that heap's), and a node taken from a queue is owned by its
 * taker until it goes idle or is queued again ({@link ScheduleState}): so it never runs on two
 * threads at once, and its steps, one after the other, keep its input sets in timestamp order.
 * The lock's CAS and volatile stores order each step after the previous one.
 *
 * <p>What may be stolen: nodes without {@code max_in_flight} (those share the executor's queues
 * already) that are not sources (a source's retries and backoff are its worker's). Such nodes are
 * marked {@link ScheduleState#stealable} before the start: never local (only their own worker would
 * schedule them otherwise), and scheduled from their own worker with a full fence and the dirty
 * mark, since they may be running on a sibling meanwhile ({@link ScheduleState#claimFromOwner()}).
 *
 * <p>When a thief looks: in a duty cycle that found nothing of its own to run, at most every
 * {@link #LOOK_EVERY_NANOS}, so that a spinning thief does not pull its siblings' lock lines to its
 * core at every cycle; and before it parks (its {@code hasWork()}). A worker entering a call with
 * nodes queued, or a node queued on a worker in a call, unparks one parked sibling.
 *
 * <p>Threading: as each method says. Nothing here allocates.
 */
final class WorkStealing
{
    /** The queues are lent: their worker is in a call, a sibling may take a node. */
    static final int FREE = 0;
    /** The worker owns its queues (outside calls; always on a {@code PINNED} executor). */
    static final int OWNER = 1;
    /** A sibling is taking a node. */
    static final int THIEF = 2;
    /** How often a worker out of work looks at its siblings' queues, at most. */
    static final long LOOK_EVERY_NANOS = 5_000;

    private WorkStealing()
    {
    }

    /**
     * The worker, in a duty cycle that found nothing to run: takes one node from a sibling in a
     * call and runs one step of it; at most every {@link #LOOK_EVERY_NANOS}.
     *
     * @return 1 when it ran a step, else 0.
     */
    static int stealFromSiblings(final Worker thief)
    {
        final long now = System.nanoTime();
        if (now - thief.lastStealLook < LOOK_EVERY_NANOS)
        {
            return 0;
        }
        thief.lastStealLook = now;
        final Worker[] siblings = thief.siblings;
        for (int i = 0; i < siblings.length; i++)
        {
            final Worker victim = siblings[i];
            final Node node = lend(thief, i);
            if (node != null)
            {
                thief.runNode(node);
                if (node.afterRun())
                {
                    victim.enqueue(node); // back to its own worker, as from any other thread
                }
                thief.lastStealLook = 0; // look again at once: the victim may hold more
                return 1;
            }
        }
        return 0;
    }

    /**
     * A thief: the first node queued on its sibling {@code i} that may run on another worker, taken
     * under the victim's queue lock while the victim is in a call; null when it is not, when another
     * thief holds the lock, or when nothing stealable is queued (which the thief then remembers for
     * the rest of that call, so that it does not keep from parking: {@link #aSiblingLends}). The
     * graph-input queues the victim polls are looked at too, since it does not while in its call.
     */
    static Node lend(final Worker thief, final int i)
    {
        final Worker victim = thief.siblings[i];
        if (victim.queueLock != FREE || !victim.hasQueued() || !Worker.QUEUE_LOCK.compareAndSet(victim, FREE, THIEF))
        {
            return null;
        }
        try
        {
            final long call = victim.runs + 1; // the victim's call in progress, which it counts when it ends
            victim.inbox.drain(victim.toHeap, 256);
            if (victim.polled.length > 0)
            {
                final Node direct = PolledInputs.poll(victim);
                if (direct != null)
                {
                    victim.heap.add(direct);
                }
            }
            final Node node = victim.heap.pollStealable();
            thief.fruitless[i] = node == null ? call : 0;
            return node;
        }
        finally
        {
            Worker.QUEUE_LOCK.setVolatile(victim, FREE);
        }
    }

    /**
     * The worker's own thread, as it enters a call: lets siblings take what is queued here while
     * the call lasts, and wakes a parked one if anything is. The volatile store comes before the
     * reads of the siblings' {@code parked} flags, as a producer's offer comes before its read
     * (Dekker's pattern, see {@code ParkHandshake}): a sibling about to park reads this lock after
     * it says it is parked ({@link #aSiblingLends}).
     */
    static void lendQueues(final Worker worker)
    {
        worker.ownsQueues = false;
        Worker.QUEUE_LOCK.setVolatile(worker, FREE);
        if (!worker.heap.isEmpty() || !worker.inbox.isEmpty())
        {
            wakeASibling(worker);
        }
    }

    /** The worker's own thread, as a call ends: waits out a thief taking a node, then owns its queues again. */
    static void takeQueuesBack(final Worker worker)
    {
        while (!Worker.QUEUE_LOCK.compareAndSet(worker, FREE, OWNER))
        {
            Thread.onSpinWait(); // a thief holds it for a drain and a poll, never for a call
        }
        worker.ownsQueues = true;
    }

    /** Any thread, racy: whether a sibling of {@code worker} is in a call with a node queued, which it could take. */
    static boolean aSiblingLends(final Worker worker)
    {
        final Worker[] siblings = worker.siblings;
        for (int i = 0; i < siblings.length; i++)
        {
            final Worker sibling = siblings[i];
            if (sibling.queueLock == FREE && worker.fruitless[i] != sibling.runs + 1 && sibling.hasQueued())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Any thread, once a node is queued on {@code worker} while it is in a call: unparks one of its
     * siblings that said it is parked, to take the node. None parked: each is busy, or spinning and
     * will look.
     */
    static void wakeASibling(final Worker worker)
    {
        for (final Worker sibling : worker.siblings)
        {
            if (sibling.parked)
            {
                LockSupport.unpark(sibling.thread);
                return;
            }
        }
    }
}
