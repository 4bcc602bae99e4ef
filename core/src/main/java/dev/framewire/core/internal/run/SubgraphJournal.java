package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.core.journal.JournalSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a journaled graph tells its journal of the subgraphs added and removed at run time: the
 * journal's stream ids of a subgraph's new streams (its graph inputs, then its nodes' outputs,
 * numbered on from the graph's own, never reused in a run), and the subgraph's
 * {@link JournalSink#subgraphAdded added}, {@link JournalSink#subgraphRemoved removed} and
 * {@link JournalSink#subgraphLeft left} records: its template as config text and its parameters as
 * text with their types, which is what a replay needs to add it again.
 *
 * <p>Threading: every method under the graph's hot-plug lock ({@link Graph#addSubgraph},
 * {@link Graph#removeSubgraph} and a subgraph leaving take it), which orders the records of one
 * subgraph name and guards {@link #nextStreamId}. The stream ids are set on the new streams
 * before the subgraph is published; the map of stream ids is a concurrent one, which workers read
 * when they journal a drop.
 */
public final class SubgraphJournal
{
    /** The parameter types a replay can make again from their text; any other is recorded by its class name only. */
    public static final String STRING = "string";
    static final String INT64 = "int64";
    static final String INT32 = "int32";
    static final String INT16 = "int16";
    static final String INT8 = "int8";
    public static final String DOUBLE = "double";
    static final String FLOAT = "float";
    static final String BOOL = "bool";
    static final String NULL = "null";

    private final Map<String, Integer> streamIds;
    /** The next new stream's id; -1 until the first subgraph (the graph's own streams are numbered by then). */
    private int nextStreamId = -1;

    public SubgraphJournal(final Map<String, Integer> streamIds)
    {
        this.streamIds = streamIds;
    }

    /**
     * Under the hot-plug lock, before the subgraph is published: numbers its new streams and
     * records it.
     */
    public void added(
        final JournalSink journal, final Subgraph subgraph, final GraphConfig template, final Map<String, ?> params,
        final Map<String, String> bind)
    {
        if (nextStreamId < 0)
        {
            nextStreamId = streamIds.size();
        }
        final List<Integer> ids = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final GraphInput input : subgraph.inputs)
        {
            number(input.stream, ids, names);
        }
        for (final Node node : subgraph.nodes)
        {
            for (final OutputStream output : node.outputs)
            {
                number(output, ids, names);
            }
        }
        final int[] nodeIds = new int[subgraph.nodes.length];
        final String[] nodeNames = new String[nodeIds.length];
        final int[][] nodeInputs = new int[nodeIds.length][];
        for (int i = 0; i < nodeIds.length; i++)
        {
            final Node node = subgraph.nodes[i];
            nodeIds[i] = node.id;
            nodeNames[i] = node.name;
            nodeInputs[i] = new int[node.inputs.length];
            for (int p = 0; p < node.inputs.length; p++)
            {
                final Integer id = streamIds.get(node.inputs[p].streamName);
                nodeInputs[i][p] = id == null ? -1 : id;
            }
        }
        final Map<String, ?> sorted = new TreeMap<>(params);
        final String[] paramNames = sorted.keySet().toArray(new String[0]);
        final String[] paramTypes = new String[paramNames.length];
        final String[] paramValues = new String[paramNames.length];
        for (int p = 0; p < paramNames.length; p++)
        {
            final Object value = sorted.get(paramNames[p]);
            paramTypes[p] = typeOf(value);
            paramValues[p] = textOf(value);
        }
        final Map<String, String> bound = new TreeMap<>(bind);
        journal.subgraphAdded(subgraph.name, templateText(template), paramNames, paramTypes, paramValues,
            bound.keySet().toArray(new String[0]), bound.values().toArray(new String[0]), nodeIds, nodeNames,
            nodeInputs, ids.stream().mapToInt(Integer::intValue).toArray(), names.toArray(new String[0]));
    }

    /** Under the hot-plug lock: a removal asked for. */
    public static void removed(
        final JournalSink journal, final String name, final java.time.Duration drain, final java.time.Duration cancel)
    {
        journal.subgraphRemoved(name, saturatedNanos(drain), saturatedNanos(cancel));
    }

    /** Under the hot-plug lock, as the subgraph leaves: recorded, and its stream names forgotten. */
    public void left(final JournalSink journal, final Subgraph subgraph)
    {
        journal.subgraphLeft(subgraph.name, !subgraph.cancelled, subgraph.droppedPackets());
        for (final GraphInput input : subgraph.inputs)
        {
            streamIds.remove(input.name, input.stream.streamId);
        }
        for (final Node node : subgraph.nodes)
        {
            for (final OutputStream output : node.outputs)
            {
                streamIds.remove(output.name, output.streamId);
            }
        }
    }

    private void number(final OutputStream stream, final List<Integer> ids, final List<String> names)
    {
        final int id = nextStreamId++;
        stream.streamId = id;
        streamIds.put(stream.name, id);
        ids.add(id);
        names.add(stream.name);
    }

    /**
     * The template as text, nested subgraph types expanded, so that a replay needs no registry; or
     * why it has none (a calculator given by class or factory, an option holding a Java object,
     * which the text would only show as its {@code toString}).
     */
    public static String templateText(final GraphConfig template)
    {
        try
        {
            final GraphConfig flat = SubgraphExpander.expand(template, SubgraphRegistry.global());
            for (final NodeConfig node : flat.nodes())
            {
                for (final Map.Entry<String, Object> option : node.options().entrySet())
                {
                    final Object value = option.getValue();
                    if (value != null && textOf(value) == null)
                    {
                        return "# this config has no text form: node '" + node.name() + "' option '" + option.getKey() +
                            "' holds a " + value.getClass().getName() + ", a Java object that config text cannot " +
                            "hold\n";
                    }
                }
            }
            return GraphConfigText.write(flat);
        }
        catch (final IllegalArgumentException ex)
        {
            return "# this config has no text form: " + ex.getMessage() + "\n";
        }
    }

    /** The journal's type name of each parameter class whose values have an exact text form. */
    private static final Map<Class<?>, String> TEXT_TYPES = Map.of(
        String.class, STRING, Long.class, INT64, Integer.class, INT32, Short.class, INT16, Byte.class, INT8,
        Double.class, DOUBLE, Float.class, FLOAT, Boolean.class, BOOL);

    public static String typeOf(final Object value)
    {
        return value == null ? NULL : TEXT_TYPES.getOrDefault(value.getClass(), value.getClass().getName());
    }

    /** The value as text that gives it back exactly, or null when it has none (a Java object). */
    static String textOf(final Object value)
    {
        if (value == null)
        {
            return "";
        }
        // Double.toString and Float.toString give the value back exactly
        return TEXT_TYPES.containsKey(value.getClass()) ? value.toString() : null;
    }

    private static long saturatedNanos(final java.time.Duration duration)
    {
        try
        {
            return duration.toNanos();
        }
        catch (final ArithmeticException ex)
        {
            return Long.MAX_VALUE;
        }
    }
}
