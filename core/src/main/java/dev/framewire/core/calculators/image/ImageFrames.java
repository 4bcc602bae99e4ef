package dev.framewire.core.calculators.image;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Input;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.util.Locale;
import java.util.Set;

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
     * The frame on a calculator's input when it is in a format the calculator takes: how a frame
     * calculator's {@code process} starts. Allocates nothing unless it throws.
     *
     * @param ctx        the calling node's context.
     * @param input      the input.
     * @param calculator the calculator's simple name, for the message.
     * @param formats    the formats the calculator takes (a constant set).
     * @param expected   what would be valid, e.g. "needs GRAY8 or RGBA32 frames".
     * @return the frame, lent by the input, or null when the input is empty at this timestamp.
     * @throws IllegalArgumentException naming the node, the stream and the timestamp when the packet
     *                                  is not a frame or not in one of {@code formats}.
     */
    static Payload frameIn(
        final CalculatorContext ctx,
        final Input input,
        final String calculator,
        final Set<PixelFormat> formats,
        final String expected)
    {
        if (input.isEmpty())
        {
            return null;
        }
        final Payload frame = frame(ctx, input, calculator);
        if (!formats.contains(frame.format()))
        {
            throw wrongFormat(ctx, calculator, input, frame, expected);
        }
        return frame;
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
