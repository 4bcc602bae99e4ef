package dev.framewire.core;

import dev.framewire.core.internal.node.DropRecords;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.run.Run;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.offheap.MemoryBudget;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A snapshot of a graph's counters, for metrics and dashboards: per node the packets in and out,
 * calls, drops by reason, queue depth per input, calls in flight and time in {@code process}; for
 * the graph, the off-heap bytes in use, their peak and the budget's limits. Made by
 * {@link Graph#stats()}, or refilled in place by {@link Graph#stats(GraphStats)}, which allocates
 * nothing while the graph's nodes stay the same: a scraper keeps one snapshot and refills it on
 * each scrape.
 *
 * <p>Reusable rather than immutable because a scrape every few seconds for the life of a service,
 * over dozens of cameras' nodes, would otherwise make a few hundred objects each time, and a
 * latency-sensitive service counts its garbage; a caller that wants to keep figures copies them out.
 *
 * <p>What is read, and how: every counter has a single writer (the node's worker, or for a
 * {@code max_in_flight} node its step, handed between workers with a happens-before), written with
 * an opaque or volatile store, and is read here with an opaque, acquire or volatile load. So each
 * figure is one the counter really had during the fill, never torn, and no counter goes backwards
 * from one fill to the next. The figures are not one atomic cut of the graph: a packet may show as
 * out of one node and not yet in the next. Filling reads the counters only; the workers do nothing
 * for it.
 *
 * <p>Threading: fill from any thread, one fill at a time per snapshot; read a snapshot from the
 * thread that filled it (or after handing it over safely).
 */
public final class GraphStats
{
    /** Why a node dropped packets, as {@link Graph#dropCount(String)} counts them. */
    public enum DropReason
    {
        /** By the node's input policy: fixed size trimming its queues. */
        POLICY("policy"),
        /** On purpose by the calculator ({@link CalculatorContext#countDrop()}), as the flow limiter does. */
        CALCULATOR("calculator"),
        /** To stay within the memory budget under {@link MemoryLimitPolicy#DROP_OLDEST}. */
        MEMORY("memory"),
        /** A failed call's input set (or a source's shipment) under {@link FailurePolicy#DROP_TIMESTAMP}. */
        FAILURE("failure"),
        /** Left queued when the node closed early (its inputs still had packets it will never process). */
        CLOSE("close");

        /** How many reasons there are (a constant, for the array each node keeps; a test checks it). */
        static final int COUNT = DropRecords.REASONS;

        private final String tag;

        DropReason(final String tag)
        {
            this.tag = tag;
        }

        /**
         * The reason in lower case, as the engine's logs, JFR drop events and metrics tags name it.
         *
         * @return e.g. {@code "policy"}.
         */
        public String tag()
        {
            return tag;
        }
    }

    /** One input stream of a node, in a {@link GraphStats} snapshot. */
    public static final class InputStats
    {
        private final String stream;
        private final InputQueue queue;
        private int queued;
        private int limit;
        private long arrived;

        InputStats(final InputQueue queue)
        {
            this.stream = queue.streamName;
            this.queue = queue;
        }

        void fill()
        {
            queued = queue.size();
            limit = queue.limit;
            arrived = queue.arrived();
        }

        /**
         * The stream's name.
         *
         * @return the name.
         */
        public String stream()
        {
            return stream;
        }

        /**
         * Packets waiting in this input's queue: the queue depth.
         *
         * @return packets.
         */
        public int queued()
        {
            return queued;
        }

        /**
         * The queue's limit ({@code max_queue_size}, as raised by deadlock avoidance), or
         * {@link Integer#MAX_VALUE} for none.
         *
         * @return packets.
         */
        public int limit()
        {
            return limit;
        }

        /**
         * Packets that arrived on this input so far (taken, dropped or still queued).
         *
         * @return packets.
         */
        public long arrived()
        {
            return arrived;
        }
    }

    /** One node, in a {@link GraphStats} snapshot. */
    public static final class NodeStats
    {
        private final Node node;
        private final InputStats[] inputs;
        private final List<InputStats> inputList;
        private final long[] dropsByReason = new long[DropReason.COUNT];
        private long calls;
        private long packetsIn;
        private long packetsOut;
        private long drops;
        private int callsInFlight;
        private long processNanos;

        NodeStats(final Node node)
        {
            this.node = node;
            this.inputs = new InputStats[node.inputs.length];
            for (int i = 0; i < inputs.length; i++)
            {
                inputs[i] = new InputStats(node.inputs[i].queue);
            }
            this.inputList = Collections.unmodifiableList(Arrays.asList(inputs));
        }

        void fill()
        {
            long in = 0;
            for (final InputStats input : inputs)
            {
                input.fill();
                in += input.arrived;
            }
            packetsIn = in;
            long out = 0;
            for (final OutputStream output : node.outputs)
            {
                out += output.deliveredCount();
            }
            packetsOut = out;
            calls = node.calls;
            drops = node.drops;
            for (int r = 0; r < DropReason.COUNT; r++)
            {
                dropsByReason[r] = node.dropRecords.byReasonOpaque(r);
            }
            callsInFlight = inFlight(node);
            processNanos = node.callNanosOpaque();
        }

        /**
         * Calls in flight: for a {@code max_in_flight} node its calls handed out and not yet
         * retired, else 1 while a worker is in one of its steps (a call, or its open or close).
         */
        private static int inFlight(final Node node)
        {
            if (node.lanes != null)
            {
                return (int)Math.max(0, Math.min(node.lanes.count(), node.callsInFlight())); // racy: bounded
            }
            final Worker worker = Worker.of(node);
            return worker != null && worker.current() == node ? 1 : 0;
        }

        /**
         * The node's name.
         *
         * @return the name.
         */
        public String name()
        {
            return node.name;
        }

        /**
         * The node's id in its graph, never given to another node of the graph, even one added
         * later under the same name (a subgraph removed and added again): tells the two apart.
         *
         * @return the id.
         */
        public int id()
        {
            return node.id;
        }

        /**
         * The executor the node runs on.
         *
         * @return the executor's name.
         */
        public String executor()
        {
            return node.config.executor;
        }

        /**
         * Whether the node is a source (it has no input streams).
         *
         * @return true for a source.
         */
        public boolean isSource()
        {
            return node.isSource;
        }

        /**
         * Calls so far, as {@link Graph#callCount(String)}: input sets processed, or a source's calls.
         *
         * @return calls.
         */
        public long calls()
        {
            return calls;
        }

        /**
         * Packets that arrived on the node's inputs so far: the sum of its inputs'
         * {@link InputStats#arrived()}.
         *
         * @return packets.
         */
        public long packetsIn()
        {
            return packetsIn;
        }

        /**
         * Packets the node emitted that went out (delivered to its consumers and observers) so far,
         * across its outputs.
         *
         * @return packets.
         */
        public long packetsOut()
        {
            return packetsOut;
        }

        /**
         * Packets dropped so far, as {@link Graph#dropCount(String)}: the sum over every reason.
         *
         * @return packets.
         */
        public long drops()
        {
            return drops;
        }

        /**
         * Packets dropped so far for one reason.
         *
         * @param reason the reason.
         * @return packets.
         */
        public long drops(final DropReason reason)
        {
            return dropsByReason[reason.ordinal()];
        }

        /**
         * Calls in flight now: for a {@code max_in_flight} node its calls handed out and not yet
         * retired (up to {@code max_in_flight}); for another node 1 while a worker is in one of its
         * steps (a call, open or close), else 0.
         *
         * @return calls.
         */
        public int callsInFlight()
        {
            return callsInFlight;
        }

        /**
         * Nanoseconds spent in {@code process} so far, by the graph's clock, over every call that
         * returned or threw; 0 unless the graph times calls ({@link GraphStats#processCallsTimed()}).
         *
         * @return nanoseconds.
         */
        public long processNanos()
        {
            return processNanos;
        }

        /**
         * The node's inputs, in the order of its input streams.
         *
         * @return an unmodifiable list, refilled with the snapshot.
         */
        public List<InputStats> inputs()
        {
            return inputList;
        }

        /**
         * Packets queued on all the node's inputs.
         *
         * @return packets.
         */
        public long queued()
        {
            long sum = 0;
            for (final InputStats input : inputs)
            {
                sum += input.queued;
            }
            return sum;
        }
    }

    private final Run graph;
    /** The graph's node array this snapshot was made for: refilled in place only while it is the same. */
    private final Node[] source;
    private final NodeStats[] nodes;
    private final List<NodeStats> nodeList;
    private boolean processCallsTimed;
    private long offHeapBytesInUse;
    private long offHeapPeakBytes;
    private long offHeapReservedBytes;
    private long offHeapMaxBytes;
    private long offHeapSoftLimitBytes;
    private long offHeapHardLimitBytes;
    private long memoryDrops;
    private long failures;

    private GraphStats(final Run graph, final Node[] source)
    {
        this.graph = graph;
        this.source = source;
        this.nodes = new NodeStats[source.length];
        for (int i = 0; i < source.length; i++)
        {
            nodes[i] = new NodeStats(source[i]);
        }
        this.nodeList = Collections.unmodifiableList(Arrays.asList(nodes));
    }

    /** {@link Graph#stats(GraphStats)}: refills {@code reuse} if made for these nodes, else a new one. */
    static GraphStats fill(final Run graph, final GraphStats reuse)
    {
        final Node[] current = graph.nodes();
        final GraphStats stats = reuse != null && reuse.graph == graph && reuse.source == current ? reuse :
            new GraphStats(graph, current);
        stats.fill();
        return stats;
    }

    private void fill()
    {
        processCallsTimed = graph.runState.timesProcessCalls;
        for (final NodeStats node : nodes)
        {
            node.fill();
        }
        final MemoryBudget budget = graph.pool().budget();
        offHeapBytesInUse = budget.bytesInUse();
        offHeapPeakBytes = budget.peakBytesInUse();
        offHeapReservedBytes = budget.bytesReserved();
        offHeapMaxBytes = budget.maxBytes();
        offHeapSoftLimitBytes = budget.softLimitBytes();
        offHeapHardLimitBytes = budget.hardLimitBytes();
        memoryDrops = graph.memoryDropCount();
        failures = graph.failureCount();
    }

    /**
     * Every node, in config order.
     *
     * @return an unmodifiable list, refilled with the snapshot.
     */
    public List<NodeStats> nodes()
    {
        return nodeList;
    }

    /**
     * One node by name (a scan: look a node up once and keep its {@link NodeStats}, which a refill
     * in place keeps).
     *
     * @param name a node's name.
     * @return its stats.
     * @throws IllegalArgumentException naming the nodes there are, if there is no such node.
     */
    public NodeStats node(final String name)
    {
        for (final NodeStats node : nodes)
        {
            if (node.node.name.equals(name))
            {
                return node;
            }
        }
        final StringBuilder names = new StringBuilder();
        for (final NodeStats node : nodes)
        {
            names.append(names.length() == 0 ? "" : ", ").append(node.node.name);
        }
        throw new IllegalArgumentException("no node '" + name + "' in these stats; nodes are [" + names + "]");
    }

    /**
     * Whether nodes time their {@code process} calls ({@link Graph#timeProcessCalls()}): without,
     * {@link NodeStats#processNanos()} stays 0.
     *
     * @return true when timed.
     */
    public boolean processCallsTimed()
    {
        return processCallsTimed;
    }

    /**
     * Off-heap bytes in use in the graph's pool now (slots acquired, at slot size). A pool shared
     * by several graphs counts them all.
     *
     * @return bytes.
     */
    public long offHeapBytesInUse()
    {
        return offHeapBytesInUse;
    }

    /**
     * The most off-heap bytes in use at once so far (since the pool was made or its peak reset).
     *
     * @return bytes.
     */
    public long offHeapPeakBytes()
    {
        return offHeapPeakBytes;
    }

    /**
     * Off-heap bytes of slabs the pool has allocated (they are reused, not given back, while the
     * pool lives).
     *
     * @return bytes.
     */
    public long offHeapReservedBytes()
    {
        return offHeapReservedBytes;
    }

    /**
     * The memory budget: the most slab bytes the pool may allocate.
     *
     * @return bytes.
     */
    public long offHeapMaxBytes()
    {
        return offHeapMaxBytes;
    }

    /**
     * The memory budget's soft limit: above it, sources are held back.
     *
     * @return bytes.
     */
    public long offHeapSoftLimitBytes()
    {
        return offHeapSoftLimitBytes;
    }

    /**
     * The memory budget's hard limit: no acquire passes it.
     *
     * @return bytes.
     */
    public long offHeapHardLimitBytes()
    {
        return offHeapHardLimitBytes;
    }

    /**
     * Packets dropped to stay within the memory budget, as {@link Graph#memoryDropCount()}
     * (also in the nodes' {@link DropReason#MEMORY} drops).
     *
     * @return packets.
     */
    public long memoryDrops()
    {
        return memoryDrops;
    }

    /**
     * Failures so far, as {@link Graph#failureCount()}.
     *
     * @return failures.
     */
    public long failures()
    {
        return failures;
    }
}
