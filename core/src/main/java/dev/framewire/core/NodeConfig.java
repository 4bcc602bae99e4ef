package dev.framewire.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One node of a {@link GraphConfig}: its calculator, streams, side packets, executor, input
 * policy and options. Built inside {@link GraphConfig.Builder#node(String, java.util.function.Consumer)}.
 *
 * <p>Streams are written as in MediaPipe: {@code name}, {@code TAG:name} or {@code TAG:index:name}.
 *
 * <p>Threading: the builder is single-threaded; a built config is immutable.
 */
public final class NodeConfig
{
    final String name;
    final String calculatorName;
    final Class<? extends Calculator> calculatorClass;
    final Supplier<? extends Calculator> calculatorFactory;
    final List<String> inputStreams;
    final List<String> outputStreams;
    final List<String> inputSidePackets;
    final List<String> outputSidePackets;
    final List<OptionsExtension> extensions;
    final Set<String> backEdges;
    final String executor;
    final InputPolicy inputPolicy;
    final Map<String, Object> options;
    final int sourceLayer;
    final int maxInFlight;

    private NodeConfig(final Builder b)
    {
        this.name = b.name;
        this.calculatorName = b.calculatorName;
        this.calculatorClass = b.calculatorClass;
        this.calculatorFactory = b.calculatorFactory;
        this.inputStreams = List.copyOf(b.inputStreams);
        this.outputStreams = List.copyOf(b.outputStreams);
        this.inputSidePackets = List.copyOf(b.inputSidePackets);
        this.outputSidePackets = List.copyOf(b.outputSidePackets);
        this.extensions = List.copyOf(b.extensions);
        this.backEdges = Collections.unmodifiableSet(new LinkedHashSet<>(b.backEdges));
        this.executor = b.executor;
        this.inputPolicy = b.inputPolicy;
        this.options = Collections.unmodifiableMap(new LinkedHashMap<>(b.options));
        this.sourceLayer = b.sourceLayer;
        this.maxInFlight = b.maxInFlight;
    }

    /**
     * The node's name, unique in its graph.
     *
     * @return the name.
     */
    public String name()
    {
        return name;
    }

    /**
     * The registered calculator name, or the class's simple name, or "factory".
     *
     * @return a name for the calculator.
     */
    public String calculator()
    {
        if (calculatorName != null)
        {
            return calculatorName;
        }
        return calculatorClass != null ? calculatorClass.getSimpleName() : "factory";
    }

    /**
     * The input stream specs, in order.
     *
     * @return the specs.
     */
    public List<String> inputStreams()
    {
        return inputStreams;
    }

    /**
     * The output stream specs, in order.
     *
     * @return the specs.
     */
    public List<String> outputStreams()
    {
        return outputStreams;
    }

    /**
     * The input side packet specs.
     *
     * @return the specs.
     */
    public List<String> inputSidePackets()
    {
        return inputSidePackets;
    }

    /**
     * The output side packet specs (MediaPipe's {@code output_side_packet}).
     *
     * @return the specs.
     */
    public List<String> outputSidePackets()
    {
        return outputSidePackets;
    }

    /**
     * MediaPipe options blocks kept as text ({@code options} extensions and {@code node_options}).
     *
     * @return the blocks, in the order written.
     */
    public List<OptionsExtension> extensions()
    {
        return extensions;
    }

    /**
     * The inputs declared as back edges, each as its {@code TAG:index}, tag or stream name.
     *
     * @return the declared back edges.
     */
    public Set<String> backEdges()
    {
        return backEdges;
    }

    /**
     * The executor's name.
     *
     * @return the name.
     */
    public String executor()
    {
        return executor;
    }

    /**
     * The input policy set in the config, or null for the calculator's choice (default unless its
     * {@link Contract} asks for another).
     *
     * @return the policy or null.
     */
    public InputPolicy inputPolicy()
    {
        return inputPolicy;
    }

    /**
     * The options as the config gives them.
     *
     * @return the options.
     */
    public Map<String, Object> options()
    {
        return options;
    }

    /**
     * For a source, its layer: a higher layer starts once every lower one is done.
     *
     * @return the layer, 0 by default.
     */
    public int sourceLayer()
    {
        return sourceLayer;
    }

    /**
     * How many {@code process} calls of this node may run at once, on different workers of its
     * executor (MediaPipe's {@code max_in_flight}).
     *
     * @return 1 by default: calls one after another.
     */
    public int maxInFlight()
    {
        return maxInFlight;
    }

    /**
     * The registered calculator name the node was given, or null.
     *
     * @return the value.
     */
    public String calculatorName()
    {
        return calculatorName;
    }

    /**
     * The calculator class the node was given, or null.
     *
     * @return the value.
     */
    public Class<? extends Calculator> calculatorClass()
    {
        return calculatorClass;
    }

    /**
     * The calculator factory the node was given, or null.
     *
     * @return the value.
     */
    public Supplier<? extends Calculator> calculatorFactory()
    {
        return calculatorFactory;
    }

    /**
     * Builds a {@link NodeConfig}.
     */
    public static final class Builder
    {
        private final String name;
        private String calculatorName;
        private Class<? extends Calculator> calculatorClass;
        private Supplier<? extends Calculator> calculatorFactory;
        private final List<String> inputStreams = new ArrayList<>();
        private final List<String> outputStreams = new ArrayList<>();
        private final List<String> inputSidePackets = new ArrayList<>();
        private final Set<String> backEdges = new LinkedHashSet<>();
        private String executor = GraphConfig.DEFAULT_EXECUTOR;
        private InputPolicy inputPolicy;
        private final Map<String, Object> options = new LinkedHashMap<>();
        private final List<String> outputSidePackets = new ArrayList<>();
        private final List<OptionsExtension> extensions = new ArrayList<>();
        private int sourceLayer;
        private int maxInFlight = 1;

        Builder(final String name)
        {
            this.name = name;
        }

        /**
         * The calculator by its registered name (see {@link CalculatorRegistry}).
         *
         * @param registeredName the name.
         * @return this.
         */
        public Builder calculator(final String registeredName)
        {
            this.calculatorName = registeredName;
            return this;
        }

        /**
         * The calculator by class; it needs a public no-argument constructor.
         *
         * @param type the class.
         * @return this.
         */
        public Builder calculator(final Class<? extends Calculator> type)
        {
            this.calculatorClass = type;
            return this;
        }

        /**
         * The calculator by factory, called once per run.
         *
         * @param factory makes the calculator.
         * @return this.
         */
        public Builder calculator(final Supplier<? extends Calculator> factory)
        {
            this.calculatorFactory = factory;
            return this;
        }

        /**
         * Adds input streams, in order.
         *
         * @param specs {@code name}, {@code TAG:name} or {@code TAG:index:name}.
         * @return this.
         */
        public Builder inputStream(final String... specs)
        {
            Collections.addAll(inputStreams, specs);
            return this;
        }

        /**
         * Adds output streams, in order.
         *
         * @param specs {@code name}, {@code TAG:name} or {@code TAG:index:name}.
         * @return this.
         */
        public Builder outputStream(final String... specs)
        {
            Collections.addAll(outputStreams, specs);
            return this;
        }

        /**
         * Adds input side packets.
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
         * Adds output side packets.
         *
         * @param specs {@code name} or {@code TAG:name}.
         * @return this.
         */
        public Builder outputSidePacket(final String... specs)
        {
            Collections.addAll(outputSidePackets, specs);
            return this;
        }

        /**
         * Adds a MediaPipe options block, kept as text for calculators that know its type.
         *
         * @param extension the block.
         * @return this.
         */
        public Builder extension(final OptionsExtension extension)
        {
            extensions.add(extension);
            return this;
        }

        /**
         * Declares an input stream as a back edge (MediaPipe's
         * {@code input_stream_info { tag_index: ... back_edge: true }}): it may close a cycle, and
         * it does not hold up this node's first timestamps.
         *
         * @param tagIndexOrName the input's {@code TAG:index}, {@code TAG}, or stream name.
         * @return this.
         */
        public Builder backEdge(final String tagIndexOrName)
        {
            backEdges.add(tagIndexOrName);
            return this;
        }

        /**
         * The executor to run on.
         *
         * @param executorName a name declared with {@link GraphConfig.Builder#executor}, or "default".
         * @return this.
         */
        public Builder executor(final String executorName)
        {
            this.executor = executorName;
            return this;
        }

        /**
         * The input policy.
         *
         * @param policy the policy.
         * @return this.
         */
        public Builder inputPolicy(final InputPolicy policy)
        {
            this.inputPolicy = policy;
            return this;
        }

        /**
         * Sets an option, checked against the calculator's {@link Contract}.
         *
         * @param optionName the option.
         * @param value      a Long/Integer, Double, Boolean or String.
         * @return this.
         */
        public Builder option(final String optionName, final Object value)
        {
            options.put(optionName, value);
            return this;
        }

        /**
         * For a source, its layer.
         *
         * @param layer 0 or more.
         * @return this.
         */
        public Builder sourceLayer(final int layer)
        {
            this.sourceLayer = layer;
            return this;
        }

        /**
         * Lets up to {@code calls} {@code process} calls of this node run at once, each on a worker
         * of the node's executor, for a calculator too slow to keep up on one thread. The engine
         * still hands its outputs and bounds downstream in input-timestamp order, as if the calls
         * had run one after another; {@code open} and {@code close} run alone.
         *
         * <p>The calculator's {@code process} must then be safe to call from several threads at
         * once: what it keeps between calls is its own to guard. Not for sources, nor with a
         * {@code batch_size} above 1. Concurrency is also bounded by the executor's workers.
         *
         * @param calls 1 or more; 1 (the default) runs the calls one after another.
         * @return this.
         */
        public Builder maxInFlight(final int calls)
        {
            this.maxInFlight = calls;
            return this;
        }

        NodeConfig build()
        {
            return new NodeConfig(this);
        }
    }
}
