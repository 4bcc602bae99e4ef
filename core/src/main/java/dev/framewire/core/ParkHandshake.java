package dev.framewire.core;

import java.util.concurrent.locks.LockSupport;

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
 * read from any thread.
 */
abstract class ParkHandshake
{
    /** The worker's thread, once it started. */
    volatile Thread thread;
    /** Set by the worker while it parks or is about to; producers unpark only then. */
    volatile boolean parked;

    /**
     * Whether there is work for the worker, or a reason to stop waiting (a pause or stop flag):
     * read after {@link #parked} is set.
     */
    abstract boolean hasWork();

    /**
     * Worker: says it is parked, looks for work once more, and parks for at most {@code maxNanos}
     * unless it found some. It may return early (an unpark, a spurious wake-up); the caller looks
     * for work again either way.
     */
    final void parkUnlessWork(final long maxNanos)
    {
        parked = true;
        if (!hasWork())
        {
            parkThread(maxNanos);
        }
        parked = false;
    }

    /** Any thread, after publishing work for this worker: wakes it if it said it is parked. */
    final void wakeIfParked()
    {
        if (parked)
        {
            unparkThread(thread);
        }
    }

    /** The operating system's park; replaced only in the model check. */
    void parkThread(final long maxNanos)
    {
        LockSupport.parkNanos(this, maxNanos);
    }

    /** The operating system's unpark (none for a null thread); replaced only in the model check. */
    void unparkThread(final Thread t)
    {
        LockSupport.unpark(t);
    }
}
