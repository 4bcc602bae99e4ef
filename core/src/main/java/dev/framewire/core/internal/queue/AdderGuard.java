package dev.framewire.core.internal.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class AdderGuardPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class AdderGuardFields extends AdderGuardPad0
{
    /** 1 while an adder holds the guard (CAS), else 0. */
    public volatile int held;
    /** What the guard has been held for, counted as it is let go: see {@link AdderGuard#activity()}. */
    public long done;
}

/**
 * The guard that serializes a graph input's adders (a CAS flag held only while a packet is handed to
 * the consumer queues), with the count of adds it has seen through. Written by the adding thread at
 * every add, so it sits on a cache line of its own (padding by inheritance, as the rings do): an
 * object of the consumer's worker allocated beside it would otherwise share the line, and every
 * add and every call would take it from the other core.
 *
 * <p>Threading: {@link #lock()} and {@link #unlock()} from adders, {@link #activity()} from any thread.
 */
public final class AdderGuard extends AdderGuardFields
{
    private static final VarHandle HELD;

    static
    {
        try
        {
            HELD = MethodHandles.lookup().findVarHandle(AdderGuardFields.class, "held", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;

    /** An adder: takes the guard, spinning while another adder holds it. */
    public void lock()
    {
        while (!HELD.compareAndSet(this, 0, 1))
        {
            Thread.onSpinWait();
        }
    }

    /** The adder holding the guard: counts its add (or close, or bound move) done and lets the guard go. */
    public void unlock()
    {
        done++; // under the guard, on the line the adder already owns; published by the release below
        HELD.setRelease(this, 0); // a release suffices to hand the guard on; a volatile set fenced every add
    }

    /**
     * Any thread: -1 while an add holds the guard (it may have pushed a packet and not yet
     * scheduled the consumer), else how many adds, closes and bound moves have finished. The
     * deadlock check reads it before and after it looks at the nodes: a -1 or a change means an
     * adder was at work while it looked, so a full queue with an idle consumer was no deadlock.
     */
    public long activity()
    {
        return held != 0 ? -1 : done;
    }
}
