package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Resizes frames with bilinear interpolation into new frames of the same pixel format.
 *
 * <p>Streams: one input of GRAY8 or RGBA32 frames, one output of resized frames at the same
 * timestamps. Options:
 * <ul>
 *   <li>{@code width} (0), {@code height} (0): the output size in pixels; 0 takes that side from
 *       the input's times {@code factor}, rounded, at least 1;</li>
 *   <li>{@code factor} (0.5): the scale for a side given as 0.</li>
 * </ul>
 *
 * <p>Sampling follows pixel centers, as OpenCV's {@code INTER_LINEAR}: output pixel {@code dx}
 * samples the input at {@code sx = (dx + 0.5) * inWidth / outWidth - 0.5}, clamped to the edges,
 * and likewise for rows. Weights are 8-bit fixed point ({@code w = round(frac * 256)}) and a pixel
 * is {@code ((p00 (256 - wx) + p01 wx) (256 - wy) + (p10 (256 - wx) + p11 wx) wy + 32768) >> 16},
 * per channel (alpha included). Halving is then the rounded mean of each 2x2 block,
 * {@code (a + b + c + d + 2) >> 2}, which an exact halving of both sides computes directly, eight
 * input bytes per read.
 *
 * <p>The column tables are computed on the first frame and again only when the input size
 * changes; nothing is allocated per frame otherwise. Declares offset 0.
 */
public final class ResizeCalculator implements Calculator
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final String NAME = "ResizeCalculator";

    private int optionWidth;
    private int optionHeight;
    private double factor;

    private int srcWidth = -1;
    private int srcHeight = -1;
    private int dstWidth;
    private int dstHeight;
    private boolean halving;
    private int[] x0 = new int[0];
    private int[] x1 = new int[0];
    private int[] wx = new int[0];
    private int[] y0 = new int[0];
    private int[] y1 = new int[0];
    private int[] wy = new int[0];

    @Override
    public void contract(final Contract contract)
    {
        contract.option("width", OptionType.LONG, 0L)
            .option("height", OptionType.LONG, 0L)
            .option("factor", OptionType.DOUBLE, 0.5)
            .range("width", 0, 16384)
            .range("height", 0, 16384)
            .range("factor", 0.0, false, 64.0);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final long w = ctx.options().getLong("width");
        final long h = ctx.options().getLong("height");
        factor = ctx.options().getDouble("factor");
        if (w < 0 || h < 0 || w > 16384 || h > 16384)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': output size " + w + "x" + h +
                " invalid; width and height must be 0 (use factor) or 1..16384");
        }
        if ((w == 0 || h == 0) && !(factor > 0 && factor <= 64))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'factor' is " + factor +
                "; it must be in (0, 64] when width or height is 0");
        }
        optionWidth = (int)w;
        optionHeight = (int)h;
        ctx.setOffset(0);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final Input input = ctx.input(0);
        if (input.isEmpty())
        {
            return;
        }
        final Payload src = ImageFrames.frame(ctx, input, NAME);
        final PixelFormat format = src.format();
        if (format != PixelFormat.GRAY8 && format != PixelFormat.RGBA32)
        {
            throw ImageFrames.wrongFormat(ctx, NAME, input, src, "needs GRAY8 or RGBA32 frames");
        }
        if (src.width() != srcWidth || src.height() != srcHeight)
        {
            plan(src.width(), src.height());
        }
        final Payload dst = ctx.pool().acquireFrame(dstWidth, dstHeight, format);
        try
        {
            if (halving)
            {
                if (format == PixelFormat.GRAY8)
                {
                    halveGray(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), dstWidth, dstHeight);
                }
                else
                {
                    halveRgba(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), dstWidth, dstHeight);
                }
            }
            else if (format == PixelFormat.GRAY8)
            {
                resizeGray(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride());
            }
            else
            {
                resizeRgba(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride());
            }
        }
        catch (final RuntimeException ex)
        {
            dst.release();
            throw ex;
        }
        ctx.output(0).add(dst, input.timestamp());
    }

    private void plan(final int width, final int height)
    {
        srcWidth = width;
        srcHeight = height;
        dstWidth = optionWidth > 0 ? optionWidth : (int)Math.max(1, Math.min(16384, Math.round(width * factor)));
        dstHeight = optionHeight > 0 ? optionHeight : (int)Math.max(1, Math.min(16384, Math.round(height * factor)));
        halving = width == 2 * dstWidth && height == 2 * dstHeight;
        x0 = new int[dstWidth];
        x1 = new int[dstWidth];
        wx = new int[dstWidth];
        axis(width, dstWidth, x0, x1, wx);
        y0 = new int[dstHeight];
        y1 = new int[dstHeight];
        wy = new int[dstHeight];
        axis(height, dstHeight, y0, y1, wy);
    }

    /** For each output position: the two input positions either side and the 8-bit weight of the second. */
    private static void axis(final int src, final int dst, final int[] lo, final int[] hi, final int[] weight)
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

    /** Exact 2:1 in both directions: the rounded mean of each 2x2 block, the bilinear result at weights 1/2. */
    private static void halveGray(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        for (int dy = 0; dy < height; dy++)
        {
            final int top = 2 * dy * srcStride;
            final int bottom = top + srcStride;
            final int row = dy * dstStride;
            int dx = 0;
            for (; dx + 4 <= width; dx += 4)
            {
                final long t = src.getLong(top + 2 * dx, LE);
                final long b = src.getLong(bottom + 2 * dx, LE);
                int out = 0;
                for (int k = 0; k < 4; k++)
                {
                    final int shift = 16 * k;
                    final int sum = (int)(t >>> shift & 0xFF) + (int)(t >>> (shift + 8) & 0xFF) +
                        (int)(b >>> shift & 0xFF) + (int)(b >>> (shift + 8) & 0xFF);
                    out |= ((sum + 2) >> 2) << (8 * k);
                }
                dst.putInt(row + dx, out, LE);
            }
            for (; dx < width; dx++)
            {
                final int sum = (src.getByte(top + 2 * dx) & 0xFF) + (src.getByte(top + 2 * dx + 1) & 0xFF) +
                    (src.getByte(bottom + 2 * dx) & 0xFF) + (src.getByte(bottom + 2 * dx + 1) & 0xFF);
                dst.putByte(row + dx, (byte)((sum + 2) >> 2));
            }
        }
    }

    private static void halveRgba(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        for (int dy = 0; dy < height; dy++)
        {
            final int top = 2 * dy * srcStride;
            final int bottom = top + srcStride;
            final int row = dy * dstStride;
            for (int dx = 0; dx < width; dx++)
            {
                final long t = src.getLong(top + 8 * dx, LE);
                final long b = src.getLong(bottom + 8 * dx, LE);
                int out = 0;
                for (int shift = 0; shift < 32; shift += 8)
                {
                    final int sum = (int)(t >>> shift & 0xFF) + (int)(t >>> (shift + 32) & 0xFF) +
                        (int)(b >>> shift & 0xFF) + (int)(b >>> (shift + 32) & 0xFF);
                    out |= ((sum + 2) >> 2) << shift;
                }
                dst.putInt(row + 4 * dx, out, LE);
            }
        }
    }

    private void resizeGray(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride)
    {
        final int[] x0 = this.x0;
        final int[] x1 = this.x1;
        final int[] wx = this.wx;
        final int width = dstWidth;
        final int height = dstHeight;
        for (int dy = 0; dy < height; dy++)
        {
            final int top = y0[dy] * srcStride;
            final int bottom = y1[dy] * srcStride;
            final int wb = wy[dy];
            final int wt = 256 - wb;
            final int row = dy * dstStride;
            for (int dx = 0; dx < width; dx++)
            {
                final int l = x0[dx];
                final int r = x1[dx];
                final int wr = wx[dx];
                final int wl = 256 - wr;
                final int t = (src.getByte(top + l) & 0xFF) * wl + (src.getByte(top + r) & 0xFF) * wr;
                final int b = (src.getByte(bottom + l) & 0xFF) * wl + (src.getByte(bottom + r) & 0xFF) * wr;
                dst.putByte(row + dx, (byte)((t * wt + b * wb + 32768) >> 16));
            }
        }
    }

    private void resizeRgba(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride)
    {
        final int[] x0 = this.x0;
        final int[] x1 = this.x1;
        final int[] wx = this.wx;
        final int width = dstWidth;
        final int height = dstHeight;
        for (int dy = 0; dy < height; dy++)
        {
            final int top = y0[dy] * srcStride;
            final int bottom = y1[dy] * srcStride;
            final int wb = wy[dy];
            final int wt = 256 - wb;
            final int row = dy * dstStride;
            for (int dx = 0; dx < width; dx++)
            {
                final int l = 4 * x0[dx];
                final int r = 4 * x1[dx];
                final int wr = wx[dx];
                final int wl = 256 - wr;
                final int p00 = src.getInt(top + l, LE);
                final int p01 = src.getInt(top + r, LE);
                final int p10 = src.getInt(bottom + l, LE);
                final int p11 = src.getInt(bottom + r, LE);
                int out = 0;
                for (int shift = 0; shift < 32; shift += 8)
                {
                    final int t = ((p00 >>> shift) & 0xFF) * wl + ((p01 >>> shift) & 0xFF) * wr;
                    final int b = ((p10 >>> shift) & 0xFF) * wl + ((p11 >>> shift) & 0xFF) * wr;
                    out |= ((t * wt + b * wb + 32768) >> 16) << shift;
                }
                dst.putInt(row + 4 * dx, out, LE);
            }
        }
    }
}
