package dev.framewire.tools;

import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When each recent timestamp of an entry stream (a source node's output or a graph input) came
 * into the graph: an observer on that stream writes {@code (timestamp, System.nanoTime())} into a
 * ring, and the {@link StreamMeter}s downstream look a timestamp up to measure how long it took to
 * reach them.
 *
 * <pre>
 *   slot s (of CAPACITY), for the packet numbered seq, s = seq &amp; MASK:
 *   +-------------+-------------+-------------+
 *   | version     | timestamp   | nanoTime    |   3 longs; version is seq when the slot is whole,
 *   +-------------+-------------+-------------+   -1 while the writer rewrites it
 * </pre>
 *
 * <p>Threading: one writer, the worker that runs the stream's producer (a node runs on one worker
 * only); any number of readers on other workers. The slots are a seqlock per slot: the writer marks
 * the slot -1, writes the pair, then writes the version and publishes the count, all with release
 * stores; a reader reads the version, the pair and the version again with acquire loads and keeps
 * the pair only when both versions are the sequence it looked for. A reader that finds the
 * timestamp while it is being overwritten (a reader more than {@link #CAPACITY} packets behind)
 * gets a miss, never a wrong time. Timestamps on a stream strictly increase, so the ring is sorted
 * by sequence and a lookup is a binary search over the published window: no allocation, a dozen
 * loads.
 */
final class EntryTimes implements PacketObserver
{
    /** Packets remembered; a consumer further behind its entry stream than this is not measured. */
    static final int CAPACITY = 8192;
    private static final int MASK = CAPACITY - 1;
    private static final int WRITING = -1;

    private final String stream;
    private final AtomicLongArray slots = new AtomicLongArray(3 * CAPACITY);
    private final AtomicLong published = new AtomicLong();
    /** The writer's own count; {@link #published} is the readers' copy. */
    private long next;

    EntryTimes(final String stream)
    {
        this.stream = stream;
    }

    String stream()
    {
        return stream;
    }

    /**
     * Packets seen so far.
     *
     * @return the count; any thread.
     */
    long packets()
    {
        return published.getAcquire();
    }

    @Override
    public void onPacket(final Packet packet)
    {
        record(packet.timestamp(), System.nanoTime());
    }

    /** The writer: remembers when a timestamp came in. */
    void record(final long timestamp, final long nanoTime)
    {
        final long seq = next++;
        final int base = 3 * (int)(seq & MASK);
        slots.setRelease(base, WRITING);
        slots.setRelease(base + 1, timestamp);
        slots.setRelease(base + 2, nanoTime);
        slots.setRelease(base, seq);
        published.setRelease(seq + 1);
    }

    /**
     * When a timestamp came in.
     *
     * @param timestamp a timestamp of the stream.
     * @return its {@code System.nanoTime()}, or -1 if it is not (or no longer) remembered.
     */
    long lookup(final long timestamp)
    {
        final long hi = published.getAcquire();
        long a = Math.max(0, hi - CAPACITY + 1); // the slot of seq hi - CAPACITY may be rewritten right now
        long b = hi - 1;
        while (a <= b)
        {
            final long mid = (a + b) >>> 1;
            final long t = slots.getAcquire(3 * (int)(mid & MASK) + 1);
            if (t < timestamp)
            {
                a = mid + 1;
            }
            else if (t > timestamp)
            {
                b = mid - 1;
            }
            else
            {
                return read(mid, timestamp);
            }
        }
        return -1;
    }

    private long read(final long seq, final long timestamp)
    {
        final int base = 3 * (int)(seq & MASK);
        final long before = slots.getAcquire(base);
        final long t = slots.getAcquire(base + 1);
        final long nanos = slots.getAcquire(base + 2);
        final long after = slots.getAcquire(base);
        return before == seq && after == seq && t == timestamp ? nanos : -1;
    }
}
