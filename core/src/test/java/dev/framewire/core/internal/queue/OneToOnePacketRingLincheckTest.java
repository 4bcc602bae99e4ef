package dev.framewire.core.internal.queue;

import dev.framewire.core.Timestamp;


import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link OneToOnePacketRing}'s publication: a producer's offers and a
 * consumer's polls, interleaved at every shared-memory access, must match some sequential order
 * (linearizability). The producer and the consumer are each one thread (Lincheck's
 * {@code nonParallelGroup}), as the ring's contract says. A poll returns the whole slot folded
 * into one number, so a slot read before its tail was published (or a tail published before its
 * slot) shows as a result no sequential run gives. A small ring, so that full and wrap-around are
 * in the scenarios.
 *
 * <p>{@code -Dframewire.lincheck.invocations=N} and {@code -Dframewire.lincheck.iterations=N} run
 * it deeper.
 */
class OneToOnePacketRingLincheckTest
{
    private static final int INVOCATIONS = Integer.getInteger("framewire.lincheck.invocations", 200);
    private static final int ITERATIONS = Integer.getInteger("framewire.lincheck.iterations", 10);

    /** The ring under test, with a producer-side counter to give each offer a distinct packet. */
    public static class Ring
    {
        private final OneToOnePacketRing ring = new OneToOnePacketRing(2);
        private long next = 1;

        @Operation(nonParallelGroup = "producer")
        public boolean offer()
        {
            final long n = next;
            if (ring.offer(n, Long.valueOf(n * 10), n * 100))
            {
                next = n + 1;
                return true;
            }
            return false;
        }

        /** @return -1 when empty, else timestamp + value + word (111 n for packet n: whole or torn shows). */
        @Operation(nonParallelGroup = "consumer")
        public long poll()
        {
            final long ts = ring.peekTimestamp();
            if (ts == Timestamp.UNSET)
            {
                return -1;
            }
            final long sum = ts + (Long)ring.peekValue() + ring.peekWord();
            ring.removeVolatile();
            return sum;
        }

        @Operation(nonParallelGroup = "consumer")
        public long peekAtOne()
        {
            return ring.peekTimestampAt(1);
        }
    }

    @Test
    @Timeout(300)
    void offersAndPollsAreLinearizable()
    {
        new LinChecker(Ring.class, new ModelCheckingOptions()
            .iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(2).actorsPerThread(3)
            .actorsBefore(1).actorsAfter(2))
            .check();
    }
}
