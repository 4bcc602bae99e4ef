package dev.framewire.core;

import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.run.Run;
import dev.framewire.core.internal.queue.PacketSlot;

import dev.framewire.offheap.Payload;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Pulls the packets of a graph output stream on the caller's thread, as MediaPipe's
 * OutputStreamPoller. Its queue takes part in backpressure like any consumer's: when the caller
 * falls behind, the sources upstream wait.
 *
 * <pre>{@code
 * OutputPoller poller = graph.poller("out");   // before start
 * graph.start();
 * while (poller.next(1, TimeUnit.SECONDS)) {
 *     long ts = poller.packet().timestamp();
 * }
 * }</pre>
 *
 * <p>Threading: one polling thread. The current packet stays valid until the next call to
 * {@link #next}; retain its payload to keep it longer.
 */
public final class OutputPoller
{
    /** The run and queue polled: those of the graph's latest run (see {@link #rebind}). */
    private volatile Run graph;
    volatile InputQueue queue;
    private final PacketSlot current;

    OutputPoller(final Run graph, final InputQueue queue)
    {
        this.graph = graph;
        this.queue = queue;
        this.current = new PacketSlot(queue.streamName);
    }

    /** The graph's owner, as a new run is prepared: the poller polls that run's queue of its stream. */
    void rebind(final Run run, final InputQueue next)
    {
        releaseCurrent();
        this.queue = next;
        this.graph = run;
    }

    /**
     * Moves to the next packet, waiting up to the timeout for one.
     *
     * @param timeout how long to wait.
     * @param unit    its unit.
     * @return true when a packet is ready in {@link #packet()}; false on timeout, or when the
     * stream is done (see {@link #isDone()}) or the run has ended.
     * @throws InterruptedException if interrupted while waiting.
     */
    public boolean next(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        releaseCurrent();
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true)
        {
            final long bound = queue.bound();
            final long head = queue.peekTimestamp();
            if (head != Timestamp.UNSET)
            {
                final Object value = queue.peekValue();
                final long word = queue.peekWord();
                if (value instanceof Payload)
                {
                    ((Payload)value).checkGeneration((int)word);
                }
                current.set(head, value, word);
                if (queue.pop())
                {
                    queue.wakeHeldBack();
                }
                return true;
            }
            if (bound == Timestamp.DONE || graph.isStopping())
            {
                return false;
            }
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return false;
            }
            queue.poller.waiter = Thread.currentThread();
            if (queue.peekTimestamp() == Timestamp.UNSET && queue.bound() != Timestamp.DONE)
            {
                LockSupport.parkNanos(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)));
            }
            queue.poller.waiter = null;
            if (Thread.interrupted())
            {
                throw new InterruptedException("interrupted while polling stream '" + queue.streamName + "'");
            }
        }
    }

    /**
     * The current packet, after {@link #next} returned true.
     *
     * @return a view valid until the next call to {@link #next}.
     */
    public Packet packet()
    {
        return current;
    }

    /**
     * Whether the stream is closed and every packet has been taken.
     *
     * @return true when done.
     */
    public boolean isDone()
    {
        return queue.boundRacy() == Timestamp.DONE && queue.size() == 0;
    }

    /**
     * Packets waiting.
     *
     * @return the count.
     */
    public int queueSize()
    {
        return queue.size();
    }

    void releaseCurrent()
    {
        final Object value = current.value;
        if (value instanceof Payload)
        {
            ((Payload)value).release();
        }
        current.clear();
    }
}
