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
    private int[] upper = new int[0];
    private int[] lower = new int[0];
    private int[] out = new int[0];

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
        final int samples = dstWidth * channels;
        final int[] x0 = new int[dstWidth];
        final int[] x1 = new int[dstWidth];
        final int[] wx = new int[dstWidth];
        axis(srcWidth, dstWidth, x0, x1, wx);
        lo = new int[samples];
        hi = new int[samples];
        weight = new int[samples];
        for (int dx = 0; dx < dstWidth; dx++)
        {
            for (int c = 0; c < channels; c++)
            {
                final int i = dx * channels + c;
                lo[i] = x0[dx] * channels + c;
                hi[i] = x1[dx] * channels + c;
                weight[i] = wx[dx];
            }
        }
        y0 = new int[dstHeight];
        y1 = new int[dstHeight];
        wy = new int[dstHeight];
        axis(srcHeight, dstHeight, y0, y1, wy);
        row = new byte[srcWidth * channels];
        upper = new int[samples];
        lower = new int[samples];
        out = new int[samples];
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
        final int samples = dstWidth * channels;
        final int rowBytes = srcWidth * channels;
        ImageKernels.checkPlane(src, 0, srcStride, rowBytes, srcHeight, "source");
        ImageKernels.checkPlane(dst, 0, dstStride, samples, dstHeight, "destination");
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
        int upperRow = -1;
        int lowerRow = -1;
        for (int dy = 0, height = dstHeight; dy < height; dy++)
        {
            final int a = y0[dy];
            final int b = y1[dy];
            if (a != upperRow)
            {
                if (a == lowerRow) // moving down by one input row: the lower row becomes the upper
                {
                    final int[] t = upper;
                    upper = lower;
                    lower = t;
                    lowerRow = -1;
                }
                else
                {
                    horizontal(sBase, sAddr + (long)a * srcStride, rowBytes, upper);
                }
                upperRow = a;
            }
            if (b != lowerRow)
            {
                if (b == a)
                {
                    System.arraycopy(upper, 0, lower, 0, samples);
                }
                else
                {
                    horizontal(sBase, sAddr + (long)b * srcStride, rowBytes, lower);
                }
                lowerRow = b;
            }
            final int wb = wy[dy];
            final int wt = 256 - wb;
            for (int i = 0; i < samples; i++) // superword: int lanes
            {
                out[i] = (upper[i] * wt + lower[i] * wb + 32768) >> 16;
            }
            ImageKernels.packBytes(out, samples, dBase, dAddr + (long)dy * dstStride);
        }
        this.upper = upper;
        this.lower = lower;
    }

    private void horizontal(final Object base, final long address, final int rowBytes, final int[] into)
    {
        final byte[] row = this.row;
        UnsafeApi.copyMemory(base, address, row, UnsafeApi.arrayBaseOffset(byte[].class), rowBytes);
        final int[] lo = this.lo;
        final int[] hi = this.hi;
        final int[] weight = this.weight;
        for (int i = 0, n = into.length; i < n; i++)
        {
            final int w = weight[i];
            into[i] = (row[lo[i]] & 0xFF) * (256 - w) + (row[hi[i]] & 0xFF) * w;
        }
    }
}
