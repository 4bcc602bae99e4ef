package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

/**
 * The mux policy (MediaPipe's MuxInputStreamHandler): the control input ({@code SELECT}, else the
 * last input) carries per timestamp the index of the data input to pass. The node is ready when
 * the control input has a packet and the selected data input has a packet at that timestamp or
 * has moved its bound past it; the input set holds the control packet and the selected input's
 * packet (or nothing), and data packets older than the next control timestamp are dropped, as
 * MediaPipe erases them. The node closes when the control input is done.
 *
 * <p>Threading: the node's worker only.
 */
public final class MuxSync extends InputSync
{
    /** The control input's tag. */
    public static final String SELECT = "SELECT";

    private final DropSink drops;
    private final InputPort control;
    private final InputPort[] data;

    public MuxSync(final InputPort[] ports, final DropSink drops, final boolean processBounds)
    {
        super(ports, processBounds);
        this.drops = drops;
        final int c = controlIndex(ports);
        this.control = ports[c];
        this.data = new InputPort[ports.length - 1];
        for (int i = 0, j = 0; i < ports.length; i++)
        {
            if (i != c)
            {
                data[j++] = ports[i];
            }
        }
    }

    private static int controlIndex(final InputPort[] ports)
    {
        for (int i = 0; i < ports.length; i++)
        {
            if (SELECT.equals(ports[i].tag))
            {
                return i;
            }
        }
        return ports.length - 1;
    }

    @Override
    public long readiness()
    {
        final InputQueue controlQueue = control.queue;
        long head = controlQueue.peekTimestamp();
        final long bound;
        if (head == Timestamp.UNSET)
        {
            bound = controlQueue.bound();
            head = controlQueue.peekTimestamp();
        }
        else
        {
            bound = head;
        }
        dropBefore(head != Timestamp.UNSET ? head : bound);
        if (head == Timestamp.UNSET)
        {
            return bound >= Timestamp.ONE_OVER_POST_STREAM ? InputSync.READY_FOR_CLOSE : InputSync.NOT_READY;
        }
        final InputQueue selected = selected().queue;
        final long dataHead = selected.peekTimestamp();
        if (dataHead != Timestamp.UNSET)
        {
            return head; // at the control timestamp, or later: then nothing comes at it
        }
        final long dataBound = selected.bound();
        if (selected.peekTimestamp() != Timestamp.UNSET || dataBound > head)
        {
            return head;
        }
        return InputSync.NOT_READY;
    }

    private InputPort selected()
    {
        final InputQueue queue = control.queue;
        final Object value = queue.peekValue();
        final long index;
        if (value == InputQueue.LONG)
        {
            index = queue.peekWord();
        }
        else if (value instanceof Number)
        {
            index = ((Number)value).longValue();
        }
        else
        {
            throw new IllegalStateException(control.owner() + ", MuxInputStreamHandler's control input, holds " + (value == null ? "nothing" : value.getClass().getName()) + " at " +
                Timestamp.toString(queue.peekTimestamp()) + "; valid is an integer data input index 0.." +
                (data.length - 1));
        }
        if (index < 0 || index >= data.length)
        {
            throw new IllegalStateException(control.owner() + ", MuxInputStreamHandler's control input, selects input " + index + " at " + Timestamp.toString(queue.peekTimestamp()) +
                "; valid are 0.." + (data.length - 1));
        }
        return data[(int)index];
    }

    private void dropBefore(final long timestamp)
    {
        for (final InputPort port : data)
        {
            final InputQueue queue = port.queue;
            long ts;
            while ((ts = queue.peekTimestamp()) != Timestamp.UNSET && ts < timestamp)
            {
                if (queue.dropHead())
                {
                    queue.wakeHeldBack();
                }
                drops.dropped(queue.streamName, ts, "mux");
            }
        }
    }

    @Override
    public long fill(final long timestamp)
    {
        final InputPort chosen = selected();
        for (final InputPort port : data)
        {
            if (port == chosen)
            {
                SyncGroup.fillPort(port, timestamp);
            }
            else
            {
                port.set(timestamp, null, 0);
            }
        }
        SyncGroup.fillPort(control, timestamp);
        dropBefore(Timestamp.nextAllowedInStream(timestamp));
        return timestamp;
    }
}
