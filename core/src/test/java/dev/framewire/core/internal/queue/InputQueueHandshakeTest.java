package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The backpressure handshake of an {@link InputQueue}, as the engine uses it: a producer that finds
 * the queue full after a push ({@link HeldBack#check}, which raises the queue's room-wanted flag) goes to
 * sleep and relies on the consumer, whose {@code pop()} reports room once the flag is up, to wake it. A lost wake-up (each side reading the other's
 * stale index) would leave the producer asleep with room in the queue; the producer here gives up
 * after a second and the test fails. Runs a few hundred thousand handshakes, bounded in time.
 */
class InputQueueHandshakeTest
{
    /**
     * The held-back side: waits for the consumer's wake-up, counting it lost after 10 s (a lost
     * wake-up waits for ever; 10 s tells it apart from a consumer thread the OS did not run for a
     * while on a loaded machine).
     */
    private static void awaitWake(final AtomicBoolean wake, final AtomicLong lost, final boolean yield)
    {
        final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!wake.getAndSet(false))
        {
            if (System.nanoTime() > giveUp)
            {
                lost.incrementAndGet();
                return;
            }
            if (yield)
            {
                Thread.yield();
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    @Test
    @Timeout(60)
    void everyCrossingFromFullIsSeenByTheConsumer() throws Exception
    {
        final InputQueue queue = new InputQueue("s", null, null, 0, false, 16, 2, 1);
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
                    awaitWake(wake, lost, false);
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

    /**
     * A thread held back by a queue it does not produce into (a source behind a node's output
     * queue) reads the producer's finding at its last offer, not the queue's tail: held back once
     * the producer has filled the queue to its limit, let go by the exact look once the consumer
     * has taken a packet although the producer has not offered since, and by a raised limit.
     */
    @Test
    void aThreadThatIsNotTheProducerIsHeldBackByTheProducersFindingAndLetGoByAnExactLook()
    {
        final InputQueue queue = new InputQueue("s", null, null, 0, false, 8, 2, 1);
        final InputQueue[] throttle = {queue};
        final HeldBack source = new HeldBack();
        assertTrue(queue.offer(0, InputQueue.LONG, 0));
        assertFalse(queue.atLimit());
        assertFalse(source.check(throttle), "one packet of a limit of 2");
        assertTrue(queue.offer(1, InputQueue.LONG, 0));
        assertTrue(queue.atLimit());
        assertTrue(source.check(throttle), "two packets of a limit of 2");
        assertTrue(source.check(throttle), "still: no room handed out");

        assertTrue(queue.peekTimestamp() != Timestamp.UNSET);
        assertTrue(queue.pop(), "the held-back source raised the flag: the pop hands out room");
        assertTrue(queue.atLimit(), "the producer has not offered since: its finding is stale");
        assertFalse(source.check(throttle), "the exact look finds one packet");

        assertTrue(queue.offer(2, InputQueue.LONG, 0));
        assertTrue(source.check(throttle), "full again");
        queue.raiseLimit(4);
        assertFalse(source.check(throttle), "a raised limit lets it go although the finding is stale");
        assertTrue(queue.offer(3, InputQueue.LONG, 0));
        assertFalse(queue.atLimit(), "three packets of a limit of 4");
    }

    /**
     * The same handshake with the held-back thread apart from the producer, as a source behind a
     * node: the source sends a token per packet to a producer thread that offers one packet per
     * token, a consumer thread pops, and the source, when held back, waits for the pop that hands
     * out room. Three threads on two cores: each yields when it has nothing to do. The source reads only the producer's finding and the room counter, so a finding
     * stored late must still not lose a wake-up.
     */
    @Test
    @Timeout(60)
    void aSourceBehindAnotherProducerIsWokenOnEveryCrossingFromFull() throws Exception
    {
        final InputQueue queue = new InputQueue("s", null, null, 0, false, 64, 2, 1);
        final InputQueue[] throttle = {queue};
        final HeldBack heldBack = new HeldBack();
        final AtomicBoolean wake = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong tokens = new AtomicLong();
        final AtomicLong lost = new AtomicLong();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        final Thread consumer = new Thread(() ->
        {
            while (!stop.get())
            {
                if (queue.peekTimestamp() == Timestamp.UNSET)
                {
                    Thread.yield(); // three threads on two cores: none of them spins
                }
                else if (queue.pop())
                {
                    wake.set(true);
                }
            }
        });
        final Thread producer = new Thread(() ->
        {
            long offered = 0;
            while (!stop.get())
            {
                if (offered < tokens.get())
                {
                    if (queue.offer(offered, InputQueue.LONG, 0))
                    {
                        offered++;
                    }
                }
                else
                {
                    Thread.yield();
                }
            }
        });
        consumer.start();
        producer.start();
        long sleeps = 0;
        try
        {
            while (System.nanoTime() < deadline)
            {
                if (!heldBack.check(throttle))
                {
                    tokens.incrementAndGet();
                    continue;
                }
                sleeps++;
                awaitWake(wake, lost, true);
            }
        }
        finally
        {
            stop.set(true);
            consumer.join();
            producer.join();
        }
        assertEquals(0, lost.get(), "lost wake-ups in " + sleeps + " sleeps");
        assertTrue(sleeps > 0, "the source was never held back: the test tested nothing");
    }
}
