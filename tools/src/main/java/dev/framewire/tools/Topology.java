package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The streams of a {@link GraphConfig} as the tools need them: who produces each stream, who
 * consumes it and through which input, which inputs are back edges, where each stream's
 * timestamps enter the graph, and which streams are the graph's ends. Read from the config
 * alone; a config that does not validate may give an incomplete picture (a stream with no
 * producer is left out of {@link #producerOf}), which is fine for the tools that use it after
 * validation.
 *
 * <p>Threading: one thread at a time (it caches what it computed).
 */
final class Topology
{
    /**
     * One input of a node.
     *
     * @param node     the consuming node's name.
     * @param spec     the input as written: {@code name}, {@code TAG:name} or {@code TAG:index:name}.
     * @param stream   the stream's name.
     * @param backEdge whether the node declared this input a back edge.
     */
    record Input(String node, String spec, String stream, boolean backEdge)
    {
    }

    /** The producer of a graph input stream in {@link #producerOf}. */
    static final String GRAPH_INPUT = "";

    private final GraphConfig config;
    private final Map<String, NodeConfig> nodes = new LinkedHashMap<>();
    private final Map<String, String> producers = new LinkedHashMap<>();
    private final Map<String, List<Input>> inputsByNode = new LinkedHashMap<>();
    private final Map<String, List<Input>> consumersByStream = new HashMap<>();
    private final Map<String, Set<String>> origins = new HashMap<>();

    Topology(final GraphConfig config)
    {
        this.config = config;
        for (final String input : config.inputStreams())
        {
            producers.put(input, GRAPH_INPUT);
        }
        for (final NodeConfig node : config.nodes())
        {
            nodes.put(node.name(), node);
            for (final String spec : node.outputStreams())
            {
                producers.putIfAbsent(streamName(spec), node.name());
            }
        }
        for (final NodeConfig node : config.nodes())
        {
            final List<Input> inputs = new ArrayList<>();
            for (final String spec : node.inputStreams())
            {
                final Input input = new Input(node.name(), spec, streamName(spec), isBackEdge(node, spec));
                inputs.add(input);
                consumersByStream.computeIfAbsent(input.stream(), s -> new ArrayList<>()).add(input);
            }
            inputsByNode.put(node.name(), Collections.unmodifiableList(inputs));
        }
    }

    /**
     * The stream name of a spec: the part after the last ':'.
     *
     * @param spec {@code name}, {@code TAG:name} or {@code TAG:index:name}.
     * @return the name.
     */
    static String streamName(final String spec)
    {
        return spec.substring(spec.lastIndexOf(':') + 1);
    }

    /**
     * Whether a node declared an input a back edge, by stream name, {@code TAG}, or
     * {@code TAG:index}, as {@code input_stream_info { tag_index }} refers to it.
     */
    static boolean isBackEdge(final NodeConfig node, final String spec)
    {
        final String[] parts = spec.split(":", -1);
        final String name = parts[parts.length - 1];
        final String tag = parts.length > 1 ? parts[0] : "";
        final String index = parts.length > 2 ? parts[1] : "0";
        for (final String key : node.backEdges())
        {
            if (key.equals(name) || (!tag.isEmpty() && (key.equals(tag + ":" + index) ||
                (index.equals("0") && key.equals(tag)))))
            {
                return true;
            }
        }
        return false;
    }

    GraphConfig config()
    {
        return config;
    }

    /** The nodes by name, in config order. */
    Map<String, NodeConfig> nodes()
    {
        return Collections.unmodifiableMap(nodes);
    }

    /** Every stream with a producer: graph inputs first, then node outputs in config order. */
    List<String> streams()
    {
        return new ArrayList<>(producers.keySet());
    }

    /** The node producing a stream, {@link #GRAPH_INPUT} for a graph input, or null if none does. */
    String producerOf(final String stream)
    {
        return producers.get(stream);
    }

    /** A node's inputs, in order. */
    List<Input> inputsOf(final String node)
    {
        return inputsByNode.getOrDefault(node, List.of());
    }

    /** The inputs that read a stream, in config order. */
    List<Input> consumersOf(final String stream)
    {
        return consumersByStream.getOrDefault(stream, List.of());
    }

    /** Whether a node has no input streams: the engine runs it repeatedly until it stops. */
    boolean isSource(final String node)
    {
        return nodes.get(node).inputStreams().isEmpty();
    }

    /** Whether a stream is where timestamps enter the graph: a graph input or a source node's output. */
    boolean isEntry(final String stream)
    {
        final String producer = producers.get(stream);
        return producer != null && (producer.equals(GRAPH_INPUT) || isSource(producer));
    }

    /**
     * The entry streams ({@link #isEntry}) upstream of a stream, following producers through
     * their inputs and leaving back edges out: where the timestamps of its packets came into the
     * graph. An entry stream's origin is itself.
     */
    Set<String> originsOf(final String stream)
    {
        final Set<String> known = origins.get(stream);
        if (known != null)
        {
            return known;
        }
        final Set<String> result = new LinkedHashSet<>();
        final Set<String> seen = new LinkedHashSet<>();
        final Deque<String> pending = new ArrayDeque<>();
        pending.add(stream);
        while (!pending.isEmpty())
        {
            final String s = pending.poll();
            if (!seen.add(s))
            {
                continue;
            }
            if (isEntry(s))
            {
                result.add(s);
                continue;
            }
            final String producer = producers.get(s);
            if (producer == null)
            {
                continue;
            }
            for (final Input input : inputsOf(producer))
            {
                if (!input.backEdge())
                {
                    pending.add(input.stream());
                }
            }
        }
        final Set<String> frozen = Collections.unmodifiableSet(result);
        origins.put(stream, frozen);
        return frozen;
    }

    /**
     * The streams where a run's packets end: the graph output streams, or, for a graph without
     * any, the streams its sink nodes (nodes without outputs) read, back edges left out.
     */
    List<String> endStreams()
    {
        if (!config.outputStreams().isEmpty())
        {
            return config.outputStreams();
        }
        final Set<String> ends = new LinkedHashSet<>();
        for (final NodeConfig node : config.nodes())
        {
            if (node.outputStreams().isEmpty())
            {
                for (final Input input : inputsOf(node.name()))
                {
                    if (!input.backEdge() && producers.containsKey(input.stream()))
                    {
                        ends.add(input.stream());
                    }
                }
            }
        }
        return new ArrayList<>(ends);
    }

    /**
     * A node and every node downstream of it, following streams forward and leaving back edges
     * out, in config order.
     */
    Set<String> downstreamOf(final String node)
    {
        final Set<String> reached = new LinkedHashSet<>();
        final Deque<String> pending = new ArrayDeque<>();
        pending.add(node);
        while (!pending.isEmpty())
        {
            final String n = pending.poll();
            if (!reached.add(n))
            {
                continue;
            }
            for (final String spec : nodes.get(n).outputStreams())
            {
                for (final Input consumer : consumersOf(streamName(spec)))
                {
                    if (!consumer.backEdge())
                    {
                        pending.add(consumer.node());
                    }
                }
            }
        }
        final Set<String> ordered = new LinkedHashSet<>();
        for (final String name : nodes.keySet())
        {
            if (reached.contains(name))
            {
                ordered.add(name);
            }
        }
        return ordered;
    }
}
