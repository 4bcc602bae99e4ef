package dev.framewire.tools;

import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code (timestamp, System.nanoTime())} of each packet on one stream, in preallocated arrays: one
 * writer (the worker that runs the stream's producer); read by others only after the run, except
 * the count and the first time, which are published for progress lines.
 */
final class SplitTimeLog implements PacketObserver
{
    private final long[] timestamps;
    private final long[] nanos;
    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;

    SplitTimeLog(final int capacity)
    {
        this.timestamps = new long[capacity];
        this.nanos = new long[capacity];
    }

    @Override
    public void onPacket(final Packet packet)
    {
        final long now = System.nanoTime();
        final long n = count.getPlain();
        if (n == 0)
        {
            firstNanos = now;
        }
        if (n < timestamps.length) // past the capacity a packet is not logged (a run longer than planned)
        {
            timestamps[(int)n] = packet.timestamp();
            nanos[(int)n] = now;
            count.setRelease(n + 1);
        }
    }

    int count()
    {
        return (int)count.getAcquire();
    }

    long countAcquire()
    {
        return count.getAcquire();
    }

    long firstNanos()
    {
        return firstNanos;
    }

    long timestamp(final int i)
    {
        return timestamps[i];
    }

    long nanos(final int i)
    {
        return nanos[i];
    }

    static long first(final SplitTimeLog[] logs)
    {
        long first = 0;
        for (final SplitTimeLog log : logs)
        {
            final long t = log.firstNanos();
            if (t != 0 && (first == 0 || t < first))
            {
                first = t;
            }
        }
        return first;
    }

    static long total(final SplitTimeLog[] logs)
    {
        long sum = 0;
        for (final SplitTimeLog log : logs)
        {
            sum += log.countAcquire();
        }
        return sum;
    }
}
