package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;

/**
 * Passes input {@code i} to output {@code i} unchanged, for any number of streams; payloads pass
 * by reference (no copy, no retain). Declares offset 0, so output bounds follow input bounds
 * even for timestamps where an input is empty.
 *
 * <p>Streams: N inputs, N outputs. Options: none.
 */
public final class PassThroughCalculator implements Calculator
{
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
        ctx.setOffset(0);
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
                forward(input, ctx, i);
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
