package dev.framewire.core.calculators.image;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

/**
 * Bilinear resize of GRAY8 or RGBA32 frames from one fixed size to another: the plan (which
 * input pixels and weights each output pixel takes) is made once, and each frame is then resized
 * with it.
 *
 * <p>Sampling follows pixel centers, as OpenCV's {@code INTER_LINEAR}: output pixel {@code dx}
 * samples the input at {@code sx = (dx + 0.5) * inWidth / outWidth - 0.5}, clamped to the edges,
 * and likewise for rows. Weights are 8-bit fixed point ({@code w = round(frac * 256)}) and a sample
 * is {@code ((p00 (256 - wx) + p01 wx) (256 - wy) + (p10 (256 - wx) + p11 wx) wy + 32768) >> 16}.
 * OpenCV uses 11-bit weights; results differ from its by at most one level.
 *
 * <p>Separable, with a row cache: the horizontal pass runs once per input row that an output row
 * needs (into an {@code int[]} row of the output's width) and is kept while the next output row
 * still needs it, so a 1080p to 720p resize makes 1080 horizontal passes at most, not 2 x 720
 * of them redone; the vertical pass is an {@code int[]} loop that C2 vectorises.
 *
 * <p>Not thread-safe; nothing is allocated per frame once planned.
 */
public final class BilinearResizer
{
    private int srcWidth = -1;
    private int srcHeight = -1;
    private int dstWidth;
    private int dstHeight;
    private int channels;
    private int[] lo = new int[0];
    private int[] hi = new int[0];
    private int[] weight = new int[0];
    private int[] y0 = new int[0];
    private int[] y1 = new int[0];
    private int[] wy = new int[0];
    private byte[] row = new byte[0];
    private int[] pixels = new int[0];
    private int[] upper = new int[0];
    private int[] lower = new int[0];
    private int[] upperOdd = new int[0];
    private int[] lowerOdd = new int[0];
    private int[] out = new int[0];
    private byte[] outBytes = new byte[0];
    /** For {@link VectorRows#horizontalWindowed}: each block's first sample, and lo, hi relative to it; or null. */
    private int[] windowBase;
    private int[] windowLo;
    private int[] windowHi;
    private static final VectorRows SIMD = Simd.ROWS;
    private static final VectorRows ALL = Simd.ALL;

    /**
     * Plans a resize; a plan for the same sizes is kept as it is.
     *
     * @param srcWidth  input width.
     * @param srcHeight input height.
     * @param dstWidth  output width.
     * @param dstHeight output height.
     * @param channels  1 for GRAY8, 4 for RGBA32.
     */
    public void plan(final int srcWidth, final int srcHeight, final int dstWidth, final int dstHeight, final int channels)
    {
        if (channels != 1 && channels != 4)
        {
            throw new IllegalArgumentException("bilinear resize takes 1 (GRAY8) or 4 (RGBA32) channels, not " + channels);
        }
        if (srcWidth < 1 || srcHeight < 1 || dstWidth < 1 || dstHeight < 1)
        {
            throw new IllegalArgumentException("bilinear resize from " + srcWidth + "x" + srcHeight + " to " + dstWidth +
                "x" + dstHeight + ": sides must be at least 1");
        }
        if (srcWidth == this.srcWidth && srcHeight == this.srcHeight && dstWidth == this.dstWidth &&
            dstHeight == this.dstHeight && channels == this.channels)
        {
            return;
        }
        this.srcWidth = srcWidth;
        this.srcHeight = srcHeight;
        this.dstWidth = dstWidth;
        this.dstHeight = dstHeight;
        this.channels = channels;
        // gray: one int a sample; RGBA: two, R and B, and G and A (the odd rows), in 16-bit lanes
        final int samples = dstWidth;
        final int pad = VectorRows.PAD; // vector loops may run past a row's end (index padding: zeros, valid)
        lo = new int[dstWidth + pad];
        hi = new int[dstWidth + pad];
        weight = new int[dstWidth + pad];
        axis(srcWidth, dstWidth, lo, hi, weight);
        y0 = new int[dstHeight];
        y1 = new int[dstHeight];
        wy = new int[dstHeight];
        axis(srcHeight, dstHeight, y0, y1, wy);
        row = new byte[srcWidth + pad];
        pixels = new int[srcWidth + pad];
        upper = new int[samples + pad];
        lower = new int[samples + pad];
        upperOdd = new int[channels == 1 ? 0 : samples + pad];
        lowerOdd = new int[channels == 1 ? 0 : samples + pad];
        out = new int[dstWidth + pad];
        outBytes = new byte[dstWidth + pad];
        planWindows();
    }

    /**
     * Plans the vector loop's windows when every block of {@code lanes} outputs reads at most
     * {@code 2 lanes} consecutive inputs (a downscale by less than about 2, or any upscale) and the
     * windows stay inside the padded row; otherwise the loop gathers.
     */
    private void planWindows()
    {
        windowBase = null;
        if (ALL == null)
        {
            return;
        }
        final int lanes = ALL.lanes();
        final int blocks = (dstWidth + lanes - 1) / lanes;
        final int[] base = new int[blocks];
        final int[] relLo = new int[lo.length];
        final int[] relHi = new int[hi.length];
        for (int b = 0; b < blocks; b++)
        {
            base[b] = lo[b * lanes];
            for (int i = b * lanes, end = Math.min(dstWidth, i + lanes); i < end; i++)
            {
                relLo[i] = lo[i] - base[b];
                relHi[i] = hi[i] - base[b];
                if (relHi[i] >= 2 * lanes || base[b] + 2 * lanes > pixels.length)
                {
                    return;
                }
            }
        }
        windowBase = base;
        windowLo = relLo;
        windowHi = relHi;
    }

    /** For each output position: the two input positions either side and the 8-bit weight of the second. */
    static void axis(final int src, final int dst, final int[] lo, final int[] hi, final int[] weight)
    {
        final double scale = (double)src / dst;
        for (int d = 0; d < dst; d++)
        {
            final double s = Math.max(0.0, (d + 0.5) * scale - 0.5);
            int i = (int)s;
            int w = (int)Math.round((s - i) * 256);
            if (w == 256)
            {
                i++;
                w = 0;
            }
            if (i >= src - 1)
            {
                lo[d] = src - 1;
                hi[d] = src - 1;
                weight[d] = 0;
            }
            else
            {
                lo[d] = i;
                hi[d] = i + 1;
                weight[d] = w;
            }
        }
    }

    /**
     * Resizes one frame with the plan.
     *
     * @param src       input frame of the planned size.
     * @param srcStride bytes per input row.
     * @param dst       output frame of the planned size.
     * @param dstStride bytes per output row.
     */
    public void resize(final DirectBuffer src, final int srcStride, final DirectBuffer dst, final int dstStride)
    {
        final int samples = upper.length; // with the padding
        final int rowBytes = srcWidth * channels;
        final int width = dstWidth;
        ImageKernels.checkPlane(src, 0, srcStride, rowBytes, srcHeight, "source");
        ImageKernels.checkPlane(dst, 0, dstStride, (long)width * channels, dstHeight, "destination");
        final Object sBase = src.byteArray();
        final long sAddr = src.addressOffset();
        final Object dBase = dst.byteArray();
        final long dAddr = dst.addressOffset();
        final int[] y0 = this.y0;
        final int[] y1 = this.y1;
        final int[] wy = this.wy;
        final int[] out = this.out;
        int[] upper = this.upper;
        int[] lower = this.lower;
        int[] upperOdd = this.upperOdd;
        int[] lowerOdd = this.lowerOdd;
        int upperRow = -1;
        int lowerRow = -1;
        for (int dy = 0, height = dstHeight; dy < height; dy++)
        {
            final int ya = y0[dy];
            final int yb = y1[dy];
            if (ya != upperRow)
            {
                if (ya == lowerRow) // moving down by one input row: the lower row becomes the upper
                {
                    final int[] t = upper;
                    upper = lower;
                    lower = t;
                    final int[] o = upperOdd;
                    upperOdd = lowerOdd;
                    lowerOdd = o;
                    lowerRow = -1;
                }
                else
                {
                    horizontal(sBase, sAddr + (long)ya * srcStride, rowBytes, upper, upperOdd);
                }
                upperRow = ya;
            }
            if (yb != lowerRow)
            {
                if (yb == ya)
                {
                    System.arraycopy(upper, 0, lower, 0, samples);
                    System.arraycopy(upperOdd, 0, lowerOdd, 0, upperOdd.length);
                }
                else
                {
                    horizontal(sBase, sAddr + (long)yb * srcStride, rowBytes, lower, lowerOdd);
                }
                lowerRow = yb;
            }
            final int wb = wy[dy];
            final int wt = 256 - wb;
            final long outRow = dAddr + (long)dy * dstStride;
            if (channels == 1 ? SIMD != null : ALL != null)
            {
                vertical(upper, lower, upperOdd, lowerOdd, wt, wb, dBase, outRow);
            }
            else if (channels == 1)
            {
                for (int i = 0; i < width; i++) // superword: int lanes
                {
                    out[i] = (upper[i] * wt + lower[i] * wb + 32768) >>> 16;
                }
                ImageKernels.packBytes(out, width, dBase, outRow);
            }
            else
            {
                for (int i = 0; i < width; i++) // superword: int lanes
                {
                    final int te = upper[i];
                    final int be = lower[i];
                    final int to = upperOdd[i];
                    final int bo = lowerOdd[i];
                    final int r = ((te & 0xFFFF) * wt + (be & 0xFFFF) * wb + 32768) >>> 16;
                    final int b = ((te >>> 16) * wt + (be >>> 16) * wb + 32768) >>> 16;
                    final int g = ((to & 0xFFFF) * wt + (bo & 0xFFFF) * wb + 32768) >>> 16;
                    final int a = ((to >>> 16) * wt + (bo >>> 16) * wb + 32768) >>> 16;
                    out[i] = r | g << 8 | b << 16 | a << 24;
                }
                UnsafeApi.copyMemory(out, ImageKernels.INT_BASE, dBase, outRow, 4L * width);
            }
        }
        this.upper = upper;
        this.lower = lower;
        this.upperOdd = upperOdd;
        this.lowerOdd = lowerOdd;
    }

    /** The vertical pass on the Vector API ({@link Simd#ROWS} for gray, {@link Simd#ALL} for RGBA), the row copied out. */
    private void vertical(final int[] upper, final int[] lower, final int[] upperOdd, final int[] lowerOdd, final int wt,
        final int wb, final Object dBase, final long outRow)
    {
        final int width = dstWidth;
        if (channels == 1)
        {
            SIMD.verticalGray(upper, lower, wt, wb, outBytes, width);
            UnsafeApi.copyMemory(outBytes, ImageKernels.BYTE_BASE, dBase, outRow, width);
        }
        else
        {
            ALL.verticalRgba(upper, lower, upperOdd, lowerOdd, wt, wb, out, width); // JDK 17 boxes its vectors
            UnsafeApi.copyMemory(out, ImageKernels.INT_BASE, dBase, outRow, 4L * width);
        }
    }

    /**
     * The horizontal pass of one input row. Gray: {@code p[lo] (256 - w) + p[hi] w} per output
     * sample. RGBA: a pixel's R and B (then G and A) are two 16-bit lanes of an int, weighted
     * together in one multiply each ({@code 255 * 256} fits a lane); R,B lanes go to
     * {@code into}, G,A lanes to {@code odd}.
     */
    private void horizontal(final Object base, final long address, final int rowBytes, final int[] into,
        final int[] odd)
    {
        final int[] lo = this.lo;
        final int[] hi = this.hi;
        final int[] weight = this.weight;
        final int width = dstWidth;
        if (channels == 1)
        {
            final byte[] row = this.row;
            UnsafeApi.copyMemory(base, address, row, ImageKernels.BYTE_BASE, rowBytes);
            if (ALL != null)
            {
                ALL.widen(row, pixels, rowBytes);
                if (windowBase != null)
                {
                    ALL.horizontalWindowed(pixels, windowBase, windowLo, windowHi, weight, into, odd, width, false);
                }
                else
                {
                    ALL.horizontalGray(pixels, lo, hi, weight, into, width);
                }
                return;
            }
            for (int i = 0; i < width; i++)
            {
                final int w = weight[i];
                into[i] = (row[lo[i]] & 0xFF) * (256 - w) + (row[hi[i]] & 0xFF) * w;
            }
            return;
        }
        final int[] px = pixels;
        UnsafeApi.copyMemory(base, address, px, ImageKernels.INT_BASE, rowBytes);
        if (ALL != null && windowBase != null)
        {
            ALL.horizontalWindowed(px, windowBase, windowLo, windowHi, weight, into, odd, width, true);
            return;
        }
        if (ALL != null)
        {
            ALL.horizontalRgba(px, lo, hi, weight, into, odd, width);
            return;
        }
        for (int i = 0; i < width; i++)
        {
            final int w = weight[i];
            final int left = px[lo[i]];
            final int right = px[hi[i]];
            into[i] = (left & 0x00FF_00FF) * (256 - w) + (right & 0x00FF_00FF) * w;
            odd[i] = (left >>> 8 & 0x00FF_00FF) * (256 - w) + (right >>> 8 & 0x00FF_00FF) * w;
        }
    }
}
