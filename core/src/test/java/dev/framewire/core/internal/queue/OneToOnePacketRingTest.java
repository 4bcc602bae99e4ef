package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ring under {@link InputQueue}, in the manner of JCTools' {@code QueueSanityTest}: sizing,
 * FIFO order, full and empty, wrap-around, the slot cleared on removal (a marker left), publication
 * by the slot's sequence, and a producer and a
 * consumer thread racing through millions of packets, each checked for order and for a torn slot
 * (a timestamp, value and word that were not written together). Model-checked interleavings are in
 * {@link OneToOnePacketRingLincheckTest}.
 */
class OneToOnePacketRingTest
{
    private static final Object[] VALUES = {"a", "b", "c", "d", "e", "f", "g", "h"};

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 5, 8, 1000, 1024})
    void capacityIsThePowerOfTwoAtOrAboveTheAskAndAtLeastTwo(final int ask)
    {
        final int capacity = new OneToOnePacketRing(ask).capacity();
        assertEquals(Math.max(2, Integer.highestOneBit(Math.max(1, ask - 1)) << 1), capacity, "ask " + ask);
        assertTrue(capacity >= ask);
    }

    @Test
    void producerHoldsAtLeastAgreesWithTheCountThroughFillsDrainsAndWrapArounds()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(8);
        long next = 0;
        for (int round = 0; round < 40; round++)
        {
            final int fill = round % 9; // 0..8 packets, so the positions wrap many times
            for (int i = 0; i < fill; i++)
            {
                assertTrue(ring.offer(next++, VALUES[i], i));
            }
            for (int n = 1; n <= 9; n++)
            {
                assertEquals(ring.size() >= n, ring.producerHoldsAtLeast(n), "round " + round + ", " + ring.size() +
                    " held, asked " + n);
            }
            // drain part of it: the copy of the head the look kept is now behind the head
            for (int i = 0; i < (fill + 1) / 2; i++)
            {
                assertTrue(ring.peekTimestamp() != Timestamp.UNSET); // a removal follows a peek that found a packet
                ring.removeVolatile();
            }
            for (int n = 9; n >= 1; n--)
            {
                assertEquals(ring.size() >= n, ring.producerHoldsAtLeast(n), "round " + round + " after a drain, " +
                    ring.size() + " held, asked " + n);
            }
            while (ring.peekTimestamp() != Timestamp.UNSET)
            {
                ring.removeVolatile();
            }
        }
    }

    @Test
    void offersUntilFullThenRefusesAndGivesBackInOrder()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(8);
        assertEquals(Timestamp.UNSET, ring.peekTimestamp(), "empty");
        for (int i = 0; i < 8; i++)
        {
            assertTrue(ring.offer(i, VALUES[i], ~i), "slot " + i);
            assertEquals(i + 1, ring.size());
        }
        assertFalse(ring.offer(8, "x", 0), "full");
        assertEquals(8, ring.size(), "a refused offer changes nothing");
        for (int i = 0; i < 8; i++)
        {
            assertEquals(i, ring.peekTimestamp());
            assertSame(VALUES[i], ring.peekValue());
            assertEquals(~i, ring.peekWord());
            assertEquals(Timestamp.UNSET, ring.peekTimestampAt(8 - i), "nothing past the tail");
            assertEquals(i + 1, ring.removeVolatile(), "the new head");
        }
        assertEquals(Timestamp.UNSET, ring.peekTimestamp());
        assertEquals(0, ring.size());
    }

    @Test
    void peekAtLooksBehindTheOldest()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(4);
        ring.offer(10, "a", 0);
        ring.offer(20, "b", 0);
        ring.offer(30, "c", 0);
        assertEquals(10, ring.peekTimestampAt(0));
        assertEquals(20, ring.peekTimestampAt(1));
        assertEquals(30, ring.peekTimestampAt(2));
        assertEquals(Timestamp.UNSET, ring.peekTimestampAt(3));
    }

    @Test
    void wrapsAroundManyTimesAndClearsEachRemovedSlot()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(4);
        long next = 0;
        long expected = 0;
        for (int round = 0; round < 1000; round++)
        {
            final int burst = 1 + round % 4;
            for (int i = 0; i < burst; i++)
            {
                assertTrue(ring.offer(next, VALUES[(int)(next % VALUES.length)], next * 3), "round " + round);
                next++;
            }
            for (int i = 0; i < burst; i++)
            {
                assertEquals(expected, ring.peekTimestamp());
                assertEquals(expected * 3, ring.peekWord());
                final long position = ring.lvHead();
                ring.removeVolatile();
                assertNull(ring.valueAt(position), "a removed slot holds no reference (no leak of the value)");
                expected++;
            }
        }
        assertEquals(next, ring.lvTail());
        assertEquals(next, ring.lvHead());
    }

    @Test
    void aMarkerStaysInItsSlotAndOtherValuesAreCleared()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(2);
        for (long position = 0; position < 8; position++)
        {
            final Object value = position % 3 == 0 ? "object " + position : InputQueue.LONG;
            assertTrue(ring.offer(position, value, position));
            assertSame(value, ring.peekValue());
            assertEquals(position, ring.peekWord());
            ring.removeVolatile();
            if (value == InputQueue.LONG)
            {
                assertSame(InputQueue.LONG, ring.valueAt(position), "a marker is left where it is, not written twice");
            }
            else
            {
                assertNull(ring.valueAt(position), "any other value is cleared: no reference kept");
            }
        }
    }

    @Test
    void aPositionIsPublishedOnceItsPacketIsInAndStaysSoThroughLaterLaps()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(2);
        assertFalse(ring.publishedAt(0));
        assertTrue(ring.offer(100, "a", 0));
        assertTrue(ring.publishedAt(0));
        assertFalse(ring.publishedAt(1), "the next slot holds nothing yet");
        assertFalse(ring.publishedAt(2), "the same slot a lap on: its packet is not in");
        ring.peekTimestamp();
        ring.removeVolatile();
        assertTrue(ring.publishedAt(0), "taken, and still published");
        for (long ts = 101; ts < 110; ts++)
        {
            assertTrue(ring.offer(ts, "b", 0));
            ring.peekTimestamp();
            ring.removeVolatile();
        }
        for (long position = 0; position < 10; position++)
        {
            assertTrue(ring.publishedAt(position), "position " + position + ", its slot since reused");
        }
        assertFalse(ring.publishedAt(10));
    }

    @Test
    void theNewestTimestampIsTheLastPublishedThenTheLastRemoved()
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(4);
        assertEquals(Timestamp.UNSET, ring.consumerNewestTimestamp(), "nothing ever published");
        assertEquals(Timestamp.UNSET, ring.newestTimestamp());
        ring.offer(5, "a", 0);
        ring.offer(9, "b", 0);
        assertEquals(9, ring.newestTimestamp());
        assertEquals(Timestamp.UNSET, ring.consumerNewestTimestamp(), "not found by a peek yet");
        assertEquals(5, ring.peekTimestamp());
        assertEquals(5, ring.consumerNewestTimestamp(), "found up to the first");
        assertEquals(9, ring.peekTimestampAt(1));
        ring.removeVolatile();
        assertEquals(9, ring.consumerNewestTimestamp());
        assertEquals(9, ring.peekTimestamp());
        ring.removeVolatile();
        assertEquals(9, ring.consumerNewestTimestamp(), "all taken: the last removed");
        for (long ts = 10; ts < 14; ts++)
        {
            ring.offer(ts, "c", 0); // fills the ring: the slot of 9 now holds 13
        }
        assertEquals(9, ring.consumerNewestTimestamp(), "the slot reused, the last removed still");
        assertEquals(13, ring.peekTimestampAt(3));
        assertEquals(13, ring.consumerNewestTimestamp());
        for (int i = 0; i < 4; i++)
        {
            ring.peekTimestamp();
            ring.removeVolatile();
        }
        assertEquals(13, ring.consumerNewestTimestamp());
    }

    /** One producer, one consumer, 2 million packets through a small ring: order and whole slots. */
    @Test
    @Timeout(120)
    void aProducerAndAConsumerThreadSeeWholePacketsInOrder() throws Exception
    {
        final int packets = 2_000_000;
        final OneToOnePacketRing ring = new OneToOnePacketRing(64);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread producer = new Thread(() ->
        {
            for (long i = 0; i < packets; i++)
            {
                while (!ring.offer(i, VALUES[(int)(i & 7)], i ^ 0x5DEECE66DL))
                {
                    Thread.yield(); // 2 cores: the consumer needs one
                }
            }
        }, "ring-producer");
        producer.setUncaughtExceptionHandler((t, e) -> failure.set(e));
        producer.start();
        long expected = 0;
        while (expected < packets && failure.get() == null)
        {
            final long ts = ring.peekTimestamp();
            if (ts == Timestamp.UNSET)
            {
                Thread.yield();
                continue;
            }
            assertEquals(expected, ts, "order");
            assertSame(VALUES[(int)(expected & 7)], ring.peekValue(), "value of " + expected);
            assertEquals(expected ^ 0x5DEECE66DL, ring.peekWord(), "word of " + expected);
            ring.removeVolatile();
            expected++;
        }
        producer.join();
        assertNull(failure.get());
        assertEquals(packets, expected);
        assertEquals(0, ring.size());
    }
}
