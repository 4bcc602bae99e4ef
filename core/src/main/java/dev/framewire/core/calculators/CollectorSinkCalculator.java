package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Input;

/**
 * Gathers every packet of its inputs into the {@link PacketCollector} given as side packet
 * {@code COLLECTOR}: the sink tests and small tools use.
 *
 * <p>Streams: any number of inputs, no outputs. Side packet: {@code COLLECTOR}. Options: none.
 */
public final class CollectorSinkCalculator implements Calculator
{
    private PacketCollector collector;

    @Override
    public void open(final CalculatorContext ctx)
    {
        final Object side = ctx.sidePacket("COLLECTOR");
        if (!(side instanceof PacketCollector))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': side packet COLLECTOR must be a " +
                "PacketCollector, was " + (side == null ? "null" : side.getClass().getName()));
        }
        collector = (PacketCollector)side;
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            final Input input = ctx.input(i);
            if (!input.isEmpty())
            {
                collector.add(input.streamName(), input.timestamp(), input.value());
            }
        }
    }
}
