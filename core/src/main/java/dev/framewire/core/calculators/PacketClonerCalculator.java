package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import java.util.List;

/**
 * On every {@code TICK}, re-emits the latest packet seen on each data input at the tick's
 * timestamp (MediaPipe's PacketClonerCalculator): a slow stream sampled at a fast one's rate.
 * A held payload is retained while held and retained again for each emit, so it is never copied.
 *
 * <p>Streams: untagged data inputs and a tick, one untagged output per data input, in the data
 * inputs' order. The tick is the input tagged {@code TICK}, at any position, or, without that tag,
 * as in MediaPipe, the last input. A lone input without the tag (nothing to clone), any other tag
 * or a second {@code TICK} fails {@code open}, naming the node and the input.
 * Policy: as MediaPipe's, the default one with bound-only processing, so a tick waits until the
 * data inputs are settled at its timestamp (graphs wanting the latest data at once set the
 * immediate policy in the node config, which wins). A tick settled at the input timestamp, by a
 * packet or by its bound, moves every output's bound past it.
 *
 * <p>Options, as MediaPipe's PacketClonerCalculatorOptions, for the time before every data input
 * has had a packet: {@code output_only_when_all_inputs_received} (false: ticks emit what there
 * is; true: they emit nothing and move no bound, so consumers settle nothing until then);
 * {@code output_packets_only_when_all_inputs_received} (false; true: they emit nothing but still
 * move the bounds, MediaPipe's "empty packets", so consumers settle those timestamps with empty
 * inputs). With both set, the second decides. A data input that never gets a packet keeps the
 * cloner from emitting for the whole run.
 */
public final class PacketClonerCalculator implements Calculator
{
    private int tick;
    private Object[] latest;
    private long[] latestWords;
    private boolean[] isLong;
    private boolean[] isDouble;
    private boolean onlyWhenAll;
    private boolean boundsBeforeAll;
    /** Every data input has had a packet: it stays so, as a held packet is only ever replaced. */
    private boolean allReceived;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("output_only_when_all_inputs_received", OptionType.BOOLEAN, Boolean.FALSE)
            .option("output_packets_only_when_all_inputs_received", OptionType.BOOLEAN, Boolean.FALSE)
            .processTimestampBounds(true)
            .check((node, options) -> streamsProblem(node.inputStreams(), node.outputStreams().size()));
    }

    /**
     * What is wrong with the node's streams, as {@code open} would find it, or null: found at
     * validation from the streams as written ({@code TAG:name}, {@code TAG:index:name} or {@code name}).
     */
    static String streamsProblem(final List<String> inputs, final int outputs)
    {
        int tick = -1;
        for (int i = 0; i < inputs.size(); i++)
        {
            final String spec = inputs.get(i);
            final int colon = spec.indexOf(':');
            final String tag = colon > 0 && Character.isUpperCase(spec.charAt(0)) ? spec.substring(0, colon) : "";
            if (tag.isEmpty())
            {
                continue;
            }
            if (!tag.equals("TICK") || tick >= 0)
            {
                return "PacketClonerCalculator input " + i + " ('" + spec.substring(spec.lastIndexOf(':') + 1) +
                    "') is tagged " + tag +
                    (tick >= 0 ? " again" : "") + "; valid are untagged data inputs and at most one input tagged TICK";
            }
            tick = i;
        }
        if (tick < 0 && inputs.size() < 2)
        {
            return "PacketClonerCalculator has " + inputs.size() + (inputs.size() == 1 ? " input" : " inputs") +
                " and none tagged TICK: nothing to clone; valid is one or more data inputs and a tick, either tagged " +
                "TICK at any position or untagged as the last input, with one output per data input";
        }
        final int data = inputs.size() - 1;
        return data == outputs ? null : "PacketClonerCalculator needs one output per data input, in order: it has " +
            data + " data inputs (" + (tick >= 0 ? "the tick is the input tagged TICK" : "none is tagged TICK, so the " +
            "last input is the tick") + ") and " + outputs + " outputs; valid is " + data + " outputs";
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final int tagged = taggedTick(ctx);
        tick = tagged >= 0 ? tagged : lastInputAsTick(ctx);
        final int data = ctx.inputCount() - 1;
        if (data != ctx.outputCount())
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': PacketClonerCalculator needs one output " +
                "per data input, in order: it has " + data + " data inputs (" +
                (tagged >= 0 ? "the tick is the input tagged TICK" : "none is tagged TICK, so the last input is the tick") +
                ") and " + ctx.outputCount() + " outputs; valid is " + data + " outputs");
        }
        latest = new Object[data];
        latestWords = new long[data];
        isLong = new boolean[data];
        isDouble = new boolean[data];
        boundsBeforeAll = ctx.options().getBoolean("output_packets_only_when_all_inputs_received");
        onlyWhenAll = boundsBeforeAll || ctx.options().getBoolean("output_only_when_all_inputs_received");
        allReceived = false;
    }

    /**
     * The input tagged {@code TICK}, or -1 if none. As MediaPipe's contract declares only untagged
     * data inputs and one {@code TICK}, any other tag, or a second {@code TICK}, is an error.
     */
    private static int taggedTick(final CalculatorContext ctx)
    {
        int tick = -1;
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            final String tag = ctx.input(i).tag();
            if (tag.isEmpty())
            {
                continue;
            }
            if (!tag.equals("TICK") || tick >= 0)
            {
                throw new IllegalArgumentException("node '" + ctx.nodeName() + "': PacketClonerCalculator input " + i +
                    " ('" + ctx.input(i).streamName() + "') is tagged " + tag + (tick >= 0 ? " again" : "") +
                    "; valid are untagged data inputs and at most one input tagged TICK");
            }
            tick = i;
        }
        return tick;
    }

    /**
     * Without a {@code TICK} tag, as MediaPipe's, the last input is the tick. MediaPipe also takes
     * a lone untagged input as a tick with nothing to clone; we reject it, as an untagged cloner
     * that can never emit is a forgotten data input or TICK tag. A lone TICK-tagged input stays
     * accepted, as in MediaPipe: the tag says it was meant.
     */
    private static int lastInputAsTick(final CalculatorContext ctx)
    {
        final int inputs = ctx.inputCount();
        if (inputs < 2)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': PacketClonerCalculator has " + inputs +
                (inputs == 1 ? " input" : " inputs") + " and none tagged TICK: nothing to clone; valid is one or " +
                "more data inputs and a tick, either tagged TICK at any position or untagged as the last input, " +
                "with one output per data input");
        }
        return inputs - 1;
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        for (int i = 0, d = 0; i < ctx.inputCount(); i++)
        {
            if (i == tick)
            {
                continue;
            }
            final Input input = ctx.input(i);
            if (!input.isEmpty())
            {
                hold(d, input);
            }
            d++;
        }
        if (!allReceived)
        {
            allReceived = allHeld();
        }
        final boolean emitting = allReceived || !onlyWhenAll;
        final Input tickInput = ctx.input(tick);
        if (!tickInput.isEmpty() && emitting)
        {
            emitLatest(ctx, tickInput.timestamp());
        }
        if (tickInput.timestamp() == ctx.inputTimestamp() && (emitting || boundsBeforeAll))
        {
            // the tick is settled at the input timestamp (a packet or a bound): nothing more will come at it
            final long bound = Timestamp.nextAllowedInStream(ctx.inputTimestamp());
            for (int d = 0; d < latest.length; d++)
            {
                ctx.output(d).setNextTimestampBound(bound);
            }
        }
    }

    private boolean allHeld()
    {
        for (final Object value : latest)
        {
            if (value == null)
            {
                return false;
            }
        }
        return true;
    }

    private void emitLatest(final CalculatorContext ctx, final long ts)
    {
        for (int d = 0; d < latest.length; d++)
        {
            if (latest[d] == null)
            {
                continue;
            }
            if (isLong[d])
            {
                ctx.output(d).addLong(latestWords[d], ts);
            }
            else if (isDouble[d])
            {
                ctx.output(d).addDouble(Double.longBitsToDouble(latestWords[d]), ts);
            }
            else
            {
                if (latest[d] instanceof Payload && !arrivedNow(ctx, d))
                {
                    // The emit takes a reference and we keep ours. A payload that arrived in this
                    // very call needs none: emitting it passes the input's reference on.
                    ((Payload)latest[d]).retain();
                }
                ctx.output(d).add(latest[d], ts);
            }
        }
    }

    private boolean arrivedNow(final CalculatorContext ctx, final int d)
    {
        final Input input = ctx.input(d < tick ? d : d + 1);
        return !input.isEmpty() && !input.isLong() && !input.isDouble() && input.value() == latest[d];
    }

    private void hold(final int d, final Input input)
    {
        if (latest[d] instanceof Payload)
        {
            ((Payload)latest[d]).release();
        }
        isLong[d] = input.isLong(); // asked without boxing: a long packet allocates nothing here
        isDouble[d] = input.isDouble();
        if (isLong[d])
        {
            latestWords[d] = input.getLong();
            latest[d] = Boolean.TRUE; // marks "received"
        }
        else if (isDouble[d])
        {
            latestWords[d] = Double.doubleToRawLongBits(input.getDouble());
            latest[d] = Boolean.TRUE;
        }
        else
        {
            final Object value = input.value();
            if (value instanceof Payload)
            {
                ((Payload)value).retain(); // held beyond this call
            }
            latest[d] = value;
        }
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        if (latest != null)
        {
            for (int d = 0; d < latest.length; d++)
            {
                if (latest[d] instanceof Payload)
                {
                    ((Payload)latest[d]).release();
                }
                latest[d] = null;
            }
        }
    }
}
