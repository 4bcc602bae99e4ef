package dev.framewire.core.internal.node;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class ScheduleStatePad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class ScheduleStateField extends ScheduleStatePad0
{
    /** IDLE, SCHEDULED or SCHEDULED_DIRTY; see {@link ScheduleState}. */
    public volatile int state;
    /**
     * Whether only the node's own worker ever changes the state ({@link ScheduleState#local});
     * set before the run starts, read-only after.
     */
    public boolean local;
    /**
     * Whether a sibling of the node's worker may run it (a {@code STEALING} executor's node); set
     * before the run starts (or before a hot-plugged node is published), read-only after.
     */
    public boolean stealable;
}

abstract class ScheduleStatePad1 extends ScheduleStateField
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

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
 * <p>Threading: {@link #claim()} from any thread, never for a local node, after the caller published its input and a full
 * fence (a producer writes input then reads the state; the worker writes the state then reads the
 * input: without a StoreLoad on both sides each could miss the other); {@link #claimFromOwner()}
 * from the worker the node is pinned to, while it runs another node (for a {@link #stealable} node
 * also from a sibling running a node of that worker); {@link #tryIdle()} from the worker that owns
 * the node (took it from a queue), after it found no work; {@link #state()} from any thread.
 *
 * <p>A <em>local</em> node ({@link #makeLocal()}) is one whose every producer runs on its own
 * worker (a graph input counts when that worker polls its queue): only that worker ever claims it ({@link #claimFromOwner()}) or lets it go idle, so both
 * are plain stores, no CAS; the engine hands any other claim to the worker as a command
 * ({@link Node#schedule()}). In a chain on one worker that is two atomic operations less per node
 * and packet.
 *
 * <p>A <em>stealable</em> node ({@link #stealable}, on a {@code STEALING} executor) may run on any
 * worker of its executor, one at a time: its own worker then claims it as any other thread does,
 * after a full fence and with the dirty mark ({@link #claimFromOwner()}).
 *
 * <p>The state has a cache line of its own (padding by inheritance): producers on other cores read
 * it per packet, and the node's own fields, which its worker writes per run (input timestamp, call
 * count, heap keys), must not share its line: a producer's read would then take the line from the
 * worker at every packet.
 */
public abstract class ScheduleState extends ScheduleStatePad1
{
    public static final int IDLE = 0;
    /** Owned by its worker: queued or running. */
    public static final int SCHEDULED = 1;
    /** Scheduled, and input arrived since the worker last looked at its state. */
    static final int SCHEDULED_DIRTY = 2;

    private static final VarHandle STATE;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(ScheduleStateField.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Any thread, after publishing input: takes the node from IDLE, or marks it dirty.
     *
     * @return true if the caller took it from IDLE and must now hand it to its worker (once).
     */
    public final boolean claim()
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
    public final boolean claimFromOwner()
    {
        if (stealable)
        {
            // it may be running on a sibling now, about to go idle: as from any other thread
            VarHandle.fullFence();
            return claim();
        }
        if ((int)STATE.getOpaque(this) != IDLE)
        {
            return false;
        }
        if (local)
        {
            STATE.setOpaque(this, SCHEDULED); // nobody else writes it
            return true;
        }
        return STATE.compareAndSet(this, IDLE, SCHEDULED);
    }

    /**
     * The owning worker, having found no work for the node: lets it go idle, unless input arrived
     * meanwhile (the dirty mark), which it then clears so that the caller looks again.
     *
     * @return true if the node is now idle; false if the caller must look for work again.
     */
    public final boolean tryIdle()
    {
        if (local)
        {
            STATE.setOpaque(this, IDLE); // nobody else marks it dirty
            return true;
        }
        if (STATE.compareAndSet(this, SCHEDULED, IDLE))
        {
            return true;
        }
        // dirty: only other threads set it, and only from SCHEDULED, so this store loses nothing
        STATE.setVolatile(this, SCHEDULED);
        return false;
    }

    /**
     * Before the run starts: from now on only the node's own worker claims it and lets it go idle,
     * with plain stores. The caller guarantees it (see {@link ScheduleState}).
     */
    public final void makeLocal()
    {
        local = true;
    }

    /** Any thread: the state, for reports and idle checks. */
    public final int state()
    {
        return (int)STATE.getVolatile(this);
    }
}
