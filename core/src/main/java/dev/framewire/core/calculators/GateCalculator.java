package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;

/**
 * Passes its data streams through while allowed, drops them otherwise (MediaPipe's
 * GateCalculator). Allowed is decided per input set by a {@code Boolean} on the {@code ALLOW}
 * input (true lets through) or the {@code DISALLOW} input (true drops), or, without either, by
 * the {@code ALLOW} or {@code DISALLOW} side packet, or else by the {@code allow} option. An
 * empty control input at a timestamp counts as {@code empty_packets_as_allow}.
 *
 * <p>Streams: untagged data inputs and matching untagged outputs; at most one of ALLOW/DISALLOW
 * (input stream or side packet). Options: {@code allow} (false, as MediaPipe's proto: a gate with
 * no control passes nothing unless told to), {@code empty_packets_as_allow} (false). Offset 0:
 * dropped timestamps still move the outputs' bounds; a side packet that disallows closes the
 * outputs at the first input set, as MediaPipe does, since the gate will never open. Drops are
 * counted.
 */
public final class GateCalculator implements Calculator
{
    private int control = -1;
    private boolean controlIsAllow;
    private boolean fixedAllow;
    private boolean emptyAsAllow;
    private boolean bySidePacket;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("allow", OptionType.BOOLEAN, Boolean.FALSE)
            .option("empty_packets_as_allow", OptionType.BOOLEAN, Boolean.FALSE);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        fixedAllow = ctx.options().getBoolean("allow");
        emptyAsAllow = ctx.options().getBoolean("empty_packets_as_allow");
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            if (isInput(ctx, "ALLOW", i))
            {
                control = i;
                controlIsAllow = true;
            }
            else if (isInput(ctx, "DISALLOW", i))
            {
                control = i;
                controlIsAllow = false;
            }
        }
        if (control < 0)
        {
            final Object allow = sidePacketOrNull(ctx, "ALLOW");
            final Object disallow = sidePacketOrNull(ctx, "DISALLOW");
            if (allow instanceof Boolean)
            {
                fixedAllow = (Boolean)allow;
                bySidePacket = true;
            }
            else if (disallow instanceof Boolean)
            {
                fixedAllow = !(Boolean)disallow;
                bySidePacket = true;
            }
        }
        final int data = ctx.inputCount() - (control >= 0 ? 1 : 0);
        if (data != ctx.outputCount())
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': GateCalculator needs one output per " +
                "data input; it has " + data + " data inputs and " + ctx.outputCount() + " outputs");
        }
        ctx.setOffset(0);
    }

    private static boolean isInput(final CalculatorContext ctx, final String tag, final int index)
    {
        try
        {
            return ctx.input(tag).index() == index;
        }
        catch (final IllegalArgumentException none)
        {
            return false;
        }
    }

    private static Object sidePacketOrNull(final CalculatorContext ctx, final String tag)
    {
        try
        {
            return ctx.sidePacket(tag);
        }
        catch (final IllegalArgumentException none)
        {
            return null;
        }
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        boolean allow = fixedAllow;
        if (control >= 0)
        {
            final Input in = ctx.input(control);
            if (in.isEmpty())
            {
                allow = emptyAsAllow;
            }
            else
            {
                final boolean value = in.get(Boolean.class);
                allow = controlIsAllow == value;
            }
        }
        int out = 0;
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            if (i == control)
            {
                continue;
            }
            final Input input = ctx.input(i);
            if (!input.isEmpty())
            {
                if (allow)
                {
                    PassThroughCalculator.forward(input, ctx, out);
                }
                else
                {
                    ctx.countDrop();
                }
            }
            if (!allow && bySidePacket)
            {
                ctx.output(out).close(); // closed for good: consumers need not wait for the run to end
            }
            out++;
        }
    }
}
