package dev.framewire.core;

import dev.framewire.core.internal.queue.InputQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A refusing add ({@code tryAddPacket}) under MediaPipe's rule looks at the queue exactly and
 * asks for no room: it raises no flag, so the consumer hands out nothing per packet for it
 * ({@link HeldBack#fullNow}); an add that waits raises the flag and is let go by the pop that
 * makes room. Under a room batch a refusing add is held back like any holder.
 */
class RefusingAddTest
{
    private static final int LIMIT = 4;

    private static void await(final String what, final java.util.function.BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    @Test
    @Timeout(20)
    void aRefusedAddRaisesNoFlagAndAWaitingAddIsLetGoByThePopThatMakesRoom() throws Exception
    {
        final Semaphore gate = new Semaphore(0);
        final AtomicLong entered = new AtomicLong();
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .maxQueueSize(LIMIT)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("slow", n -> n.calculator(() -> ctx ->
            {
                entered.incrementAndGet();
                gate.acquire();
            }).inputStream("in"))
            .build()))
        {
            graph.start();
            final GraphInputHandle in = graph.input("in");
            final InputQueue queue = graph.run().nodes()[0].inputs[0].queue;
            assertTrue(in.tryAddPacket(0L, 0));
            await("the node to take packet 0", () -> entered.get() == 1);
            for (long ts = 1; ts <= LIMIT; ts++)
            {
                assertTrue(in.tryAddPacket(ts, ts));
            }
            for (int i = 0; i < 3; i++)
            {
                assertFalse(in.tryAddPacket(5L, 5), "added past the limit");
            }
            assertFalse(queue.roomWanted, "a refused add asked for room");
            final Thread waiting = new Thread(() ->
            {
                try
                {
                    in.addPacket(5L, 5);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }, "waiting-adder");
            waiting.start();
            await("the waiting add to ask for room", () -> queue.roomWanted);
            final long signals = queue.roomSignals();
            gate.release(); // the node takes packet 1: room for one
            waiting.join(5_000);
            assertFalse(waiting.isAlive(), "the waiting add was not let go");
            assertEquals(signals + 1, queue.roomSignals(), "room handed out once");
            assertEquals(LIMIT, queue.size());
            gate.release(1_000);
            in.close();
            graph.waitUntilDone();
        }
    }
}
