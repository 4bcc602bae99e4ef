package dev.framewire.core.calculators.image;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Brightness and contrast as a map of sample values: each sample {@code v} becomes
 * {@code clamp(round((v - 128) * contrast + 128 + brightness), 0, 255)}, applied in place to the
 * rows of a frame, alpha optionally left alone.
 *
 * <p>Made once (a 256-entry table, and where it gives the same 256 answers, the same map as
 * 16-bit fixed point {@code (v * mul + add) >> 16}); the fixed-point form runs on four samples an
 * {@code int} in an array loop C2 vectorises, with clamps made of shifts and masks, not branches.
 * Where no fixed-point pair reproduces the table (contrasts beyond +-64, or a rounding tie the
 * fixed point breaks the other way), the table is used, eight samples a long.
 *
 * <p>Not thread-safe: a row of scratch is the instance's.
 */
public final class SampleMap
{
    private final byte[] table = new byte[256];
    private final boolean identity;
    private final boolean linear;
    private final int mul;
    private final int add;
    private int[] words = new int[0];
    private byte[] samples = new byte[0];
    private static final VectorRows SIMD = Simd.ROWS;

    /**
     * @param brightness added, clamped to -1024..1024.
     * @param contrast   multiplied around 128; finite.
     */
    public SampleMap(final long brightness, final double contrast)
    {
        if (Double.isNaN(contrast) || Double.isInfinite(contrast))
        {
            throw new IllegalArgumentException("contrast " + contrast + ": it must be a finite number");
        }
        final long b = Math.max(-1024, Math.min(1024, brightness));
        boolean same = true;
        for (int v = 0; v < 256; v++)
        {
            table[v] = (byte)Math.max(0, Math.min(255, Math.round((v - 128) * contrast + 128 + b)));
            same &= (table[v] & 0xFF) == v;
        }
        identity = same;
        boolean fits = Math.abs(contrast) <= 64;
        final int m = fits ? (int)Math.round(contrast * 65536) : 0;
        final int a = fits ? (int)Math.round((128 - 128 * contrast + b + 0.5) * 65536) : 0;
        for (int v = 0; v < 256 && fits; v++)
        {
            fits = map(v, m, a) == (table[v] & 0xFF);
        }
        linear = fits;
        mul = m;
        add = a;
    }

    private static int map(final int v, final int mul, final int add)
    {
        int x = (v * mul + add) >> 16;
        x &= ~(x >> 31);
        return (x | (255 - x) >> 31) & 0xFF;
    }

    /**
     * @return true if the map changes no value.
     */
    public boolean isIdentity()
    {
        return identity;
    }

    /**
     * @param v a sample, 0..255.
     * @return its new value.
     */
    public int get(final int v)
    {
        return table[v & 0xFF] & 0xFF;
    }

    /**
     * Maps every sample of a frame in place.
     *
     * @param frame     the frame.
     * @param stride    bytes per row.
     * @param rowBytes  bytes of samples in a row ({@code width * bytesPerPixel}).
     * @param height    rows.
     * @param keepAlpha true for RGBA32: every fourth byte (alpha) is left alone.
     */
    public void apply(final DirectBuffer frame, final int stride, final int rowBytes, final int height,
        final boolean keepAlpha)
    {
        if (!linear)
        {
            ImageKernels.mapSamples(table, frame, stride, rowBytes, height, keepAlpha);
            return;
        }
        ImageKernels.checkPlane(frame, 0, stride, rowBytes, height, "frame");
        if (SIMD != null)
        {
            applyVectors(frame, stride, rowBytes, height, keepAlpha);
        }
        else
        {
            applyLinear(frame, stride, rowBytes, height, keepAlpha);
        }
    }

    /** The fixed-point map, four samples an int, in an array loop C2 vectorises. */
    private void applyLinear(final DirectBuffer frame, final int stride, final int rowBytes, final int height,
        final boolean keepAlpha)
    {
        final int n = rowBytes >> 2;
        if (words.length < n)
        {
            words = new int[n];
        }
        final int[] w = words;
        final int keep = keepAlpha ? 0xFF00_0000 : 0;
        final int mul = this.mul;
        final int add = this.add;
        final Object base = frame.byteArray();
        final long address = frame.addressOffset();
        for (int y = 0; y < height; y++)
        {
            final long row = address + (long)y * stride;
            UnsafeApi.copyMemory(base, row, w, ImageKernels.INT_BASE, 4L * n);
            for (int i = 0; i < n; i++) // superword: int lanes, four samples each
            {
                final int p = w[i];
                int s0 = ((p & 0xFF) * mul + add) >> 16;
                int s1 = ((p >>> 8 & 0xFF) * mul + add) >> 16;
                int s2 = ((p >>> 16 & 0xFF) * mul + add) >> 16;
                int s3 = ((p >>> 24) * mul + add) >> 16;
                s0 &= ~(s0 >> 31);
                s1 &= ~(s1 >> 31);
                s2 &= ~(s2 >> 31);
                s3 &= ~(s3 >> 31);
                s0 = (s0 | (255 - s0) >> 31) & 0xFF;
                s1 = (s1 | (255 - s1) >> 31) & 0xFF;
                s2 = (s2 | (255 - s2) >> 31) & 0xFF;
                s3 = (s3 | (255 - s3) >> 31) & 0xFF;
                w[i] = ((s0 | s1 << 8 | s2 << 16 | s3 << 24) & ~keep) | (p & keep);
            }
            UnsafeApi.copyMemory(w, ImageKernels.INT_BASE, base, row, 4L * n);
            for (int i = 4 * n; i < rowBytes; i++)
            {
                UnsafeApi.putByte(base, row + i, table[UnsafeApi.getByte(base, row + i) & 0xFF]);
            }
        }
    }

    private void applyVectors(final DirectBuffer frame, final int stride, final int rowBytes, final int height,
        final boolean keepAlpha)
    {
        if (samples.length < rowBytes + VectorRows.PAD)
        {
            samples = new byte[rowBytes + VectorRows.PAD];
        }
        final byte[] row = samples;
        final Object base = frame.byteArray();
        final long address = frame.addressOffset();
        for (int y = 0; y < height; y++)
        {
            final long at = address + (long)y * stride;
            UnsafeApi.copyMemory(base, at, row, ImageKernels.BYTE_BASE, rowBytes);
            SIMD.linearMap(row, rowBytes, mul, add, keepAlpha);
            UnsafeApi.copyMemory(row, ImageKernels.BYTE_BASE, base, at, rowBytes);
        }
    }
}
