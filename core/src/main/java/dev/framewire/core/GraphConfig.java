package dev.framewire.core;

import dev.framewire.core.internal.run.GraphPlan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A graph's description: graph input and output streams, nodes, executors, queue limits and
 * run-wide policies. Built with {@link #builder()}; validated when a {@link Graph} is made from it.
 *
 * <pre>{@code
 * GraphConfig config = GraphConfig.builder()
 *     .inputStream("in")
 *     .node("double", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
 *     .outputStream("out")
 *     .build();
 * }</pre>
 *
 * <p>Threading: the builder is single-threaded; a built config is immutable.
 */
public final class GraphConfig extends RunSettings
{
    /** The executor every node runs on unless it names another. */
    public static final String DEFAULT_EXECUTOR = "default";
    /** The queue limit a {@code max_queue_size} of 0 stands for, as in MediaPipe. */
    public static final int DEFAULT_MAX_QUEUE_SIZE = 100;

    final List<String> inputStreams;
    final List<String> outputStreams;
    final List<NodeConfig> nodes;
    final Map<String, ExecutorConfig> executors;
    final Map<String, Integer> streamQueueSizes;
    final String type;
    final List<String> inputStreamSpecs;
    final List<String> outputStreamSpecs;
    final List<String> inputSidePackets;
    final List<String> outputSidePackets;
    final String source;
    final Map<String, String> nodeLocations;

    private GraphConfig(final Builder b)
    {
        super(b);
        this.source = b.source;
        this.nodeLocations = Collections.unmodifiableMap(new LinkedHashMap<>(b.nodeLocations));
        this.type = b.type;
        this.inputStreamSpecs = List.copyOf(b.inputStreamSpecs);
        this.outputStreamSpecs = List.copyOf(b.outputStreamSpecs);
        this.inputSidePackets = List.copyOf(b.inputSidePackets);
        this.outputSidePackets = List.copyOf(b.outputSidePackets);
        this.inputStreams = List.copyOf(b.inputStreams);
        this.outputStreams = List.copyOf(b.outputStreams);
        this.nodes = List.copyOf(b.nodes);
        this.executors = Collections.unmodifiableMap(new LinkedHashMap<>(b.executors));
        this.streamQueueSizes = Collections.unmodifiableMap(new LinkedHashMap<>(b.streamQueueSizes));
    }

    /**
     * Starts a config.
     *
     * @return a new builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * A builder holding everything this config holds, to derive another config from it (a tool
     * adding a journal to a config read from a file, say).
     *
     * @return a new builder.
     */
    public Builder toBuilder()
    {
        final Builder b = new Builder();
        b.copySettings(this);
        b.inputStreams.addAll(inputStreams);
        b.outputStreams.addAll(outputStreams);
        b.nodes.addAll(nodes);
        b.executors.putAll(executors);
        b.streamQueueSizes.putAll(streamQueueSizes);
        b.type = type;
        b.inputStreamSpecs.addAll(inputStreamSpecs);
        b.outputStreamSpecs.addAll(outputStreamSpecs);
        b.inputSidePackets.addAll(inputSidePackets);
        b.outputSidePackets.addAll(outputSidePackets);
        b.source = source;
        b.nodeLocations.putAll(nodeLocations);
        return b;
    }

    /**
     * This config's graph-wide settings (queue sizes, executors, policies, clock) with another
     * topology: for a hot-plugged subgraph, which runs under its graph's settings
     * ({@link Graph#addSubgraph}). No type, journal, source file or side packets.
     *
     * @param inputs     the graph input streams.
     * @param outputs    the graph output streams.
     * @param topology   the nodes.
     * @param queueSizes per-stream queue limits.
     * @return the config.
     */
    public GraphConfig withTopology(
        final List<String> inputs, final List<String> outputs, final List<NodeConfig> topology,
        final Map<String, Integer> queueSizes)
    {
        final Builder b = toBuilder();
        b.inputStreams.clear();
        b.inputStreamSpecs.clear();
        b.outputStreams.clear();
        b.outputStreamSpecs.clear();
        b.inputSidePackets.clear();
        b.outputSidePackets.clear();
        b.nodes.clear();
        b.nodeLocations.clear();
        b.streamQueueSizes.clear();
        b.inputStream(inputs.toArray(new String[0]));
        b.outputStream(outputs.toArray(new String[0]));
        b.nodes.addAll(topology);
        b.streamQueueSizes.putAll(queueSizes);
        b.type = null;
        b.journal = null;
        b.source = null;
        return b.build();
    }

    /**
     * Validation errors with where the config was written: an error about a node gets the node's
     * {@code file:line:column}, any other the file, when the config was read from text.
     *
     * @param errors validation errors.
     * @return them, located.
     */
    public List<String> locate(final List<String> errors)
    {
        if (source == null)
        {
            return errors;
        }
        final List<String> located = new ArrayList<>(errors.size());
        for (final String error : errors)
        {
            final java.util.regex.Matcher m = NODE_NAMED.matcher(error);
            final String where = m.find() ? nodeLocations.get(m.group(1)) : null;
            located.add((where != null ? where : source) + ": " + error);
        }
        return located;
    }

    private static final java.util.regex.Pattern NODE_NAMED = java.util.regex.Pattern.compile("node '([^']*)'");

    /**
     * Checks the graph's structure without its calculators: stream names and specs, one producer
     * per stream, every input produced, executors declared, cycles only through back edges. A
     * graph of calculators Framewire does not have (MediaPipe's own) can be checked so; a
     * {@link Graph} checks all this and the calculators and their options too.
     *
     * @return this.
     * @throws GraphConfigException listing every error.
     */
    public GraphConfig checkStructure()
    {
        new GraphPlan(this, true);
        return this;
    }

    /**
     * The graph's type name when it is a subgraph (MediaPipe's {@code type}), else null.
     *
     * @return the type name or null.
     */
    public String type()
    {
        return type;
    }

    /**
     * The graph input streams as written, with their tags ({@code IMAGE:image}); a subgraph binds
     * them to its parent node's inputs by tag and index.
     *
     * @return the specs.
     */
    public List<String> inputStreamSpecs()
    {
        return inputStreamSpecs;
    }

    /**
     * The graph output streams as written, with their tags.
     *
     * @return the specs.
     */
    public List<String> outputStreamSpecs()
    {
        return outputStreamSpecs;
    }

    /**
     * The graph's input side packets as written ({@code TAG:name} or {@code name}).
     *
     * @return the specs.
     */
    public List<String> inputSidePackets()
    {
        return inputSidePackets;
    }

    /**
     * The graph's output side packets as written.
     *
     * @return the specs.
     */
    public List<String> outputSidePackets()
    {
        return outputSidePackets;
    }

    /**
     * The graph input streams.
     *
     * @return the names.
     */
    public List<String> inputStreams()
    {
        return inputStreams;
    }

    /**
     * The graph output streams.
     *
     * @return the names.
     */
    public List<String> outputStreams()
    {
        return outputStreams;
    }

    /**
     * The nodes, in config order.
     *
     * @return the nodes.
     */
    public List<NodeConfig> nodes()
    {
        return nodes;
    }

    /**
     * The declared executors (the default one is implied when absent).
     *
     * @return name to executor.
     */
    public Map<String, ExecutorConfig> executors()
    {
        return executors;
    }

    /**
     * Per-stream queue limits, by stream name, overriding {@link #maxQueueSize()}.
     *
     * @return the value.
     */
    public Map<String, Integer> streamQueueSizes()
    {
        return streamQueueSizes;
    }

    /**
     * Builds a {@link GraphConfig}.
     */
    public static final class Builder extends RunSettingsBuilder<Builder>
    {
        private final List<String> inputStreams = new ArrayList<>();
        private final List<String> outputStreams = new ArrayList<>();
        private final List<NodeConfig> nodes = new ArrayList<>();
        private final Map<String, ExecutorConfig> executors = new LinkedHashMap<>();
        private final Map<String, Integer> streamQueueSizes = new LinkedHashMap<>();
        private String type;
        private String source;
        private final Map<String, String> nodeLocations = new LinkedHashMap<>();

        /** Where the config was read from, for validation errors (GraphConfigText sets it). */
        Builder source(final String file)
        {
            this.source = file;
            return this;
        }

        /** Replaces the nodes (subgraph expansion). */
        Builder replaceNodes(final List<NodeConfig> flat)
        {
            nodes.clear();
            nodes.addAll(flat);
            return this;
        }

        /** Where a node was written ({@code file:line:column}). */
        Builder nodeLocation(final String node, final String where)
        {
            nodeLocations.put(node, where);
            return this;
        }
        private final List<String> inputStreamSpecs = new ArrayList<>();
        private final List<String> outputStreamSpecs = new ArrayList<>();
        private final List<String> inputSidePackets = new ArrayList<>();
        private final List<String> outputSidePackets = new ArrayList<>();

        private Builder()
        {
        }

        @Override
        Builder self()
        {
            return this;
        }

        /**
         * Adds graph input streams, fed by {@link Graph#addPacket}.
         *
         * @param names stream names.
         * @return this.
         */
        public Builder inputStream(final String... names)
        {
            for (final String name : names)
            {
                inputStreamSpecs.add(name);
                inputStreams.add(streamName(name));
            }
            return this;
        }

        /**
         * The graph's type name, which makes it a subgraph other graphs use as a calculator
         * (MediaPipe's {@code type}; see {@link SubgraphRegistry}).
         *
         * @param typeName the name, or null.
         * @return this.
         */
        public Builder type(final String typeName)
        {
            this.type = typeName;
            return this;
        }

        /**
         * Adds graph input side packets.
         *
         * @param specs {@code name} or {@code TAG:name}.
         * @return this.
         */
        public Builder inputSidePacket(final String... specs)
        {
            Collections.addAll(inputSidePackets, specs);
            return this;
        }

        /**
         * Adds graph output side packets.
         *
         * @param specs {@code name} or {@code TAG:name}.
         * @return this.
         */
        public Builder outputSidePacket(final String... specs)
        {
            Collections.addAll(outputSidePackets, specs);
            return this;
        }

        /** The stream a graph stream spec names: {@code IMAGE:image} and {@code IMAGE:0:image} name {@code image}. */
        private static String streamName(final String spec)
        {
            return spec == null ? null : spec.substring(spec.lastIndexOf(':') + 1);
        }

        /**
         * Adds graph output streams, read by observers and pollers.
         *
         * @param names stream names.
         * @return this.
         */
        public Builder outputStream(final String... names)
        {
            for (final String name : names)
            {
                outputStreamSpecs.add(name);
                outputStreams.add(streamName(name));
            }
            return this;
        }

        /**
         * Adds a node.
         *
         * @param name  unique in the graph.
         * @param setup fills in the node's calculator, streams and settings.
         * @return this.
         */
        public Builder node(final String name, final Consumer<NodeConfig.Builder> setup)
        {
            final NodeConfig.Builder node = new NodeConfig.Builder(name);
            setup.accept(node);
            nodes.add(node.build());
            return this;
        }

        boolean hasExecutor(final String name)
        {
            return executors.containsKey(name);
        }

        /**
         * Declares an executor.
         *
         * @param name     the name nodes refer to; "default" replaces the default executor.
         * @param executor its workers and idle strategy.
         * @return this.
         */
        public Builder executor(final String name, final ExecutorConfig executor)
        {
            executors.put(name, executor);
            return this;
        }

        /**
         * Overrides the queue limit of one stream (at every consumer).
         *
         * @param stream the stream's name.
         * @param size   0 for {@value #DEFAULT_MAX_QUEUE_SIZE}, -1 for none, or a positive limit.
         * @return this.
         */
        public Builder streamQueueSize(final String stream, final int size)
        {
            streamQueueSizes.put(stream, size);
            return this;
        }

        /**
         * Finishes the config. Validation happens when a {@link Graph} is made from it.
         *
         * @return the config.
         */
        public GraphConfig build()
        {
            return new GraphConfig(this);
        }
    }
}
