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

import java.util.EnumSet;
import java.util.Set;

/**
 * Draws the outlines of bounding boxes into frames, in place through copy-on-write.
 *
 * <p>Streams: inputs {@code FRAME} (GRAY8, RGB24 or RGBA32 frames) and {@code BOXES} (box lists
 * laid out as {@link BoxListDescriptor}, in the frame's pixels); one output, the annotated frame
 * at the input timestamp. Options:
 * <ul>
 *   <li>{@code thickness} (1): outline width in pixels, drawn inside the box;</li>
 *   <li>{@code color} (0xFF0000, red): {@code 0xRRGGBB} for RGB24 and RGBA32 frames (alpha 255);</li>
 *   <li>{@code gray} (255): the value drawn into GRAY8 frames.</li>
 * </ul>
 * Boxes are clipped to the frame. A frame with no box list at its timestamp, or an empty one,
 * passes through untouched and uncopied; a box list without a frame is dropped.
 *
 * <p>Drawing writes {@link Input#writablePayload()}: the frame's own memory when this node holds
 * its only reference, a copy otherwise, so other consumers of the frame never see the boxes.
 * Nothing is allocated per frame. Declares offset 0.
 */
public final class AnnotateCalculator implements Calculator
{
    private static final String NAME = "AnnotateCalculator";
    private static final Set<PixelFormat> FORMATS = EnumSet.of(PixelFormat.GRAY8, PixelFormat.RGB24, PixelFormat.RGBA32);

    private int frameInput;
    private int boxesInput;
    private int thickness;
    private int rgba;
    private int gray;

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("*", Payload.class).outputType("*", Payload.class).outputFrame(Contract.SAME_FRAME);
        contract.option("thickness", OptionType.LONG, 1L)
            .option("color", OptionType.LONG, 0xFF0000L)
            .option("gray", OptionType.LONG, 255L)
            .range("thickness", 1, 1024)
            .range("color", 0, 0xFFFFFF)
            .range("gray", 0, 255);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        frameInput = ctx.input("FRAME").index();
        boxesInput = ctx.input("BOXES").index();
        final long t = ctx.options().getLong("thickness");
        final long color = ctx.options().getLong("color");
        final long g = ctx.options().getLong("gray");
        if (t < 1 || t > 1024)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'thickness' is " + t +
                "; it must be 1..1024");
        }
        if (color < 0 || color > 0xFFFFFF)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'color' is " + color +
                "; it must be 0xRRGGBB, 0..16777215");
        }
        if (g < 0 || g > 255)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'gray' is " + g +
                "; it must be 0..255");
        }
        thickness = (int)t;
        final int r = (int)(color >>> 16) & 0xFF;
        final int gr = (int)(color >>> 8) & 0xFF;
        final int b = (int)color & 0xFF;
        rgba = 0xFF00_0000 | b << 16 | gr << 8 | r;
        gray = (int)g;
        ctx.setOffset(0);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final Input frameIn = ctx.input(frameInput);
        final Payload frame = ImageFrames.frameIn(ctx, frameIn, NAME, FORMATS, "needs GRAY8, RGB24 or RGBA32 frames");
        if (frame == null)
        {
            return;
        }
        final PixelFormat format = frame.format();
        final Input boxesIn = ctx.input(boxesInput);
        final long timestamp = frameIn.timestamp();
        final DirectBuffer boxes = boxesIn.isEmpty() ? null : boxesIn.payload().buffer();
        final int count = boxes == null ? 0 : BoxListDescriptor.count(boxes);
        if (count == 0)
        {
            ctx.output(0).add(frame, timestamp);
            return;
        }
        final Payload out = frameIn.writablePayload();
        final MutableDirectBuffer buffer = out.mutableBuffer();
        final int stride = out.stride();
        final int width = out.width();
        final int height = out.height();
        final int t = thickness;
        for (int i = 0; i < count; i++)
        {
            final int bx = BoxListDescriptor.x(boxes, i);
            final int by = BoxListDescriptor.y(boxes, i);
            final int bw = BoxListDescriptor.width(boxes, i);
            final int bh = BoxListDescriptor.height(boxes, i);
            if (bw <= 0 || bh <= 0)
            {
                continue;
            }
            final long right = (long)bx + bw;
            final long bottom = (long)by + bh;
            ImageKernels.fillRect(buffer, stride, format, width, height, bx, by, right, Math.min(bottom, (long)by + t),
                rgba, gray);
            ImageKernels.fillRect(buffer, stride, format, width, height, bx, Math.max(by, bottom - t), right, bottom,
                rgba, gray);
            ImageKernels.fillRect(buffer, stride, format, width, height, bx, by, Math.min(right, (long)bx + t), bottom,
                rgba, gray);
            ImageKernels.fillRect(buffer, stride, format, width, height, Math.max(bx, right - t), by, right, bottom,
                rgba, gray);
        }
        ctx.output(0).add(out, timestamp);
    }
}
