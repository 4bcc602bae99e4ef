package dev.framewire.offheap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot paths allocate nothing on the heap once a size class has its slab: acquire and
 * release, retain and release, buffer access (checked), the exclusive writable view, and the
 * stats. Measured with the JVM's per-thread allocation counter, which counts every byte this
 * thread allocates, interpreted or compiled; JMH's {@code gc.alloc.rate.norm} repeats the check
 * on compiled code.
 *
 * <p>Leak tracking is off here: when on, it records each acquire's stack trace, a deliberate
 * allocation.
 */
class AllocationFreeTest
{
    private static final int OPS = 50_000;
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    private final PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(false));
    private long sink;
    private Object escape;

    @AfterEach
    void everySlotIsBack()
    {
        PoolInvariants.assertAllReturned(pool);
        pool.close();
    }

    /** Bytes this thread allocates running {@code op} {@link #OPS} times, after a warm-up. */
    private long allocatedBy(final Runnable op)
    {
        for (int i = 0; i < OPS; i++)
        {
            op.run();
        }
        final long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < OPS; i++)
        {
            op.run();
        }
        final long after = THREADS.getCurrentThreadAllocatedBytes();
        final long empty = THREADS.getCurrentThreadAllocatedBytes();
        return (after - before) - (empty - after);
    }

    /**
     * Fails if {@code op} allocates on the heap. The bound is below one byte per operation:
     * the smallest object is 16 bytes, so any allocation per operation fails it, while the few
     * hundred bytes the JVM itself may allocate once on this thread (linking a call site when
     * the JIT swaps code in) do not.
     */
    private void assertNoAllocation(final String what, final Runnable op)
    {
        final long bytes = allocatedBy(op);
        assertTrue(bytes < OPS, what + " allocated " + bytes + " B in " + OPS + " operations");
    }

    @Test
    void theCounterSeesAnAllocation()
    {
        assertTrue(THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadAllocatedMemoryEnabled());
        assertTrue(allocatedBy(() -> escape = new long[4]) >= 48L * OPS, "the measurement is real");
    }

    @Test
    void acquireAndReleaseAllocateNothing()
    {
        pool.acquire(1000).release();
        assertNoAllocation("acquire+release", () ->
        {
            final Payload payload = pool.acquire(1000);
            payload.release();
        });
        assertNoAllocation("acquireFrame+release", () ->
        {
            final Payload frame = pool.acquireFrame(320, 240, PixelFormat.NV12);
            frame.release();
        });
    }

    @Test
    void retainReleaseBufferAccessAndExclusiveWritableAllocateNothing()
    {
        final Payload payload = pool.acquire(1000);
        assertNoAllocation("retain+release", () ->
        {
            payload.retain();
            payload.release();
        });
        assertNoAllocation("retain(3)+3 releases", () ->
        {
            payload.retain(3);
            payload.release();
            payload.release();
            payload.release();
        });
        assertNoAllocation("buffer()", () -> sink += payload.buffer().getLong(8));
        assertNoAllocation("exclusive writable()", () -> payload.writable().mutableBuffer().putLong(8, sink));
        final int generation = payload.generation();
        assertNoAllocation("checkGeneration", () -> payload.checkGeneration(generation));
        payload.release();
    }

    @Test
    void statsAreReadWithoutAllocating()
    {
        final Payload payload = pool.acquire(1000);
        final MemoryBudget budget = pool.budget();
        assertNoAllocation("stats", () ->
        {
            sink += budget.bytesInUse() + budget.peakBytesInUse() + budget.bytesReserved() +
                (budget.isOverSoftLimit() ? 1 : 0);
            sink += pool.acquires() + pool.releases() + pool.copies() + pool.failedAcquires();
            for (int i = 0; i < pool.sizeClassCount(); i++)
            {
                sink += pool.slotsInUse(i) + pool.slotsTotal(i) + pool.slotBytes(i);
            }
            sink += payload.refCount() + payload.generation() + payload.length() + payload.capacity();
        });
        payload.release();
    }
}
