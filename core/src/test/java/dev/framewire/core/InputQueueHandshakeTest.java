package dev.framewire.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The backpressure handshake of an {@link InputQueue}, as the engine uses it: a producer that finds
 * the queue full after a push ({@link HeldBack#check}, which raises the queue's room-wanted flag) goes to
 * sleep and relies on the consumer, whose {@code pop()} reports room once the flag is up, to wake it. A lost wake-up (each side reading the other's
 * stale index) would leave the producer asleep with room in the queue; the producer here gives up
 * after a second and the test fails. Runs a few hundred thousand handshakes, bounded in time.
 */
class InputQueueHandshakeTest
{
    @Test
    @Timeout(60)
    void everyCrossingFromFullIsSeenByTheConsumer() throws Exception
    {
        final InputQueue queue = new InputQueue("s", null, 0, false, 16, 2);
        final InputQueue[] throttle = {queue};
        final HeldBack heldBack = new HeldBack();
        final AtomicBoolean wake = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong lost = new AtomicLong();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        final Thread consumer = new Thread(() ->
        {
            while (!stop.get())
            {
                if (queue.peekTimestamp() != Timestamp.UNSET && queue.pop())
                {
                    wake.set(true);
                }
            }
        });
        consumer.start();
        long ts = 0;
        long sleeps = 0;
        try
        {
            while (System.nanoTime() < deadline)
            {
                queue.offer(ts++, InputQueue.LONG, 0);
                if (heldBack.check(throttle)) // the throttle check of sources and graph inputs
                {
                    sleeps++;
                    // a lost wake-up waits forever; 10 s tells it apart from a consumer thread
                    // the OS did not run for a while on a loaded machine
                    final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (!wake.getAndSet(false))
                    {
                        if (System.nanoTime() > giveUp)
                        {
                            lost.incrementAndGet();
                            break;
                        }
                        Thread.onSpinWait();
                    }
                }
            }
        }
        finally
        {
            stop.set(true);
            consumer.join();
        }
        assertEquals(0, lost.get(), "lost wake-ups in " + sleeps + " sleeps");
    }
}
