package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.StreamSpec;

/**
 * The timestamp-align policy (MediaPipe's TimestampAlignInputStreamHandler). Until every input has
 * shown a packet, each packet of the base input is handed over alone, and each other input's
 * offset is set to (base head - its head) whenever both hold a packet. From then on the inputs are
 * synchronized like the default policy on their timestamps plus their offsets, and a packet is
 * handed over at its aligned timestamp.
 *
 * <p>Threading: the node's worker only.
 */
public final class TimestampAlignSync extends InputSync
{
    private final int base;
    private final long[] offsets;
    private boolean initialized;

    public TimestampAlignSync(final InputPort[] ports, final String baseTagIndex, final boolean processBounds)
    {
        super(ports, processBounds);
        int found = -1;
        for (final InputPort port : ports)
        {
            if (found < 0 && matches(port.spec, baseTagIndex))
            {
                found = port.index;
            }
        }
        this.base = found;
        this.offsets = new long[ports.length];
        this.initialized = ports.length == 1;
    }

    /** Whether {@code key} names the input: {@code TAG:index}, {@code TAG}, {@code :index} (untagged) or its stream. */
    static boolean matches(final StreamSpec spec, final String key)
    {
        return spec.matches(key) || spec.tag.isEmpty() && key.equals(":" + spec.index);
    }

    @Override
    public long readiness()
    {
        if (!initialized)
        {
            return readinessBeforeOffsets();
        }
        long min = Timestamp.DONE;
        long minBound = Timestamp.DONE;
        for (int i = 0; i < ports.length; i++)
        {
            final InputQueue queue = ports[i].queue;
            long ts = queue.peekTimestamp();
            boolean empty = false;
            if (ts == Timestamp.UNSET)
            {
                final long bound = queue.bound();
                ts = queue.peekTimestamp();
                empty = ts == Timestamp.UNSET;
                ts = empty ? bound : ts;
            }
            ts = aligned(ts, offsets[i]);
            if (empty)
            {
                minBound = Math.min(minBound, ts);
            }
            min = Math.min(min, ts);
        }
        if (min >= Timestamp.ONE_OVER_POST_STREAM)
        {
            return InputSync.READY_FOR_CLOSE;
        }
        return minBound > min ? min : InputSync.NOT_READY;
    }

    private static long aligned(final long ts, final long offset)
    {
        return ts >= Timestamp.MIN && ts <= Timestamp.MAX ? Timestamp.add(ts, offset) : ts;
    }

    private long readinessBeforeOffsets()
    {
        final long baseHead = ports[base].queue.peekTimestamp();
        if (baseHead == Timestamp.UNSET)
        {
            return allDone() ? InputSync.READY_FOR_CLOSE : InputSync.NOT_READY;
        }
        int unknown = 0;
        for (int i = 0; i < ports.length; i++)
        {
            if (i == base)
            {
                continue;
            }
            final long head = ports[i].queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                unknown++;
            }
            else
            {
                offsets[i] = baseHead - head;
            }
        }
        initialized = unknown == 0;
        return baseHead;
    }

    private boolean allDone()
    {
        for (final InputPort port : ports)
        {
            if (port.queue.peekTimestamp() != Timestamp.UNSET || port.queue.bound() < Timestamp.ONE_OVER_POST_STREAM)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public long fill(final long timestamp)
    {
        for (int i = 0; i < ports.length; i++)
        {
            final InputPort port = ports[i];
            if (!initialized && i != base)
            {
                port.set(timestamp, null, 0);
                continue;
            }
            final long own = initialized ? Timestamp.subtract(timestamp, offsets[i]) : timestamp;
            if (port.queue.peekTimestamp() == own)
            {
                if (port.take())
                {
                    port.queue.wakeHeldBack();
                }
                port.timestamp = timestamp;
            }
            else
            {
                port.set(timestamp, null, 0);
            }
        }
        return timestamp;
    }
}
