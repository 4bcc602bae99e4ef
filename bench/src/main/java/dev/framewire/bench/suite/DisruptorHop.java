package dev.framewire.bench.suite;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.framewire.core.IdleKind;

import java.util.concurrent.TimeUnit;

/**
 * The Disruptor: a single-producer ring of 1024 long events and one event handler that is both
 * node and sink, on the wait strategy that matches the idle kind ({@link Suite#waitStrategy}).
 */
final class DisruptorHop implements Hop
{
    private final Disruptor<Suite.LongEvent> disruptor;
    private final RingBuffer<Suite.LongEvent> ring;

    DisruptorHop(final IdleKind idle, final Arrivals arrivals)
    {
        disruptor = new Disruptor<>(Suite.LongEvent::new, 1024, Suite.daemonThreads("disruptor-hop"),
            ProducerType.SINGLE, Suite.waitStrategy(idle));
        disruptor.handleEventsWith((event, sequence, endOfBatch) -> arrivals.acceptSentAt(event.value));
        ring = disruptor.start();
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        // tryPublishEvent would box the long through its Object argument.
        final RingBuffer<Suite.LongEvent> ring = this.ring;
        if (!ring.hasAvailableCapacity(1))
        {
            return false;
        }
        final long sequence = ring.next();
        ring.get(sequence).value = value;
        ring.publish(sequence);
        return true;
    }

    @Override
    public void close() throws Exception
    {
        disruptor.shutdown(10, TimeUnit.SECONDS);
    }
}
