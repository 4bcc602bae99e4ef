package dev.framewire.core;

import dev.framewire.core.internal.run.GraphPlan;

import dev.framewire.core.journal.JournalConfig;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

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
public final class GraphConfig
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
    final int maxQueueSize;
    final int queueHardCap;
    final boolean reportDeadlock;
    final ScheduleOrder scheduleOrder;
    final Backpressure backpressure;
    final FailurePolicy failurePolicy;
    final long timeoutGuardNanos;
    final NanoClock clock;
    final MemoryLimitPolicy memoryLimitPolicy;
    final long memoryBudgetBytes;
    final int maxShipmentSize;
    final long maxShipmentBytes;
    final int inputSetsPerRun;
    final int roomBatch;
    final int keptFailures;
    final JournalConfig journal;
    final String type;
    final List<String> inputStreamSpecs;
    final List<String> outputStreamSpecs;
    final List<String> inputSidePackets;
    final List<String> outputSidePackets;
    final String source;
    final Map<String, String> nodeLocations;

    private GraphConfig(final Builder b)
    {
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
        this.maxQueueSize = b.maxQueueSize;
        this.queueHardCap = b.queueHardCap;
        this.reportDeadlock = b.reportDeadlock;
        this.scheduleOrder = b.scheduleOrder;
        this.backpressure = b.backpressure;
        this.failurePolicy = b.failurePolicy;
        this.timeoutGuardNanos = b.timeoutGuardNanos;
        this.clock = b.clock;
        this.memoryLimitPolicy = b.memoryLimitPolicy;
        this.memoryBudgetBytes = b.memoryBudgetBytes;
        this.maxShipmentSize = b.maxShipmentSize;
        this.maxShipmentBytes = b.maxShipmentBytes;
        this.inputSetsPerRun = b.inputSetsPerRun;
        this.roomBatch = b.roomBatch;
        this.keptFailures = b.keptFailures;
        this.journal = b.journal;
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
        b.inputStreams.addAll(inputStreams);
        b.outputStreams.addAll(outputStreams);
        b.nodes.addAll(nodes);
        b.executors.putAll(executors);
        b.streamQueueSizes.putAll(streamQueueSizes);
        b.maxQueueSize = maxQueueSize;
        b.queueHardCap = queueHardCap;
        b.reportDeadlock = reportDeadlock;
        b.scheduleOrder = scheduleOrder;
        b.backpressure = backpressure;
        b.failurePolicy = failurePolicy;
        b.timeoutGuardNanos = timeoutGuardNanos;
        b.clock = clock;
        b.memoryLimitPolicy = memoryLimitPolicy;
        b.memoryBudgetBytes = memoryBudgetBytes;
        b.maxShipmentSize = maxShipmentSize;
        b.maxShipmentBytes = maxShipmentBytes;
        b.inputSetsPerRun = inputSetsPerRun;
        b.roomBatch = roomBatch;
        b.keptFailures = keptFailures;
        b.journal = journal;
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
     * Ready input sets a node may process per run (see {@link Builder#inputSetsPerRun(int)}).
     *
     * @return 1 by default.
     */
    public int inputSetsPerRun()
    {
        return inputSetsPerRun;
    }

    /**
     * How far below its limit a full queue drains before the sources and graph inputs it holds
     * back go on (see {@link Builder#roomBatch(int)}).
     *
     * @return 1 by default.
     */
    public int roomBatch()
    {
        return roomBatch;
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
     * The journal settings, or null when the run is not journaled.
     *
     * @return the journal config.
     */
    public JournalConfig journal()
    {
        return journal;
    }

    /**
     * The most payload bytes a source's shipment (one call) may hold, as configured: positive, 0
     * for the default derived from the memory budget, -1 for none.
     *
     * @return the configured value; see {@link Builder#maxShipmentBytes(long)}.
     */
    public long maxShipmentBytes()
    {
        return maxShipmentBytes;
    }

    /**
     * The graph-wide queue limit: 0 means {@value #DEFAULT_MAX_QUEUE_SIZE}, -1 none.
     *
     * @return the configured value.
     */
    public int maxQueueSize()
    {
        return maxQueueSize;
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
     * The most packets any queue may hold before the run fails (the hard cap).
     *
     * @return the value.
     */
    public int queueHardCap()
    {
        return queueHardCap;
    }

    /**
     * Whether a deadlock fails the run instead of growing the queue that holds it up.
     *
     * @return the value.
     */
    public boolean reportDeadlock()
    {
        return reportDeadlock;
    }

    /**
     * The order a worker runs its ready nodes in.
     *
     * @return the value.
     */
    public ScheduleOrder scheduleOrder()
    {
        return scheduleOrder;
    }

    /**
     * Which producers a full queue holds back.
     *
     * @return the value.
     */
    public Backpressure backpressure()
    {
        return backpressure;
    }

    /**
     * What a failed calculator call does to the run.
     *
     * @return the value.
     */
    public FailurePolicy failurePolicy()
    {
        return failurePolicy;
    }

    /**
     * How long a call may run before the watchdog fails the run, in nanoseconds; 0 for no watchdog.
     *
     * @return the value.
     */
    public long timeoutGuardNanos()
    {
        return timeoutGuardNanos;
    }

    /**
     * The clock the graph times calls and graph input arrivals with.
     *
     * @return the value.
     */
    public NanoClock clock()
    {
        return clock;
    }

    /**
     * What the run does when the memory budget is exceeded.
     *
     * @return the value.
     */
    public MemoryLimitPolicy memoryLimitPolicy()
    {
        return memoryLimitPolicy;
    }

    /**
     * The off-heap budget of a pool the graph makes itself, in bytes; 0 for the default.
     *
     * @return the value.
     */
    public long memoryBudgetBytes()
    {
        return memoryBudgetBytes;
    }

    /**
     * The most packets a source may emit in one call; 0 for no limit.
     *
     * @return the value.
     */
    public int maxShipmentSize()
    {
        return maxShipmentSize;
    }

    /**
     * How many failures the run keeps for {@code Graph.failures()}.
     *
     * @return the value.
     */
    public int keptFailures()
    {
        return keptFailures;
    }

    /**
     * Builds a {@link GraphConfig}.
     */
    public static final class Builder
    {
        private final List<String> inputStreams = new ArrayList<>();
        private final List<String> outputStreams = new ArrayList<>();
        private final List<NodeConfig> nodes = new ArrayList<>();
        private final Map<String, ExecutorConfig> executors = new LinkedHashMap<>();
        private final Map<String, Integer> streamQueueSizes = new LinkedHashMap<>();
        private int maxQueueSize;
        private int queueHardCap = 4096;
        private boolean reportDeadlock;
        private ScheduleOrder scheduleOrder = ScheduleOrder.MEDIAPIPE;
        private Backpressure backpressure = Backpressure.SOURCES;
        private FailurePolicy failurePolicy = FailurePolicy.FAIL_RUN;
        private long timeoutGuardNanos = 30_000_000_000L;
        private MemoryLimitPolicy memoryLimitPolicy = MemoryLimitPolicy.FAIL;
        private long memoryBudgetBytes;
        private int maxShipmentSize = 64;
        private long maxShipmentBytes;
        private int inputSetsPerRun = 1;
        private int roomBatch = 1;
        private int keptFailures = 16;
        private JournalConfig journal;
        private NanoClock clock = SystemNanoClock.INSTANCE;
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
         * The graph-wide queue limit per input stream (MediaPipe's {@code max_queue_size}).
         *
         * @param size 0 for {@value #DEFAULT_MAX_QUEUE_SIZE}, -1 for none, or a positive limit.
         * @return this.
         */
        public Builder maxQueueSize(final int size)
        {
            this.maxQueueSize = size;
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
         * The most packets any input queue may ever hold: its ring's capacity, the ceiling for
         * deadlock avoidance's raises. Past it the run fails.
         *
         * @param cap positive, 4096 by default.
         * @return this.
         */
        public Builder queueHardCap(final int cap)
        {
            this.queueHardCap = cap;
            return this;
        }

        /**
         * On a deadlock of full queues, fail the run naming them (true) or raise their limits (false,
         * the default).
         *
         * @param report whether to report instead of resolving.
         * @return this.
         */
        public Builder reportDeadlock(final boolean report)
        {
            this.reportDeadlock = report;
            return this;
        }

        /**
         * The order in which workers run ready nodes.
         *
         * @param order MediaPipe's (default) or BMF's.
         * @return this.
         */
        public Builder scheduleOrder(final ScheduleOrder order)
        {
            this.scheduleOrder = order;
            return this;
        }

        /**
         * What a full queue holds back.
         *
         * @param rule sources only (default) or every upstream node.
         * @return this.
         */
        public Builder backpressure(final Backpressure rule)
        {
            this.backpressure = rule;
            return this;
        }

        /**
         * What a calculator failure does to the run.
         *
         * @param policy the policy.
         * @return this.
         */
        public Builder failurePolicy(final FailurePolicy policy)
        {
            this.failurePolicy = policy;
            return this;
        }

        /**
         * The watchdog (BMF's alive watch): when work is pending and no node has run
         * for this long, the run fails with a report naming what waits on what: the node a worker is
         * stuck in (with its stack), the full queues, the streams whose bound does not settle.
         * 30 s by default; 0 turns it off.
         *
         * @param millis the timeout.
         * @return this.
         */
        public Builder timeoutGuardMillis(final long millis)
        {
            this.timeoutGuardNanos = millis * 1_000_000L;
            return this;
        }

        /**
         * What an acquire past the pool's hard limit does.
         *
         * @param policy fail (default) or drop the oldest queued packets.
         * @return this.
         */
        public Builder memoryLimitPolicy(final MemoryLimitPolicy policy)
        {
            this.memoryLimitPolicy = policy;
            return this;
        }

        /**
         * The off-heap budget of the pool a graph makes for itself: soft limit at 50 %, hard limit
         * at 75 % of it. Ignored when the graph is given a pool.
         *
         * @param maxBytes positive; 0 keeps the pool's default.
         * @return this.
         */
        public Builder memoryBudget(final long maxBytes)
        {
            this.memoryBudgetBytes = maxBytes;
            return this;
        }

        /**
         * The most packets a source may emit on one stream in one call (a shipment); it
         * is called again while it has more. 64 by default.
         *
         * @param size positive.
         * @return this.
         */
        public Builder maxShipmentSize(final int size)
        {
            this.maxShipmentSize = size;
            return this;
        }

        /**
         * The most off-heap bytes a source's shipment may hold: the payloads it emits in one call,
         * each counted at its slot size (what it counts against the budget), across its outputs. The
         * first payload of a call always goes out; an emit that would pass the cap after it fails
         * the call with a {@link MemoryLimitException}, as one past {@link #maxShipmentSize(int)}
         * does, so a source that makes frames ends its shipment when
         * {@link CalculatorContext#shipmentBytesLeft()} is below the next frame.
         *
         * <p>The default, 0, derives the cap from the pool's budget: its hard limit less its soft
         * limit (25 % of the budget with the graph's own pool), or half the soft limit when the two
         * limits are equal. Sources run only while the pool is under the soft limit, so a shipment
         * within that room cannot by itself pass the hard limit.
         *
         * @param bytes positive; 0 for the default derived from the budget; -1 for no cap.
         * @return this.
         */
        public Builder maxShipmentBytes(final long bytes)
        {
            this.maxShipmentBytes = bytes;
            return this;
        }

        /**
         * How many ready input sets a node may process each time a worker runs it. 1 (the
         * default) is MediaPipe's scheduling: one input set, then the worker picks the
         * highest-priority ready node again, so the order between nodes follows
         * {@link ScheduleOrder} exactly and the least is queued. More lets a node go on with its
         * next ready input sets without going back through the scheduler (a heap, the state
         * machine's fences) each time, while it stays open and nothing holds it back: several
         * times the throughput of a chain of small nodes (docs/BENCHMARKS.md, B2), at the price
         * of up to that many more packets queued between stages and a looser order between
         * nodes. Calls of one node keep their order either way, and outputs are delivered after
         * each call as before.
         *
         * @param count 1 or more.
         * @return this.
         */
        public Builder inputSetsPerRun(final int count)
        {
            this.inputSetsPerRun = count;
            return this;
        }

        /**
         * How many packets below its limit a full queue must drain before it lets the sources and
         * graph inputs it holds back go on. 1 (the default) is MediaPipe's rule: room for one packet
         * lets them go on, so a producer faster than the queue's consumer is let go and held back
         * again once per packet, each time a hand-over between two threads (the consumer's worker
         * and the adder, or a source's worker). {@code n} hands room out once per {@code n}
         * packets: the producer then adds up to {@code n} packets in a row, and a saturated chain
         * runs several times faster (docs/BENCHMARKS.md, B2 {@code FRAMEWIRE_BATCH128}).
         *
         * <p>What changes for the producers a full queue holds back, and only for them: once held
         * back, they stay held back (a waiting add waits, {@code tryAddPacket} is refused, a source
         * is not run) until the queue holds no more than its limit less {@code n}, or until its
         * consumer stops taking packets (its node goes idle, because it is not ready or has
         * closed), whichever comes first; so nothing waits on room that no one will hand out, and
         * the deadlock check sees what it does under MediaPipe's rule. A producer not held back
         * still adds whenever the queue is below its limit, and a batch never lets a queue hold
         * more than it could under MediaPipe's rule. Queues read by an {@code OutputPoller} keep
         * MediaPipe's rule.
         *
         * @param packets 1 or more; at or above a queue's limit, that queue hands room out only
         *                once it is empty.
         * @return this.
         */
        public Builder roomBatch(final int packets)
        {
            this.roomBatch = packets;
            return this;
        }

        /**
         * How many failures a run keeps with their causes, besides its first: the last {@code count}
         * (16 unless set). Every failure is still counted, by node and cause, and logged at WARN
         * (rate-limited), so a node that fails on every packet under
         * {@link FailurePolicy#DROP_TIMESTAMP} costs bounded memory. Java builder only.
         *
         * @param count 1 or more.
         * @return this.
         */
        public Builder keptFailures(final int count)
        {
            this.keptFailures = count;
            return this;
        }

        /**
         * Journals the run with Chronicle Queue (off unless set when embedded; the tools turn it on):
         * every graph input, emit, call, drop, bound move and error, for post-mortems and replay.
         * The journal is the {@code dev.framewire:framewire-journal} artifact, which must then be on
         * the class path: {@link Graph#start()} fails, saying to add it, when it is not.
         *
         * @param journal where and how, or null for none.
         * @return this.
         */
        public Builder journal(final JournalConfig journal)
        {
            this.journal = journal;
            return this;
        }

        /**
         * The clock the graph measures time with (the timeout guard, calculators' pacing, latency):
         * the system's by default; a {@code org.agrona.concurrent.CachedNanoClock} advanced by hand
         * makes time-dependent behaviour deterministic in tests.
         *
         * @param clock the clock.
         * @return this.
         */
        public Builder clock(final NanoClock clock)
        {
            this.clock = clock;
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
