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
import java.util.Arrays;

/**
 * Converts frames from one pixel format to another into a new frame of the same size.
 *
 * <p>Streams: one input of frames, one output of converted frames at the same timestamps.
 * Options: {@code conversion} ("RGBA_TO_GRAY8"), one of
 * <ul>
 *   <li>{@code RGBA_TO_GRAY8}, {@code RGB24_TO_GRAY8}: luma with integer BT.601 weights,
 *       {@code gray = (77 * R + 150 * G + 29 * B + 128) >> 8}; alpha is ignored;</li>
 *   <li>{@code RGB24_TO_RGBA}: alpha 255;</li>
 *   <li>{@code RGBA_TO_RGB24}: alpha dropped;</li>
 *   <li>{@code NV12_TO_GRAY8}, {@code I420_TO_GRAY8}: the luma plane;</li>
 *   <li>{@code NV12_TO_RGBA}, {@code I420_TO_RGBA}: BT.601 limited range, OpenCV's
 *       {@code COLOR_YUV2RGBA_*} arithmetic ({@link ImageKernels#yuvToRgba}).</li>
 * </ul>
 * A frame of another format than the conversion takes fails the node, naming the format.
 *
 * <p>Declares offset 0: its output's bound follows its input's.
 */
public final class ColorConvertCalculator implements Calculator
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final String NAME = "ColorConvertCalculator";

    private final ImageKernels kernels = new ImageKernels();
    private Conversion conversion;

    /** The conversions, each with the formats it takes and makes. */
    enum Conversion
    {
        RGBA_TO_GRAY8(PixelFormat.RGBA32, PixelFormat.GRAY8),
        RGB24_TO_GRAY8(PixelFormat.RGB24, PixelFormat.GRAY8),
        RGB24_TO_RGBA(PixelFormat.RGB24, PixelFormat.RGBA32),
        RGBA_TO_RGB24(PixelFormat.RGBA32, PixelFormat.RGB24),
        NV12_TO_GRAY8(PixelFormat.NV12, PixelFormat.GRAY8),
        I420_TO_GRAY8(PixelFormat.I420, PixelFormat.GRAY8),
        NV12_TO_RGBA(PixelFormat.NV12, PixelFormat.RGBA32),
        I420_TO_RGBA(PixelFormat.I420, PixelFormat.RGBA32);

        final PixelFormat from;
        final PixelFormat to;

        Conversion(final PixelFormat from, final PixelFormat to)
        {
            this.from = from;
            this.to = to;
        }
    }

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("*", Payload.class).outputType("*", Payload.class);
        contract.option("conversion", OptionType.STRING, Conversion.RGBA_TO_GRAY8.name());
        final String[] names = new String[Conversion.values().length];
        for (final Conversion c : Conversion.values())
        {
            names[c.ordinal()] = c.name();
        }
        contract.oneOf("conversion", names);
        contract.outputFrame((node, options, input) ->
        {
            final Conversion c = Conversion.valueOf(options.getString("conversion"));
            return input == null || input.format() != c.from ? null :
                new Contract.FrameShape(input.width(), input.height(), c.to);
        });
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final String name = ctx.options().getString("conversion");
        for (final Conversion c : Conversion.values())
        {
            if (c.name().equals(name))
            {
                conversion = c;
            }
        }
        if (conversion == null)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'conversion' is '" + name +
                "'; valid are " + Arrays.toString(Conversion.values()));
        }
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
        final Conversion c = conversion;
        if (src.format() != c.from)
        {
            throw ImageFrames.wrongFormat(ctx, NAME, input, src,
                "with conversion " + c + " needs " + c.from + " frames");
        }
        final int width = src.width();
        final int height = src.height();
        final Payload dst = ctx.pool().acquireFrame(width, height, c.to);
        try
        {
            convert(kernels, c, src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), width, height);
        }
        catch (final RuntimeException ex)
        {
            dst.release();
            throw ex;
        }
        ctx.output(0).add(dst, input.timestamp());
    }

    static void convert(
        final ImageKernels kernels,
        final Conversion c,
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        switch (c)
        {
            case RGBA_TO_GRAY8:
                kernels.rgbaToGray(src, srcStride, dst, dstStride, width, height);
                break;
            case NV12_TO_GRAY8:
            case I420_TO_GRAY8:
                ImageKernels.yuvToGray(c.from, src, srcStride, dst, dstStride, width, height);
                break;
            case NV12_TO_RGBA:
            case I420_TO_RGBA:
                kernels.yuvToRgba(c.from, src, srcStride, dst, dstStride, width, height);
                break;
            case RGBA_TO_RGB24:
                rgbaToRgb(src, srcStride, dst, dstStride, width, height);
                break;
            case RGB24_TO_GRAY8:
                rgbToGray(src, srcStride, dst, dstStride, width, height);
                break;
            case RGB24_TO_RGBA:
                rgbToRgba(src, srcStride, dst, dstStride, width, height);
                break;
            default:
                throw new IllegalStateException("conversion " + c + " has no kernel");
        }
    }

    private static void rgbToGray(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        for (int y = 0; y < height; y++)
        {
            final int s = y * srcStride;
            final int d = y * dstStride;
            for (int x = 0; x < width; x++)
            {
                final int at = s + 3 * x;
                final int r = src.getByte(at) & 0xFF;
                final int g = src.getByte(at + 1) & 0xFF;
                final int b = src.getByte(at + 2) & 0xFF;
                dst.putByte(d + x, (byte)((77 * r + 150 * g + 29 * b + 128) >> 8));
            }
        }
    }

    private static void rgbToRgba(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        for (int y = 0; y < height; y++)
        {
            final int s = y * srcStride;
            final int d = y * dstStride;
            for (int x = 0; x < width; x++)
            {
                final int at = s + 3 * x;
                final int r = src.getByte(at) & 0xFF;
                final int g = src.getByte(at + 1) & 0xFF;
                final int b = src.getByte(at + 2) & 0xFF;
                dst.putInt(d + 4 * x, 0xFF00_0000 | b << 16 | g << 8 | r, LE);
            }
        }
    }

    private static void rgbaToRgb(
        final DirectBuffer src,
        final int srcStride,
        final MutableDirectBuffer dst,
        final int dstStride,
        final int width,
        final int height)
    {
        for (int y = 0; y < height; y++)
        {
            final int s = y * srcStride;
            final int d = y * dstStride;
            for (int x = 0; x < width; x++)
            {
                final int p = src.getInt(s + 4 * x, LE);
                final int at = d + 3 * x;
                dst.putByte(at, (byte)p);
                dst.putByte(at + 1, (byte)(p >>> 8));
                dst.putByte(at + 2, (byte)(p >>> 16));
            }
        }
    }
}
