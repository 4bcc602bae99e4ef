package dev.framewire.bench.suite;

import org.jctools.queues.SpscArrayQueue;

/**
 * The floor: no engine, a JCTools {@link SpscArrayQueue} to one busy-spinning consumer thread
 * that hands each value to the arrivals. Any cross-thread hand-over costs at least this. Values
 * travel in reusable carriers.
 */
final class SpscHop implements Hop
{
    private final SpscArrayQueue<Suite.LongEvent> queue = new SpscArrayQueue<>(1024);
    private final Suite.Carriers<Suite.LongEvent> carriers = new Suite.Carriers<>(Suite.LongEvent::new);
    private final Thread consumer;
    private volatile boolean running = true;

    SpscHop(final Arrivals arrivals)
    {
        consumer = new Thread(() ->
        {
            final SpscArrayQueue<Suite.LongEvent> queue = this.queue;
            while (running)
            {
                final Suite.LongEvent event = queue.poll();
                if (event == null)
                {
                    Thread.onSpinWait();
                }
                else
                {
                    arrivals.acceptSentAt(event.value);
                }
            }
        }, "spsc-floor");
        consumer.setDaemon(true);
        consumer.start();
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        final Suite.LongEvent event = carriers.peek();
        event.value = value;
        if (!queue.offer(event))
        {
            return false;
        }
        carriers.next();
        return true;
    }

    @Override
    public void close() throws Exception
    {
        running = false;
        consumer.join(10_000);
    }
}
