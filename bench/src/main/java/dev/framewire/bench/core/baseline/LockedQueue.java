package dev.framewire.bench.core.baseline;

import dev.framewire.offheap.Payload;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One stage's input queue, guarded by its own lock as the seeds' input stream queues are. Packets
 * are (timestamp, value, word) in parallel arrays, a {@code long} carried in the word under the
 * {@link LockedEngine#LONG} marker: the same unboxed representation as Framewire's, so the
 * comparison is about locking and scheduling, not boxing.
 *
 * <p>Threading: push and pop from any thread, under the lock; {@link #size()} from any thread
 * without it (a volatile copy), for the graph input's backpressure check.
 */
final class LockedQueue
{
    private final ReentrantLock lock = new ReentrantLock();
    private final long[] timestamps;
    private final Object[] values;
    private final long[] words;
    private final int mask;
    private long head;
    private long tail;
    private volatile int size;

    LockedQueue(final int capacity)
    {
        final int cap = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        this.timestamps = new long[cap];
        this.values = new Object[cap];
        this.words = new long[cap];
        this.mask = cap - 1;
    }

    /** @return false at capacity. */
    boolean push(final long timestamp, final Object value, final long word)
    {
        final ReentrantLock lock = this.lock;
        lock.lock();
        try
        {
            if (tail - head > mask)
            {
                return false;
            }
            final int i = (int)tail & mask;
            timestamps[i] = timestamp;
            values[i] = value;
            words[i] = word;
            tail++;
            size = (int)(tail - head);
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Moves the oldest packet into the stage's current input set; false when empty. */
    boolean popInto(final LockedStage stage)
    {
        final ReentrantLock lock = this.lock;
        lock.lock();
        try
        {
            if (head == tail)
            {
                return false;
            }
            final int i = (int)head & mask;
            stage.timestamp = timestamps[i];
            stage.value = values[i];
            stage.word = words[i];
            values[i] = null;
            head++;
            size = (int)(tail - head);
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    int size()
    {
        return size;
    }

    /** After the workers stopped: releases queued payloads. */
    void drainAndRelease()
    {
        lock.lock();
        try
        {
            while (head != tail)
            {
                final int i = (int)head & mask;
                final Object v = values[i];
                values[i] = null;
                head++;
                if (v instanceof Payload)
                {
                    ((Payload)v).release();
                }
            }
            size = 0;
        }
        finally
        {
            lock.unlock();
        }
    }
}
