package dev.framewire.core.calculators.video;

import dev.framewire.offheap.Payload;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The single-producer single-consumer ring between a video source's reader thread, which
 * publishes frames and connection events into it, and the node's worker, which drains it in
 * {@code process}. A slot holds a kind ({@link #FRAME}, {@link #CONNECTED}...), a frame with its
 * stream time, or an event's detail. Frames read ahead are bounded by the ring's size: a full
 * ring parks the reader, and ffmpeg then blocks on the pipe.
 *
 * <p>Threading: {@code publish*} and {@link #stop} by the reader (stop also from the worker);
 * {@code peek*}, {@link #consume} and {@link #awaitEvent} by the worker; {@link #releaseQueued}
 * once the reader has ended; the test queries from any thread (racy snapshots). Each side parks
 * when it cannot go on and is unparked by the other only if it said it waits (the volatile
 * {@code *Waiting} fields, written before the side re-checks the ring: no lost wake-up); the
 * parks are timed ({@value #MAX_WAIT_NANOS} ns) so that a stop is seen.
 */
final class SourceRing
{
    static final int FRAME = 0;
    static final int HELD_FRAME = 5;
    static final int CONNECTED = 1;
    static final int DISCONNECTED = 2;
    static final int END = 3;
    static final int FAILED = 4;

    /** The longest park of either side. */
    static final long MAX_WAIT_NANOS = 10_000_000L;

    private final int mask;
    private final int[] kinds;
    private final Payload[] frames;
    private final long[] pts;
    private final Object[] infos;
    private final AtomicLong head = new AtomicLong(); // next to consume, written by the worker
    private final AtomicLong tail = new AtomicLong(); // next to publish, written by the reader
    private volatile Thread consumerWaiting;
    private volatile Thread producerWaiting;
    private volatile boolean stopped;

    /**
     * A ring for {@code queueFrames} frames read ahead, with room for connection events besides.
     *
     * @param queueFrames 1 or more.
     */
    SourceRing(final int queueFrames)
    {
        final int capacity = Integer.highestOneBit(Math.max(2, queueFrames + 2) * 2 - 1);
        mask = capacity - 1;
        kinds = new int[capacity];
        frames = new Payload[capacity];
        pts = new long[capacity];
        infos = new Object[capacity];
    }

    // ------------------------------------------------------------ worker side

    /** The head slot's kind, or -1 if the ring is empty. */
    int peekKind()
    {
        final long h = head.get();
        return h == tail.get() ? -1 : kinds[(int)h & mask];
    }

    Payload peekFrame()
    {
        return frames[(int)head.get() & mask];
    }

    long peekPts()
    {
        return pts[(int)head.get() & mask];
    }

    Object peekInfo()
    {
        return infos[(int)head.get() & mask];
    }

    /** Frees the head slot; the frame in it, if any, was handed to the graph. */
    void consume()
    {
        final long h = head.get();
        final int i = (int)h & mask;
        frames[i] = null;
        infos[i] = null;
        head.set(h + 1);
        final Thread producer = producerWaiting;
        if (producer != null)
        {
            LockSupport.unpark(producer);
        }
    }

    /**
     * Parks the worker until the reader publishes, at most {@code nanos}.
     *
     * @param nanos the longest wait.
     */
    void awaitEvent(final long nanos)
    {
        consumerWaiting = Thread.currentThread();
        if (head.get() == tail.get())
        {
            LockSupport.parkNanos(this, nanos);
        }
        consumerWaiting = null;
    }

    // ------------------------------------------------------------ reader side

    /**
     * Publishes a frame, waiting for room.
     *
     * @param frame     the frame, handed over on success.
     * @param ptsMicros its stream time.
     * @param held      whether ffmpeg held its time (a time that went back).
     * @return false if the ring was stopped first: the frame is still the caller's.
     */
    boolean publishFrame(final Payload frame, final long ptsMicros, final boolean held)
    {
        final long t = tail.get();
        if (!awaitRoom(t))
        {
            return false;
        }
        final int i = (int)t & mask;
        kinds[i] = held ? HELD_FRAME : FRAME;
        frames[i] = frame;
        pts[i] = ptsMicros;
        infos[i] = null;
        publish(t);
        return true;
    }

    /**
     * Publishes an event, waiting for room; dropped if the ring was stopped first.
     *
     * @param kind one of the kinds other than the frames'.
     * @param info its detail: a {@link VideoStatus} or a message.
     */
    void publishInfo(final int kind, final Object info)
    {
        final long t = tail.get();
        if (!awaitRoom(t))
        {
            return;
        }
        final int i = (int)t & mask;
        kinds[i] = kind;
        frames[i] = null;
        infos[i] = info;
        publish(t);
    }

    /** Ends every wait for room: the source is stopping. Any thread. */
    void stop()
    {
        stopped = true;
        final Thread producer = producerWaiting;
        if (producer != null)
        {
            LockSupport.unpark(producer);
        }
    }

    private void publish(final long t)
    {
        tail.set(t + 1); // a volatile write: ordered before the read of consumerWaiting (no lost wake-up)
        final Thread consumer = consumerWaiting;
        if (consumer != null)
        {
            LockSupport.unpark(consumer);
        }
    }

    private boolean awaitRoom(final long t)
    {
        final int capacity = mask + 1;
        while (t - head.get() >= capacity)
        {
            if (stopped)
            {
                return false;
            }
            producerWaiting = Thread.currentThread();
            if (t - head.get() >= capacity && !stopped)
            {
                LockSupport.parkNanos(this, MAX_WAIT_NANOS);
            }
            producerWaiting = null;
        }
        return !stopped;
    }

    // ------------------------------------------------------------ after the reader, and tests

    /** After the reader thread ended: releases frames it published that were never taken. */
    void releaseQueued()
    {
        for (long h = head.get(), t = tail.get(); h < t; h++)
        {
            final Payload frame = frames[(int)h & mask];
            frames[(int)h & mask] = null;
            if (frame != null)
            {
                frame.release();
            }
        }
        head.set(tail.get());
    }

    /** Any thread, for tests: entries published and not yet consumed (a racy snapshot). */
    int queued()
    {
        return (int)(tail.get() - head.get());
    }

    /** Any thread, for tests: entries the ring holds. */
    int capacity()
    {
        return mask + 1;
    }

    /** Any thread, for tests: whether the reader is parked on a full ring. */
    boolean waitingForRoom()
    {
        return producerWaiting != null;
    }
}
