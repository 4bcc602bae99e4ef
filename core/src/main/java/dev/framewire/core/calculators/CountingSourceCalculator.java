package dev.framewire.core.calculators;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;

/**
 * A source of {@code long} packets for tests and demos: emits {@code count} packets with values
 * {@code 0, 1, 2, ...} at timestamps {@code start, start + step, ...}, {@code batch} per call,
 * then stops.
 *
 * <p>Streams: one output. Options: {@code count} (10), {@code start} (0), {@code step} (1),
 * {@code batch} (1).
 */
public final class CountingSourceCalculator implements Calculator
{
    private long count;
    private long step;
    private long batch;
    private long next;
    private long timestamp;

    @Override
    public void contract(final Contract contract)
    {
        contract.outputType("*", long.class);
        contract.option("count", OptionType.LONG, 10L)
            .option("start", OptionType.LONG, 0L)
            .option("step", OptionType.LONG, 1L)
            .option("batch", OptionType.LONG, 1L)
            .range("step", 1, Long.MAX_VALUE);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        count = ctx.options().getLong("count");
        step = ctx.options().getLong("step");
        batch = Math.max(1, ctx.options().getLong("batch"));
        timestamp = ctx.options().getLong("start");
        if (step <= 0)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'step' must be positive, was " + step);
        }
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        for (long i = 0; i < batch && next < count; i++)
        {
            ctx.output(0).addLong(next++, timestamp);
            timestamp += step;
        }
        if (next >= count)
        {
            ctx.stop();
        }
    }
}
