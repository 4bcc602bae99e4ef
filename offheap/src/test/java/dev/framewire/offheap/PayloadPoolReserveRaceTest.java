package dev.framewire.offheap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reserves racing for one size class past the budget's maximum: each refused call reports the
 * slots it added and the bytes it could not get from its own account, never another thread's
 * (twenty cameras reserving at once once reported "a -473956352 B slot").
 */
class PayloadPoolReserveRaceTest
{
    private static final int KIB = 1024;
    private static final int THREADS = 4;
    private static final int COUNT = 6;

    @Test
    void aRefusedReserveCountsOnlyWhatItAddedItself() throws Exception
    {
        final ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try
        {
            for (int round = 0; round < 200; round++)
            {
                runRound(threads);
            }
        }
        finally
        {
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS), "reserving threads end");
        }
    }

    private static void runRound(final ExecutorService threads) throws Exception
    {
        final PayloadPool pool = new PayloadPool(new PoolContext()
            .maxBytes(40 * KIB).hardLimitRatio(1).softLimitRatio(1)
            .minSlotBytes(KIB).maxSlotBytes(KIB).slabBytes(2 * KIB));
        try
        {
            final CyclicBarrier start = new CyclicBarrier(THREADS);
            final List<Future<MemoryBudgetExceededException>> calls = new ArrayList<>();
            for (int t = 0; t < THREADS; t++)
            {
                calls.add(threads.submit(() -> reserveUntilRefused(pool, start)));
            }
            for (final Future<MemoryBudgetExceededException> call : calls)
            {
                final MemoryBudgetExceededException refused = call.get(10, TimeUnit.SECONDS);
                final long requested = refused.requestedBytes();
                assertTrue(requested > 0 && requested <= (long)COUNT * KIB,
                    "bytes not reserved are this call's: 1.." + COUNT * KIB + ", got " + requested + ": " + refused.getMessage());
                final String message = refused.getMessage();
                final int added = Integer.parseInt(message.substring(message.lastIndexOf(' ') + 1));
                assertEquals(COUNT * KIB - added * KIB, requested, message);
            }
            assertEquals(40, pool.slotsTotal(0), "the slabs added before each refusal stay");
        }
        finally
        {
            pool.close();
        }
    }

    private static MemoryBudgetExceededException reserveUntilRefused(final PayloadPool pool, final CyclicBarrier start)
        throws Exception
    {
        start.await(10, TimeUnit.SECONDS);
        while (true)
        {
            try
            {
                pool.reserve(KIB, COUNT);
            }
            catch (final MemoryBudgetExceededException refused)
            {
                return refused;
            }
        }
    }
}
