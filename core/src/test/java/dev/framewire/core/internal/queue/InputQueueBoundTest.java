package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@link InputQueue}'s bound: a packet settles its stream up to itself with no store of its own
 * (MediaPipe's rule: a packet at t moves the bound to t + 1), and the producer stores only bounds
 * beyond that (a close, an explicit bound); the consumer's bound is the higher of the two. A
 * polled queue's worker sees a packet by its slot and a stored bound by its word.
 */
class InputQueueBoundTest
{
    private static InputQueue queue()
    {
        return new InputQueue("s", null, null, 0, false, 16, 16, 1);
    }

    @Test
    void aPacketSettlesItsStreamWithNoStore()
    {
        final InputQueue queue = queue();
        assertEquals(Timestamp.PRE_STREAM, queue.bound(), "a new queue");
        assertTrue(queue.offer(5, InputQueue.LONG, 1));
        queue.publishBound(6);
        assertEquals(Timestamp.PRE_STREAM, queue.storedBound(), "the bound the packet implies is not stored");
        assertEquals(6, queue.boundRacy());
        assertEquals(5, queue.peekTimestamp());
        assertEquals(6, queue.bound());
        queue.pop();
        assertEquals(6, queue.bound(), "taken, the packet still settles the stream");
    }

    @Test
    void aBoundPastThePacketIsStoredAndALaterPacketPassesIt()
    {
        final InputQueue queue = queue();
        queue.offer(5, InputQueue.LONG, 1);
        queue.peekTimestamp();
        queue.publishBound(10);
        assertEquals(10, queue.storedBound());
        assertEquals(10, queue.bound());
        queue.publishBound(8);
        assertEquals(10, queue.bound(), "never down");
        queue.offer(12, InputQueue.LONG, 2);
        queue.publishBound(13);
        assertEquals(10, queue.storedBound());
        assertEquals(10, queue.bound(), "the packet at 12 not found yet");
        assertEquals(12, queue.peekTimestampAt(1));
        assertEquals(13, queue.bound());
        queue.publishBound(Timestamp.DONE);
        assertEquals(Timestamp.DONE, queue.storedBound(), "a close is stored");
        assertEquals(Timestamp.DONE, queue.bound());
    }

    @Test
    void aPacketAtPreStreamSettlesTheWholeStream()
    {
        final InputQueue queue = queue();
        queue.offer(Timestamp.PRE_STREAM, InputQueue.LONG, 0);
        queue.publishBound(Timestamp.ONE_OVER_POST_STREAM);
        assertEquals(Timestamp.PRE_STREAM, queue.storedBound());
        assertEquals(Timestamp.PRE_STREAM, queue.peekTimestamp());
        queue.pop();
        assertEquals(Timestamp.ONE_OVER_POST_STREAM, queue.bound());
    }

    @Test
    void aPolledQueueSeesPacketsAndStoredBoundsAsChangesAndNothingElse()
    {
        final InputQueue queue = queue();
        queue.markSeen();
        assertFalse(queue.pollChanged());
        queue.offer(1, InputQueue.LONG, 0);
        queue.publishBound(2);
        assertTrue(queue.pollChanged(), "a packet");
        queue.markSeen();
        assertFalse(queue.pollChanged());
        queue.peekTimestamp();
        queue.pop();
        assertFalse(queue.pollChanged(), "taking a packet is no change");
        queue.publishBound(50);
        assertTrue(queue.pollChanged(), "a stored bound");
        queue.markSeen();
        assertFalse(queue.pollChanged());
        for (long ts = 60; ts < 90; ts++)
        {
            queue.offer(ts, InputQueue.LONG, 0); // past the ring's 16 slots: seen positions are reused
            queue.publishBound(ts + 1);
            assertTrue(queue.pollChanged(), "packet " + ts);
            queue.markSeen();
            assertFalse(queue.pollChanged());
            queue.peekTimestamp();
            queue.pop();
        }
    }

    /**
     * A producer thread sends packets with gaps, now and then a bound past its last packet; the
     * consumer, whenever it finds the queue empty, reads the bound, then the queue again (as the
     * input policies do). When that second look finds it empty too, no packet it takes later may
     * lie below the bound it read.
     */
    @Test
    @Timeout(120)
    void noPacketComesBelowABoundTheConsumerRead() throws Exception
    {
        final InputQueue queue = queue();
        final int packets = 1_000_000;
        final AtomicReference<String> failure = new AtomicReference<>();
        final Thread producer = new Thread(() ->
        {
            final SplittableRandom random = new SplittableRandom(42);
            long ts = 0;
            for (int i = 0; i < packets; i++)
            {
                ts += 1 + random.nextInt(3);
                while (!queue.offer(ts, InputQueue.LONG, i))
                {
                    if (failure.get() != null)
                    {
                        return; // the consumer stopped taking: end now, not at the timeout
                    }
                    Thread.onSpinWait();
                }
                queue.publishBound(Timestamp.nextAllowedInStream(ts));
                if (random.nextInt(100) == 0)
                {
                    ts += 5;
                    queue.publishBound(ts + 1); // the next packet comes at ts + 1 or later
                }
            }
            queue.publishBound(Timestamp.DONE);
        }, "bound-producer");
        producer.start();
        long settled = Timestamp.PRE_STREAM;
        long last = Timestamp.UNSET;
        int taken = 0;
        while (failure.get() == null)
        {
            long head = queue.peekTimestamp();
            if (head == Timestamp.UNSET)
            {
                final long bound = queue.bound();
                head = queue.peekTimestamp();
                if (head == Timestamp.UNSET)
                {
                    // empty after the bound: it settles every packet to come (a packet found
                    // here instead may lie below it, and is taken as it is)
                    if (bound < settled)
                    {
                        failure.set("the bound went down from " + settled + " to " + bound);
                    }
                    settled = bound;
                    if (bound == Timestamp.DONE)
                    {
                        break;
                    }
                    Thread.onSpinWait();
                    continue;
                }
            }
            if (head < settled || head <= last)
            {
                failure.set("packet " + head + " after the bound " + settled + " was read (last packet " + last + ")");
            }
            if (queue.peekWord() != taken)
            {
                failure.set("packet " + head + " holds " + queue.peekWord() + ", expected " + taken);
            }
            last = head;
            queue.pop();
            taken++;
        }
        producer.join();
        assertNull(failure.get());
        assertEquals(packets, taken);
        assertEquals(Timestamp.DONE, queue.bound());
    }
}
