package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;


import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a worker watches a polled queue ({@link InputQueue#pollChanged()}, {@link InputQueue#markSeen()}):
 * every new packet and every moved bound is told of, packets the consumer leaves queued are not told of again
 * (a node waiting for another input would otherwise be run every duty cycle and its worker never
 * go idle), and packets the consumer takes between two looks do not hide the next one.
 */
class PolledQueueTest
{
    private static final int CAPACITY = 8;

    private static InputQueue queue()
    {
        final InputQueue queue = new InputQueue("s", null, null, 0, false, CAPACITY, CAPACITY, 1);
        queue.polled = true;
        return queue;
    }

    private static void take(final InputQueue queue, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            assertTrue(queue.peekTimestamp() != Timestamp.UNSET);
            queue.pop();
        }
    }

    @Test
    void aNewPacketIsToldOfOnceAndAPacketLeftQueuedIsNotToldOfAgain()
    {
        final InputQueue queue = queue();
        assertFalse(queue.pollChanged(), "empty");
        queue.offer(1, InputQueue.LONG, 0);
        assertTrue(queue.pollChanged());
        queue.markSeen();
        assertFalse(queue.pollChanged(), "seen, left queued");
        queue.offer(2, InputQueue.LONG, 0);
        assertTrue(queue.pollChanged(), "a second packet behind one left queued");
        queue.markSeen();
        assertFalse(queue.pollChanged());
    }

    @Test
    void packetsTakenBetweenTwoLooksDoNotHideTheNextOne()
    {
        final InputQueue queue = queue();
        queue.offer(1, InputQueue.LONG, 0);
        queue.markSeen();
        queue.offer(2, InputQueue.LONG, 0);
        queue.offer(3, InputQueue.LONG, 0);
        take(queue, 3); // the node, scheduled, took more than its worker's last look saw
        queue.markSeen(); // the worker's next look (it may have told of them again: a spare run is harmless)
        assertFalse(queue.pollChanged(), "nothing queued, nothing new");
        queue.offer(4, InputQueue.LONG, 0);
        assertTrue(queue.pollChanged(), "the packet after those taken");
        queue.markSeen();
        assertFalse(queue.pollChanged());
    }

    @Test
    void aMovedBoundIsToldOfOnce()
    {
        final InputQueue queue = queue();
        queue.publishBound(10);
        assertTrue(queue.pollChanged());
        queue.markSeen();
        assertFalse(queue.pollChanged());
        queue.publishBound(11);
        assertTrue(queue.pollChanged());
    }

    @Test
    void aFullQueueWhosePacketsWereAllSeenTellsOfNothingThroughWrapArounds()
    {
        final InputQueue queue = queue();
        long ts = 0;
        for (int round = 0; round < 5; round++)
        {
            while (queue.offer(++ts, InputQueue.LONG, 0))
            {
                // fill to capacity
            }
            ts--; // the refused one
            assertEquals(CAPACITY, queue.size());
            assertTrue(queue.pollChanged());
            queue.markSeen();
            assertFalse(queue.pollChanged(), "full, all seen, round " + round);
            take(queue, CAPACITY - 1 - round % 3);
            assertFalse(queue.pollChanged(), "part taken, nothing new, round " + round);
            queue.publishBound(Timestamp.nextAllowedInStream(ts) + round); // keep the bound apart from the look
            queue.markSeen();
            take(queue, queue.size());
        }
    }
}
