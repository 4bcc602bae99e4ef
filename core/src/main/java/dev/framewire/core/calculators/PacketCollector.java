package dev.framewire.core.calculators;

import dev.framewire.offheap.Payload;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link CollectorSinkCalculator} gathered: every packet of its inputs, in arrival order,
 * as (stream, timestamp, value). Payloads are retained while collected; {@link #close()} releases
 * them. For tests and small tools; it allocates per packet.
 *
 * <p>Threading: safe from any thread (the sink adds on its worker, a test reads on its own).
 */
public final class PacketCollector implements AutoCloseable
{
    /**
     * One collected packet.
     *
     * @param stream    the input stream's name.
     * @param timestamp the packet's timestamp.
     * @param value     the value; primitives boxed.
     */
    public record Entry(String stream, long timestamp, Object value)
    {
    }

    private final List<Entry> entries = new ArrayList<>();

    synchronized void add(final String stream, final long timestamp, final Object value)
    {
        if (value instanceof Payload)
        {
            ((Payload)value).retain();
        }
        entries.add(new Entry(stream, timestamp, value));
    }

    /**
     * A copy of everything collected so far.
     *
     * @return the entries.
     */
    public synchronized List<Entry> entries()
    {
        return new ArrayList<>(entries);
    }

    /**
     * The timestamps collected from one stream, in order.
     *
     * @param stream a stream name.
     * @return the timestamps.
     */
    public synchronized List<Long> timestamps(final String stream)
    {
        final List<Long> out = new ArrayList<>();
        for (final Entry e : entries)
        {
            if (e.stream().equals(stream))
            {
                out.add(e.timestamp());
            }
        }
        return out;
    }

    /**
     * Releases every collected payload and forgets everything.
     */
    @Override
    public synchronized void close()
    {
        for (final Entry e : entries)
        {
            if (e.value() instanceof Payload)
            {
                ((Payload)e.value()).release();
            }
        }
        entries.clear();
    }
}
