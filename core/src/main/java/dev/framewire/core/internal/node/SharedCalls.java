package dev.framewire.core.internal.node;

import dev.framewire.core.internal.queue.ParkHandshake;

import org.jctools.queues.MpmcArrayQueue;

import java.util.concurrent.locks.LockSupport;

/**
 * The work an executor's workers share when some of its nodes have {@code max_in_flight} above 1:
 * those nodes' own steps (hand out input sets, retire finished calls) and their calls
 * ({@link Lane}s). Any worker of the executor takes either, so a worker busy in a long call never
 * holds up the next hand-out or a call another worker could run: with pinned queues a hand-out
 * queued behind a call waited for it to end.
 *
 * <p>Threading: {@link #offer(Node)} and {@link #offer(Lane)} from any thread; the queues are
 * JCTools MPMC arrays sized so that an offer cannot fail (a node is queued at most once, a lane
 * at most once per call). A parked worker is woken only when it has said it is parked, as with
 * its own inbox; it re-checks these queues after saying so ({@link ParkHandshake#hasWork()}).
 */
public final class SharedCalls
{
    public final MpmcArrayQueue<Node> nodes;
    public final MpmcArrayQueue<Lane> lanes;
    private final ParkHandshake[] workers;
    private int nextToWake;

    public SharedCalls(final ParkHandshake[] workers, final int nodes, final int lanes)
    {
        this.workers = workers;
        this.nodes = new MpmcArrayQueue<>(Math.max(2, nodes));
        this.lanes = new MpmcArrayQueue<>(Math.max(2, lanes));
    }

    /**
     * Any thread: queues a node's step for whichever worker is free first. From one of these
     * workers (a call just ended, or a step wants another) no other is woken: the caller looks
     * here before it can park, and a wake-up costs a context switch per call.
     */
    public void offer(final Node node)
    {
        nodes.offer(node);
        if (!isWorkerThread())
        {
            wakeOne();
        }
    }

    /**
     * Any thread (a node's step): queues a loaded call. The worker running the step takes one
     * call itself when the step ends; another worker is woken for each one more.
     */
    public void offer(final Lane lane)
    {
        lanes.offer(lane);
        if (!isWorkerThread() || lanes.size() > 1)
        {
            wakeOne();
        }
    }

    private boolean isWorkerThread()
    {
        final Thread caller = Thread.currentThread();
        for (final ParkHandshake w : workers)
        {
            if (w.thread == caller)
            {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty()
    {
        return nodes.isEmpty() && lanes.isEmpty();
    }

    /**
     * Unparks one parked worker other than the caller, starting after the last one woken so that
     * calls spread. None parked: they are all busy and each looks here when its step ends.
     */
    private void wakeOne()
    {
        final ParkHandshake[] workers = this.workers;
        final Thread caller = Thread.currentThread();
        int i = nextToWake; // racy: any start is correct, this one only spreads the wake-ups
        for (int n = 0; n < workers.length; n++, i++)
        {
            final ParkHandshake w = workers[i % workers.length];
            if (w.parked && w.thread != caller)
            {
                nextToWake = (i + 1) % workers.length;
                LockSupport.unpark(w.thread);
                return;
            }
        }
    }
}
