package dev.framewire.core;

import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;

/**
 * Static subgraph expansion, as MediaPipe's {@code ExpandSubgraphs}: every node whose calculator
 * is a type in a {@link SubgraphRegistry} is replaced by the subgraph's nodes, recursively. The
 * subgraph's nodes are named {@code parent__child}; its internal streams and side packets are
 * prefixed the same way ({@code parent__stream}) so two uses of one subgraph never share a stream;
 * its graph input and output streams and side packets are bound, by tag and index, to the streams
 * the parent node names ({@code IMAGE:image} in the subgraph takes the stream the parent node gives
 * as {@code IMAGE:...}). A subgraph input the parent node does not give is optional, as MediaPipe's
 * face detection's {@code ROI}: it is left out of the inputs of the subgraph's nodes. A parent node's stream with no matching subgraph stream, or a subgraph
 * that uses itself, is an error naming the node and what would be valid.
 *
 * <p>Input: a parent config and a registry. Output: a flat config, with no registered subgraph type
 * left, for {@link Graph} or {@link GraphConfig#checkStructure()}. The parent config is not changed.
 *
 * <p>Threading: stateless; safe from any thread as long as the registry is not changed meanwhile.
 */
public final class SubgraphExpander
{
    /** The separator MediaPipe puts between a subgraph node's name and its nodes' and streams' names. */
    public static final String SEPARATOR = "__";

    private SubgraphExpander()
    {
    }

    /**
     * Expands every subgraph node.
     *
     * @param parent   the config.
     * @param registry the subgraph types.
     * @return the flat config (the parent itself when it uses no subgraph).
     * @throws GraphConfigException listing every binding error.
     */
    public static GraphConfig expand(final GraphConfig parent, final SubgraphRegistry registry)
    {
        final List<String> errors = new ArrayList<>();
        final List<NodeConfig> flat = new ArrayList<>();
        final Map<String, String> locations = new LinkedHashMap<>(parent.nodeLocations);
        boolean changed = false;
        for (final NodeConfig node : parent.nodes)
        {
            if (node.calculatorName != null && registry.contains(node.calculatorName))
            {
                changed = true;
                final Deque<String> stack = new ArrayDeque<>();
                expandNode(node, registry, stack, flat, errors, locations.get(node.name), locations);
            }
            else
            {
                flat.add(node);
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(parent.locate(errors));
        }
        if (!changed)
        {
            return parent;
        }
        final GraphConfig.Builder b = parent.toBuilder();
        b.replaceNodes(flat);
        locations.forEach(b::nodeLocation);
        return b.build();
    }

    /** What a subgraph name must look like: it prefixes stream names, so it is a stream name itself. */
    public static final java.util.regex.Pattern INSTANCE_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]*");

    /**
     * One use of a subgraph template, for {@link Graph#addSubgraph}: its nodes, streams and
     * parameters bound as the expansion binds a static use, with every name prefixed by
     * {@code name__} (a hot-plugged subgraph has no parent node whose streams it takes: its
     * boundary streams become graph streams of their own).
     */
    public static final class Instance
    {
        /** The use's name, which prefixes its nodes and streams. */
        public final String name;
        /** The template's input streams as graph input streams, prefixed, in the template's order; not the bound ones. */
        public final List<String> inputs = new ArrayList<>();
        /** The graph's streams that template input streams are bound to, in the template's order. */
        public final List<String> bound = new ArrayList<>();
        /** The template's output streams as graph output streams, prefixed, in the template's order. */
        public final List<String> outputs = new ArrayList<>();
        /** Template stream name to the graph stream it became. */
        public final Map<String, String> streams = new LinkedHashMap<>();
        /** The nodes, renamed. */
        public final List<NodeConfig> nodes = new ArrayList<>();
        /** Per-stream queue limits, renamed. */
        public final Map<String, Integer> queueSizes = new LinkedHashMap<>();
        /** Side packet (prefixed name) to its value, from the parameters. */
        public final Map<String, Object> sidePackets = new HashMap<>();

        Instance(final String name)
        {
            this.name = name;
        }
    }

    /**
     * Binds a template for one use named {@code name}: nested registered subgraph types are
     * expanded first; each node option whose value is the string {@code "$param"} takes the
     * parameter's value (any type: the calculator's contract checks it), and {@code "${param}"}
     * inside a longer string is replaced by the parameter as text; each input side packet takes the
     * parameter of its name. A parameter the template uses and {@code params} lacks, or one given
     * and never used, is an error, as is a template declaring executors (a running graph's are
     * fixed) or side packets of its own.
     *
     * @param name     the use's name.
     * @param template the subgraph's config.
     * @param params   parameter values, by name.
     * @param bind     template input stream to the graph stream it is bound to.
     * @return the bound use.
     * @throws GraphConfigException listing every error.
     */
    public static Instance instantiate(
        final String name, final GraphConfig template, final Map<String, ?> params, final Map<String, String> bind)
    {
        final List<String> errors = new ArrayList<>();
        final String what = "subgraph '" + name + "'" + (template.type() != null ? " (type " + template.type() + ")" : "");
        final GraphConfig flat = expand(template, SubgraphRegistry.global());
        final Instance instance = new Instance(name);
        final String prefix = name + SEPARATOR;
        final Map<String, String> boundStreams = new HashMap<>();
        for (final String stream : flat.inputStreams)
        {
            final String to = bind.get(stream);
            if (to != null)
            {
                boundStreams.put(stream, to);
                instance.streams.put(stream, to);
                instance.bound.add(to);
            }
            else
            {
                instance.streams.put(stream, prefix + stream);
                instance.inputs.add(prefix + stream);
            }
        }
        for (final String stream : bind.keySet())
        {
            if (!flat.inputStreams.contains(stream))
            {
                errors.add(what + ": input stream '" + stream + "' is to be bound to the graph's stream '" +
                    bind.get(stream) + "', but the template has no such input stream; its input streams are " +
                    flat.inputStreams);
            }
        }
        for (final String stream : flat.outputStreams)
        {
            instance.streams.put(stream, prefix + stream);
            instance.outputs.add(prefix + stream);
        }
        if (!flat.executors.isEmpty())
        {
            errors.add(what + ": its template declares executors " + flat.executors.keySet() + "; a running graph's " +
                "executors are fixed when it starts: declare them in the graph's config and name them in the " +
                "template's nodes (executor: \"...\")");
        }
        final Set<String> used = new HashSet<>();
        for (final NodeConfig child : flat.nodes)
        {
            final String where = what + ": node '" + child.name + "'";
            final Map<String, Object> options = new LinkedHashMap<>();
            child.options.forEach((option, value) ->
                options.put(option, substitute(value, params, used, where + " option '" + option + "'", errors)));
            for (final String spec : child.inputSidePackets)
            {
                final StreamSpec parsed = StreamSpec.parse(spec);
                if (parsed == null)
                {
                    continue; // malformed: validation names it
                }
                used.add(parsed.name);
                if (!params.containsKey(parsed.name))
                {
                    errors.add(where + " takes side packet '" + parsed.name + "', which is a parameter: give it in " +
                        "params; params given are " + new java.util.TreeSet<>(params.keySet()));
                }
                instance.sidePackets.put(prefix + parsed.name, params.get(parsed.name));
            }
            instance.nodes.add(rename(child, prefix, boundStreams, Map.of(), Set.of(), options));
        }
        for (final Map.Entry<String, Integer> e : flat.streamQueueSizes.entrySet())
        {
            instance.queueSizes.put(prefix + e.getKey(), e.getValue());
        }
        for (final String param : params.keySet())
        {
            if (!used.contains(param))
            {
                errors.add(what + ": parameter '" + param + "' is used by no node option (\"$" + param + "\" or \"${" +
                    param + "}\") nor side packet of the template; it uses " + new java.util.TreeSet<>(used));
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        return instance;
    }

    private static Object substitute(
        final Object value, final Map<String, ?> params, final Set<String> used, final String where,
        final List<String> errors)
    {
        if (!(value instanceof String))
        {
            return value;
        }
        final String text = (String)value;
        if (text.length() > 1 && text.charAt(0) == '$' && text.charAt(1) != '{')
        {
            final String param = text.substring(1);
            used.add(param);
            if (!params.containsKey(param) || params.get(param) == null)
            {
                errors.add(where + " is \"" + text + "\", but parameter '" + param + "' is not given; params given " +
                    "are " + new java.util.TreeSet<>(params.keySet()));
                return value;
            }
            return params.get(param);
        }
        final StringBuilder sb = new StringBuilder();
        int at = 0;
        int open;
        while ((open = text.indexOf("${", at)) >= 0)
        {
            final int close = text.indexOf('}', open);
            if (close < 0)
            {
                errors.add(where + " is \"" + text + "\": '${' at " + open + " has no closing '}'");
                return value;
            }
            final String param = text.substring(open + 2, close);
            used.add(param);
            sb.append(text, at, open);
            if (!params.containsKey(param) || params.get(param) == null)
            {
                errors.add(where + " is \"" + text + "\", but parameter '" + param + "' is not given; params given " +
                    "are " + new java.util.TreeSet<>(params.keySet()));
            }
            else
            {
                sb.append(params.get(param));
            }
            at = close + 1;
        }
        if (at == 0)
        {
            return value;
        }
        return sb.append(text, at, text.length()).toString();
    }

    private static void expandNode(
        final NodeConfig node, final SubgraphRegistry registry, final Deque<String> stack, final List<NodeConfig> out,
        final List<String> errors, final String location, final Map<String, String> locations)
    {
        final String type = node.calculatorName;
        if (stack.contains(type))
        {
            errors.add("node '" + node.name + "' uses subgraph '" + type + "' inside itself (" +
                String.join(" -> ", stack) + " -> " + type + "); a subgraph may not contain itself");
            return;
        }
        final String ambiguity = registry.ambiguity(type);
        if (ambiguity != null)
        {
            errors.add("node '" + node.name + "' uses subgraph '" + type + "', but " + ambiguity);
            return;
        }
        final GraphConfig sub = registry.lookup(type);
        final String prefix = node.name + SEPARATOR;
        final Map<String, String> streams = new HashMap<>();
        bind(node, "input stream", node.inputStreams, sub.inputStreamSpecs, streams, type, errors);
        bind(node, "output stream", node.outputStreams, sub.outputStreamSpecs, streams, type, errors);
        final Map<String, String> sidePackets = new HashMap<>();
        bind(node, "input side packet", node.inputSidePackets, sub.inputSidePackets, sidePackets, type, errors);
        bind(node, "output side packet", node.outputSidePackets, sub.outputSidePackets, sidePackets, type, errors);
        final Set<String> unbound = new HashSet<>();
        for (final String spec : sub.inputStreams)
        {
            if (!streams.containsKey(spec))
            {
                unbound.add(spec);
            }
        }
        stack.push(type);
        for (final NodeConfig child : sub.nodes)
        {
            final NodeConfig renamed = rename(child, prefix, streams, sidePackets, unbound, child.options);
            if (location != null)
            {
                locations.put(renamed.name, location + " (in subgraph " + type + ")");
            }
            if (renamed.calculatorName != null && registry.contains(renamed.calculatorName))
            {
                expandNode(renamed, registry, stack, out, errors, location, locations);
            }
            else
            {
                out.add(renamed);
            }
        }
        stack.pop();
    }

    /**
     * Binds a subgraph's boundary specs to the parent node's specs with the same tag and index.
     * Unbound subgraph boundary names stay internal (prefixed).
     */
    private static void bind(
        final NodeConfig node, final String kind, final List<String> parentSpecs, final List<String> subgraphSpecs,
        final Map<String, String> names, final String type, final List<String> errors)
    {
        final Map<String, String> subgraphByKey = keyed(subgraphSpecs);
        final Map<String, String> parentByKey = keyed(parentSpecs);
        for (final Map.Entry<String, String> e : parentByKey.entrySet())
        {
            final String inner = subgraphByKey.get(e.getKey());
            if (inner == null)
            {
                errors.add("node '" + node.name + "' gives " + kind + " '" + e.getKey() + "' to subgraph '" + type +
                    "', which has no such " + kind + "; its " + kind + "s are " + subgraphSpecs);
                continue;
            }
            names.put(inner, e.getValue());
        }
    }

    /** {@code TAG:index} to stream name; untagged specs are indexed by their position among untagged. */
    private static Map<String, String> keyed(final List<String> specs)
    {
        final Map<String, String> byKey = new LinkedHashMap<>();
        final Map<String, Integer> nextIndex = new HashMap<>();
        for (final String spec : specs)
        {
            final String[] parts = spec.split(":", -1);
            final String tag;
            final int index;
            final String name = parts[parts.length - 1];
            if (parts.length == 1)
            {
                tag = "";
                index = nextIndex.merge("", 1, Integer::sum) - 1;
            }
            else if (parts.length == 2)
            {
                tag = parts[0];
                index = nextIndex.merge(tag, 1, Integer::sum) - 1;
            }
            else
            {
                tag = parts[0];
                index = parseIndex(parts[1]);
            }
            byKey.put(tag + ":" + index, name);
        }
        return byKey;
    }

    private static int parseIndex(final String text)
    {
        try
        {
            return Integer.parseInt(text);
        }
        catch (final NumberFormatException ex)
        {
            return -1; // malformed: validation of the flat graph names it
        }
    }

    private static NodeConfig rename(
        final NodeConfig child, final String prefix, final Map<String, String> streams,
        final Map<String, String> sidePackets, final Set<String> unboundInputs, final Map<String, Object> options)
    {
        final NodeConfig.Builder b = new NodeConfig.Builder(prefix + child.name);
        if (child.calculatorName != null)
        {
            b.calculator(child.calculatorName);
        }
        else if (child.calculatorClass != null)
        {
            b.calculator(child.calculatorClass);
        }
        else if (child.calculatorFactory != null)
        {
            b.calculator(child.calculatorFactory);
        }
        for (final String spec : child.inputStreams)
        {
            if (!unboundInputs.contains(spec.substring(spec.lastIndexOf(':') + 1)))
            {
                b.inputStream(renameSpec(spec, prefix, streams));
            }
        }
        for (final String spec : child.outputStreams)
        {
            b.outputStream(renameSpec(spec, prefix, streams));
        }
        for (final String spec : child.inputSidePackets)
        {
            b.inputSidePacket(renameSpec(spec, prefix, sidePackets));
        }
        for (final String spec : child.outputSidePackets)
        {
            b.outputSidePacket(renameSpec(spec, prefix, sidePackets));
        }
        child.backEdges.forEach(b::backEdge);
        child.extensions.forEach(b::extension);
        options.forEach(b::option);
        b.executor(child.executor);
        if (child.inputPolicy != null)
        {
            b.inputPolicy(child.inputPolicy);
        }
        b.sourceLayer(child.sourceLayer);
        b.maxInFlight(child.maxInFlight);
        return b.build();
    }

    /** A spec with its name bound to the parent's stream, or made unique with the prefix. */
    private static String renameSpec(final String spec, final String prefix, final Map<String, String> bound)
    {
        final int colon = spec.lastIndexOf(':');
        final String name = spec.substring(colon + 1);
        final String to = bound.get(name);
        return spec.substring(0, colon + 1) + (to != null ? to : prefix + name);
    }
}
