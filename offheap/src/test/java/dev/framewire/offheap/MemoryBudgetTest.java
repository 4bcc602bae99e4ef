package dev.framewire.offheap;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One byte budget across every size class, its soft limit (a query) and hard limit (a refusal
 * that says who holds what), and leak tracking.
 */
class MemoryBudgetTest
{
    private static final int KIB = 1024;

    /** max 8 KiB: soft 4 KiB, hard 6 KiB; classes 256 B to 2 KiB. */
    private static PoolContext small(final boolean leakTracking)
    {
        return new PoolContext().maxBytes(8 * KIB).minSlotBytes(256).maxSlotBytes(2 * KIB).slabBytes(2 * KIB)
            .leakTracking(leakTracking);
    }

    @Test
    void defaultsAreHalfAndThreeQuartersOfTheMaximum()
    {
        final PayloadPool defaults = new PayloadPool();
        assertEquals(512L << 20, defaults.budget().maxBytes());
        assertEquals(256L << 20, defaults.budget().softLimitBytes());
        assertEquals(384L << 20, defaults.budget().hardLimitBytes());
        defaults.close();

        final PayloadPool configured = new PayloadPool(new PoolContext().maxBytes(1000));
        assertEquals(1000, configured.budget().maxBytes());
        assertEquals(500, configured.budget().softLimitBytes());
        assertEquals(750, configured.budget().hardLimitBytes());
        configured.close();
    }

    @Test
    void theSoftLimitIsAQueryThatNeverRefuses()
    {
        final PayloadPool pool = new PayloadPool(small(true));
        final List<Payload> held = new ArrayList<>();
        for (int i = 0; i < 16; i++)
        {
            held.add(pool.acquire(256));
            assertEquals((i + 1) * 256L, pool.budget().bytesInUse());
            assertFalse(pool.budget().isOverSoftLimit(), "at or under 4 KiB after " + (i + 1));
        }
        held.add(pool.acquire(256));
        assertTrue(pool.budget().isOverSoftLimit(), "4 KiB + 256 B");
        held.add(pool.acquire(1000));
        assertTrue(pool.budget().isOverSoftLimit());
        assertEquals(0, pool.failedAcquires(), "over the soft limit, acquires still succeed");
        held.remove(held.size() - 1).release();
        held.remove(held.size() - 1).release();
        assertFalse(pool.budget().isOverSoftLimit(), "back under by releasing");
        for (final Payload payload : held)
        {
            payload.release();
        }
        PoolInvariants.assertAllReturned(pool);
        pool.close();
    }

    @Test
    void theHardLimitRefusesSayingHowManyBytesAreHeldInWhichClassesAndByWhom()
    {
        final PayloadPool pool = new PayloadPool(small(true));
        final List<Payload> held = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final Payload payload = pool.acquire(1000);
            payload.ownerTag("node resize, stream thumbnails");
            held.add(payload);
        }
        for (int i = 0; i < 8; i++)
        {
            final Payload payload = pool.acquire(200);
            payload.ownerTag("node encode, stream packets");
            held.add(payload);
        }
        assertEquals(6 * KIB, pool.budget().bytesInUse(), "exactly at the hard limit is allowed");

        final MemoryBudgetExceededException ex = assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(1));
        final String message = ex.getMessage();
        assertTrue(message.startsWith("cannot acquire a 256 B slot: 6144 B in use would pass the hard limit 6144 B"),
            message);
        assertTrue(message.contains("1024 B x 4 = 4096 B"), message);
        assertTrue(message.contains("256 B x 8 = 2048 B"), message);
        assertTrue(message.contains("owner node resize, stream thumbnails"), message);
        assertTrue(message.contains("owner node encode, stream packets"), message);
        assertTrue(message.contains("theHardLimitRefusesSayingHowManyBytesAreHeldInWhichClassesAndByWhom"),
            "where they were acquired: " + message);
        assertEquals(256, ex.requestedBytes());
        assertEquals(6 * KIB, ex.bytesInUse());
        assertEquals(6 * KIB, ex.limitBytes());
        assertTrue(ex.isHardLimit());
        assertEquals(1, pool.failedAcquires());
        assertEquals(6 * KIB, pool.budget().bytesInUse(), "a refused acquire holds nothing");
        assertEquals(6 * KIB, pool.budget().peakBytesInUse());

        assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(2000), "in any class: one budget");
        assertEquals(2, pool.failedAcquires());

        held.remove(0).release();
        final Payload fits = pool.acquire(1024);
        fits.release();
        for (final Payload payload : held)
        {
            payload.release();
        }
        PoolInvariants.assertAllReturned(pool);
        pool.close();
    }

    @Test
    void withoutLeakTrackingTheRefusalStillGivesBytesAndClassesAndSaysHowToSeeMore()
    {
        final PayloadPool pool = new PayloadPool(small(false));
        final Payload a = pool.acquire(2 * KIB);
        final Payload b = pool.acquire(2 * KIB);
        final Payload c = pool.acquire(2 * KIB);
        a.ownerTag("node secret");
        final MemoryBudgetExceededException ex = assertThrows(MemoryBudgetExceededException.class, () -> pool.acquire(1));
        assertTrue(ex.getMessage().contains("2048 B x 3 = 6144 B"), ex.getMessage());
        assertTrue(ex.getMessage().contains("turn leak tracking on"), ex.getMessage());
        assertFalse(ex.getMessage().contains("node secret"), ex.getMessage());
        a.release();
        b.release();
        c.release();
        pool.close();
    }

    @Test
    void theLeakReportListsWhatIsHeldWithItsOwnerAndWhereItWasAcquired()
    {
        final PayloadPool pool = new PayloadPool(small(true));
        assertEquals("", pool.leakReport());
        final Payload frame = pool.acquireFrame(16, 8, PixelFormat.RGB24);
        frame.ownerTag("node overlay, stream video");
        frame.retain();
        final Payload blob = pool.acquire(10);

        final String report = pool.leakReport();
        assertEquals(2, report.lines().filter(l -> l.startsWith("payload[")).count(), report);
        assertTrue(report.contains("frame 16x8 RGB24 stride 48, owner node overlay, stream video] held by 2 reference(s)"),
            report);
        assertTrue(report.contains("10 B] held by 1 reference(s)"), report);
        assertTrue(report.contains("acquired at"), report);
        assertTrue(report.contains("MemoryBudgetTest.theLeakReportListsWhatIsHeldWithItsOwnerAndWhereItWasAcquired"),
            report);

        frame.release();
        frame.release();
        assertEquals(1, pool.leakReport().lines().filter(l -> l.startsWith("payload[")).count());
        blob.release();
        assertEquals("", pool.leakReport());
        pool.close();
    }

    @Test
    void withoutLeakTrackingTheReportStillNamesWhatIsHeldButNotWhere()
    {
        final PayloadPool pool = new PayloadPool(small(false));
        final Payload payload = pool.acquire(10);
        payload.ownerTag("node y");
        final String report = pool.leakReport();
        assertTrue(report.contains("owner node y] held by 1 reference(s)"), report);
        assertFalse(report.contains("acquired at"), report);
        final IllegalStateException ex = assertThrows(IllegalStateException.class, pool::close);
        assertTrue(ex.getMessage().contains("owner node y"), ex.getMessage());
        payload.release();
        pool.close();
    }

    @Test
    void leakTrackingIsOnInEveryTest()
    {
        assertTrue(Boolean.getBoolean(PoolContext.LEAK_TRACKING_PROP),
            "the build runs tests with -D" + PoolContext.LEAK_TRACKING_PROP + "=true");
        assertTrue(new PoolContext().leakTracking(), "and a default context picks it up");
        final PayloadPool pool = new PayloadPool();
        final Payload payload = pool.acquire(1);
        assertTrue(pool.leakReport().contains("leakTrackingIsOnInEveryTest"), pool.leakReport());
        payload.release();
        pool.close();
    }
}
