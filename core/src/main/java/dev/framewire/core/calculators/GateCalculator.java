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
 * <p>Streams: untagged data inputs and matching untagged outputs (data input i goes to data
 * output i, whatever the place of {@code STATE_CHANGE} among the outputs); at most one of
 * ALLOW/DISALLOW (input stream or side packet); optional {@code STATE_CHANGE} output, a
 * {@code Boolean} at the input timestamp of every input set whose decision differs from the
 * previous one's (true: now allowed). The first input set is compared with
 * {@code initial_gate_state}, as in MediaPipe: {@code GATE_UNINITIALIZED} (the default) matches
 * either decision, so it reports no change; {@code GATE_ALLOW} and {@code GATE_DISALLOW} report
 * a first decision that differs; {@code UNSPECIFIED} matches neither, so the first decision is
 * always reported.
 *
 * <p>Options: {@code allow} (false, as MediaPipe's proto: a gate with no control passes nothing
 * unless told to), {@code empty_packets_as_allow} (false), {@code initial_gate_state}
 * ({@code GATE_UNINITIALIZED}). Offset 0: dropped timestamps, and timestamps without a state
 * change, still move the outputs' bounds; a side packet that disallows closes the data outputs
 * (not {@code STATE_CHANGE}) at the first input set, as MediaPipe does, since the gate will never
 * open. Drops are counted.
 */
public final class GateCalculator implements Calculator
{
    private static final String STATE_CHANGE = "STATE_CHANGE";
    /** MediaPipe's GateCalculatorOptions.GateState, by proto name; the index is our state code. */
    private static final String[] GATE_STATES = {"UNSPECIFIED", "GATE_UNINITIALIZED", "GATE_ALLOW", "GATE_DISALLOW"};
    private static final int UNINITIALIZED = 1;
    private static final int ALLOW = 2;
    private static final int DISALLOW = 3;

    private int control = -1;
    private boolean controlIsAllow;
    private boolean fixedAllow;
    private boolean emptyAsAllow;
    private boolean bySidePacket;
    private int stateChange = -1;
    private int lastState;
    /** Data input j goes to data output j: their positions among the node's streams. */
    private int[] dataInputs;
    private int[] dataOutputs;

    @Override
    public void contract(final Contract contract)
    {
        contract.inputType("ALLOW", Boolean.class).inputType("DISALLOW", Boolean.class)
            .outputType("STATE_CHANGE", Boolean.class);
        contract.option("allow", OptionType.BOOLEAN, Boolean.FALSE)
            .option("empty_packets_as_allow", OptionType.BOOLEAN, Boolean.FALSE)
            .option("initial_gate_state", OptionType.STRING, GATE_STATES[UNINITIALIZED])
            .oneOf("initial_gate_state", GATE_STATES);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        fixedAllow = ctx.options().getBoolean("allow");
        emptyAsAllow = ctx.options().getBoolean("empty_packets_as_allow");
        lastState = gateState(ctx, ctx.options().getString("initial_gate_state"));
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
        for (int i = 0; i < ctx.outputCount(); i++)
        {
            if (isOutput(ctx, STATE_CHANGE, i))
            {
                stateChange = i;
            }
        }
        final int data = ctx.inputCount() - (control >= 0 ? 1 : 0);
        final int outputs = ctx.outputCount() - (stateChange >= 0 ? 1 : 0);
        if (data != outputs)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': GateCalculator needs one data output " +
                "per data input; it has " + data + " data inputs and " + outputs + " data outputs (" +
                STATE_CHANGE + " is not a data output)");
        }
        dataInputs = positionsExcept(ctx.inputCount(), control);
        dataOutputs = positionsExcept(ctx.outputCount(), stateChange);
        ctx.setOffset(0);
    }

    private static int gateState(final CalculatorContext ctx, final String name)
    {
        for (int s = 0; s < GATE_STATES.length; s++)
        {
            if (GATE_STATES[s].equals(name))
            {
                return s;
            }
        }
        throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'initial_gate_state' is '" + name +
            "'; valid are " + String.join(", ", GATE_STATES));
    }

    private static int[] positionsExcept(final int count, final int except)
    {
        final int[] positions = new int[except >= 0 ? count - 1 : count];
        for (int i = 0, j = 0; i < count; i++)
        {
            if (i != except)
            {
                positions[j++] = i;
            }
        }
        return positions;
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

    private static boolean isOutput(final CalculatorContext ctx, final String tag, final int index)
    {
        try
        {
            return ctx.output(tag).index() == index;
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
        final int state = allow ? ALLOW : DISALLOW;
        if (stateChange >= 0 && lastState != UNINITIALIZED && lastState != state)
        {
            ctx.output(stateChange).add(allow ? Boolean.TRUE : Boolean.FALSE, ctx.inputTimestamp());
        }
        lastState = state;
        final int[] ins = dataInputs;
        final int[] outs = dataOutputs;
        for (int j = 0; j < ins.length; j++)
        {
            final Input input = ctx.input(ins[j]);
            if (!input.isEmpty())
            {
                if (allow)
                {
                    PassThroughCalculator.forward(input, ctx, outs[j]);
                }
                else
                {
                    ctx.countDrop();
                }
            }
            if (!allow && bySidePacket)
            {
                ctx.output(outs[j]).close(); // closed for good: consumers need not wait for the run to end
            }
        }
    }
}
