package dev.framewire.offheap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A payload's rules: reference counting, copy-on-write, use after release and generations, and
 * what it knows of itself (length, frame shape, owner tag). Every error case is asserted to name
 * the payload.
 */
class PayloadTest
{
    private final PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(true));

    @AfterEach
    void everySlotIsBack()
    {
        PoolInvariants.assertAllReturned(pool);
        pool.close();
    }

    /** What every error about a payload must contain: its class, slot and generation. */
    private static void assertNames(final Payload payload, final int generation, final String message)
    {
        final String name = "payload[class " + payload.capacity() + " B slot " + payload.slotIndex + " gen " + generation;
        assertTrue(message.contains(name), "expected '" + name + "' in: " + message);
    }

    // ---------------------------------------------------------------- reference counting

    @Test
    void retainAndReleaseCountAndTheLastReleaseReturnsTheSlot()
    {
        final Payload payload = pool.acquire(1000);
        assertEquals(1, payload.refCount());
        payload.retain();
        payload.retain(2);
        assertEquals(4, payload.refCount());
        payload.retain(0);
        assertEquals(4, payload.refCount());
        assertFalse(payload.release());
        assertFalse(payload.release());
        assertFalse(payload.release());
        assertEquals(1, pool.slotsInUse(2));
        assertEquals(0, pool.releases(), "the slot is returned only at zero");
        assertTrue(payload.release(), "the last release frees");
        assertEquals(0, payload.refCount());
        assertEquals(1, pool.releases());
        assertEquals(0, pool.slotsInUse(2));
        assertEquals(0, pool.budget().bytesInUse());
    }

    @Test
    void releasingMoreOftenThanRetainedThrowsNamingThePayloadAndNeverFreesTwice()
    {
        final Payload payload = pool.acquire(100);
        payload.ownerTag("node scale, stream out");
        payload.retain();
        payload.release();
        assertTrue(payload.release());
        final long releases = pool.releases();

        final PayloadStateException ex = assertThrows(PayloadStateException.class, payload::release);
        assertTrue(ex.getMessage().startsWith("released more often than retained"), ex.getMessage());
        assertNames(payload, 1, ex.getMessage());
        assertTrue(ex.getMessage().contains("owner node scale, stream out"), ex.getMessage());

        assertThrows(PayloadStateException.class, payload::release, "still an error the second time");
        assertEquals(releases, pool.releases(), "no second free");
        assertEquals(0, pool.budget().bytesInUse(), "the budget is not credited twice");
        PoolInvariants.assertBalanced(pool);
        final Payload a = pool.acquire(100);
        final Payload b = pool.acquire(100);
        assertNotSame(a, b, "the slot is on the free list once: two acquires get two slots");
        a.release();
        b.release();
    }

    @Test
    void retainAfterReleaseThrowsNamingThePayload()
    {
        final Payload payload = pool.acquire(100);
        payload.release();
        final PayloadStateException one = assertThrows(PayloadStateException.class, payload::retain);
        assertTrue(one.getMessage().startsWith("retain after release"), one.getMessage());
        assertNames(payload, 1, one.getMessage());
        final PayloadStateException many = assertThrows(PayloadStateException.class, () -> payload.retain(3));
        assertNames(payload, 1, many.getMessage());
        assertEquals(0, payload.refCount(), "a refused retain does not resurrect");
    }

    @Test
    void retainOfANegativeCountIsRefused()
    {
        final Payload payload = pool.acquire(100);
        payload.retain();
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> payload.retain(-2));
        assertTrue(ex.getMessage().contains("retain(-2)"), ex.getMessage());
        assertNames(payload, 0, ex.getMessage());
        assertEquals(2, payload.refCount(), "unchanged: a negative retain would drop to zero without a free");
        payload.release();
        payload.release();
    }

    @Test
    void referenceCountOverflowIsRefused()
    {
        // a pool of its own, not closed: releasing 2^31 references would take too long; its
        // slab is freed by the garbage collector with its ByteBuffer
        final PayloadPool own = new PayloadPool(new PoolContext().maxSlotBytes(256).slabBytes(256));
        final Payload payload = own.acquire(10);
        payload.retain(Integer.MAX_VALUE - 1);
        assertEquals(Integer.MAX_VALUE, payload.refCount());
        final PayloadStateException ex = assertThrows(PayloadStateException.class, payload::retain);
        assertTrue(ex.getMessage().contains("reference count overflow"), ex.getMessage());
        assertNames(payload, 0, ex.getMessage());
        assertThrows(PayloadStateException.class, () -> payload.retain(5));
        assertEquals(Integer.MAX_VALUE, payload.refCount());
        assertFalse(payload.release());
    }

    @Test
    @Timeout(30)
    void fanOutToKConsumersGivesEachAReferenceAndTheLastReleaseFrees() throws Exception
    {
        final int consumers = 3;
        final int rounds = 2_000;
        final AtomicReference<Payload> current = new AtomicReference<>();
        final AtomicInteger lastReleases = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final CyclicBarrier emitted = new CyclicBarrier(consumers + 1);
        final CyclicBarrier released = new CyclicBarrier(consumers + 1);
        final Thread[] threads = new Thread[consumers];
        for (int t = 0; t < consumers; t++)
        {
            threads[t] = new Thread(() ->
            {
                try
                {
                    for (int r = 0; r < rounds; r++)
                    {
                        emitted.await(10, TimeUnit.SECONDS);
                        final Payload payload = current.get();
                        if (payload.buffer().getInt(0) != r)
                        {
                            throw new AssertionError("round " + r + " read " + payload.buffer().getInt(0));
                        }
                        if (payload.release())
                        {
                            lastReleases.incrementAndGet();
                        }
                        released.await(10, TimeUnit.SECONDS);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                    emitted.reset();
                    released.reset();
                }
            }, "consumer-" + t);
            threads[t].start();
        }
        for (int r = 0; r < rounds && failure.get() == null; r++)
        {
            final Payload payload = pool.acquire(64);
            payload.mutableBuffer().putInt(0, r);
            payload.retain(consumers);          // one reference per consumer ...
            current.set(payload);
            payload.release();                  // ... and the producer lets go of its own
            emitted.await(10, TimeUnit.SECONDS);
            released.await(10, TimeUnit.SECONDS);
            assertEquals(0, payload.refCount(), "round " + r);
        }
        for (final Thread thread : threads)
        {
            thread.join(10_000);
        }
        if (failure.get() != null)
        {
            throw new AssertionError(failure.get());
        }
        assertEquals(rounds, lastReleases.get(), "exactly one consumer's release frees, every round");
        assertEquals(rounds, pool.releases());
    }

    // ---------------------------------------------------------------- copy-on-write

    @Test
    void writableOfAnExclusivePayloadIsTheSameMemory()
    {
        final Payload payload = pool.acquireFrame(64, 32, PixelFormat.RGBA32);
        final long address = payload.buffer().addressOffset();
        final Payload writable = payload.writable();
        assertSame(payload, writable);
        assertEquals(address, writable.mutableBuffer().addressOffset());
        assertEquals(1, writable.refCount());
        assertEquals(0, pool.copies());
        assertEquals(1, pool.acquires());
        writable.mutableBuffer().putInt(0, 42);
        assertEquals(42, payload.buffer().getInt(0));
        writable.release();
    }

    @Test
    void writableOfASharedPayloadIsACountedCopyAndTheOriginalIsUntouched()
    {
        final Payload original = pool.acquireFrame(64, 30, PixelFormat.RGB24, 200);
        original.ownerTag("node camera");
        for (int i = 0; i < original.length(); i++)
        {
            original.mutableBuffer().putByte(i, (byte)(i * 31));
        }
        original.retain();                       // a second consumer holds it

        final Payload copy = original.writable();
        assertNotSame(original, copy);
        assertNotEquals(original.buffer().addressOffset(), copy.buffer().addressOffset());
        assertEquals(1, pool.copies());
        assertEquals(1, copy.refCount(), "the copy's one reference is the caller's");
        assertEquals(1, original.refCount(), "the caller's reference to the original is released");
        assertEquals(original.length(), copy.length());
        assertEquals(64, copy.width());
        assertEquals(30, copy.height());
        assertEquals(200, copy.stride());
        assertEquals(PixelFormat.RGB24, copy.format());
        assertEquals("node camera", copy.ownerTag());
        for (int i = 0; i < original.length(); i++)
        {
            assertEquals(original.buffer().getByte(i), copy.buffer().getByte(i), "byte " + i);
        }
        copy.mutableBuffer().putByte(0, (byte)99);
        assertEquals(0, original.buffer().getByte(0), "the other holder does not see the write");
        assertSame(copy, copy.writable(), "the copy is exclusive");
        assertEquals(1, pool.copies());
        copy.release();
        assertTrue(original.release());
    }

    @Test
    void writableOfASharedFullHdFrameCopiesEightMegabytes()
    {
        final Payload frame = pool.acquireFrame(1920, 1080, PixelFormat.RGBA32);
        assertEquals(1920 * 1080 * 4, frame.length());
        assertEquals(8 << 20, frame.capacity(), "8,294,400 B fit the 8 MiB class");
        frame.mutableBuffer().putLong(frame.length() - 8, 0x0102_0304_0506_0708L);
        frame.retain();
        final Payload copy = frame.writable();
        assertNotSame(frame, copy);
        assertEquals(0x0102_0304_0506_0708L, copy.buffer().getLong(copy.length() - 8), "the last bytes are copied");
        copy.release();
        frame.release();
    }

    @Test
    void mutableBufferOfASharedPayloadThrowsAndPointsToWritable()
    {
        final Payload payload = pool.acquire(100);
        payload.retain(2);
        final PayloadStateException ex = assertThrows(PayloadStateException.class, payload::mutableBuffer);
        assertTrue(ex.getMessage().contains("shared by 3 holders"), ex.getMessage());
        assertTrue(ex.getMessage().contains("call writable()"), ex.getMessage());
        assertNames(payload, 0, ex.getMessage());
        payload.release();
        payload.release();
        payload.mutableBuffer().putByte(0, (byte)1);
        payload.release();
    }

    @Test
    void writableAndMutableBufferAfterReleaseThrowNamingThePayload()
    {
        final Payload payload = pool.acquire(100);
        payload.release();
        final PayloadStateException writable = assertThrows(PayloadStateException.class, payload::writable);
        assertTrue(writable.getMessage().startsWith("writable() after release"), writable.getMessage());
        assertNames(payload, 1, writable.getMessage());
        final PayloadStateException mutable = assertThrows(PayloadStateException.class, payload::mutableBuffer);
        assertTrue(mutable.getMessage().startsWith("write after release"), mutable.getMessage());
        assertNames(payload, 1, mutable.getMessage());
        assertEquals(0, pool.copies());
    }

    @Test
    void writableWithNoRoomForTheCopyThrowsAndKeepsTheCallersReference()
    {
        final PayloadPool small = new PayloadPool(new PoolContext().maxBytes(4096).hardLimitRatio(0.5)
            .softLimitRatio(0.5).maxSlotBytes(2048).slabBytes(2048).leakTracking(true));
        final Payload payload = small.acquire(2048);
        payload.retain();
        final MemoryBudgetExceededException ex = assertThrows(MemoryBudgetExceededException.class, payload::writable);
        assertEquals(2048, ex.requestedBytes());
        assertEquals(2, payload.refCount(), "nothing released when no copy was made");
        assertEquals(0, small.copies());
        assertEquals(1, small.failedAcquires());
        payload.release();
        assertSame(payload, payload.writable(), "exclusive now, no copy needed");
        payload.release();
        PoolInvariants.assertAllReturned(small);
        small.close();
    }

    // ---------------------------------------------------------------- use after release

    @Test
    void bufferAfterTheLastReleaseThrowsNamingThePayload()
    {
        final Payload payload = pool.acquire(100);
        payload.ownerTag("node detect");
        payload.buffer().getByte(0);
        payload.retain();
        payload.release();
        payload.buffer().getByte(0);
        payload.release();
        final PayloadStateException ex = assertThrows(PayloadStateException.class, payload::buffer);
        assertTrue(ex.getMessage().startsWith("use after release of"), ex.getMessage());
        assertNames(payload, 1, ex.getMessage());
        assertTrue(ex.getMessage().contains("owner node detect"), "the last owner is kept to name it: " + ex.getMessage());
    }

    @Test
    void theUseAfterReleaseCheckOnBufferCanBeTurnedOff()
    {
        final PayloadPool unchecked = new PayloadPool(new PoolContext().useAfterReleaseCheck(false).leakTracking(true));
        final Payload payload = unchecked.acquire(100);
        payload.release();
        payload.buffer().getByte(0);   // not caught: the check is off
        assertThrows(PayloadStateException.class, payload::mutableBuffer, "writes are always checked");
        assertThrows(PayloadStateException.class, payload::retain);
        assertThrows(PayloadStateException.class, payload::release);
        assertThrows(PayloadStateException.class, () -> payload.checkGeneration(0));
        unchecked.close();
    }

    @Test
    void generationIsBumpedByEveryLastReleaseAndOnlyThen()
    {
        final Payload payload = pool.acquire(100);
        assertEquals(0, payload.generation());
        payload.retain();
        payload.release();
        assertEquals(0, payload.generation(), "not by a release that is not the last");
        payload.release();
        assertEquals(1, payload.generation());
        final Payload again = pool.acquire(100);
        assertSame(payload, again, "one payload object per slot");
        assertEquals(1, again.generation(), "not by an acquire");
        again.checkGeneration(1);
        again.release();
        assertEquals(2, again.generation());
    }

    @Test
    void aStaleReferenceToAReacquiredSlotIsCaughtByItsGeneration()
    {
        final Payload mine = pool.acquire(100);
        mine.ownerTag("node a");
        final int myGeneration = mine.generation();
        mine.checkGeneration(myGeneration);
        mine.release();

        final Payload theirs = pool.acquire(50);
        theirs.ownerTag("node b");
        assertSame(mine, theirs, "the flyweight: the same object now stands for another payload");

        final PayloadStateException ex =
            assertThrows(PayloadStateException.class, () -> mine.checkGeneration(myGeneration));
        assertTrue(ex.getMessage().contains("use after release: held generation 0 but the slot is at 1"),
            ex.getMessage());
        assertNames(theirs, 1, ex.getMessage());
        assertTrue(ex.getMessage().contains("owner node b"), ex.getMessage());
        theirs.checkGeneration(theirs.generation());

        // The known limit of one object per slot: without the generation, the stale reference
        // cannot be told from the new holder's.
        assertEquals(50, mine.buffer().capacity());
        theirs.release();
    }

    @Test
    void checkGenerationOfAReleasedSlotThrowsEvenWithItsCurrentGeneration()
    {
        final Payload payload = pool.acquire(100);
        payload.release();
        final int generation = payload.generation();
        final PayloadStateException ex =
            assertThrows(PayloadStateException.class, () -> payload.checkGeneration(generation));
        assertTrue(ex.getMessage().startsWith("use after release of"), ex.getMessage());
        assertNames(payload, 1, ex.getMessage());
    }

    // ---------------------------------------------------------------- what it knows

    @Test
    void aBlobKnowsItsLengthAndIsNotAFrame()
    {
        final Payload blob = pool.acquire(777);
        assertEquals(777, blob.length());
        assertEquals(1024, blob.capacity());
        assertFalse(blob.isFrame());
        assertEquals(0, blob.width());
        assertEquals(0, blob.height());
        assertEquals(0, blob.stride());
        assertNull(blob.format());
        assertNull(blob.ownerTag());
        assertTrue(blob.toString().contains("777 B"), blob.toString());
        blob.release();
    }

    @Test
    void theBufferIsBoundedByTheLengthNotTheSlot()
    {
        final Payload blob = pool.acquire(100);
        blob.mutableBuffer().putByte(99, (byte)1);
        assertThrows(IndexOutOfBoundsException.class, () -> blob.mutableBuffer().putByte(100, (byte)1));
        assertThrows(IndexOutOfBoundsException.class, () -> blob.buffer().getLong(96));
        blob.release();
    }

    @Test
    void aFrameKnowsItsShape()
    {
        final Payload frame = pool.acquireFrame(1920, 1080, PixelFormat.NV12);
        assertTrue(frame.isFrame());
        assertEquals(1920, frame.width());
        assertEquals(1080, frame.height());
        assertEquals(1920, frame.stride());
        assertEquals(PixelFormat.NV12, frame.format());
        assertEquals(1920 * 1080 * 3 / 2, frame.length());
        assertEquals(frame.length(), frame.buffer().capacity());
        assertTrue(frame.toString().contains("frame 1920x1080 NV12 stride 1920"), frame.toString());
        frame.release();
    }

    @Test
    void aReusedSlotForgetsTheFrameShapeAndOwnerOfItsLastHolder()
    {
        final Payload frame = pool.acquireFrame(16, 16, PixelFormat.GRAY8);
        frame.ownerTag("node x");
        frame.release();
        final Payload blob = pool.acquire(256);
        assertSame(frame, blob);
        assertFalse(blob.isFrame());
        assertEquals(0, blob.width());
        assertNull(blob.format());
        assertNull(blob.ownerTag());
        blob.release();
    }

    @Test
    void theOwnerTagIsTheLastOneSet()
    {
        final Payload payload = pool.acquire(10);
        payload.ownerTag("node a, stream in");
        payload.ownerTag("node b, stream out");
        assertEquals("node b, stream out", payload.ownerTag());
        assertTrue(payload.toString().endsWith("owner node b, stream out]"), payload.toString());
        payload.release();
    }

    @Test
    void aPayloadHandedToAnotherThreadIsReadAndReleasedThere() throws Exception
    {
        // a payload handed to another thread through a latch is read and released there
        final Payload payload = pool.acquire(8);
        payload.mutableBuffer().putLong(0, 77L);
        final CountDownLatch handed = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread consumer = new Thread(() ->
        {
            try
            {
                handed.await();
                assertEquals(77L, payload.buffer().getLong(0));
                assertTrue(payload.release());
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        });
        consumer.start();
        handed.countDown();
        consumer.join(10_000);
        assertFalse(consumer.isAlive());
        assertNull(failure.get());
        assertEquals(0, payload.refCount());
    }

    // ---------------------------------------------------------------- ByteBuffer views for channel I/O

    @Test
    void mutableByteBufferIsTheSlotsMemoryForTheSoleHolderOnly() throws Exception
    {
        final Payload payload = pool.acquire(1000);
        final java.nio.ByteBuffer view = payload.mutableByteBuffer();
        assertTrue(view.isDirect());
        assertEquals(0, view.position());
        assertEquals(1000, view.limit());
        view.put(3, (byte)42);
        view.position(500);
        assertEquals(42, payload.buffer().getByte(3));
        payload.mutableBuffer().putByte(999, (byte)7);
        assertEquals(7, view.get(999));

        assertSame(view, payload.mutableByteBuffer(), "one view per slot");
        assertEquals(0, view.position(), "position reset at every call");

        payload.retain();
        final PayloadStateException shared = assertThrows(PayloadStateException.class, payload::mutableByteBuffer);
        assertTrue(shared.getMessage().contains("shared by 2"), shared.getMessage());
        payload.release();
        payload.release();
        assertThrows(PayloadStateException.class, payload::mutableByteBuffer);

        final Payload again = pool.acquire(600); // the same slot, LIFO, with a new length
        assertSame(payload, again);
        assertSame(view, again.mutableByteBuffer());
        assertEquals(600, view.limit());
        again.release();
    }

    @Test
    void readOnlyByteBufferViewsHaveTheirOwnPositions() throws Exception
    {
        final Payload payload = pool.acquire(64);
        payload.mutableBuffer().putLong(8, 0x0102030405060708L);
        payload.retain();
        final java.nio.ByteBuffer a = payload.newReadOnlyByteBuffer();
        final java.nio.ByteBuffer b = payload.newReadOnlyByteBuffer();
        assertTrue(a.isReadOnly());
        assertTrue(a.isDirect());
        assertEquals(64, a.limit());
        a.position(10);
        assertEquals(0, b.position());
        assertEquals(0x0102030405060708L, b.order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(8));
        payload.release();
        payload.release();
        assertThrows(PayloadStateException.class, payload::newReadOnlyByteBuffer);
    }
}
