package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import org.agrona.collections.LongHashSet;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What {@code journal replay} puts in place of a {@code FlowLimiterCalculator}: a node whose drops
 * depend on timing (how many frames were in flight when one arrived) must drop in the replay what
 * it dropped in the recording, not decide again under the replay's timing. The gate lets through,
 * on each data output, exactly the timestamps the recording emitted there (read from the journal
 * before the replay starts), and drops the rest (counted as the limiter counts them); its bounds
 * move past what it drops, as the limiter's do. Its {@code FINISHED} back edge is taken and
 * ignored; an {@code ALLOW} output gets true or false per main-stream packet, as the recording's
 * decisions say. It takes the limiter's options, and does not use them.
 *
 * <p>The timestamps come through {@link #let}, by output stream name, set by the replay command
 * before the graph starts (one replay at a time in a process).
 *
 * <p>Threading: the node's calls, one at a time; {@link #let} before the graph starts.
 */
final class ReplayGateCalculator implements Calculator
{
    /** The calculator it stands in for: the gate is registered under its name during a replay. */
    static final String REPLACES = "FlowLimiterCalculator";

    private static final Map<String, LongHashSet> LET_THROUGH = new ConcurrentHashMap<>();

    private int finishedIndex = -1;
    private int allowIndex = -1;
    private Input[] inputs;
    private Output[] outputs;
    private LongHashSet[] passed;

    /**
     * Sets, for one output stream of a replaced limiter, the timestamps the recording emitted on it.
     *
     * @param stream     the output stream's name.
     * @param timestamps the timestamps to let through.
     */
    static void let(final String stream, final LongHashSet timestamps)
    {
        LET_THROUGH.put(stream, timestamps);
    }

    /**
     * Puts the gate in place of every flow limiter, by name: while the returned registration is
     * open, the calculator registry makes a gate for {@value #REPLACES}, so that the replay's
     * config (and its subgraphs' templates) keep the recorded text, and their hashes, as they were.
     *
     * @return puts the flow limiter back; close it after the replay's graph is closed.
     */
    static ReplayTailCalculator.Registration inPlaceOfLimiters()
    {
        final CalculatorRegistry registry = CalculatorRegistry.global();
        final Supplier<? extends Calculator> limiter = registry.lookup(REPLACES);
        registry.register(REPLACES, ReplayGateCalculator::new);
        return () ->
        {
            if (limiter != null)
            {
                registry.register(REPLACES, limiter);
            }
            clear();
        };
    }

    /**
     * Reads, for every gate of a replay (the graph's nodes and its subgraphs' templates), the
     * timestamps the recording emitted on each of its data outputs, and registers the gate.
     *
     * @param recorded  the recording.
     * @param config    the replay's config (its flow limiters are gates).
     * @param instances the subgraphs the replay adds.
     * @return how many gates there are.
     */
    static int letAsRecorded(
        final JournalReader recorded, final GraphConfig config, final Collection<ReplayPlan.Instance> instances)
    {
        clear();
        final Map<String, LongHashSet> streams = new HashMap<>();
        int gates = 0;
        for (final NodeConfig node : config.nodes())
        {
            gates += gate(node, "", streams);
        }
        for (final ReplayPlan.Instance instance : instances)
        {
            for (final NodeConfig node : instance.template.nodes())
            {
                gates += gate(node, instance.name + "__", streams);
            }
        }
        for (final JournalRecord r : recorded.records())
        {
            if (r.kind() == JournalRecord.Kind.EMIT && r.streamName() != null)
            {
                final LongHashSet set = streams.get(r.streamName());
                if (set != null)
                {
                    set.add(r.timestamp());
                }
            }
        }
        LET_THROUGH.putAll(streams);
        return gates;
    }

    private static int gate(final NodeConfig node, final String prefix, final Map<String, LongHashSet> streams)
    {
        if (!REPLACES.equals(node.calculator()))
        {
            return 0;
        }
        for (final String spec : node.outputStreams())
        {
            if (!spec.startsWith("ALLOW:"))
            {
                streams.put(prefix + spec.substring(spec.lastIndexOf(':') + 1), new LongHashSet());
            }
        }
        return 1;
    }

    /** Forgets every stream's timestamps: after a replay. */
    static void clear()
    {
        LET_THROUGH.clear();
    }

    @Override
    public void contract(final Contract contract)
    {
        contract.option("max_in_flight", OptionType.LONG, 1L)
            .option("max_in_queue", OptionType.LONG, 0L)
            .option("in_flight_timeout", OptionType.LONG, 0L)
            .inputPolicy(InputPolicy.immediate())
            .processTimestampBounds(true);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            if ("FINISHED".equals(ctx.input(i).tag()))
            {
                finishedIndex = i;
            }
        }
        final int dataInputs = ctx.inputCount() - (finishedIndex >= 0 ? 1 : 0);
        inputs = new Input[dataInputs];
        for (int i = 0, d = 0; i < ctx.inputCount(); i++)
        {
            if (i != finishedIndex)
            {
                inputs[d++] = ctx.input(i);
            }
        }
        try
        {
            allowIndex = ctx.output("ALLOW").index();
        }
        catch (final IllegalArgumentException none)
        {
            allowIndex = -1;
        }
        final int dataOutputs = ctx.outputCount() - (allowIndex >= 0 ? 1 : 0);
        if (dataOutputs != dataInputs)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': the replay's gate (in place of " +
                REPLACES + ") needs one data output per data input; it has " + dataInputs + " and " + dataOutputs);
        }
        outputs = new Output[dataOutputs];
        passed = new LongHashSet[dataOutputs];
        for (int i = 0, d = 0; i < ctx.outputCount(); i++)
        {
            if (i != allowIndex)
            {
                outputs[d] = ctx.output(i);
                final LongHashSet set = LET_THROUGH.get(outputs[d].streamName());
                passed[d++] = set != null ? set : new LongHashSet();
            }
        }
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        for (int i = 0; i < inputs.length; i++)
        {
            final Input input = inputs[i];
            final Output out = outputs[i];
            if (!input.isEmpty())
            {
                final long ts = input.timestamp();
                final boolean let = passed[i].contains(ts);
                if (let)
                {
                    forward(input, out);
                }
                else
                {
                    ctx.countDrop();
                }
                if (i == 0 && allowIndex >= 0)
                {
                    ctx.output(allowIndex).add(let, ts);
                }
            }
            final long ts = input.timestamp();
            if (ts != Timestamp.UNSET && ts != Timestamp.UNSTARTED)
            {
                bound(out, Timestamp.nextAllowedInStream(ts));
                if (i == 0 && allowIndex >= 0)
                {
                    bound(ctx.output(allowIndex), Timestamp.nextAllowedInStream(ts));
                }
            }
        }
    }

    private static void bound(final Output out, final long bound)
    {
        if (bound > Timestamp.MAX)
        {
            out.close();
        }
        else if (bound > out.nextTimestampBound())
        {
            out.setNextTimestampBound(bound);
        }
    }

    /** Forwards a packet as it is: a long or double without boxing, anything else by reference. */
    private static void forward(final Input input, final Output out)
    {
        if (input.isLong())
        {
            out.addLong(input.getLong(), input.timestamp());
        }
        else if (input.isDouble())
        {
            out.addDouble(input.getDouble(), input.timestamp());
        }
        else
        {
            out.add(input.value(), input.timestamp());
        }
    }
}
