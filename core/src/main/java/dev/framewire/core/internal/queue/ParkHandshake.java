package dev.framewire.core.internal.queue;

import java.util.concurrent.locks.LockSupport;

abstract class ParkHandshakePad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

/**
 * The park/unpark handshake of a {@link Worker}, on its own so that it can be model-checked
 * (ParkHandshakeLincheckTest): a worker out of work parks, and a thread that hands it work wakes
 * it, with no wake-up lost and no system call while the worker is busy.
 *
 * <p>It is Dekker's pattern. The worker writes {@link #parked} and then looks for work; a producer
 * publishes work and then reads {@link #parked}. Both the write and the producer's publication are
 * sequentially consistent (a volatile store; an MPSC offer's CAS or a full fence), so at least one
 * side sees the other: either the worker finds the work and does not park, or the producer finds
 * the flag and unparks it. An unpark that comes before the park is not lost either: it leaves the
 * thread's permit, and the park returns at once.
 *
 * <p>Threading: {@link #parkUnlessWork(long)} on the worker's thread only; {@link #wakeIfParked()}
 * from any thread, after it published the work it brings; {@link #parked} and {@link #thread} are
 * read from any thread. They begin a line past the object's start (padding by inheritance), so an
 * object before it cannot put a line it writes under them.
 */
public abstract class ParkHandshake extends ParkHandshakePad0
{
    /** The worker's thread, once it started. */
    public volatile Thread thread;
    /** Set by the worker while it parks or is about to; producers unpark only then. */
    public volatile boolean parked;

    /**
     * Whether there is work for the worker, or a reason to stop waiting (a pause or stop flag):
     * read after {@link #parked} is set.
     */
    public abstract boolean hasWork();

    /**
     * Worker: says it is parked, looks for work once more, and parks for at most {@code maxNanos}
     * unless it found some. It may return early (an unpark, a spurious wake-up); the caller looks
     * for work again either way.
     */
    public final void parkUnlessWork(final long maxNanos)
    {
        parked = true;
        if (!hasWork())
        {
            parkThread(maxNanos);
        }
        parked = false;
    }

    /** Any thread, after publishing work for this worker: wakes it if it said it is parked. */
    public final void wakeIfParked()
    {
        if (parked)
        {
            unparkThread(thread);
        }
    }

    /** The operating system's park; replaced only in the model check. */
    public void parkThread(final long maxNanos)
    {
        LockSupport.parkNanos(this, maxNanos);
    }

    /** The operating system's unpark (none for a null thread); replaced only in the model check. */
    public void unparkThread(final Thread t)
    {
        LockSupport.unpark(t);
    }
}
