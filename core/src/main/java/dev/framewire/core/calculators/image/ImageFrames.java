package dev.framewire.core.calculators.image;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Input;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.util.Locale;

/**
 * Checks shared by the image calculators. Messages are built only on the error path.
 */
final class ImageFrames
{
    private ImageFrames()
    {
    }

    /**
     * The frame payload on an input, or an error naming the node, the stream and what came instead.
     *
     * @param ctx        the calling node's context.
     * @param input      a non-empty input.
     * @param calculator the calculator's simple name, for the message.
     * @return the frame, lent by the input.
     */
    static Payload frame(final CalculatorContext ctx, final Input input, final String calculator)
    {
        final Object value = input.value();
        if (value instanceof Payload && ((Payload)value).isFrame())
        {
            return (Payload)value;
        }
        throw new IllegalArgumentException(where(ctx, calculator, input) + " carries " +
            (value instanceof Payload ? "a " + ((Payload)value).length() + " byte blob payload" :
            "a " + value.getClass().getName()) + ", not a frame payload");
    }

    /**
     * The error for a frame whose pixel format the calculator does not take.
     *
     * @param ctx        the calling node's context.
     * @param calculator the calculator's simple name.
     * @param input      the input the frame came on.
     * @param frame      the frame.
     * @param expected   what would be valid, e.g. "needs GRAY8 or RGBA32".
     * @return the exception, to throw.
     */
    static IllegalArgumentException wrongFormat(
        final CalculatorContext ctx,
        final String calculator,
        final Input input,
        final Payload frame,
        final String expected)
    {
        return new IllegalArgumentException(where(ctx, calculator, input) + " is a " + frame.format() + " frame (" +
            frame.width() + "x" + frame.height() + "), but " + calculator + " " + expected);
    }

    private static String where(final CalculatorContext ctx, final String calculator, final Input input)
    {
        return "node '" + ctx.nodeName() + "' (" + calculator + "): the packet on input stream '" +
            input.streamName() + "' at timestamp " + Timestamp.toString(input.timestamp());
    }

    /**
     * The pixel format for a name as ffmpeg's {@code -pix_fmt} spells it, or one of ours.
     *
     * @param name e.g. "rgb24", "rgba", "gray", or "RGBA32".
     * @return the format, or null if unknown.
     */
    static PixelFormat formatByName(final String name)
    {
        switch (name.toLowerCase(Locale.ROOT))
        {
            case "gray":
            case "gray8":
                return PixelFormat.GRAY8;
            case "rgb24":
                return PixelFormat.RGB24;
            case "rgba":
            case "rgba32":
                return PixelFormat.RGBA32;
            default:
                return null;
        }
    }

    /**
     * Clamps to 0..255.
     *
     * @param v any int.
     * @return v clamped.
     */
    static int clamp255(final int v)
    {
        return v < 0 ? 0 : (v > 255 ? 255 : v);
    }
}
