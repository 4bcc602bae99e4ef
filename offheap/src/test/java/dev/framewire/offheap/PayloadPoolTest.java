package dev.framewire.offheap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pool: size classes, 64-byte aligned slabs cut into slots, growth by whole slabs up to the
 * budget's maximum, last-in first-out reuse, stats, close.
 */
class PayloadPoolTest
{
    private static final int KIB = 1024;

    private final List<PayloadPool> pools = new ArrayList<>();

    private PayloadPool pool(final PoolContext ctx)
    {
        final PayloadPool pool = new PayloadPool(ctx);
        pools.add(pool);
        return pool;
    }

    /** Every test must leave its pools balanced and empty; close() throws on a leak. */
    @AfterEach
    void closePools()
    {
        for (final PayloadPool pool : pools)
        {
            PoolInvariants.assertAllReturned(pool);
            pool.close();
            assertEquals(0, pool.budget().bytesReserved(), "close frees every slab");
        }
    }

    @Test
    void sizeClassesArePowersOfTwoFromTheSmallestToTheLargestSlot()
    {
        final PayloadPool pool = pool(new PoolContext());
        assertEquals(19, pool.sizeClassCount());
        for (int i = 0; i < pool.sizeClassCount(); i++)
        {
            assertEquals(256 << i, pool.slotBytes(i));
        }
        assertEquals(64 * KIB * KIB, pool.slotBytes(pool.sizeClassCount() - 1));
        assertEquals(0, pool.budget().bytesReserved(), "nothing is reserved before the first acquire");
    }

    /**
     * reserve grows a class by whole slabs before any acquire, so the acquires that follow take
     * free slots and allocate no slab; calls add up; past the maximum it says so and keeps what it
     * added.
     */
    @Test
    void reserveAddsWholeSlabsAheadSoAcquiresFindFreeSlots()
    {
        final PayloadPool pool = pool(new PoolContext()
            .maxBytes(12 * KIB).hardLimitRatio(1).softLimitRatio(1)
            .minSlotBytes(256).maxSlotBytes(KIB).slabBytes(4 * KIB));
        assertEquals(0, pool.reserve(200, 0), "0 reserves nothing");
        assertEquals(0, pool.budget().bytesReserved());
        assertEquals(32, pool.reserve(200, 20), "two slabs of 16 slots of 256 B");
        assertEquals(8 * KIB, pool.budget().bytesReserved());
        assertEquals(0, pool.budget().bytesInUse(), "reserved slots are not in use");
        assertEquals(0, pool.acquires());
        assertEquals(48, pool.reserve(256, 1), "calls add up: one more slab");
        final List<Payload> held = new ArrayList<>();
        for (int i = 0; i < 48; i++)
        {
            held.add(pool.acquire(256));
        }
        assertEquals(48, pool.slotsTotal(0), "no slab added by the acquires");
        for (final Payload payload : held)
        {
            payload.release();
        }
        final MemoryBudgetExceededException ex =
            assertThrows(MemoryBudgetExceededException.class, () -> pool.reserve(KIB, 8));
        assertEquals("cannot reserve 8 more slots of 1024 B for 1024 B payloads: the maximum of 12288 B of slabs " +
            "left room for 0", ex.getMessage());
        assertEquals(0, pool.slotsTotal(2));
        assertEquals(12 * KIB, pool.budget().bytesReserved(), "the failed reserve holds nothing");
        assertThrows(IllegalArgumentException.class, () -> pool.reserve(0, 1));
        assertThrows(IllegalArgumentException.class, () -> pool.reserve(KIB + 1, 1));
        assertThrows(IllegalArgumentException.class, () -> pool.reserve(256, -1));
    }

    @Test
    void acquireTakesTheSmallestClassThatFits()
    {
        final PayloadPool pool = pool(new PoolContext().maxSlotBytes(64 * KIB));
        final int[][] lengthToSlot = {
            {1, 256}, {255, 256}, {256, 256}, {257, 512}, {512, 512}, {513, KIB}, {4 * KIB, 4 * KIB},
            {4 * KIB + 1, 8 * KIB}, {64 * KIB, 64 * KIB},
        };
        for (final int[] pair : lengthToSlot)
        {
            final Payload payload = pool.acquire(pair[0]);
            assertEquals(pair[0], payload.length(), "length");
            assertEquals(pair[1], payload.capacity(), "slot for " + pair[0] + " bytes");
            assertEquals(pair[0], payload.buffer().capacity(), "the buffer shows the length, not the slot");
            assertEquals(1, payload.refCount());
            assertTrue(payload.release());
        }
    }

    @Test
    void acquireRefusesLengthsOutOfRangeNamingTheValidRange()
    {
        final PayloadPool pool = pool(new PoolContext().maxSlotBytes(4 * KIB));
        for (final int length : new int[]{0, -1, Integer.MIN_VALUE, 4 * KIB + 1, Integer.MAX_VALUE})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> pool.acquire(length));
            assertTrue(ex.getMessage().contains("payload length " + length), ex.getMessage());
            assertTrue(ex.getMessage().contains("valid is 1..4096"), ex.getMessage());
        }
        assertEquals(0, pool.acquires());
        assertEquals(0, pool.failedAcquires(), "a bad argument is not a refused acquire");
    }

    @Test
    void slabsAre64ByteAlignedAndCutIntoSlotsOfTheirClass()
    {
        for (final int slotBytes : new int[]{64, 128, 256, 4 * KIB})
        {
            final int slabBytes = 16 * KIB;
            final PayloadPool pool = pool(new PoolContext().minSlotBytes(64).maxSlotBytes(4 * KIB).slabBytes(slabBytes));
            final int perSlab = slabBytes / slotBytes;
            final List<Payload> held = new ArrayList<>();
            final Set<Long> addresses = new HashSet<>();
            long lowest = Long.MAX_VALUE;
            long highest = Long.MIN_VALUE;
            for (int i = 0; i < perSlab; i++)
            {
                final Payload payload = pool.acquire(slotBytes);
                final long address = payload.buffer().addressOffset();
                assertEquals(0, address % PayloadPool.ALIGNMENT, "slot " + i + " of " + slotBytes + " B at " + address);
                assertTrue(addresses.add(address), "two live payloads share " + address);
                lowest = Math.min(lowest, address);
                highest = Math.max(highest, address);
                held.add(payload);
            }
            assertEquals(slabBytes - slotBytes, highest - lowest, "one contiguous slab, slots back to back");
            final int classIndex = Integer.numberOfTrailingZeros(slotBytes) - 6;
            assertEquals(slotBytes, pool.slotBytes(classIndex));
            assertEquals(perSlab, pool.slotsTotal(classIndex), "one slab so far");
            assertEquals(slabBytes, pool.budget().bytesReserved());
            for (final Payload payload : held)
            {
                payload.release();
            }
        }
    }

    @Test
    void slotsNeverOverlap()
    {
        final PayloadPool pool = pool(new PoolContext().minSlotBytes(64).maxSlotBytes(256).slabBytes(KIB));
        final List<Payload> held = new ArrayList<>();
        for (int i = 0; i < 40; i++)
        {
            final Payload payload = pool.acquire(64 << (i % 3));
            payload.mutableBuffer().setMemory(0, payload.length(), (byte)i);
            held.add(payload);
        }
        for (int i = 0; i < held.size(); i++)
        {
            final Payload payload = held.get(i);
            for (int b = 0; b < payload.length(); b++)
            {
                assertEquals((byte)i, payload.buffer().getByte(b), "payload " + i + " byte " + b + " overwritten");
            }
            payload.release();
        }
    }

    @Test
    void aSlotBiggerThanTheSlabTargetGetsASlabOfItsOwn()
    {
        final PayloadPool pool = pool(new PoolContext().maxSlotBytes(64 * KIB).slabBytes(4 * KIB));
        final Payload a = pool.acquire(64 * KIB);
        final Payload b = pool.acquire(64 * KIB);
        final int classIndex = pool.sizeClassCount() - 1;
        assertEquals(2, pool.slotsTotal(classIndex));
        assertEquals(128 * KIB, pool.budget().bytesReserved());
        a.release();
        b.release();
    }

    @Test
    void poolGrowsByWholeSlabsUpToTheMaximumThenRefuses()
    {
        final PayloadPool pool = pool(new PoolContext()
            .maxBytes(8 * KIB).hardLimitRatio(1).softLimitRatio(1)
            .minSlotBytes(256).maxSlotBytes(KIB).slabBytes(4 * KIB));
        final List<Payload> held = new ArrayList<>();
        for (int i = 0; i < 16; i++)
        {
            held.add(pool.acquire(256));
            assertEquals(16, pool.slotsTotal(0), "the first slab of 16 slots");
            assertEquals(4 * KIB, pool.budget().bytesReserved());
        }
        held.add(pool.acquire(256));
        assertEquals(32, pool.slotsTotal(0), "a second slab of 16 slots");
        assertEquals(8 * KIB, pool.budget().bytesReserved(), "the maximum");
        for (int i = 17; i < 32; i++)
        {
            held.add(pool.acquire(256));
        }
        final MemoryBudgetExceededException ex =
            assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(256));
        assertTrue(ex.getMessage().contains("hard limit 8192 B"), "in use never passes reserved: " + ex.getMessage());
        assertEquals(32, pool.slotsTotal(0));
        assertEquals(8 * KIB, pool.budget().bytesInUse(), "the refused acquire holds nothing");
        assertEquals(1, pool.failedAcquires());
        PoolInvariants.assertBalanced(pool);
        for (final Payload payload : held)
        {
            payload.release();
        }
        assertEquals(8 * KIB, pool.budget().bytesReserved(), "slabs are kept until close");
        final MemoryBudgetExceededException other =
            assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(KIB));
        assertTrue(other.getMessage().contains("maximum 8192 B of slabs"),
            "free slots of one class are not cut up for another: " + other.getMessage());
        assertFalse(other.isHardLimit(), "the slab maximum, not the hard limit");
        assertEquals(8 * KIB, other.limitBytes());
        assertEquals(2, pool.failedAcquires());
        assertEquals(0, pool.budget().bytesInUse());
    }

    @Test
    void theSlotReleasedLastIsAcquiredFirst()
    {
        final PayloadPool pool = pool(new PoolContext());
        final Payload a = pool.acquire(100);
        final Payload b = pool.acquire(100);
        assertNotSame(a, b);
        a.release();
        b.release();
        final Payload first = pool.acquire(200);
        final Payload second = pool.acquire(10);
        assertSame(b, first, "last in, first out: still warm in cache");
        assertSame(a, second);
        assertEquals(200, first.length(), "a reused slot takes the new length");
        assertEquals(200, first.buffer().capacity());
        first.release();
        second.release();
    }

    @Test
    void statsCountAcquiresReleasesCopiesFailuresAndPeak()
    {
        final PayloadPool pool = pool(new PoolContext().maxBytes(64 * KIB).minSlotBytes(KIB).maxSlotBytes(16 * KIB)
            .slabBytes(16 * KIB).hardLimitRatio(0.25).softLimitRatio(0.125));
        final Payload a = pool.acquire(KIB);
        final Payload b = pool.acquire(2 * KIB);
        b.retain();
        final Payload copy = b.writable();
        assertEquals(3, pool.acquires());
        assertEquals(0, pool.releases(), "b is still held once");
        assertEquals(1, pool.copies());
        assertEquals(2, pool.slotsInUse(1));
        assertEquals(1, pool.slotsInUse(0));
        assertEquals(KIB + 4 * KIB, pool.budget().bytesInUse());
        assertEquals(KIB + 4 * KIB, pool.budget().peakBytesInUse());
        assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(16 * KIB));
        assertEquals(1, pool.failedAcquires());
        assertEquals(3, pool.acquires(), "a refused acquire is not an acquire");
        a.release();
        b.release();
        copy.release();
        assertEquals(3, pool.releases());
        assertEquals(0, pool.slotsInUse(0));
        assertEquals(0, pool.slotsInUse(1));
        assertEquals(0, pool.budget().bytesInUse());
        assertEquals(5 * KIB, pool.budget().peakBytesInUse(), "the peak stays");
        pool.budget().resetPeak();
        assertEquals(0, pool.budget().peakBytesInUse());
        assertEquals(16, pool.slotsTotal(0), "16 slots of 1 KiB in one 16 KiB slab");
        assertEquals(8, pool.slotsTotal(1));
    }

    @Test
    void acquireAfterCloseIsRefused()
    {
        final PayloadPool pool = new PayloadPool(new PoolContext());
        pool.acquire(10).release();
        pool.close();
        assertEquals(0, pool.budget().bytesReserved());
        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> pool.acquire(10));
        assertTrue(ex.getMessage().contains("closed"), ex.getMessage());
        pool.close();
    }

    @Test
    void closeWithPayloadsHeldThrowsTheLeakReportAndFreesNothingUntilTheyAreReleased()
    {
        final PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(true));
        final Payload held = pool.acquire(300);
        held.ownerTag("node decode, stream frames");
        held.mutableBuffer().putLong(0, 0x1234_5678_9ABC_DEF0L);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, pool::close);
        assertTrue(ex.getMessage().contains("payload pool closed with payloads still held"), ex.getMessage());
        assertTrue(ex.getMessage().contains("owner node decode, stream frames"), ex.getMessage());
        assertTrue(ex.getMessage().contains(
            "closeWithPayloadsHeldThrowsTheLeakReportAndFreesNothingUntilTheyAreReleased"), ex.getMessage());
        assertEquals(0x1234_5678_9ABC_DEF0L, held.buffer().getLong(0), "the holder can still read");
        assertThrows(IllegalStateException.class, () -> pool.acquire(10), "closed all the same");
        assertTrue(pool.budget().bytesReserved() > 0);
        assertThrows(IllegalStateException.class, pool::close, "still held");

        assertTrue(held.release());
        pool.close();
        assertEquals(0, pool.budget().bytesReserved(), "the later close frees the slabs");
        pool.close();
    }

    @Test
    void emptyPoolClosesWithoutReservingAnything()
    {
        final PayloadPool pool = new PayloadPool();
        pool.close();
        pool.close();
        assertEquals(0, pool.budget().bytesReserved());
        assertFalse(pool.budget().isOverSoftLimit());
    }

    @Test
    void slabAllocationFailureGivesItsBytesBackToTheBudget()
    {
        // surefire runs with -XX:MaxDirectMemorySize=2g: the first 1 GiB slab fits, the second
        // cannot be allocated whatever the budget says
        final int gib = 1 << 30;
        final PayloadPool pool = pool(new PoolContext().maxBytes(8L * gib).hardLimitRatio(1).softLimitRatio(1)
            .maxSlotBytes(gib).slabBytes(gib).leakTracking(true));
        final Payload first = pool.acquire(gib);
        final OutOfMemoryError oom = assertThrows(OutOfMemoryError.class, () -> pool.acquire(gib));
        assertTrue(oom.getMessage().contains("direct"), oom.getMessage());
        assertEquals(gib, pool.budget().bytesInUse(), "the failed acquire's bytes are given back");
        assertEquals(gib, pool.budget().bytesReserved(), "the failed slab's bytes are given back");
        assertEquals(1, pool.failedAcquires());
        PoolInvariants.assertBalanced(pool);
        first.release();
    }

    @Test
    void poolContextRefusesEachSettingOutOfRangeNamingIt()
    {
        assertRefused(new PoolContext().maxBytes(0), "maxBytes");
        assertRefused(new PoolContext().maxBytes(-1), "maxBytes");
        assertRefused(new PoolContext().hardLimitRatio(0), "hardLimitRatio");
        assertRefused(new PoolContext().hardLimitRatio(1.01), "hardLimitRatio");
        assertRefused(new PoolContext().hardLimitRatio(Double.NaN), "hardLimitRatio");
        assertRefused(new PoolContext().softLimitRatio(0), "softLimitRatio");
        assertRefused(new PoolContext().softLimitRatio(0.8).hardLimitRatio(0.7), "softLimitRatio");
        assertRefused(new PoolContext().softLimitRatio(Double.NaN), "softLimitRatio");
        assertRefused(new PoolContext().minSlotBytes(32), "minSlotBytes");
        assertRefused(new PoolContext().minSlotBytes(100), "minSlotBytes");
        assertRefused(new PoolContext().maxSlotBytes(128), "maxSlotBytes");
        assertRefused(new PoolContext().maxSlotBytes(3000), "maxSlotBytes");
        assertRefused(new PoolContext().slabBytes(0), "slabBytes");
    }

    private static void assertRefused(final PoolContext ctx, final String setting)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> new PayloadPool(ctx));
        assertTrue(ex.getMessage().startsWith(setting), ex.getMessage());
    }
}
