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
 *   <li>{@code RGBA_TO_RGB24}: alpha dropped.</li>
 * </ul>
 * A frame of another format than the conversion takes fails the node, naming the format.
 *
 * <p>Declares offset 0: its output's bound follows its input's.
 */
public final class ColorConvertCalculator implements Calculator
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final String NAME = "ColorConvertCalculator";

    private Conversion conversion;

    /** The conversions, each with the formats it takes and makes. */
    enum Conversion
    {
        RGBA_TO_GRAY8(PixelFormat.RGBA32, PixelFormat.GRAY8),
        RGB24_TO_GRAY8(PixelFormat.RGB24, PixelFormat.GRAY8),
        RGB24_TO_RGBA(PixelFormat.RGB24, PixelFormat.RGBA32),
        RGBA_TO_RGB24(PixelFormat.RGBA32, PixelFormat.RGB24);

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
        contract.option("conversion", OptionType.STRING, Conversion.RGBA_TO_GRAY8.name());
        final String[] names = new String[Conversion.values().length];
        for (final Conversion c : Conversion.values())
        {
            names[c.ordinal()] = c.name();
        }
        contract.oneOf("conversion", names);
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
            convert(c, src.buffer(), src.stride(), dst.mutableBuffer(), dst.stride(), width, height);
        }
        catch (final RuntimeException ex)
        {
            dst.release();
            throw ex;
        }
        ctx.output(0).add(dst, input.timestamp());
    }

    static void convert(
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
                rgbaToGray(src, srcStride, dst, dstStride, width, height);
                break;
            case RGB24_TO_GRAY8:
                rgbToGray(src, srcStride, dst, dstStride, width, height);
                break;
            case RGB24_TO_RGBA:
                rgbToRgba(src, srcStride, dst, dstStride, width, height);
                break;
            default:
                rgbaToRgb(src, srcStride, dst, dstStride, width, height);
                break;
        }
    }

    /** The red (and, shifted, green and blue) bytes of two RGBA pixels in a little-endian long, 32 bits apart. */
    private static final long CHANNEL_PAIR = 0x0000_00FF_0000_00FFL;
    private static final long ROUND_PAIR = 0x0000_0080_0000_0080L;

    /**
     * Gray of the two RGBA pixels in {@code p}, SWAR style: each channel of both pixels is masked
     * into its own 32-bit lane and multiplied by its weight in one 64-bit multiply; a lane's sum is
     * at most {@code 256 * 255 + 128}, so it never carries into the other. Half the multiplies of
     * a pixel at a time.
     *
     * @return the first pixel's gray in bits 0-7, the second's in bits 8-15.
     */
    private static long grayPair(final long p)
    {
        final long sum = (p & CHANNEL_PAIR) * 77 + ((p >>> 8) & CHANNEL_PAIR) * 150 + ((p >>> 16) & CHANNEL_PAIR) * 29 +
            ROUND_PAIR;
        return ((sum >>> 8) & 0xFF) | ((sum >>> 32) & 0xFF00);
    }

    private static void rgbaToGray(
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
            int x = 0;
            for (; x + 8 <= width; x += 8)
            {
                final int at = s + 4 * x;
                dst.putLong(d + x, grayPair(src.getLong(at, LE)) | grayPair(src.getLong(at + 8, LE)) << 16 |
                    grayPair(src.getLong(at + 16, LE)) << 32 | grayPair(src.getLong(at + 24, LE)) << 48, LE);
            }
            for (; x < width; x++)
            {
                final int p = src.getInt(s + 4 * x, LE);
                final int r = p & 0xFF;
                final int g = (p >>> 8) & 0xFF;
                final int b = (p >>> 16) & 0xFF;
                dst.putByte(d + x, (byte)((77 * r + 150 * g + 29 * b + 128) >> 8));
            }
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
