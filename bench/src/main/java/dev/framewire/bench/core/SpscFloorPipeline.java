package dev.framewire.bench.core;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.jctools.queues.SpscArrayQueue;

/**
 * The floor under the latency numbers: no engine at all, only a JCTools {@link SpscArrayQueue}
 * from the benchmark thread to one busy-spinning consumer thread that hands each value to the
 * {@link Sink} (and releases a payload, as the engine does after its observer). Any cross-thread
 * hand-over costs at least this.
 *
 * <p>Long values travel in reusable carriers from a ring twice the queue's capacity, so a carrier
 * is never rewritten while the consumer may still read it, and nothing is allocated per packet.
 */
final class SpscFloorPipeline implements Pipeline
{
    private static final int CAPACITY = 1024;

    /** A reusable carrier of one long value. */
    static final class LongCarrier
    {
        long value;
    }

    private final SpscArrayQueue<Object> queue = new SpscArrayQueue<>(CAPACITY);
    private final LongCarrier[] carriers = new LongCarrier[2 * CAPACITY];
    private final PayloadPool pool = new PayloadPool();
    private final Sink sink;
    private final Thread consumer;
    private volatile boolean running = true;
    private volatile Throwable failure;
    private int nextCarrier;

    SpscFloorPipeline(final Sink sink)
    {
        this.sink = sink;
        for (int i = 0; i < carriers.length; i++)
        {
            carriers[i] = new LongCarrier();
        }
        consumer = new Thread(this::consume, "spsc-floor-consumer");
        consumer.setDaemon(true);
        consumer.start();
    }

    private void consume()
    {
        final SpscArrayQueue<Object> queue = this.queue;
        final Sink sink = this.sink;
        try
        {
            while (running)
            {
                final Object m = queue.poll();
                if (m == null)
                {
                    Thread.onSpinWait(); // what Agrona's BusySpinIdleStrategy does on an empty cycle
                }
                else if (m instanceof LongCarrier)
                {
                    sink.accept(((LongCarrier)m).value);
                }
                else
                {
                    final Payload payload = (Payload)m;
                    sink.accept(payload.buffer().getLong(0));
                    payload.release();
                }
            }
        }
        catch (final Throwable t)
        {
            failure = t;
        }
    }

    @Override
    public void sendLong(final long value, final long timestamp)
    {
        while (!offerLong(value, timestamp))
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void sendPayload(final Payload payload, final long timestamp)
    {
        while (!offerPayload(payload, timestamp))
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public boolean offerLong(final long value, final long timestamp)
    {
        final LongCarrier carrier = carriers[nextCarrier];
        carrier.value = value;
        if (!queue.offer(carrier))
        {
            return false;
        }
        nextCarrier = (nextCarrier + 1) & (carriers.length - 1);
        return true;
    }

    @Override
    public boolean offerPayload(final Payload payload, final long timestamp)
    {
        return queue.offer(payload);
    }

    @Override
    public PayloadPool pool()
    {
        return pool;
    }

    @Override
    public void close() throws Exception
    {
        running = false;
        consumer.join(10_000);
        Object m;
        while ((m = queue.poll()) != null)
        {
            if (m instanceof Payload)
            {
                ((Payload)m).release();
            }
        }
        pool.close();
        if (failure != null)
        {
            throw new IllegalStateException("SPSC floor consumer failed", failure);
        }
    }
}
