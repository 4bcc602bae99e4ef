package dev.framewire.core.internal.queue;

import java.util.concurrent.locks.LockSupport;

/**
 * How a poller's queue wakes the thread that polls it: the poller's thread sets {@link #waiter}
 * before it parks and clears it after; a producer that delivered to the queue (or a run that stops)
 * unparks it.
 *
 * <p>Threading: {@link #waiter} is written by the polling thread; {@link #wake()} is called from any
 * thread.
 */
public final class PollerSignal
{
    /** The thread parked on the queue, or null. */
    public volatile Thread waiter;

    /** Any thread: unparks the polling thread if it waits. */
    public void wake()
    {
        final Thread t = waiter;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }
}
