package dev.framewire.offheap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pixel layouts (packed GRAY8, RGB24, RGBA32; planar NV12, I420) and the frames the pool makes
 * of them, including every size, stride and overflow that must be refused.
 */
class PixelFormatTest
{
    private final PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(true));

    @AfterEach
    void everySlotIsBack()
    {
        PoolInvariants.assertAllReturned(pool);
        pool.close();
    }

    @Test
    void packedFormatsHaveOnePlaneOfStrideTimesHeight()
    {
        assertPacked(PixelFormat.GRAY8, 1);
        assertPacked(PixelFormat.RGB24, 3);
        assertPacked(PixelFormat.RGBA32, 4);
    }

    private void assertPacked(final PixelFormat format, final int bytesPerPixel)
    {
        assertEquals(bytesPerPixel, format.bytesPerPixel());
        assertEquals(1, format.planeCount());
        assertEquals(1920 * bytesPerPixel, format.minStride(1920));
        assertEquals(641 * bytesPerPixel, format.minStride(641), "no rounding for packed formats");
        assertEquals(1920 * bytesPerPixel * 1080, format.frameBytes(1080, 1920 * bytesPerPixel));
        assertEquals(0, format.planeOffset(0, 1080, 8000));
        assertEquals(8000, format.planeStride(0, 8000));
        assertThrows(IllegalArgumentException.class, () -> format.planeOffset(1, 1080, 8000));

        final Payload frame = pool.acquireFrame(1920, 1080, format);
        assertEquals(1920 * bytesPerPixel, frame.stride());
        assertEquals(1920 * bytesPerPixel * 1080, frame.length());
        frame.release();
    }

    @Test
    void nv12IsALumaPlaneThenOneInterleavedChromaPlaneOfHalfTheRows()
    {
        final PixelFormat nv12 = PixelFormat.NV12;
        assertEquals(2, nv12.planeCount());
        assertEquals(1920 * 1080 * 3 / 2, nv12.frameBytes(1080, 1920));
        assertEquals(0, nv12.planeOffset(0, 1080, 1920));
        assertEquals(1920 * 1080, nv12.planeOffset(1, 1080, 1920));
        assertEquals(1920, nv12.planeStride(1, 1920), "U,V pairs: a chroma row is as wide as a luma row");
        assertEquals(2048 * 1081 + 2048 * 541, nv12.frameBytes(1081, 2048), "odd height: chroma rows round up");
        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> nv12.planeOffset(2, 1080, 1920));
        assertTrue(ex.getMessage().contains("plane 2 does not exist in NV12, valid planes are 0..1"), ex.getMessage());
    }

    @Test
    void i420IsALumaPlaneThenUAndVPlanesAtHalfStrideAndHalfTheRows()
    {
        final PixelFormat i420 = PixelFormat.I420;
        assertEquals(3, i420.planeCount());
        assertEquals(1920 * 1080 * 3 / 2, i420.frameBytes(1080, 1920));
        assertEquals(0, i420.planeOffset(0, 1080, 1920));
        assertEquals(1920 * 1080, i420.planeOffset(1, 1080, 1920));
        assertEquals(1920 * 1080 + 960 * 540, i420.planeOffset(2, 1080, 1920));
        assertEquals(960, i420.planeStride(1, 1920));
        assertEquals(960, i420.planeStride(2, 1920));
        assertEquals(i420.frameBytes(1080, 1920), i420.planeOffset(2, 1080, 1920) + 960 * 540, "V ends the frame");
        assertEquals(642 * 481 + 2 * 321 * 241, i420.frameBytes(481, 642), "odd height");
        assertThrows(IllegalArgumentException.class, () -> i420.planeOffset(3, 1080, 1920));
        assertThrows(IllegalArgumentException.class, () -> i420.planeOffset(-1, 1080, 1920));
    }

    @Test
    void planarMinimumStrideIsRoundedUpToEvenSoThatChromaRowsFit()
    {
        // an odd width has ceil(width / 2) chroma samples per row: NV12 needs 2 * that many
        // bytes in a row of the luma stride, I420 that many in a row of half of it
        assertEquals(642, PixelFormat.NV12.minStride(641));
        assertEquals(642, PixelFormat.I420.minStride(641));
        assertEquals(640, PixelFormat.NV12.minStride(640));
        for (final PixelFormat format : new PixelFormat[]{PixelFormat.NV12, PixelFormat.I420})
        {
            final Payload frame = pool.acquireFrame(641, 481, format);
            final int chromaRowBytes = format == PixelFormat.NV12 ? 2 * 321 : 321;
            final int chromaPlanes = format.planeCount() - 1;
            for (int plane = 1; plane <= chromaPlanes; plane++)
            {
                final int lastRowEnd = format.planeOffset(plane, 481, frame.stride()) +
                    format.planeStride(plane, frame.stride()) * 240 + chromaRowBytes;
                assertTrue(lastRowEnd <= frame.length(), format + " plane " + plane + " ends at " + lastRowEnd +
                    " past the frame's " + frame.length() + " bytes");
            }
            frame.release();
        }
    }

    @Test
    void aFrameWithAWiderStrideKeepsIt()
    {
        final Payload frame = pool.acquireFrame(1000, 10, PixelFormat.RGB24, 3072);
        assertEquals(3072, frame.stride());
        assertEquals(30720, frame.length());
        frame.release();
    }

    @Test
    void framesOfNoPixelsAreRefused()
    {
        for (final int[] size : new int[][]{{0, 10}, {10, 0}, {-1, 10}, {10, -5}})
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> pool.acquireFrame(size[0], size[1], PixelFormat.GRAY8));
            assertTrue(ex.getMessage().contains("frame size " + size[0] + "x" + size[1] + " invalid"), ex.getMessage());
        }
        assertEquals(0, pool.acquires());
    }

    @Test
    void aStrideTooSmallForTheWidthIsRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> pool.acquireFrame(100, 10, PixelFormat.RGBA32, 399));
        assertTrue(ex.getMessage().contains("stride 399 too small for a 100 pixel wide RGBA32 frame, the minimum is 400"),
            ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> pool.acquireFrame(641, 10, PixelFormat.NV12, 641));
    }

    @Test
    void anOddI420StrideIsRefused()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> pool.acquireFrame(640, 480, PixelFormat.I420, 641));
        assertTrue(ex.getMessage().contains("stride 641 is odd"), ex.getMessage());
        pool.acquireFrame(640, 480, PixelFormat.NV12, 641).release();
    }

    @Test
    void aFrameBiggerThanTheLargestSlotIsRefusedWithItsSize()
    {
        final PayloadTooLargeException ex = assertThrows(PayloadTooLargeException.class,
            () -> pool.acquireFrame(7680, 4320, PixelFormat.RGBA32));
        assertTrue(ex.getMessage().contains("frame 7680x4320 RGBA32 needs 132710400 bytes, more than the largest slot " +
            "of 67108864 bytes; give the graph a pool with larger slots"), ex.getMessage());
        assertEquals(132_710_400L, ex.requestedBytes());
        assertEquals(64 << 20, ex.maxSlotBytes());
        final PayloadTooLargeException blob = assertThrows(PayloadTooLargeException.class,
            () -> pool.acquire((64 << 20) + 1));
        assertTrue(blob.getMessage().startsWith("payload length 67108865 is more than the largest slot of 67108864 " +
            "bytes"), blob.getMessage());
        assertEquals((64 << 20) + 1, blob.requestedBytes());
        assertThrows(PayloadTooLargeException.class, () -> pool.reserve((64 << 20) + 1, 1));
        final IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> pool.acquire(0));
        assertFalse(empty instanceof PayloadTooLargeException, "a length of 0 is out of range, not too large");
    }

    @Test
    void sizesWhoseIntProductWrapsAreRefusedNotShrunk()
    {
        // (2^30 + 1) * 4 wraps to 4 in int arithmetic: a 4-byte frame claiming a billion pixels
        final int wide = (1 << 30) + 1;
        assertThrows(IllegalArgumentException.class, () -> pool.acquireFrame(wide, 1, PixelFormat.RGBA32));
        // 65536 * 65536 wraps to 0 and 65537 * 65537 to 131073
        assertThrows(IllegalArgumentException.class, () -> pool.acquireFrame(65537, 65537, PixelFormat.GRAY8));
        assertThrows(IllegalArgumentException.class, () -> pool.acquireFrame(65536, 65536, PixelFormat.GRAY8));
        assertThrows(IllegalArgumentException.class,
            () -> pool.acquireFrame(1 << 20, 1 << 12, PixelFormat.NV12, Integer.MAX_VALUE - 1));
        assertEquals(0, pool.acquires(), "nothing was acquired for any of them");

        final IllegalArgumentException ex =
            assertThrows(IllegalArgumentException.class, () -> PixelFormat.RGBA32.minStride(wide));
        assertTrue(ex.getMessage().contains("more than an int holds"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PixelFormat.GRAY8.frameBytes(65536, 65536));
    }
}
