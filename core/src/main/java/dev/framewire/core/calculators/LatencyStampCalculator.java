package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import org.HdrHistogram.Recorder;

/**
 * Records graph-input-to-here latency: for each packet, the graph's clock now minus when the
 * graph input packet at the same timestamp was added, into the HdrHistogram {@link Recorder}
 * given as side packet {@code RECORDER} (wait-free to record, read with
 * {@code getIntervalHistogram()} from any thread). Packets pass through to the matching output, so
 * it can sit anywhere in a chain.
 *
 * <p>Streams: N inputs, N outputs (may be 0 outputs for a pure sink). Side packet:
 * {@code RECORDER}. Packets whose timestamp no graph input remembers (older than the last 4096,
 * or made inside the graph) are not recorded.
 */
public final class LatencyStampCalculator implements Calculator
{
    private Recorder recorder;

    @Override
    public void contract(final Contract contract)
    {
        contract.recordGraphInputArrivals()
            .check((node, options) -> outputsProblem(node.inputStreams().size(), node.outputStreams().size()));
    }

    /** What is wrong with the node's output count for its inputs, or null. */
    static String outputsProblem(final int inputs, final int outputs)
    {
        return outputs == 0 || outputs == inputs ? null : "LatencyStampCalculator needs no outputs or one per input; " +
            "it has " + inputs + " inputs and " + outputs + " outputs";
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        final Object side = ctx.sidePacket("RECORDER");
        if (!(side instanceof Recorder))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': side packet RECORDER must be an " +
                "org.HdrHistogram.Recorder, was " + (side == null ? "null" : side.getClass().getName()));
        }
        final String problem = outputsProblem(ctx.inputCount(), ctx.outputCount());
        if (problem != null)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': " + problem);
        }
        recorder = (Recorder)side;
        ctx.setOffset(0);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final long arrived = ctx.graphInputNanos(ctx.inputTimestamp());
        if (arrived >= 0)
        {
            recorder.recordValue(Math.max(0, ctx.nanoTime() - arrived));
        }
        if (ctx.outputCount() > 0)
        {
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                final Input input = ctx.input(i);
                if (!input.isEmpty())
                {
                    PassThroughCalculator.forward(input, ctx, i);
                }
            }
        }
    }
}
