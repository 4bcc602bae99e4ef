package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.EnumSet;
import java.util.Set;

/**
 * Finds motion by differencing each GRAY8 frame against the previous one, and reports the
 * bounding boxes of the regions that changed.
 *
 * <p>Streams: one input of GRAY8 frames (tag {@code FRAME} by convention); outputs {@code BOXES}
 * (required), a blob payload laid out as {@link BoxListDescriptor}, and {@code FRAME} (optional),
 * the input frame passed on unchanged by reference. Both at the input's timestamp. Options:
 * <ul>
 *   <li>{@code threshold} (25): a pixel changed when {@code |now - before| > threshold};</li>
 *   <li>{@code min_pixels} (50): a region needs at least this many changed pixels to be a box;</li>
 *   <li>{@code cell} (16): side in pixels of the grid cells that changed pixels are counted in;</li>
 *   <li>{@code max_boxes} (16): most boxes per frame; further regions are left out.</li>
 * </ul>
 *
 * <p>The frame is cut into a grid of {@code cell x cell} cells; a cell with a changed pixel is
 * active; active cells touching (8-connected) form a region; a region's box is the bounding box
 * of its changed pixels, so boxes are exact to the pixel, not to the cell. Regions are found in
 * raster order of their first cell. The first frame (and the first after a size change) has no
 * previous frame and reports no boxes.
 *
 * <p>The previous frame is a copy in an off-heap payload the calculator owns, refreshed in the
 * same pass that compares it and released in {@code close}. The grid's arrays are made on the
 * first frame (and again only on a size change); the difference is {@link MotionKernel}'s, SWAR
 * on longs, the same cost for every pixel whatever changed; the box list is a fresh small payload per frame
 * from the pool, so a consumer never reads a list being rewritten. Nothing is allocated on the
 * Java heap per frame. Declares offset 0.
 */
public final class MotionDetectorCalculator implements Calculator
{
    private static final String NAME = "MotionDetectorCalculator";
    private static final Set<PixelFormat> FORMATS = EnumSet.of(PixelFormat.GRAY8);

    private int threshold;
    private long minPixels;
    private int cell;
    private int maxBoxes;
    private int boxesOutput;
    private int frameOutput = -1;

    private final MotionKernel kernel = new MotionKernel();
    private Payload previous;
    private int[] boxes = new int[0];

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("*", Payload.class).outputType("*", Payload.class);
        contract.option("threshold", OptionType.LONG, 25L)
            .option("min_pixels", OptionType.LONG, 50L)
            .option("cell", OptionType.LONG, 16L)
            .option("max_boxes", OptionType.LONG, 16L)
            .range("threshold", 0, 255)
            .range("cell", 1, 4096)
            .range("max_boxes", 0, 10_000);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final long t = ctx.options().getLong("threshold");
        minPixels = ctx.options().getLong("min_pixels");
        final long c = ctx.options().getLong("cell");
        final long m = ctx.options().getLong("max_boxes");
        if (t < 0 || t > 255)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'threshold' is " + t +
                "; it must be 0..255");
        }
        if (c < 1 || c > 4096)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'cell' is " + c +
                "; it must be 1..4096");
        }
        if (m < 0 || m > 10_000)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'max_boxes' is " + m +
                "; it must be 0..10000");
        }
        threshold = (int)t;
        cell = (int)c;
        maxBoxes = (int)m;
        boxes = new int[5 * maxBoxes];
        boxesOutput = ctx.output("BOXES").index();
        if (ctx.outputCount() > 1)
        {
            frameOutput = ctx.output("FRAME").index();
        }
        ctx.setOffset(0);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final Input input = ctx.input(0);
        final Payload frame = ImageFrames.frameIn(ctx, input, NAME, FORMATS, "needs GRAY8 frames (convert with " +
            "ColorConvertCalculator first)");
        if (frame == null)
        {
            return;
        }
        final int width = frame.width();
        final int height = frame.height();
        int count = 0;
        int changed = 0;
        if (previous == null || previous.width() != width || previous.height() != height)
        {
            remember(ctx, frame);
        }
        else
        {
            changed = kernel.difference(frame.buffer(), frame.stride(), previous.mutableBuffer(), previous.stride(),
                threshold);
            if (changed > 0)
            {
                count = kernel.regions(boxes, maxBoxes, minPixels);
            }
        }
        final Payload list = ctx.pool().acquire(BoxListDescriptor.length(count));
        final MutableDirectBuffer out = list.mutableBuffer();
        BoxListDescriptor.putHeader(out, count, changed);
        final int[] boxes = this.boxes;
        for (int i = 0; i < count; i++)
        {
            final int at = 5 * i;
            BoxListDescriptor.putBox(out, i, boxes[at], boxes[at + 1], boxes[at + 2], boxes[at + 3], boxes[at + 4]);
        }
        final long timestamp = input.timestamp();
        ctx.output(boxesOutput).add(list, timestamp);
        if (frameOutput >= 0)
        {
            final Output frameOut = ctx.output(frameOutput);
            frameOut.add(frame, timestamp);
        }
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        final Payload held = previous;
        previous = null;
        if (held != null)
        {
            held.release();
        }
    }

    /** Starts over with this frame as the previous one: on the first frame and on a size change. */
    private void remember(final CalculatorContext ctx, final Payload frame)
    {
        final int width = frame.width();
        final int height = frame.height();
        if (previous != null)
        {
            final Payload old = previous;
            previous = null;
            old.release();
        }
        previous = ctx.pool().acquireFrame(width, height, PixelFormat.GRAY8);
        final MutableDirectBuffer to = previous.mutableBuffer();
        final DirectBuffer from = frame.buffer();
        for (int y = 0; y < height; y++)
        {
            to.putBytes(y * previous.stride(), from, y * frame.stride(), width);
        }
        kernel.reset(width, height, cell);
    }
}
