package dev.framewire.journal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a journal says of a subgraph added to or removed from a running graph (format 1.5): the
 * fields of a {@link JournalRecord.Kind#SUBGRAPH_ADDED} (its template as config text, its
 * parameters as text with their types, its input bindings, and the ids its nodes and streams got),
 * {@link JournalRecord.Kind#SUBGRAPH_REMOVED} (its deadlines) or
 * {@link JournalRecord.Kind#SUBGRAPH_LEFT} (drained or cancelled, its drops) record; the fields
 * another kind does not have are empty, null or -1. A replay adds the subgraph again from these:
 * {@link #parameterValues()} gives the parameters back as the Java values they were, or says why it
 * cannot.
 *
 * <p>Threading: immutable.
 */
public final class JournalSubgraph
{
    /** Parameter types whose text gives the value back (the others are recorded by class name only). */
    private static final List<String> TEXT_TYPES =
        List.of("string", "int64", "int32", "int16", "int8", "double", "float", "bool", "null");

    /** One parameter of the subgraph: its name, its type, and its value as text when it has one. */
    public static final class Parameter
    {
        private final String name;
        private final String type;
        private final String text;

        Parameter(final String name, final String type, final String text)
        {
            this.name = name;
            this.type = type;
            this.text = text;
        }

        /**
         * The parameter's name in the template ({@code "$name"}).
         *
         * @return the name.
         */
        public String name()
        {
            return name;
        }

        /**
         * Its type: {@code string}, {@code int64}, {@code int32}, {@code int16}, {@code int8},
         * {@code double}, {@code float}, {@code bool}, {@code null}, or else the Java class name of a
         * value recorded by type only.
         *
         * @return the type.
         */
        public String type()
        {
            return type;
        }

        /**
         * The value as text.
         *
         * @return the text, or null when the value has no text form (recorded by type only).
         */
        public String text()
        {
            return text;
        }

        /**
         * Whether the value can be made again from the journal.
         *
         * @return true for a value of one of the text types.
         */
        public boolean isReproducible()
        {
            return text != null && TEXT_TYPES.contains(type);
        }

        /**
         * The value as the Java object it was.
         *
         * @return the value ({@code Long} for int64, {@code String} for string, ...; null for null).
         * @throws IllegalStateException when it was recorded by type only, or its text does not read
         *                               as its type; the message names the parameter and its type.
         */
        public Object value()
        {
            if (!isReproducible())
            {
                throw new IllegalStateException("parameter '" + name + "' was a " + type + ", a Java object the " +
                    "journal records by type only; it cannot be made again from the journal");
            }
            try
            {
                switch (type)
                {
                    case "string":
                        return text;
                    case "int64":
                        return Long.valueOf(text);
                    case "int32":
                        return Integer.valueOf(text);
                    case "int16":
                        return Short.valueOf(text);
                    case "int8":
                        return Byte.valueOf(text);
                    case "double":
                        return Double.valueOf(text);
                    case "float":
                        return Float.valueOf(text);
                    case "bool":
                        if (!"true".equals(text) && !"false".equals(text))
                        {
                            throw new NumberFormatException("not true or false");
                        }
                        return Boolean.valueOf(text);
                    default:
                        return null;
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalStateException("parameter '" + name + "' of type " + type + " is recorded as \"" + text +
                    "\", which is not a " + type + " value (" + ex.getMessage() + ")", ex);
            }
        }

        @Override
        public String toString()
        {
            return name + ":" + type + "=" + (text == null ? "(recorded by type only)" : text);
        }
    }

    private final String name;
    private final String templateText;
    private final List<Parameter> parameters;
    private final Map<String, String> bindings;
    private final int[] nodeIds;
    private final List<String> nodeNames;
    private final int[][] nodeInputs;
    private final int[] streamIds;
    private final List<String> streamNames;
    private final long drainDeadlineNanos;
    private final long cancelDeadlineNanos;
    private final boolean drained;
    private final long droppedPackets;

    JournalSubgraph(
        final String name,
        final String templateText,
        final List<Parameter> parameters,
        final Map<String, String> bindings,
        final int[] nodeIds,
        final String[] nodeNames,
        final int[][] nodeInputs,
        final int[] streamIds,
        final String[] streamNames,
        final long drainDeadlineNanos,
        final long cancelDeadlineNanos,
        final boolean drained,
        final long droppedPackets)
    {
        this.name = name;
        this.templateText = templateText;
        this.parameters = List.copyOf(parameters);
        this.bindings = Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
        this.nodeIds = nodeIds;
        this.nodeNames = List.of(nodeNames);
        this.nodeInputs = nodeInputs;
        this.streamIds = streamIds;
        this.streamNames = List.of(streamNames);
        this.drainDeadlineNanos = drainDeadlineNanos;
        this.cancelDeadlineNanos = cancelDeadlineNanos;
        this.drained = drained;
        this.droppedPackets = droppedPackets;
    }

    static JournalSubgraph added(
        final String name, final String templateText, final List<Parameter> parameters,
        final Map<String, String> bindings, final int[] nodeIds, final String[] nodeNames, final int[][] nodeInputs,
        final int[] streamIds, final String[] streamNames)
    {
        return new JournalSubgraph(name, templateText, parameters, bindings, nodeIds, nodeNames, nodeInputs, streamIds,
            streamNames, -1, -1, false, -1);
    }

    static JournalSubgraph removed(final String name, final long drainDeadlineNanos, final long cancelDeadlineNanos)
    {
        return new JournalSubgraph(name, null, List.of(), Map.of(), new int[0], new String[0], new int[0][],
            new int[0], new String[0], drainDeadlineNanos, cancelDeadlineNanos, false, -1);
    }

    static JournalSubgraph left(final String name, final boolean drained, final long droppedPackets)
    {
        return new JournalSubgraph(name, null, List.of(), Map.of(), new int[0], new String[0], new int[0][],
            new int[0], new String[0], -1, -1, drained, droppedPackets);
    }

    /**
     * The subgraph's name: its nodes are {@code name__node} and its streams {@code name__stream}.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * SUBGRAPH_ADDED: the template as {@code .pbtxt} text, nested subgraph types expanded (so it
     * reads without the recording process's subgraph registry), parameters not substituted.
     *
     * @return the text; null for other kinds.
     */
    public String templateText()
    {
        return templateText;
    }

    /**
     * SUBGRAPH_ADDED: whether the template had a text form (a template whose nodes name their
     * calculators by class or factory has none; its text then says why).
     *
     * @return true if {@link #templateText()} is a config.
     */
    public boolean hasTemplateText()
    {
        return templateText != null && !templateText.startsWith("# this config has no text form");
    }

    /**
     * SUBGRAPH_ADDED: its parameters, by name.
     *
     * @return the parameters.
     */
    public List<Parameter> parameters()
    {
        return parameters;
    }

    /**
     * SUBGRAPH_ADDED: the parameters as the Java values they were, for adding the subgraph again.
     *
     * @return name to value.
     * @throws IllegalStateException naming each parameter that was recorded by type only (or
     *                               does not read as its type).
     */
    public Map<String, Object> parameterValues()
    {
        final Map<String, Object> values = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();
        for (final Parameter parameter : parameters)
        {
            try
            {
                values.put(parameter.name(), parameter.value());
            }
            catch (final IllegalStateException ex)
            {
                problems.add(ex.getMessage());
            }
        }
        if (!problems.isEmpty())
        {
            throw new IllegalStateException(String.join("; ", problems));
        }
        return values;
    }

    /**
     * SUBGRAPH_ADDED: the template's input streams bound to streams of the graph's own, and to which.
     *
     * @return template input stream to the graph's stream.
     */
    public Map<String, String> bindings()
    {
        return bindings;
    }

    /**
     * SUBGRAPH_ADDED: the ids its nodes got (the journal's node ids, never reused in a run), in
     * template order.
     *
     * @return the ids (a copy).
     */
    public int[] nodeIds()
    {
        return nodeIds.clone();
    }

    /**
     * SUBGRAPH_ADDED: its nodes' names in the graph, as {@link #nodeIds()}.
     *
     * @return the names.
     */
    public List<String> nodeNames()
    {
        return nodeNames;
    }

    /**
     * SUBGRAPH_ADDED: the stream ids a node of it consumes.
     *
     * @param i the node's place in {@link #nodeIds()}.
     * @return the stream ids (a copy).
     */
    public int[] nodeInputs(final int i)
    {
        return nodeInputs[i].clone();
    }

    /**
     * SUBGRAPH_ADDED: the ids its new streams got: its graph inputs, then its nodes' outputs (a
     * bound input keeps the graph's stream's id).
     *
     * @return the ids (a copy).
     */
    public int[] streamIds()
    {
        return streamIds.clone();
    }

    /**
     * SUBGRAPH_ADDED: its new streams' names in the graph, as {@link #streamIds()}.
     *
     * @return the names.
     */
    public List<String> streamNames()
    {
        return streamNames;
    }

    /**
     * SUBGRAPH_REMOVED: how long it could drain before it was cancelled (0: cancelled at once).
     *
     * @return nanoseconds, -1 for other kinds.
     */
    public long drainDeadlineNanos()
    {
        return drainDeadlineNanos;
    }

    /**
     * SUBGRAPH_REMOVED: how long, once cancelled, before the removal gave up on a node.
     *
     * @return nanoseconds, -1 for other kinds.
     */
    public long cancelDeadlineNanos()
    {
        return cancelDeadlineNanos;
    }

    /**
     * SUBGRAPH_LEFT: whether it drained (false: it was cancelled).
     *
     * @return whether it drained.
     */
    public boolean drained()
    {
        return drained;
    }

    /**
     * SUBGRAPH_LEFT: the packets its nodes dropped over its life.
     *
     * @return the count, -1 for other kinds.
     */
    public long droppedPackets()
    {
        return droppedPackets;
    }

    /** The record's fields, for a dump line. */
    String describe()
    {
        if (templateText != null)
        {
            return "subgraph=" + name + " nodes=" + nodeNames + " streams=" + streamNames + " params=" + parameters +
                (bindings.isEmpty() ? "" : " bind=" + bindings) + (hasTemplateText() ? "" : " template=(no text form)");
        }
        if (drainDeadlineNanos >= 0)
        {
            return "subgraph=" + name + " drainDeadlineMillis=" + drainDeadlineNanos / 1_000_000 +
                " cancelDeadlineMillis=" + cancelDeadlineNanos / 1_000_000;
        }
        return "subgraph=" + name + " " + (drained ? "drained" : "cancelled") + " dropped=" + droppedPackets;
    }

    @Override
    public String toString()
    {
        return describe();
    }
}
