package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code journal replay} wraps the calculator of a node in when the recording dropped packets
 * on its inputs for reasons of timing: its input policy's drops (a fixed-size queue that was full
 * when a packet came: {@code FixedSizeInputStreamHandler}) and the memory budget's
 * ({@code MemoryLimitPolicy.DROP_OLDEST}). Those drops depend on how fast each node went, so a
 * replay must not make them again: the replay's graph takes the fixed-size queues out
 * ({@link #withoutDroppingQueues}: every packet reaches the node, upstream held back by the
 * queue limits instead), and this wrapper does not call the node for an input timestamp whose
 * packets the recording dropped (on every input that has one), as the recording's node was not
 * called for it. It counts such a skip as the node's drop. An input set of which the recording
 * dropped some packets and not others is called as it comes (the calculator cannot be shown an
 * input set without a packet it was given): {@link #partial} counts those, for a note.
 *
 * <p>Put in by name, as {@link ReplayTailCalculator} is; the drops are looked up by node name when
 * the node opens. One replay at a time in a process.
 *
 * <p>Threading: the node's calls, one at a time; {@link #asRecorded} and its close on the
 * replay's thread, before the graph starts and after it is done.
 */
final class ReplayDropCalculator implements Calculator
{
    /** The input policy whose drops depend on timing, and what the replay runs instead. */
    static final String FIXED_SIZE = "\"FixedSizeInputStreamHandler\"";
    static final String DEFAULT = "\"DefaultInputStreamHandler\"";

    /** By node: by input timestamp, the input streams whose packets the recording dropped ("" for the whole set). */
    private static final Map<String, Map<Long, Set<String>>> DROPPED = new ConcurrentHashMap<>();
    /** By node: its input streams' names, by input index. */
    private static final Map<String, List<String>> INPUTS = new ConcurrentHashMap<>();
    private static final AtomicLong PARTIAL = new AtomicLong();

    private final Calculator inner;
    private Map<Long, Set<String>> dropped;
    private List<String> inputs;

    private ReplayDropCalculator(final Calculator inner)
    {
        this.inner = inner;
    }

    /**
     * The recorded config text with its fixed-size input queues made default ones: in a replay,
     * which packets such a queue drops is taken from the journal ({@link #asRecorded}), not
     * decided again.
     *
     * @param text the recorded config text.
     * @return the text to replay.
     */
    static String withoutDroppingQueues(final String text)
    {
        return text.replace(FIXED_SIZE, DEFAULT);
    }

    /**
     * Reads the recording's policy and memory drops, and wraps the calculators of the nodes that
     * made them.
     *
     * @param recorded  the recording.
     * @param config    the replay's config.
     * @param templates the templates of the subgraphs the replay adds, by instance name.
     * @param counted   receives the drops read ([0]) and the nodes they are at ([1]).
     * @return puts the registry back as it was; close it after the replay's graph is closed.
     */
    static ReplayTailCalculator.Registration asRecorded(
        final JournalReader recorded, final GraphConfig config, final Map<String, GraphConfig> templates,
        final long[] counted)
    {
        DROPPED.clear();
        INPUTS.clear();
        PARTIAL.set(0);
        final Map<String, String> calculators = new HashMap<>();
        collect(config, "", calculators);
        templates.forEach((name, template) -> collect(template, name + SubgraphExpander.SEPARATOR, calculators));
        long drops = 0;
        for (final JournalRecord r : recorded.records())
        {
            if (r.kind() == JournalRecord.Kind.DROP && (r.reason() == JournalRecord.POLICY ||
                r.reason() == JournalRecord.MEMORY) && r.nodeName() != null && calculators.containsKey(r.nodeName()))
            {
                DROPPED.computeIfAbsent(r.nodeName(), n -> new HashMap<>())
                    .computeIfAbsent(r.timestamp(), t -> new HashSet<>())
                    .add(r.stream() < 0 || r.streamName() == null ? "" : r.streamName());
                drops++;
            }
        }
        counted[0] = drops;
        counted[1] = DROPPED.size();
        final List<String> names = new ArrayList<>();
        for (final String node : DROPPED.keySet())
        {
            names.add(calculators.get(node));
        }
        return ReplayTailCalculator.wrapEach(names, (name, original) -> () -> new ReplayDropCalculator(original.get()),
            () ->
            {
                DROPPED.clear();
                INPUTS.clear();
            });
    }

    private static void collect(final GraphConfig config, final String prefix, final Map<String, String> calculators)
    {
        for (final NodeConfig node : config.nodes())
        {
            calculators.put(prefix + node.name(), node.calculator());
            final List<String> names = new ArrayList<>();
            for (final String spec : node.inputStreams())
            {
                names.add(prefix + spec.substring(spec.lastIndexOf(':') + 1));
            }
            INPUTS.put(prefix + node.name(), names);
        }
    }

    /**
     * Input sets the recording dropped part of, which the replay's node was called with whole.
     *
     * @return the count since {@link #asRecorded}.
     */
    static long partial()
    {
        return PARTIAL.get();
    }

    @Override
    public void contract(final Contract contract)
    {
        inner.contract(contract);
    }

    @Override
    public void open(final CalculatorContext ctx) throws Exception
    {
        dropped = DROPPED.get(ctx.nodeName());
        inputs = INPUTS.get(ctx.nodeName());
        inner.open(ctx);
    }

    @Override
    public void process(final CalculatorContext ctx) throws Exception
    {
        final Set<String> streams = dropped == null ? null : dropped.get(ctx.inputTimestamp());
        if (streams == null)
        {
            inner.process(ctx);
            return;
        }
        boolean all = true;
        boolean some = streams.contains("");
        for (int i = 0; i < ctx.inputCount() && !streams.contains(""); i++)
        {
            if (!ctx.input(i).isEmpty())
            {
                final boolean was = inputs != null && i < inputs.size() && streams.contains(inputs.get(i));
                all &= was;
                some |= was;
            }
        }
        if (all && some)
        {
            ctx.countDrop(); // the recording's node was not called for it: its packets were dropped
            return;
        }
        if (some)
        {
            PARTIAL.incrementAndGet();
        }
        inner.process(ctx);
    }

    @Override
    public void close(final CalculatorContext ctx) throws Exception
    {
        inner.close(ctx);
    }
}
