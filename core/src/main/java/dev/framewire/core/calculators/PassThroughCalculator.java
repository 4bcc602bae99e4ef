package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;

/**
 * Passes each input to its output unchanged, for any number of streams; payloads pass by
 * reference (no copy, no retain). Declares offset 0, so output bounds follow input bounds even
 * for timestamps where an input is empty.
 *
 * <p>Streams: N inputs, N outputs, paired as MediaPipe's PassThroughCalculator pairs them: a
 * tagged input goes to the output of the same {@code TAG:index} wherever the config lists it
 * ({@code CONFIG:config} and {@code VIDEO:frame} in, {@code VIDEO:out_frame} and
 * {@code CONFIG:out_config} out), untagged inputs to the untagged outputs in their order.
 * Options: none.
 */
public final class PassThroughCalculator implements Calculator
{
    /** Output index of each input. */
    private int[] outputOf = new int[0];

    @Override
    public void contract(final Contract contract)
    {
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        if (ctx.inputCount() != ctx.outputCount())
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': PassThroughCalculator needs as many " +
                "outputs as inputs, has " + ctx.inputCount() + " inputs and " + ctx.outputCount() + " outputs");
        }
        outputOf = pairByTag(ctx);
        ctx.setOffset(0);
    }

    /**
     * Pairs inputs with outputs: a tagged input with the output of the same {@code TAG:index}, the
     * untagged inputs with the outputs no tag claimed, in order.
     */
    private static int[] pairByTag(final CalculatorContext ctx)
    {
        final int n = ctx.inputCount();
        final int[] pairs = new int[n];
        final boolean[] claimed = new boolean[n];
        for (int i = 0; i < n; i++)
        {
            pairs[i] = -1;
            final String tag = ctx.input(i).tag();
            if (tag.isEmpty())
            {
                continue;
            }
            final String tagIndex = tagIndexOf(ctx, i, tag);
            final int out;
            try
            {
                out = ctx.output(tagIndex).index();
            }
            catch (final IllegalArgumentException noSuchOutput)
            {
                throw new IllegalArgumentException("node '" + ctx.nodeName() + "': PassThroughCalculator pairs " +
                    "streams by tag, and input " + tagIndex + " (" + ctx.input(i).streamName() + ") has no output " +
                    tagIndex + "; " + noSuchOutput.getMessage(), noSuchOutput);
            }
            pairs[i] = out;
            claimed[out] = true;
        }
        int next = 0;
        for (int i = 0; i < n; i++)
        {
            if (pairs[i] >= 0)
            {
                continue;
            }
            while (claimed[next])
            {
                next++;
            }
            pairs[i] = next;
            claimed[next] = true;
        }
        return pairs;
    }

    /** The {@code TAG:k} that addresses input {@code i}. */
    private static String tagIndexOf(final CalculatorContext ctx, final int i, final String tag)
    {
        for (int k = 0; k < ctx.inputCount(); k++)
        {
            final String key = tag + ":" + k;
            try
            {
                if (ctx.input(key).index() == i)
                {
                    return key;
                }
            }
            catch (final IllegalArgumentException none)
            {
                // no input at this index of the tag: look further
            }
        }
        return tag + ":0";
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final int n = ctx.inputCount();
        for (int i = 0; i < n; i++)
        {
            final Input input = ctx.input(i);
            if (!input.isEmpty())
            {
                forward(input, ctx, outputOf[i]);
            }
        }
    }

    static void forward(final Input input, final CalculatorContext ctx, final int output)
    {
        // isLong/isDouble, not value() instanceof: value() boxes a primitive packet, which only
        // C2's escape analysis takes away again (24 B per packet per node under C1).
        if (input.isLong())
        {
            ctx.output(output).addLong(input.getLong(), input.timestamp());
        }
        else if (input.isDouble())
        {
            ctx.output(output).addDouble(input.getDouble(), input.timestamp());
        }
        else
        {
            ctx.output(output).add(input.value(), input.timestamp());
        }
    }
}
