package dev.framewire.core.calculators.image;

import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

/**
 * The pixel loops of the image calculators, on frames given as a buffer, a stride, a width and a
 * height, so that calculators, tests and benchmarks run the same code.
 *
 * <p>How they are fast without native code (see docs/CALCULATORS.md, "Kernels"): each kernel
 * checks once per frame that every row it touches lies inside its buffers, then reads and writes
 * with raw {@code Unsafe} accesses (no bounds check per access); a row is copied in one
 * {@code copyMemory} into a heap scratch row ({@code long[]} or {@code int[]}) where the work is a
 * plain loop over the array that C2's superword pass turns into AVX/SSE instructions on JDK 17
 * (C2 vectorises {@code int} and {@code long} array loops, not {@code byte} loops with masks nor
 * loops over off-heap addresses); and bytes are packed 8 to a {@code long} (SWAR) where the data
 * are narrower than an {@code int}.
 *
 * <p>Pixel words are read in native byte order and laid out as on a little-endian machine (RGBA32
 * in memory R, G, B, A is {@code 0xAABBGGRR}); x86-64 and AArch64 are.
 *
 * <p>Not thread-safe: the scratch rows are the instance's. One instance per calculator (or per
 * benchmark thread); the scratch grows on a larger frame and is otherwise reused, so no kernel
 * allocates per frame.
 */
public final class ImageKernels
{
    static final long INT_BASE = UnsafeApi.arrayBaseOffset(int[].class);
    static final long LONG_BASE = UnsafeApi.arrayBaseOffset(long[].class);
    static final long BYTE_BASE = UnsafeApi.arrayBaseOffset(byte[].class);

    /** Even bytes of a long, each in its own 16-bit lane. */
    static final long EVEN_BYTES = 0x00FF_00FF_00FF_00FFL;

    private int[] pixels = new int[0];
    private int[] values = new int[0];
    private int[] chromaU = new int[0];
    private int[] chromaV = new int[0];
    private byte[] bytes = new byte[0];
    private long[] top = new long[0];
    private long[] bottom = new long[0];
    private long[] words = new long[0];
    private int[] halves = new int[0];
    private static final VectorRows SIMD = Simd.ROWS;
    private static final VectorRows ALL = Simd.ALL;

    /**
     * Checks once per frame that a plane lies inside its buffer: rows {@code 0..rows-1} of
     * {@code rowBytes} bytes each, {@code stride} apart from {@code offset}.
     *
     * @param buffer   the buffer.
     * @param offset   of the plane's first byte.
     * @param stride   bytes from one row to the next.
     * @param rowBytes bytes of a row the kernel touches.
     * @param rows     rows the kernel touches.
     * @param what     for the message, e.g. "source".
     * @throws IndexOutOfBoundsException naming the plane and the buffer's capacity.
     */
    static void checkPlane(
        final DirectBuffer buffer,
        final long offset,
        final int stride,
        final long rowBytes,
        final int rows,
        final String what)
    {
        if (rows <= 0 || rowBytes <= 0)
        {
            return;
        }
        final long end = offset + (long)(rows - 1) * stride + rowBytes;
        if (offset < 0 || stride < rowBytes || end > buffer.capacity())
        {
            throw new IndexOutOfBoundsException("the " + what + " plane of " + rows + " rows of " + rowBytes +
                " bytes, " + stride + " apart from offset " + offset + ", does not fit a buffer of " +
                buffer.capacity() + " bytes (stride must be at least the row's bytes)");
        }
    }

    /** Grows the int and byte scratch rows to hold {@code n} entries. */
    private void scratch(final int n)
    {
        if (pixels.length < n + VectorRows.PAD)
        {
            final int padded = n + VectorRows.PAD;
            pixels = new int[padded];
            values = new int[padded];
            chromaU = new int[padded];
            chromaV = new int[padded];
            bytes = new byte[padded];
        }
    }

    private void words(final int n)
    {
        if (top.length < n + VectorRows.PAD)
        {
            final int padded = n + VectorRows.PAD;
            top = new long[padded];
            bottom = new long[padded];
            words = new long[padded];
            halves = new int[padded];
        }
    }

    /**
     * Packs the low bytes of {@code n} ints into consecutive bytes at an address, eight to a long.
     */
    static void packBytes(final int[] from, final int n, final Object base, final long address)
    {
        int x = 0;
        for (; x + 8 <= n; x += 8)
        {
            UnsafeApi.putLong(base, address + x, (from[x] & 0xFFL) | (from[x + 1] & 0xFFL) << 8 |
                (from[x + 2] & 0xFFL) << 16 | (from[x + 3] & 0xFFL) << 24 | (from[x + 4] & 0xFFL) << 32 |
                (from[x + 5] & 0xFFL) << 40 | (from[x + 6] & 0xFFL) << 48 | (long)from[x + 7] << 56);
        }
        for (; x < n; x++)
        {
            UnsafeApi.putByte(base, address + x, (byte)from[x]);
        }
    }

    /**
     * RGBA32 to GRAY8 with integer BT.601 weights, {@code gray = (77 R + 150 G + 29 B + 128) >> 8};
     * alpha is ignored. OpenCV's {@code COLOR_RGBA2GRAY} uses 14-bit weights; the two differ by at
     * most one level.
     *
     * @param src       RGBA32 frame.
     * @param srcStride bytes per source row.
     * @param dst       GRAY8 frame.
     * @param dstStride bytes per destination row.
     * @param width     in pixels.
     * @param height    in pixels.
     */
    public void rgbaToGray(
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        checkPlane(src, 0, srcStride, 4L * width, height, "source");
        checkPlane(dst, 0, dstStride, width, height, "destination");
        scratch(width);
        final int[] px = pixels;
        final int[] gray = values;
        final Object sBase = src.byteArray();
        final long sAddr = src.addressOffset();
        final Object dBase = dst.byteArray();
        final long dAddr = dst.addressOffset();
        for (int y = 0; y < height; y++)
        {
            UnsafeApi.copyMemory(sBase, sAddr + (long)y * srcStride, px, INT_BASE, 4L * width);
            if (SIMD != null)
            {
                SIMD.rgbaToGray(px, bytes, width);
                UnsafeApi.copyMemory(bytes, BYTE_BASE, dBase, dAddr + (long)y * dstStride, width);
                continue;
            }
            for (int x = 0; x < width; x++) // superword: int lanes
            {
                final int p = px[x];
                gray[x] = ((p & 0xFF) * 77 + ((p >>> 8) & 0xFF) * 150 + ((p >>> 16) & 0xFF) * 29 + 128) >>> 8;
            }
            packBytes(gray, width, dBase, dAddr + (long)y * dstStride);
        }
    }

    /**
     * NV12 or I420 to GRAY8: the luma plane, row by row, as OpenCV's {@code COLOR_YUV2GRAY_*}.
     *
     * @param format    NV12 or I420.
     * @param src       the YUV frame.
     * @param srcStride luma stride.
     * @param dst       GRAY8 frame.
     * @param dstStride bytes per destination row.
     * @param width     in pixels.
     * @param height    in pixels.
     */
    public static void yuvToGray(
        final PixelFormat format,
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        checkYuv(format);
        checkPlane(src, 0, srcStride, width, height, "luma");
        checkPlane(dst, 0, dstStride, width, height, "destination");
        final Object sBase = src.byteArray();
        final long sAddr = src.addressOffset();
        final Object dBase = dst.byteArray();
        final long dAddr = dst.addressOffset();
        if (srcStride == width && dstStride == width)
        {
            UnsafeApi.copyMemory(sBase, sAddr, dBase, dAddr, (long)width * height);
            return;
        }
        for (int y = 0; y < height; y++)
        {
            UnsafeApi.copyMemory(sBase, sAddr + (long)y * srcStride, dBase, dAddr + (long)y * dstStride, width);
        }
    }

    private static void checkYuv(final PixelFormat format)
    {
        if (format != PixelFormat.NV12 && format != PixelFormat.I420)
        {
            throw new IllegalArgumentException("a YUV kernel needs an NV12 or I420 frame, not " + format);
        }
    }

    /** BT.601 limited range YUV to RGB in 20-bit fixed point, OpenCV's constants (color_yuv). */
    static final int CY = 1220542;
    static final int CUB = 2116026;
    static final int CUG = -409993;
    static final int CVG = -852492;
    static final int CVR = 1673527;
    static final int HALF = 1 << 19;

    /**
     * NV12 or I420 to RGBA32 (alpha 255) with BT.601 limited-range coefficients in 20-bit fixed
     * point, the arithmetic of OpenCV's {@code COLOR_YUV2RGBA_NV12} / {@code _I420}: each 2x2 block
     * shares its chroma sample, {@code y' = max(0, Y - 16) * 1220542}, {@code R = sat((y' + 1673527
     * (V - 128) + 2^19) >> 20)} and likewise for G and B.
     *
     * @param format    NV12 or I420.
     * @param src       the YUV frame, laid out as {@link PixelFormat} describes.
     * @param srcStride luma stride.
     * @param dst       RGBA32 frame.
     * @param dstStride bytes per destination row.
     * @param width     in pixels.
     * @param height    in pixels.
     */
    public void yuvToRgba(
        final PixelFormat format,
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        checkYuv(format);
        final boolean nv12 = format == PixelFormat.NV12;
        final int chromaRows = (height + 1) >> 1;
        final int chromaWidth = (width + 1) >> 1;
        final int uOffset = format.planeOffset(1, height, srcStride);
        final int cStride = format.planeStride(1, srcStride);
        final int vOffset = nv12 ? uOffset + 1 : format.planeOffset(2, height, srcStride);
        final int step = nv12 ? 2 : 1;
        checkPlane(src, 0, srcStride, width, height, "luma");
        checkPlane(src, uOffset, cStride, (long)chromaWidth * step, chromaRows, "chroma");
        if (!nv12)
        {
            checkPlane(src, vOffset, cStride, chromaWidth, chromaRows, "V");
        }
        checkPlane(dst, 0, dstStride, 4L * width, height, "destination");
        final int chromaBytes = chromaWidth * step;
        scratch(Math.max(width + 1, 2 * chromaBytes));
        final int[] luma = pixels;
        final int[] rgba = values;
        final int[] us = chromaU;
        final int[] vs = chromaV;
        final byte[] bytes = this.bytes;
        final Object sBase = src.byteArray();
        final long sAddr = src.addressOffset();
        final Object dBase = dst.byteArray();
        final long dAddr = dst.addressOffset();
        for (int y = 0; y < height; y++)
        {
            if ((y & 1) == 0) // a chroma row serves two luma rows
            {
                final long cRow = sAddr + (long)(y >> 1) * cStride;
                if (ALL != null)
                {
                    UnsafeApi.copyMemory(sBase, cRow + uOffset, bytes, BYTE_BASE, nv12 ? chromaBytes : chromaWidth);
                    if (!nv12)
                    {
                        UnsafeApi.copyMemory(sBase, cRow + vOffset, bytes, BYTE_BASE + chromaWidth, chromaWidth);
                    }
                    ALL.chroma(bytes, nv12, chromaWidth, us, vs);
                }
                else if (nv12)
                {
                    UnsafeApi.copyMemory(sBase, cRow + uOffset, bytes, BYTE_BASE, chromaBytes);
                    for (int c = 0; c < chromaWidth; c++)
                    {
                        us[2 * c] = us[2 * c + 1] = (bytes[2 * c] & 0xFF) - 128;
                        vs[2 * c] = vs[2 * c + 1] = (bytes[2 * c + 1] & 0xFF) - 128;
                    }
                }
                else
                {
                    UnsafeApi.copyMemory(sBase, cRow + uOffset, bytes, BYTE_BASE, chromaWidth);
                    UnsafeApi.copyMemory(sBase, cRow + vOffset, bytes, BYTE_BASE + chromaWidth, chromaWidth);
                    for (int c = 0; c < chromaWidth; c++)
                    {
                        us[2 * c] = us[2 * c + 1] = (bytes[c] & 0xFF) - 128;
                        vs[2 * c] = vs[2 * c + 1] = (bytes[chromaWidth + c] & 0xFF) - 128;
                    }
                }
            }
            UnsafeApi.copyMemory(sBase, sAddr + (long)y * srcStride, bytes, BYTE_BASE, width);
            if (ALL != null)
            {
                ALL.yuvToRgba(bytes, us, vs, rgba, width);
                UnsafeApi.copyMemory(rgba, INT_BASE, dBase, dAddr + (long)y * dstStride, 4L * width);
                continue;
            }
            if (SIMD != null)
            {
                SIMD.widen(bytes, luma, width);
            }
            else
            {
                for (int x = 0; x < width; x++)
                {
                    luma[x] = bytes[x] & 0xFF;
                }
            }
            for (int x = 0; x < width; x++) // superword: int lanes, clamps without branches
            {
                int l = luma[x] - 16;
                l = (l & ~(l >> 31)) * CY + HALF;
                final int u = us[x];
                final int v = vs[x];
                int r = (l + CVR * v) >> 20;
                int g = (l + CVG * v + CUG * u) >> 20;
                int b = (l + CUB * u) >> 20;
                r &= ~(r >> 31);
                g &= ~(g >> 31);
                b &= ~(b >> 31);
                r = (r | (255 - r) >> 31) & 0xFF;
                g = (g | (255 - g) >> 31) & 0xFF;
                b = (b | (255 - b) >> 31) & 0xFF;
                rgba[x] = 0xFF00_0000 | b << 16 | g << 8 | r;
            }
            UnsafeApi.copyMemory(rgba, INT_BASE, dBase, dAddr + (long)y * dstStride, 4L * width);
        }
    }

    /**
     * Halves a GRAY8 frame: each output pixel the rounded mean of its 2x2 block,
     * {@code (a + b + c + d + 2) >> 2}, as OpenCV's {@code INTER_AREA} at exactly half size.
     *
     * @param src       GRAY8 frame of at least {@code 2 width x 2 height}.
     * @param srcStride bytes per source row.
     * @param dst       GRAY8 frame.
     * @param dstStride bytes per destination row.
     * @param width     output width.
     * @param height    output height.
     */
    public void halveGray(
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        halve(src, srcStride, dst, dstStride, width, height, 1);
    }

    /**
     * Halves an RGBA32 frame, each channel (alpha too) as {@link #halveGray}.
     *
     * @param src       RGBA32 frame of at least {@code 2 width x 2 height}.
     * @param srcStride bytes per source row.
     * @param dst       RGBA32 frame.
     * @param dstStride bytes per destination row.
     * @param width     output width.
     * @param height    output height.
     */
    public void halveRgba(
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        halve(src, srcStride, dst, dstStride, width, height, 4);
    }

    private void halve(
        final DirectBuffer src,
        final int srcStride,
        final DirectBuffer dst,
        final int dstStride,
        final int width,
        final int height,
        final int bytesPerPixel)
    {
        final long inBytes = 2L * width * bytesPerPixel;
        checkPlane(src, 0, srcStride, inBytes, 2 * height, "source");
        checkPlane(dst, 0, dstStride, (long)width * bytesPerPixel, height, "destination");
        final int n = (int)((inBytes + 7) >> 3);
        words(n);
        final long[] t = top;
        final long[] b = bottom;
        final long[] w = words;
        final Object sBase = src.byteArray();
        final long sAddr = src.addressOffset();
        final Object dBase = dst.byteArray();
        final long dAddr = dst.addressOffset();
        final int whole = (int)(inBytes >> 3);
        for (int y = 0; y < height; y++)
        {
            final long row = sAddr + 2L * y * srcStride;
            UnsafeApi.copyMemory(sBase, row, t, LONG_BASE, inBytes);
            UnsafeApi.copyMemory(sBase, row + srcStride, b, LONG_BASE, inBytes);
            final long out = dAddr + (long)y * dstStride;
            if (SIMD != null)
            {
                SIMD.halve(t, b, halves, n, bytesPerPixel == 4);
                UnsafeApi.copyMemory(halves, INT_BASE, dBase, out, (long)width * bytesPerPixel);
                continue;
            }
            if (bytesPerPixel == 1)
            {
                for (int i = 0; i < n; i++) // superword: long lanes; 4 outputs in 16-bit lanes
                {
                    final long p = t[i];
                    final long q = b[i];
                    final long lanes = ((p & EVEN_BYTES) + (p >>> 8 & EVEN_BYTES) + (q & EVEN_BYTES) +
                        (q >>> 8 & EVEN_BYTES) + 0x0002_0002_0002_0002L) >>> 2 & EVEN_BYTES;
                    final long pairs = (lanes | lanes >>> 8) & 0x0000_FFFF_0000_FFFFL; // 4 bytes, squeezed
                    w[i] = (pairs | pairs >>> 16) & 0xFFFF_FFFFL;
                }
                int i = 0;
                for (; i + 2 <= whole; i += 2)
                {
                    UnsafeApi.putLong(dBase, out + 4L * i, w[i] | w[i + 1] << 32);
                }
                for (int x = 4 * i; x < width; x++)
                {
                    UnsafeApi.putByte(dBase, out + x, (byte)(w[x >> 2] >>> (8 * (x & 3))));
                }
            }
            else
            {
                for (int i = 0; i < n; i++) // superword: a long is 2 pixels; channels in 16-bit lanes
                {
                    final long p = t[i];
                    final long q = b[i];
                    final long even = (p & EVEN_BYTES) + (q & EVEN_BYTES);
                    final long odd = (p >>> 8 & EVEN_BYTES) + (q >>> 8 & EVEN_BYTES);
                    final long e = (even + (even >>> 32) + 0x0002_0002L) >>> 2 & 0x00FF_00FFL;
                    final long o = (odd + (odd >>> 32) + 0x0002_0002L) >>> 2 & 0x00FF_00FFL;
                    w[i] = e | o << 8;
                }
                int i = 0;
                for (; i + 2 <= width; i += 2)
                {
                    UnsafeApi.putLong(dBase, out + 4L * i, w[i] | w[i + 1] << 32);
                }
                for (; i < width; i++)
                {
                    UnsafeApi.putInt(dBase, out + 4L * i, (int)w[i]);
                }
            }
        }
    }

    /**
     * Fills the rectangle {@code [x0, x1) x [y0, y1)}, clipped to the frame, with one pixel value.
     *
     * @param frame  GRAY8, RGB24 or RGBA32 frame.
     * @param stride bytes per row.
     * @param format the frame's format.
     * @param width  frame width.
     * @param height frame height.
     * @param x0     left, inclusive (may lie outside the frame).
     * @param y0     top, inclusive.
     * @param x1     right, exclusive.
     * @param y1     bottom, exclusive.
     * @param rgba   the color, {@code 0xAABBGGRR}, for RGB24 and RGBA32.
     * @param gray   the value for GRAY8.
     */
    public static void fillRect(
        final DirectBuffer frame,
        final int stride,
        final PixelFormat format,
        final int width,
        final int height,
        final long x0,
        final long y0,
        final long x1,
        final long y1,
        final int rgba,
        final int gray)
    {
        final int xa = (int)Math.max(0, x0);
        final int ya = (int)Math.max(0, y0);
        final int xb = (int)Math.min(width, x1);
        final int yb = (int)Math.min(height, y1);
        if (xa >= xb || ya >= yb)
        {
            return;
        }
        final int bpp = format.bytesPerPixel();
        checkPlane(frame, 0, stride, (long)width * bpp, height, "frame");
        final Object base = frame.byteArray();
        final long address = frame.addressOffset();
        final long pair = (rgba & 0xFFFF_FFFFL) | (long)rgba << 32;
        for (int y = ya; y < yb; y++)
        {
            final long row = address + (long)y * stride;
            if (format == PixelFormat.GRAY8)
            {
                UnsafeApi.setMemory(base, row + xa, xb - xa, (byte)gray);
            }
            else if (format == PixelFormat.RGBA32)
            {
                int x = xa;
                for (; x + 2 <= xb; x += 2)
                {
                    UnsafeApi.putLong(base, row + 4L * x, pair);
                }
                if (x < xb)
                {
                    UnsafeApi.putInt(base, row + 4L * x, rgba);
                }
            }
            else
            {
                for (int x = xa; x < xb; x++)
                {
                    final long at = row + 3L * x;
                    UnsafeApi.putByte(base, at, (byte)rgba);
                    UnsafeApi.putByte(base, at + 1, (byte)(rgba >>> 8));
                    UnsafeApi.putByte(base, at + 2, (byte)(rgba >>> 16));
                }
            }
        }
    }

    /**
     * Maps every sample of a frame through a 256-entry table, in place: brightness and contrast.
     *
     * @param table     256 entries, the new value of each old one.
     * @param frame     the frame, written in place.
     * @param stride    bytes per row.
     * @param rowBytes  bytes of samples in a row ({@code width * bytesPerPixel}).
     * @param height    rows.
     * @param keepAlpha true for RGBA32: every fourth byte (alpha) is left alone.
     */
    public static void mapSamples(
        final byte[] table,
        final DirectBuffer frame,
        final int stride,
        final int rowBytes,
        final int height,
        final boolean keepAlpha)
    {
        if (table.length != 256)
        {
            throw new IllegalArgumentException("a sample table has 256 entries, not " + table.length);
        }
        checkPlane(frame, 0, stride, rowBytes, height, "frame");
        final Object base = frame.byteArray();
        final long address = frame.addressOffset();
        final long keep = keepAlpha ? 0xFF00_0000_FF00_0000L : 0L;
        for (int y = 0; y < height; y++)
        {
            final long row = address + (long)y * stride;
            int i = 0;
            for (; i + 8 <= rowBytes; i += 8)
            {
                final long p = UnsafeApi.getLong(base, row + i);
                final long mapped = (table[(int)p & 0xFF] & 0xFFL) | (table[(int)(p >>> 8) & 0xFF] & 0xFFL) << 8 |
                    (table[(int)(p >>> 16) & 0xFF] & 0xFFL) << 16 | (table[(int)(p >>> 24) & 0xFF] & 0xFFL) << 24 |
                    (table[(int)(p >>> 32) & 0xFF] & 0xFFL) << 32 | (table[(int)(p >>> 40) & 0xFF] & 0xFFL) << 40 |
                    (table[(int)(p >>> 48) & 0xFF] & 0xFFL) << 48 | (table[(int)(p >>> 56) & 0xFF] & 0xFFL) << 56;
                UnsafeApi.putLong(base, row + i, (mapped & ~keep) | (p & keep));
            }
            for (; i < rowBytes; i++)
            {
                if (!keepAlpha || (i & 3) != 3)
                {
                    UnsafeApi.putByte(base, row + i, table[UnsafeApi.getByte(base, row + i) & 0xFF]);
                }
            }
        }
    }
}
