package dev.framewire.jcstress.queue;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.OneToOnePacketRing;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress tests of {@link OneToOnePacketRing}'s publication: a slot's timestamp, word and value
 * are written before its sequence (release) and read after it (acquire), so the consumer finds a
 * packet only with the fields it was offered with, never the slot's old ones; packets are found in
 * the order they were offered; and the producer writes a slot again only after the consumer has
 * read it and moved its head past it.
 */
public final class OneToOnePacketRingStress
{
    private static final Object OLD = new Object();
    private static final Object NEW = new Object();

    private OneToOnePacketRingStress()
    {
    }

    /** What the consumer read of a value: 1 the one offered, 0 none, -1 another. */
    static int valueSeen(final Object seen, final Object offered)
    {
        return seen == offered ? 1 : seen == null ? 0 : -1;
    }

    /**
     * A packet offered into a slot that held one before (the ring has gone round once): the
     * consumer finds nothing yet, or the new packet whole; never the old timestamp or word, nor a
     * new timestamp with an old word or a missing value.
     */
    @JCStressTest
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Not published yet.")
    @Outcome(id = "3, 13, 1", expect = ACCEPTABLE, desc = "Found with the fields it was offered with.")
    @Outcome(expect = FORBIDDEN, desc = "Found before its fields: the consumer read a slot's old or missing fields.")
    @State
    public static class ReusedSlot
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(2);

        /** Two packets through the ring of two, so that the next one goes into the first slot again. */
        public ReusedSlot()
        {
            for (int i = 1; i <= 2; i++)
            {
                ring.offer(i, OLD, 10 + i);
                ring.peekTimestamp();
                ring.removeVolatile();
            }
        }

        /** Offers the third packet. */
        @Actor
        public void producer()
        {
            ring.offer(3, NEW, 13);
        }

        /** @param r the timestamp found (0 for none), its word and whether its value is the one offered */
        @Actor
        public void consumer(final III_Result r)
        {
            final long timestamp = ring.peekTimestamp();
            if (timestamp != Timestamp.UNSET)
            {
                r.r1 = (int)timestamp;
                r.r2 = (int)ring.peekWord();
                r.r3 = valueSeen(ring.peekValue(), NEW);
            }
        }
    }

    /**
     * Two packets offered one after the other, the consumer looking at the second before the
     * first: when it finds the second, the first is there too, whole (its fields are read with no
     * check of its own sequence once the consumer knows a later packet is published).
     */
    @JCStressTest
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "Neither published yet, as far as the consumer looked.")
    @Outcome(id = "0, 1, 11", expect = ACCEPTABLE, desc = "The first found, the second not yet.")
    @Outcome(id = "1, 1, 11", expect = ACCEPTABLE, desc = "Both found, the first whole.")
    @Outcome(expect = FORBIDDEN, desc = "The second found without the first, or the first without its fields.")
    @State
    public static class InOrder
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(4);

        /** Offers two packets. */
        @Actor
        public void producer()
        {
            ring.offer(1, OLD, 11);
            ring.offer(2, NEW, 12);
        }

        /** @param r whether the second was found, then the first's timestamp (0 for none) and word */
        @Actor
        public void consumer(final III_Result r)
        {
            r.r1 = ring.peekTimestampAt(1) == 2 ? 1 : 0;
            final long first = ring.peekTimestamp();
            if (first != Timestamp.UNSET)
            {
                r.r2 = (int)first;
                r.r3 = (int)ring.peekWord();
            }
        }
    }

    /**
     * A full ring: the consumer reads its oldest packet and removes it while the producer offers
     * one more, which goes into that same slot. The producer is refused, or writes the slot only
     * after the consumer is done with it: the consumer always reads the packet it removes whole.
     */
    @JCStressTest
    @Outcome(id = "100, 1000, 1, 0", expect = ACCEPTABLE, desc = "The ring was still full: the offer was refused.")
    @Outcome(id = "100, 1000, 1, 1", expect = ACCEPTABLE, desc = "The offer came after the removal, into the freed slot.")
    @Outcome(expect = FORBIDDEN, desc = "The producer wrote the slot while the consumer was still reading it.")
    @State
    public static class FullRing
    {
        final OneToOnePacketRing ring = new OneToOnePacketRing(2);

        /** Fills the ring. */
        public FullRing()
        {
            ring.offer(100, OLD, 1000);
            ring.offer(101, OLD, 1001);
        }

        /** @param r whether the third packet was taken */
        @Actor
        public void producer(final IIII_Result r)
        {
            r.r4 = ring.offer(102, NEW, 1002) ? 1 : 0;
        }

        /** @param r the oldest packet's timestamp, word and whether its value is the one offered */
        @Actor
        public void consumer(final IIII_Result r)
        {
            final long timestamp = ring.peekTimestamp();
            final long word = ring.peekWord();
            final Object value = ring.peekValue();
            ring.removeVolatile();
            r.r1 = (int)timestamp;
            r.r2 = (int)word;
            r.r3 = valueSeen(value, OLD);
        }
    }
}
