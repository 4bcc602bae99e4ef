package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Output;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.PayloadShape;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * What {@code journal replay} puts in place of a source node whose outputs the recording captured
 * ({@code --capture-sources}, or {@code --capture} naming every output of the source): rather
 * than run the source again (open a camera, read a file, subscribe to a publisher, draw from a
 * seed), it emits the packets the recording's source emitted, from the journal: each payload with
 * its recorded bytes and frame shape ({@link PayloadShape}), each {@code long} and {@code double}
 * with its recorded value, at the recorded timestamps, in the recorded order (by timestamp), and
 * at the recorded pacing unless the replay is as fast as possible. Then it stops.
 *
 * <p>It is put in by name, as {@link ReplayTailCalculator} is: {@link #inPlaceOfSources}
 * registers, for each calculator name of a replayed source, a factory whose calculator looks up
 * its node's packets when it opens; a node of that name the recording did not capture runs its
 * calculator as configured. The calculator it stands in for declares the options (so that the
 * recorded config validates), not its checks of the outside world (a video file that is gone,
 * a key file deleted after the run): the replayed source never opens it.
 *
 * <p>A source whose recording stopped capturing (the capture limit) or emitted a Java object
 * (journaled by timestamp only) replays up to the first packet the journal cannot give back, and
 * stops there; {@link Plan#notes} says so.
 *
 * <p>Threading: the node's calls, one at a time; {@link #inPlaceOfSources} and its close on the
 * replay's thread, before the graph starts and after it is done. One replay at a time in a process.
 */
final class ReplaySourceCalculator implements Calculator
{
    private static final long POLL_NANOS = 1_000_000L;
    /** What a replayed source emits for a Java object the journal recorded by timestamp only (no node takes it). */
    static final String STAND_IN = "a Java object the journal recorded by timestamp only";
    private static final Map<String, List<JournalRecord>> BY_NODE = new ConcurrentHashMap<>();
    /** The recording's RUN_START nanos and the replay's start: pacing; origin 0 = as fast as possible. */
    private static volatile long recordedOrigin;
    private static volatile long replayOrigin;

    /** What a replay takes from the journal in place of its sources. */
    static final class Plan
    {
        /** The replayed sources, by node name, and how many packets each gives back. */
        final Map<String, Integer> sources = new LinkedHashMap<>();
        /** The sources that run again, and why. */
        final List<String> notes = new ArrayList<>();
        /** Packets given back in all. */
        long packets;
    }

    private final Calculator inner;
    private final boolean keepChecks;
    private List<JournalRecord> packets;
    private Map<String, Output> outputs;
    private int next;

    private ReplaySourceCalculator(final Calculator inner, final boolean keepChecks)
    {
        this.inner = inner;
        this.keepChecks = keepChecks;
    }

    /**
     * Reads each captured source's packets from the recording and registers the calculators that
     * give them back.
     *
     * @param recorded  the recording.
     * @param config    the replay's config.
     * @param templates the templates of the subgraphs the replay adds, by instance name.
     * @param plan      filled with what is replayed and what is not.
     * @return puts the registry back as it was; close it after the replay's graph is closed.
     */
    static ReplayTailCalculator.Registration inPlaceOfSources(
        final JournalReader recorded, final GraphConfig config, final Map<String, GraphConfig> templates,
        final Plan plan)
    {
        BY_NODE.clear();
        final Map<String, NodeConfig> sources = new LinkedHashMap<>();
        final Map<String, String> prefixes = new HashMap<>();
        final Map<String, Boolean> calculators = new HashMap<>(); // true: every node of it is a replayed source
        collect(config.nodes(), "", sources, prefixes, calculators);
        templates.forEach((name, template) -> collect(template.nodes(), name + SubgraphExpander.SEPARATOR, sources,
            prefixes, calculators));
        final Set<String> captured = Set.copyOf(recorded.captureStreams());
        final Map<String, String> replayed = new LinkedHashMap<>();
        final List<String> again = new ArrayList<>();
        sources.forEach((name, node) ->
        {
            final List<String> outputs = outputs(node, prefixes.get(name));
            if (captured.containsAll(outputs) && !outputs.isEmpty())
            {
                replayed.put(name, node.calculator());
            }
            else
            {
                calculators.put(node.calculator(), false);
                again.add(name);
            }
        });
        if (!again.isEmpty())
        {
            plan.notes.add((again.size() == 1 ? "source " : "sources ") + again + " ran again, as configured: the " +
                "recording did not capture " + (again.size() == 1 ? "its outputs" : "their outputs") + " (record " +
                "with --capture-sources to replay them from the journal)");
        }
        final Set<String> consumed = new HashSet<>();
        consumed(config, "", consumed);
        templates.forEach((name, template) -> consumed(template, name + SubgraphExpander.SEPARATOR, consumed));
        packets(recorded, replayed.keySet(), consumed, plan);
        return ReplayTailCalculator.wrapEach(replayed.values(), (name, original) ->
        {
            final boolean keepChecks = !calculators.getOrDefault(name, true);
            return () -> new ReplaySourceCalculator(original.get(), keepChecks);
        }, () ->
        {
            BY_NODE.clear();
            replayOrigin = 0;
        });
    }

    /**
     * Paces the replayed sources as recorded, from now: call it just before the graph starts.
     * Not called: as fast as possible.
     *
     * @param recorded the recording.
     */
    static void pacedFromNow(final JournalReader recorded)
    {
        for (final JournalRecord r : recorded.records())
        {
            if (r.kind() == JournalRecord.Kind.RUN_START)
            {
                recordedOrigin = r.nanos();
                replayOrigin = System.nanoTime();
                return;
            }
        }
    }

    private static void collect(
        final Collection<NodeConfig> nodes, final String prefix, final Map<String, NodeConfig> sources,
        final Map<String, String> prefixes, final Map<String, Boolean> calculators)
    {
        for (final NodeConfig node : nodes)
        {
            if (node.inputStreams().isEmpty())
            {
                sources.put(prefix + node.name(), node);
                prefixes.put(prefix + node.name(), prefix);
                calculators.putIfAbsent(node.calculator(), true);
            }
            else
            {
                calculators.put(node.calculator(), false);
            }
        }
    }

    /** The streams some node takes. */
    private static void consumed(final GraphConfig config, final String prefix, final Set<String> consumed)
    {
        for (final NodeConfig node : config.nodes())
        {
            for (final String spec : node.inputStreams())
            {
                consumed.add(prefix + spec.substring(spec.lastIndexOf(':') + 1));
            }
        }
    }

    private static List<String> outputs(final NodeConfig node, final String prefix)
    {
        final List<String> names = new ArrayList<>();
        for (final String spec : node.outputStreams())
        {
            names.add(prefix + spec.substring(spec.lastIndexOf(':') + 1));
        }
        return names;
    }

    /**
     * Each replayed source's packets: its EMIT records, each payload joined with its CAPTURED
     * record by stream and timestamp, and its CAPTURED records without an EMIT (the lighter levels
     * journal the packets of end streams only). Cut at the first payload the journal cannot give
     * back; a Java object (timestamp only) is given back as {@link #STAND_IN} on a stream no node
     * takes, and left out on one a node takes.
     */
    private static void packets(
        final JournalReader recorded, final Set<String> nodes, final Set<String> consumed, final Plan plan)
    {
        final Map<String, List<JournalRecord>> emits = new HashMap<>();
        final Map<String, List<JournalRecord>> capturedByNode = new HashMap<>();
        final Map<String, Map<Long, JournalRecord>> capturedByStream = new HashMap<>();
        for (final JournalRecord r : recorded.records())
        {
            if (r.nodeName() == null || !nodes.contains(r.nodeName()))
            {
                continue;
            }
            if (r.kind() == JournalRecord.Kind.EMIT)
            {
                emits.computeIfAbsent(r.nodeName(), n -> new ArrayList<>()).add(r);
            }
            else if (r.kind() == JournalRecord.Kind.CAPTURED)
            {
                capturedByNode.computeIfAbsent(r.nodeName(), n -> new ArrayList<>()).add(r);
                capturedByStream.computeIfAbsent(r.streamName(), s -> new HashMap<>()).put(r.timestamp(), r);
            }
        }
        for (final String node : nodes)
        {
            final List<JournalRecord> list = new ArrayList<>();
            // its EMITs, and its captures without an EMIT (a lighter level journals the emits of end streams only)
            final List<JournalRecord> sorted = new ArrayList<>(emits.getOrDefault(node, List.of()));
            final Set<String> emitted = new HashSet<>();
            for (final JournalRecord r : sorted)
            {
                emitted.add(r.timestamp() + " " + r.streamName());
            }
            for (final JournalRecord r : capturedByNode.getOrDefault(node, List.of()))
            {
                if (!emitted.contains(r.timestamp() + " " + r.streamName()))
                {
                    sorted.add(r);
                }
            }
            sorted.sort(Comparator.comparingLong(JournalRecord::timestamp)); // stable: recorded order at a timestamp
            int objects = 0;
            for (final JournalRecord r : sorted)
            {
                if (r.kind() == JournalRecord.Kind.EMIT && r.valueKind() == JournalRecord.VALUE_NONE)
                {
                    if (consumed.contains(r.streamName()))
                    {
                        objects++; // a Java object a node would take: left out, not guessed
                    }
                    else
                    {
                        list.add(r); // no node takes it: a stand-in at its timestamp, as the diff compares it
                    }
                    continue;
                }
                final JournalRecord packet = r.kind() == JournalRecord.Kind.CAPTURED || isWord(r) ? r :
                    capturedByStream.getOrDefault(r.streamName(), Map.of()).get(r.timestamp());
                if (packet == null)
                {
                    plan.notes.add("source '" + node + "' replays " + list.size() + " of its " + sorted.size() +
                        " recorded packets: the journal cannot give back its packet on stream `" + r.streamName() +
                        "` at timestamp " + r.timestamp() + " (not captured: the recording's capture limit was " +
                        "reached), so it stops there");
                    break;
                }
                list.add(packet);
            }
            if (objects > 0)
            {
                plan.notes.add("source '" + node + "' left out " + objects + " recorded Java objects (the journal " +
                    "records them by timestamp only) that a node of the replay would take");
            }
            BY_NODE.put(node, list);
            plan.sources.put(node, list.size());
            plan.packets += list.size();
        }
    }

    private static boolean isWord(final JournalRecord r)
    {
        return r.valueKind() == JournalRecord.VALUE_LONG || r.valueKind() == JournalRecord.VALUE_DOUBLE;
    }

    @Override
    public void contract(final Contract contract)
    {
        if (keepChecks)
        {
            inner.contract(contract);
            return;
        }
        optionsOf(inner, contract); // without its checks of the outside world: the replay never opens it
    }

    /**
     * Declares what a calculator declares (options, types, input policy), without its checks: for
     * a calculator the replay stands in for and never opens, so that the recorded config
     * validates though what those checks look at (a file, a key) is gone.
     *
     * @param inner    the calculator stood in for.
     * @param contract the stand-in's contract.
     */
    static void optionsOf(final Calculator inner, final Contract contract)
    {
        final Contract its = new Contract();
        inner.contract(its);
        for (final Contract.OptionSpec option : its.options().values())
        {
            contract.option(option.name, option.type, option.defaultValue);
        }
        its.outputTypes().forEach(contract::outputType);
        its.inputTypes().forEach(contract::inputType);
        if (its.inputPolicy() != null)
        {
            contract.inputPolicy(its.inputPolicy());
        }
        contract.processTimestampBounds(its.processTimestampBounds());
    }

    @Override
    public void open(final CalculatorContext ctx) throws Exception
    {
        packets = BY_NODE.get(ctx.nodeName());
        if (packets == null)
        {
            inner.open(ctx);
            return;
        }
        outputs = new HashMap<>();
        for (int i = 0; i < ctx.outputCount(); i++)
        {
            outputs.put(ctx.output(i).streamName(), ctx.output(i));
        }
    }

    @Override
    public void process(final CalculatorContext ctx) throws Exception
    {
        if (packets == null)
        {
            inner.process(ctx);
            return;
        }
        if (next >= packets.size())
        {
            ctx.stop();
            return;
        }
        final JournalRecord r = packets.get(next);
        final long origin = replayOrigin;
        if (origin != 0)
        {
            final long wait = origin + (r.nanos() - recordedOrigin) - System.nanoTime();
            if (wait > 0)
            {
                LockSupport.parkNanos(Math.min(wait, POLL_NANOS)); // called again: the recorded pacing
                return;
            }
        }
        emit(ctx, r);
        if (++next >= packets.size())
        {
            ctx.stop(); // the recording's last packet of this source is out
        }
    }

    private void emit(final CalculatorContext ctx, final JournalRecord r)
    {
        final Output out = outputs.get(r.streamName());
        if (out == null)
        {
            throw new IllegalStateException("node '" + ctx.nodeName() + "': the recording emitted on stream `" +
                r.streamName() + "`, which the replay's node does not have; its outputs are " + outputs.keySet());
        }
        switch (r.valueKind())
        {
            case JournalRecord.VALUE_LONG:
                out.addLong(r.value(), r.timestamp());
                return;
            case JournalRecord.VALUE_DOUBLE:
                out.addDouble(Double.longBitsToDouble(r.value()), r.timestamp());
                return;
            case JournalRecord.VALUE_NONE:
                out.add(STAND_IN, r.timestamp()); // on a stream no node takes: only its timestamp was journaled
                return;
            default:
                out.add(payload(ctx, r), r.timestamp()); // the payload's reference passes to the output
        }
    }

    /** The recorded payload made again: a frame of its recorded shape, or a blob, with its bytes. */
    private static Payload payload(final CalculatorContext ctx, final JournalRecord r)
    {
        final ByteBuffer bytes = r.payload();
        final int length = bytes.remaining();
        final PayloadShape shape = r.shape() != null ? r.shape() : PayloadShape.BLOB;
        final Payload payload = shape.isFrame() ? ctx.pool().acquireFrame(shape.width(), shape.height(),
            PixelFormat.valueOf(shape.format()), shape.stride()) : ctx.pool().acquire(Math.max(1, length));
        if (shape.isFrame() && payload.length() != length)
        {
            payload.release();
            throw new IllegalStateException("node '" + ctx.nodeName() + "': the payload captured on stream `" +
                r.streamName() + "` at timestamp " + r.timestamp() + " is " + length + " bytes, but a " + shape +
                " is " + payload.length() + " (record #" + r.index() + ")");
        }
        if (length > 0)
        {
            payload.mutableBuffer().putBytes(0, bytes, bytes.position(), length);
        }
        return payload;
    }

    @Override
    public void close(final CalculatorContext ctx) throws Exception
    {
        if (packets == null)
        {
            inner.close(ctx);
        }
    }
}
