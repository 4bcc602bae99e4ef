package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.util.EnumSet;
import java.util.Set;

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
 * <p>The kernels are {@link ImageKernels#halveGray}, {@link ImageKernels#halveRgba} and
 * {@link BilinearResizer} (separable, each input row's horizontal pass done once). The plan is
 * made on the first frame and again only when the input size changes; nothing is allocated per
 * frame otherwise. Declares offset 0.
 */
public final class ResizeCalculator implements Calculator
{
    private static final String NAME = "ResizeCalculator";
    private static final Set<PixelFormat> FORMATS = EnumSet.of(PixelFormat.GRAY8, PixelFormat.RGBA32);

    private int optionWidth;
    private int optionHeight;
    private double factor;

    private final ImageKernels kernels = new ImageKernels();
    private final BilinearResizer resizer = new BilinearResizer();
    private int srcWidth = -1;
    private int srcHeight = -1;
    private int dstWidth;
    private int dstHeight;
    private boolean halving;

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("*", Payload.class).outputType("*", Payload.class);
        contract.option("width", OptionType.LONG, 0L)
            .option("height", OptionType.LONG, 0L)
            .option("factor", OptionType.DOUBLE, 0.5)
            .range("width", 0, 16384)
            .range("height", 0, 16384)
            .range("factor", 0.0, false, 64.0)
            .outputFrame((node, options, input) -> input == null || !FORMATS.contains(input.format()) ? null :
                new Contract.FrameShape(
                    side((int)options.getLong("width"), input.width(), options.getDouble("factor")),
                    side((int)options.getLong("height"), input.height(), options.getDouble("factor")), input.format()));
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
        final Payload src = ImageFrames.frameIn(ctx, input, NAME, FORMATS, "needs GRAY8 or RGBA32 frames");
        if (src == null)
        {
            return;
        }
        final PixelFormat format = src.format();
        if (src.width() != srcWidth || src.height() != srcHeight)
        {
            plan(src.width(), src.height());
        }
        if (!halving)
        {
            resizer.plan(srcWidth, srcHeight, dstWidth, dstHeight, format == PixelFormat.GRAY8 ? 1 : 4);
        }
        final Payload dst = ctx.pool().acquireFrame(dstWidth, dstHeight, format);
        try
        {
            if (halving && format == PixelFormat.GRAY8)
            {
                kernels.halveGray(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), dstWidth, dstHeight);
            }
            else if (halving)
            {
                kernels.halveRgba(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), dstWidth, dstHeight);
            }
            else
            {
                resizer.resize(src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride());
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
        dstWidth = side(optionWidth, width, factor);
        dstHeight = side(optionHeight, height, factor);
        halving = width == 2 * dstWidth && height == 2 * dstHeight;
    }

    /** An output side: the option's, or the input's times the factor, rounded, 1..16384. */
    private static int side(final int option, final int input, final double factor)
    {
        return option > 0 ? option : (int)Math.max(1, Math.min(16384, Math.round(input * factor)));
    }
}
