package dev.framewire.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The scheduling state machine of a {@link Node}, on its own so that it can be model-checked
 * (ScheduleStateLincheckTest): it decides who queues the node, exactly once, and makes sure
 * that input arriving while the node's worker is deciding to let it go idle is not lost.
 *
 * <pre>
 *            claim() by a producer: enqueue          claim() / claimFromOwner(): nothing
 *   IDLE ----------------------------------> SCHEDULED ----------------------------> SCHEDULED_DIRTY
 *    ^                                          |  ^                                      |
 *    |        tryIdle() by the worker           |  |   tryIdle() by the worker: clears    |
 *    +------------------------------------------+  +--------------------------------------+
 *                                                      the mark, returns false (look again)
 * </pre>
 *
 * <p>SCHEDULED means owned by the worker: queued or running. The worker writes the state only
 * when it lets the node go idle ({@link #tryIdle()}); a node that stays busy is run again and again
 * with no write to it, and in steady state producers find it dirty and only read it, so the line
 * is shared, not bounced between cores.
 *
 * <p>Threading: {@link #claim()} from any thread, after the caller published its input and a full
 * fence (a producer writes input then reads the state; the worker writes the state then reads the
 * input: without a StoreLoad on both sides each could miss the other); {@link #claimFromOwner()}
 * from the worker the node is pinned to, while it runs another node; {@link #tryIdle()} from the
 * worker that owns the node, after it found no work; {@link #state()} from any thread.
 */
abstract class ScheduleState
{
    static final int IDLE = 0;
    /** Owned by its worker: queued or running. */
    static final int SCHEDULED = 1;
    /** Scheduled, and input arrived since the worker last looked at its state. */
    static final int SCHEDULED_DIRTY = 2;

    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(ScheduleState.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    @SuppressWarnings("unused") // through STATE
    private volatile int state;

    /**
     * Any thread, after publishing input: takes the node from IDLE, or marks it dirty.
     *
     * @return true if the caller took it from IDLE and must now hand it to its worker (once).
     */
    final boolean claim()
    {
        int s = (int)STATE.getVolatile(this);
        while (s != SCHEDULED_DIRTY)
        {
            if (s == IDLE)
            {
                if (STATE.compareAndSet(this, IDLE, SCHEDULED))
                {
                    return true;
                }
            }
            else if (STATE.compareAndSet(this, SCHEDULED, SCHEDULED_DIRTY))
            {
                return false;
            }
            s = (int)STATE.getVolatile(this);
        }
        return false;
    }

    /**
     * The node's own worker, while it runs another node: takes the node from IDLE, else leaves it.
     * Not idle, it is on this worker's heap or inbox and not running (the worker is busy with the
     * caller), so it reads its input afresh when it runs: no dirty mark and no fence are needed.
     *
     * @return true if the caller took it from IDLE and must now queue it (once).
     */
    final boolean claimFromOwner()
    {
        return (int)STATE.getOpaque(this) == IDLE && STATE.compareAndSet(this, IDLE, SCHEDULED);
    }

    /**
     * The owning worker, having found no work for the node: lets it go idle, unless input arrived
     * meanwhile (the dirty mark), which it then clears so that the caller looks again.
     *
     * @return true if the node is now idle; false if the caller must look for work again.
     */
    final boolean tryIdle()
    {
        if (STATE.compareAndSet(this, SCHEDULED, IDLE))
        {
            return true;
        }
        // dirty: only other threads set it, and only from SCHEDULED, so this store loses nothing
        STATE.setVolatile(this, SCHEDULED);
        return false;
    }

    /** Any thread: the state, for reports and idle checks. */
    final int state()
    {
        return (int)STATE.getVolatile(this);
    }
}
