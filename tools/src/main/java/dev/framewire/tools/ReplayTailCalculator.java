package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.Timestamp;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * What {@code journal replay} wraps every calculator of a replay in when the recording was cut
 * short (a {@code --duration} that elapsed, a stop, a cancel) or added subgraphs at run time: each
 * node goes no further than the recording went. A source node (no input streams) stops once each of its outputs has emitted
 * the last timestamp the recording emitted there (it stops at once if the recording emitted
 * nothing on it), so that a source that ran at full speed does not go on past the recorded
 * packets; any other node is not called for an input timestamp past its last recorded call (the
 * recording was cancelled before it got there). Up to those points the wrapped calculator is called
 * as it is; a node the journal says nothing about (no record of it) is not limited.
 *
 * <p>The wrapper is put in by name: {@link #wrap} registers, for every calculator name a replay's
 * graph (and its subgraphs' templates) uses, a factory that wraps the registered one, and the
 * returned {@link Registration} puts the original factories back; the limits are looked up by the
 * node's name when it opens. One replay at a time in a process, as for {@link ReplayGateCalculator}.
 *
 * <p>Threading: the node's calls, one at a time; {@link #wrap} and its close on the replay's thread,
 * before the graph starts and after it is done.
 */
final class ReplayTailCalculator implements Calculator
{
    private static final long POLL_NANOS = 1_000_000L;
    private static final Map<String, Long> LAST = new ConcurrentHashMap<>();
    /** The limited sources (by node name) that have emitted their last recorded packet. */
    private static final Set<String> DONE = ConcurrentHashMap.newKeySet();
    /** The limited sources that are held after their last packet until their subgraph is removed. */
    private static final Set<String> HELD = ConcurrentHashMap.newKeySet();
    /** The limited sources, by node name. */
    private static final Set<String> SOURCES = ConcurrentHashMap.newKeySet();

    /** Puts the registry back as it was; throws nothing. */
    interface Registration extends AutoCloseable
    {
        @Override
        void close();
    }

    private final Calculator inner;
    private String node;
    private boolean limited;
    private boolean source;
    private long last;

    private ReplayTailCalculator(final Calculator inner)
    {
        this.inner = inner;
    }

    /**
     * Reads from the recording how far each node went, and wraps the calculators of the replay's
     * nodes to stop there.
     *
     * @param recorded  the recording (cut short).
     * @param config    the replay's config.
     * @param templates the templates of the subgraphs the replay adds, by instance name.
     * @param removed   the subgraphs the recording removed (rather than left on their own): their
     *                  sources are held after their last packet, not stopped, so that the subgraph
     *                  is there to be removed where the recording removed it.
     * @return puts the registry back as it was; call it after the replay's graph is closed.
     */
    static Registration wrap(
        final JournalReader recorded, final GraphConfig config, final Map<String, GraphConfig> templates,
        final Set<String> removed)
    {
        LAST.clear();
        HELD.clear();
        DONE.clear();
        SOURCES.clear();
        final Map<String, Boolean> sources = new HashMap<>();
        final Map<String, String> calculators = new LinkedHashMap<>();
        collect(config.nodes(), "", sources, calculators);
        for (final Map.Entry<String, GraphConfig> t : templates.entrySet())
        {
            collect(t.getValue().nodes(), t.getKey() + "__", sources, calculators);
        }
        final Map<String, Long> last = new HashMap<>();
        for (final Map.Entry<String, Boolean> node : sources.entrySet())
        {
            if (node.getValue())
            {
                SOURCES.add(node.getKey());
                for (final String subgraph : removed)
                {
                    if (node.getKey().startsWith(subgraph + SubgraphExpander.SEPARATOR))
                    {
                        HELD.add(node.getKey());
                    }
                }
                last.put(node.getKey(), Long.MIN_VALUE); // a source that emitted nothing emits nothing
            }
        }
        for (final JournalRecord r : recorded.records())
        {
            final String node = r.nodeName();
            final Boolean isSource = node == null ? null : sources.get(node);
            if (isSource == null)
            {
                continue;
            }
            final boolean counts = isSource ? r.kind() == JournalRecord.Kind.EMIT :
                r.kind() == JournalRecord.Kind.PROCESS_BEGIN && r.timestamp() != Timestamp.UNSTARTED &&
                    r.timestamp() != Timestamp.DONE && r.timestamp() != Timestamp.UNSET;
            if (counts)
            {
                last.merge(node, r.timestamp(), Math::max);
            }
        }
        LAST.putAll(last);
        return wrapEach(calculators.values(), (name, original) -> () -> new ReplayTailCalculator(original.get()), () ->
        {
            LAST.clear();
            DONE.clear();
            SOURCES.clear();
            HELD.clear();
        });
    }

    /**
     * Registers, for each calculator name the registry has, a factory made from the registered
     * one (a replay's stand-in or wrapper), and returns what puts the registered ones back.
     *
     * @param names   calculator names (repeats are taken once).
     * @param wrapper by name and registered factory, the factory to register in its place.
     * @param after   what the returned registration does after putting them back.
     * @return puts the registry back as it was, then runs {@code after}.
     */
    static Registration wrapEach(
        final Collection<String> names,
        final BiFunction<String, Supplier<? extends Calculator>, Supplier<? extends Calculator>> wrapper,
        final Runnable after)
    {
        final CalculatorRegistry registry = CalculatorRegistry.global();
        final Map<String, Supplier<? extends Calculator>> originals = new LinkedHashMap<>();
        for (final String name : names)
        {
            final Supplier<? extends Calculator> original = registry.lookup(name);
            if (original != null && !originals.containsKey(name))
            {
                originals.put(name, original);
                registry.register(name, wrapper.apply(name, original));
            }
        }
        return () ->
        {
            originals.forEach(registry::register);
            after.run();
        };
    }

    private static void collect(
        final Collection<NodeConfig> nodes,
        final String prefix,
        final Map<String, Boolean> sources,
        final Map<String, String> calculators)
    {
        for (final NodeConfig node : nodes)
        {
            sources.put(prefix + node.name(), node.inputStreams().isEmpty());
            calculators.put(prefix + node.name(), node.calculator());
        }
    }

    @Override
    public void contract(final Contract contract)
    {
        inner.contract(contract);
    }

    @Override
    public void open(final CalculatorContext ctx) throws Exception
    {
        node = ctx.nodeName();
        DONE.remove(node); // a subgraph of this name added again
        final Long at = LAST.get(node);
        limited = at != null;
        last = at != null ? at : Long.MAX_VALUE;
        source = ctx.inputCount() == 0;
        inner.open(ctx);
    }

    @Override
    public void process(final CalculatorContext ctx) throws Exception
    {
        if (!limited)
        {
            inner.process(ctx);
        }
        else if (source)
        {
            if (past(ctx))
            {
                DONE.add(node);
                if (HELD.contains(node))
                {
                    LockSupport.parkNanos(POLL_NANOS); // until its subgraph's removal closes it (drained)
                    return;
                }
                ctx.stop();
                return;
            }
            inner.process(ctx);
            if (past(ctx))
            {
                DONE.add(node);
                if (!HELD.contains(node))
                {
                    ctx.stop(); // its last recorded packet is out: the recording went no further
                }
            }
        }
        else if (ctx.inputTimestamp() <= last)
        {
            inner.process(ctx);
        }
    }

    /**
     * Waits until every limited source whose name starts with {@code prefix} (a subgraph's nodes:
     * {@code name__}) has emitted its last recorded packet: a hot-plug removal is replayed after
     * the packets the recording had from the subgraph's sources, not at a wall-clock offset.
     *
     * @param prefix       the node name prefix.
     * @param timeoutNanos how long to wait at most.
     * @return false if the time ran out first.
     * @throws InterruptedException if interrupted while waiting.
     */
    static boolean awaitSources(final String prefix, final long timeoutNanos) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutNanos;
        while (!sourcesDone(prefix))
        {
            if (System.nanoTime() - deadline >= 0)
            {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted())
            {
                throw new InterruptedException("waiting for the sources of " + prefix + "*");
            }
        }
        return true;
    }

    private static boolean sourcesDone(final String prefix)
    {
        for (final String source : SOURCES)
        {
            if (source.startsWith(prefix) && !DONE.contains(source))
            {
                return false;
            }
        }
        return true;
    }

    /** True once every output has emitted the recording's last timestamp (its bound is past it). */
    private boolean past(final CalculatorContext ctx)
    {
        for (int i = 0; i < ctx.outputCount(); i++)
        {
            if (ctx.output(i).nextTimestampBound() <= last)
            {
                return false;
            }
        }
        return ctx.outputCount() > 0 || last == Long.MIN_VALUE;
    }

    @Override
    public void close(final CalculatorContext ctx) throws Exception
    {
        inner.close(ctx);
    }
}
