package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code room_batch}: a full queue lets the producers it holds back go on only once it has drained
 * that many packets below its limit, or once its consumer stops taking packets; under the default
 * (1) room for one packet lets them go on, as in MediaPipe. The consumer is a node gated by a
 * semaphore the test releases one call at a time: "entered k" means the node has taken its k-th
 * packet off the queue and is held in its call.
 */
class RoomBatchTest
{
    private static final int LIMIT = 8;

    /** A graph input into a gated node on a parked worker, queue limit 8. */
    private static final class Gated implements AutoCloseable
    {
        final Semaphore gate = new Semaphore(0);
        final AtomicLong entered = new AtomicLong();
        final List<Long> processed = syncList();
        final Graph graph;
        final GraphInputHandle in;

        Gated(final int roomBatch)
        {
            final Calculator slow = ctx ->
            {
                entered.incrementAndGet();
                gate.acquire();
                processed.add(ctx.inputTimestamp());
            };
            graph = new Graph(GraphConfig.builder()
                .inputStream("in")
                .maxQueueSize(LIMIT)
                .roomBatch(roomBatch)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("slow", n -> n.calculator(() -> slow).inputStream("in"))
                .build());
            graph.start();
            in = graph.input("in");
        }

        /** Lets the node finish its call and waits until it holds the next packet in its call. */
        void takeOneMore()
        {
            final long before = entered.get();
            gate.release();
            awaitCondition("the node to take packet " + before, 5_000, () -> entered.get() == before + 1);
        }

        /** Fills the queue behind packet 0 (in the node's call): packets 1..8 are taken, 9 is refused. */
        void fill()
        {
            assertTrue(in.tryAddPacket(0L, 0));
            awaitCondition("the node to take packet 0", 5_000, () -> entered.get() == 1);
            for (long ts = 1; ts <= LIMIT; ts++)
            {
                assertTrue(in.tryAddPacket(ts, ts), "refused " + ts + " below the limit");
            }
            assertFalse(in.tryAddPacket(9L, 9), "added past the limit");
        }

        @Override
        public void close() throws Exception
        {
            gate.release(1_000);
            in.close();
            graph.waitUntilDone();
            graph.close();
        }
    }

    @Test
    @Timeout(20)
    void mediapipesRuleLetsAHeldBackInputGoOnAtRoomForOnePacket() throws Exception
    {
        try (Gated g = new Gated(1))
        {
            g.fill();
            g.takeOneMore(); // 7 queued
            assertTrue(g.in.tryAddPacket(9L, 9), "refused with room for one packet");
            assertFalse(g.in.tryAddPacket(10L, 10), "added past the limit");
        }
    }

    @Test
    @Timeout(20)
    void aHeldBackInputGoesOnOnlyOnceTheQueueHasDrainedTheBatch() throws Exception
    {
        try (Gated g = new Gated(4))
        {
            g.fill();
            for (int queued = LIMIT - 1; queued > LIMIT - 4; queued--)
            {
                g.takeOneMore();
                assertFalse(g.in.tryAddPacket(9L, 9), "went on with " + queued + " queued, above the limit less the batch");
            }
            g.takeOneMore(); // 4 queued: the limit less the batch
            for (long ts = 9; ts < 13; ts++)
            {
                assertTrue(g.in.tryAddPacket(ts, ts), "refused " + ts + " after the batch was handed out");
            }
            assertFalse(g.in.tryAddPacket(13L, 13), "added past the limit");
            g.gate.release(1_000);
            awaitCondition("every packet processed", 5_000, () -> g.processed.size() == 13);
            for (int i = 0; i < 13; i++)
            {
                assertEquals(i, g.processed.get(i));
            }
        }
    }

    @Test
    @Timeout(20)
    void aProducerNotHeldBackAddsUpToTheLimit() throws Exception
    {
        try (Gated g = new Gated(4))
        {
            assertTrue(g.in.tryAddPacket(0L, 0));
            awaitCondition("the node to take packet 0", 5_000, () -> g.entered.get() == 1);
            for (long ts = 1; ts < LIMIT; ts++)
            {
                assertTrue(g.in.tryAddPacket(ts, ts));
            }
            g.takeOneMore(); // 6 queued, and nobody was held back: a batch is owed to no one
            assertTrue(g.in.tryAddPacket(8L, 8), "refused below the limit without having been held back");
            assertTrue(g.in.tryAddPacket(9L, 9), "refused below the limit without having been held back");
            assertFalse(g.in.tryAddPacket(10L, 10), "added past the limit");
        }
    }

    /**
     * A join that stops taking packets from a queue above the batch's mark: its other input has
     * nothing settled, so it goes idle with room it will not hand out by popping. Going idle hands
     * it out: a waiting add goes on, and the run ends.
     */
    @Test
    @Timeout(20)
    void aConsumerThatGoesIdleHandsOutTheRoomItHas() throws Exception
    {
        final List<Long> joined = syncList();
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("a")
            .inputStream("b")
            .maxQueueSize(4)
            .roomBatch(4) // hand out room only when empty, but for going idle
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("join", n -> n.calculator(() -> ctx -> joined.add(ctx.inputTimestamp())).inputStream("a").inputStream("b"))
            .build()))
        {
            graph.start();
            final GraphInputHandle a = graph.input("a");
            final GraphInputHandle b = graph.input("b");
            for (long ts = 0; ts < 4; ts++)
            {
                assertTrue(a.tryAddPacket(ts, ts));
            }
            assertFalse(a.tryAddPacket(4L, 4), "added past the limit"); // held back: a's queue is full
            final Thread waiting = new Thread(() ->
            {
                try
                {
                    a.addPacket(4L, 4);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }, "waiting-adder");
            waiting.start();
            b.addPacket(0L, 0); // ts 0 is ready; at ts 1, b has nothing settled: the join goes idle with 3 queued on a
            waiting.join(10_000);
            assertFalse(waiting.isAlive(), "the waiting add was never let go: " + graph.report());
            a.close();
            b.close();
            graph.waitUntilDone();
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), joined.subList(0, 5));
    }

    /**
     * A source and a graph input, each through a chain of two stages across two parked workers,
     * saturated (queue limit 16, batch 8): every packet arrives once and in order, and the run ends,
     * so no hand-out of room is lost on the way.
     */
    @Test
    @Timeout(60)
    void aSaturatedChainWithABatchLosesNothingAndEnds() throws Exception
    {
        final int total = 100_000;
        final AtomicLong emitted = new AtomicLong();
        final List<Long> fromSource = syncList();
        final List<Long> fromInput = syncList();
        final Calculator source = ctx ->
        {
            final long i = emitted.getAndIncrement();
            ctx.output(0).addLong(i, i);
            if (i == total - 1)
            {
                ctx.stop();
            }
        };
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .outputStream("out1")
            .outputStream("out2")
            .maxQueueSize(16)
            .roomBatch(8)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .executor("second", ExecutorConfig.of(1, IdleKind.PARK))
            .node("src", n -> n.calculator(() -> source).outputStream("s"))
            .node("s1", n -> n.calculator("PassThroughCalculator").inputStream("s").outputStream("s1"))
            .node("s2", n -> n.calculator("PassThroughCalculator").inputStream("s1").outputStream("out1").executor("second"))
            .node("i1", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("i1").executor("second"))
            .node("i2", n -> n.calculator("PassThroughCalculator").inputStream("i1").outputStream("out2"))
            .build()))
        {
            graph.observe("out1", packet -> fromSource.add(packet.getLong()));
            graph.observe("out2", packet -> fromInput.add(packet.getLong()));
            graph.start();
            final GraphInputHandle in = graph.input("in");
            for (long ts = 0; ts < total; ts++)
            {
                if ((ts & 1) == 0)
                {
                    in.addPacket(ts, ts);
                }
                else
                {
                    while (!in.tryAddPacket(ts, ts))
                    {
                        Thread.yield();
                    }
                }
            }
            in.close();
            graph.waitUntilDone();
        }
        assertEquals(total, fromSource.size());
        assertEquals(total, fromInput.size());
        for (int i = 0; i < total; i++)
        {
            assertEquals(i, fromSource.get(i));
            assertEquals(i, fromInput.get(i));
        }
    }

    @Test
    void aRoomBatchBelowOneIsRejected()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("x", n -> n.calculator(() -> ctx -> { }).inputStream("in"))
            .roomBatch(0)
            .build()).close());
        assertTrue(ex.getMessage().contains("room_batch 0 is invalid; valid is 1"), ex.getMessage());
    }
}
