package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

/**
 * The barrier policy (MediaPipe's BarrierInputStreamHandler): the node is ready when every input
 * holds a packet, whatever their timestamps; the input set is the head packet of each input, and
 * its timestamp the lowest of them (each queue ascends, so that lowest ascends too). The node is
 * ready to close as soon as any input is done and empty; what other inputs still hold is dropped.
 *
 * <p>Threading: the node's worker only.
 */
public final class BarrierSync extends InputSync
{
    public BarrierSync(final InputPort[] ports, final boolean processBounds)
    {
        super(ports, processBounds);
    }

    @Override
    public long readiness()
    {
        long min = Timestamp.DONE;
        boolean allAvailable = true;
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            long head = queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                final long bound = queue.bound(); // then the ring again: a packet before the bound is visible
                head = queue.peekTimestamp();
                if (head == Timestamp.UNSET)
                {
                    if (bound >= Timestamp.ONE_OVER_POST_STREAM)
                    {
                        return InputSync.READY_FOR_CLOSE;
                    }
                    allAvailable = false;
                    continue;
                }
            }
            min = Math.min(min, head);
        }
        return allAvailable ? min : InputSync.NOT_READY;
    }

    @Override
    public long fill(final long timestamp)
    {
        for (final InputPort port : ports)
        {
            if (port.take())
            {
                port.queue.wakeHeldBack();
            }
        }
        return timestamp;
    }
}
