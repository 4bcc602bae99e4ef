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
 * Adjusts brightness and contrast of frames in place: each color sample {@code v} becomes
 * {@code clamp(round((v - 128) * contrast + 128 + brightness), 0, 255)}; alpha is left alone.
 *
 * <p>Streams: one input of GRAY8, RGB24 or RGBA32 frames, one output of the same frames at the
 * same timestamps. Options: {@code brightness} (0), added; {@code contrast} (1.0), multiplied
 * around 128.
 *
 * <p>In place through copy-on-write: the calculator writes the payload
 * {@link Input#writablePayload()} gives, which is the input's own memory when this node holds
 * its only reference and a copy otherwise, so another consumer of the same frame never sees the
 * change. With the neutral settings (0, 1.0) the frame passes through untouched, with no copy.
 * The mapping is a {@link SampleMap} made in {@code open}; nothing is allocated per frame.
 * Declares offset 0.
 */
public final class BrightnessContrastCalculator implements Calculator
{
    private static final String NAME = "BrightnessContrastCalculator";
    private static final Set<PixelFormat> FORMATS = EnumSet.of(PixelFormat.GRAY8, PixelFormat.RGB24, PixelFormat.RGBA32);

    private SampleMap map;

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("*", Payload.class).outputType("*", Payload.class).outputFrame(Contract.SAME_FRAME);
        contract.option("brightness", OptionType.LONG, 0L)
            .option("contrast", OptionType.DOUBLE, 1.0)
            .range("contrast", -Double.MAX_VALUE, true, Double.MAX_VALUE);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final long brightness = ctx.options().getLong("brightness");
        final double contrast = ctx.options().getDouble("contrast");
        if (Double.isNaN(contrast) || Double.isInfinite(contrast))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'contrast' is " + contrast +
                "; it must be a finite number");
        }
        map = new SampleMap(brightness, contrast);
        ctx.setOffset(0);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final Input input = ctx.input(0);
        final Payload frame = ImageFrames.frameIn(ctx, input, NAME, FORMATS, "needs GRAY8, RGB24 or RGBA32 frames");
        if (frame == null)
        {
            return;
        }
        final PixelFormat format = frame.format();
        if (map.isIdentity())
        {
            ctx.output(0).add(frame, input.timestamp());
            return;
        }
        final Payload out = input.writablePayload();
        map.apply(out.mutableBuffer(), out.stride(), out.width() * format.bytesPerPixel(),
            out.height(), format == PixelFormat.RGBA32);
        ctx.output(0).add(out, input.timestamp());
    }
}
