package dev.framewire.tools;

import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;
import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An observer on one stream that counts its packets and records, for each, the time from its
 * timestamp's entry into the graph to now: now is when the producing call returned (when the
 * engine calls observers), entry is the earliest time that timestamp was seen on any of the
 * stream's {@link EntryTimes origins} (the source outputs and graph inputs upstream of it).
 * Packets whose timestamp no origin remembers (a node that makes timestamps of its own, or one
 * more than {@link EntryTimes#CAPACITY} packets behind) are counted as unmatched.
 *
 * <p>Threading: {@link #onPacket} on the stream's producing worker only (a node runs on one
 * worker), so the histogram needs no lock; read it after the run ended (the workers have stopped).
 * {@link #packets()} may be read from any thread while the run goes on.
 */
final class StreamMeter implements PacketObserver
{
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final String node;
    private final String stream;
    private final boolean end;
    private final EntryTimes[] origins;
    private final AtomicBoolean recording;
    private final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    private final AtomicLong packets = new AtomicLong();
    private long unmatched;

    /**
     * A meter.
     *
     * @param node      the producing node's name.
     * @param stream    the stream.
     * @param end       whether the stream is an end stream of the graph.
     * @param origins   the entry streams upstream of it.
     * @param recording false during the warm-up: packets are counted but not recorded.
     */
    StreamMeter(
        final String node, final String stream, final boolean end, final EntryTimes[] origins,
        final AtomicBoolean recording)
    {
        this.node = node;
        this.stream = stream;
        this.end = end;
        this.origins = origins;
        this.recording = recording;
    }

    @Override
    public void onPacket(final Packet packet)
    {
        packets.lazySet(packets.get() + 1); // one writer
        if (!recording.get())
        {
            return;
        }
        final long now = System.nanoTime();
        final long timestamp = packet.timestamp();
        long entered = Long.MAX_VALUE;
        for (final EntryTimes origin : origins)
        {
            final long nanos = origin.lookup(timestamp);
            if (nanos >= 0 && nanos < entered)
            {
                entered = nanos;
            }
        }
        if (entered == Long.MAX_VALUE)
        {
            unmatched++;
            return;
        }
        latency.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, now - entered)));
    }

    String node()
    {
        return node;
    }

    String stream()
    {
        return stream;
    }

    boolean isEnd()
    {
        return end;
    }

    /** Packets so far; any thread. */
    long packets()
    {
        return packets.get();
    }

    /** After the run: latencies recorded, in nanoseconds. */
    Histogram latency()
    {
        return latency;
    }

    /** After the run: packets whose timestamp no origin remembered. */
    long unmatched()
    {
        return unmatched;
    }
}
