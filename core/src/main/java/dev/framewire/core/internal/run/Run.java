package dev.framewire.core.internal.run;

import dev.framewire.core.Backpressure;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.NodeRunState;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.PollerSignal;
import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Watchdog;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.core.internal.stream.StreamSpec;


import dev.framewire.offheap.Payload;
import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import org.agrona.concurrent.NanoClock;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One run of a graph: the nodes, streams, workers and journal made from a {@link GraphConfig}, and
 * the run's life (start, add, wait, cancel, close, failures, hot-plug). The public
 * {@code dev.framewire.core.Graph} is a facade over it; its javadoc is the contract of the methods
 * here that share its names.
 *
 * <p>Threading: as the facade says; the engine callbacks as each says.
 */
public final class Run implements AutoCloseable
{
    private final GraphConfig config;
    private final GraphPlan plan;
    private final PayloadPool pool;
    private final boolean ownPool;
    /** The graph's own nodes, by id. */
    private final Node[] ownNodes;
    /** Who runs what and when: the workers, every node and queue, pause, idle and the deadlock check. */
    public final Scheduler scheduler;
    /** Graph input streams by name, the subgraphs' too; copied on write by {@link Hotplug} under the hot-plug lock. */
    public volatile Map<String, GraphInput> inputs;
    private final Map<String, OutputStream> producers = new HashMap<>();
    /** The subgraphs added at run time, and the hot-plug lock. */
    private final Hotplug hotplug;
    private final List<InputQueue> pollerQueues = new ArrayList<>();
    private final List<Runnable> pollerReleases = new ArrayList<>();
    /**
     * Stream name to the journal's stream id, in producer order (graph inputs first), then the
     * hot-plugged subgraphs' streams while they are in (see {@link SubgraphJournal}).
     */
    private final Map<String, Integer> streamIds = new java.util.concurrent.ConcurrentHashMap<>();
    /** The run's journal, or null; set in {@link #start} before any worker or adder uses it. */
    public JournalSink journal;
    /** What opened {@link #journal}, or null; set in {@link #start} before the JVM flag check. */
    public JournalProvider journalProvider;

    /** Nodes not closed yet, the subgraphs' too: the run ends when none is left. */
    private final AtomicInteger openNodes = new AtomicInteger();

    /** What happens when something fails, and the run's failures. */
    private final FailureHandling failureHandling;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean started;
    private volatile boolean closed;
    /**
     * Completed by the completer thread ({@link #completion()}) once the run has ended and its
     * workers stopped. Its monitor guards {@link #completionWanted} and the start of that thread.
     */
    private final CompletableFuture<Void> completion = new CompletableFuture<>();
    private boolean completionWanted;
    private volatile boolean cancelled;
    private volatile boolean finished;
    private Thread guard;
    private volatile boolean recordsArrivals;
    /** The memory budget's soft and hard limits as they bear on this run. */
    public final MemoryGovernor memory;
    /** The most payload bytes a source's call may emit: max_shipment_bytes, or derived from the budget. */
    private final long shipmentByteCap;
    /** What the graph's nodes, the subgraphs' too, see of it: made before any node. */
    public final RunState runState = new RunState();

    /**
     * Validates a config and builds a graph with a payload pool of its own (default settings).
     *
     * @param config the graph.
     * @throws GraphConfigException listing every error found.
     */
    public Run(final GraphConfig config)
    {
        this(config, null);
    }

    /**
     * Validates a config and builds a graph over a given payload pool.
     *
     * @param config the graph.
     * @param pool   the pool calculators acquire from, or null for one of the graph's own.
     * @throws GraphConfigException listing every error found.
     */
    public Run(final GraphConfig config, final PayloadPool pool)
    {
        this.config = config;
        this.plan = new GraphPlan(config);
        this.ownPool = pool == null;
        this.pool = pool != null ? pool : new PayloadPool(
            config.memoryBudgetBytes() > 0 ? new PoolContext().maxBytes(config.memoryBudgetBytes()) : new PoolContext());
        this.memory = new MemoryGovernor(this.pool.budget(), runState::scheduleSources);
        this.shipmentByteCap = shipmentByteCap(config.maxShipmentBytes(), this.pool.budget());
        final Node[] nodes = new Node[plan.nodeCount];
        for (int i = 0; i < plan.nodeCount; i++)
        {
            nodes[i] = new Node(runState, i, config.nodes().get(i), plan.calculators[i], plan.options[i],
                plan.contracts[i], plan.inputSpecs[i].length == 0, null);
        }
        this.ownNodes = nodes;
        this.scheduler = new Scheduler(config, plan, runState, memory, nodes);
        this.hotplug = new Hotplug(this, config, plan, nodes, producers, scheduler, streamIds);
        this.failureHandling = new FailureHandling(this, config, plan, this.pool, memory, hotplug);
        final Map<String, GraphInput> inputs = new LinkedHashMap<>();
        for (int k = 0; k < config.inputStreams().size(); k++)
        {
            final GraphInput input = new GraphInput(this, config.inputStreams().get(k));
            inputs.put(input.name, input);
            producers.put(input.name, input.stream);
        }
        this.inputs = Collections.unmodifiableMap(inputs);
        for (final Node node : nodes)
        {
            final StreamSpec[] specs = plan.outputSpecs[node.id];
            node.outputs = new OutputStream[specs.length];
            for (int o = 0; o < specs.length; o++)
            {
                node.outputs[o] = new OutputStream(runState, node, o, specs[o]);
                producers.put(specs[o].name, node.outputs[o]);
            }
        }
        for (final Node node : nodes)
        {
            final StreamSpec[] specs = plan.inputSpecs[node.id];
            node.inputs = new InputPort[specs.length];
            for (int p = 0; p < specs.length; p++)
            {
                final int producer = plan.producers.get(specs[p].name);
                final InputQueue queue = new InputQueue(specs[p].name, producer >= 0 ? nodes[producer] : null, node, p,
                    plan.backEdges[node.id][p], config.queueHardCap(), plan.queueLimit(specs[p].name), config.roomBatch());
                attach(producers.get(specs[p].name), queue);
                node.inputs[p] = new InputPort(node, p, specs[p], queue);
            }
            node.initInputs();
        }
        for (int t = 0; t < plan.topoOrder.length; t++)
        {
            nodes[plan.topoOrder[t]].topoIndex = t;
        }
        for (final String stream : plan.producers.keySet())
        {
            final int id = streamIds.size();
            streamIds.put(stream, id);
            producers.get(stream).streamId = id;
        }
        scheduler.makeWorkers();
    }

    /**
     * max_shipment_bytes as configured, or by default the budget's hard limit less its soft limit:
     * sources run only under the soft limit, so a shipment within that room cannot pass the hard
     * limit by itself; half the soft limit when the two limits are equal.
     */
    private static long shipmentByteCap(final long configured, final MemoryBudget budget)
    {
        if (configured > 0)
        {
            return configured;
        }
        if (configured < 0)
        {
            return Long.MAX_VALUE;
        }
        final long room = budget.hardLimitBytes() - budget.softLimitBytes();
        return Math.max(1, room > 0 ? room : budget.softLimitBytes() / 2);
    }

    /** The most payload bytes, at slot size, a source may emit in one call. */
    public long shipmentByteCap()
    {
        return shipmentByteCap;
    }

    private void attach(final OutputStream producer, final InputQueue queue)
    {
        attach(producer, queue, scheduler.queues);
    }

    /** Before the producer runs: {@code queue} consumes its stream. */
    public static void attach(final OutputStream producer, final InputQueue queue, final List<InputQueue> into)
    {
        producer.mirrors = Arrays.copyOf(producer.mirrors, producer.mirrors.length + 1);
        producer.mirrors[producer.mirrors.length - 1] = queue;
        into.add(queue);
    }

    /**
     * The pool calculators and callers acquire off-heap payloads from.
     *
     * @return the pool.
     */
    public PayloadPool pool()
    {
        return pool;
    }

    /**
     * The config this graph was made from.
     *
     * @return the config.
     */
    public GraphConfig config()
    {
        return config;
    }

    /**
     * Calls an observer with every packet of a stream, on the producing worker, when the producing
     * call returns. Call before {@link #start}.
     *
     * @param stream   any stream of the graph.
     * @param observer the observer.
     * @throws IllegalArgumentException if no node or graph input produces the stream.
     */
    public void observe(final String stream, final PacketObserver observer)
    {
        checkNotStarted("observe");
        final OutputStream producer = producerOf(stream);
        producer.observers = Arrays.copyOf(producer.observers, producer.observers.length + 1);
        producer.observers[producer.observers.length - 1] = observer;
    }

    /**
     * Makes a poller that pulls a stream's packets on the caller's thread. Call before {@link #start}.
     *
     * @param stream any stream of the graph.
     * @return the poller.
     * @throws IllegalArgumentException if no node or graph input produces the stream.
     */
    public InputQueue pollerQueue(final String stream, final Runnable releaseCurrent)
    {
        checkNotStarted("poller");
        final OutputStream producer = producerOf(stream);
        final int id = plan.producers.get(stream);
        final InputQueue queue = new InputQueue(stream, id >= 0 ? ownNodes[id] : null, null, -1, false,
            config.queueHardCap(), plan.queueLimit(stream), 1);
        queue.poller = new PollerSignal();
        attach(producer, queue);
        pollerQueues.add(queue);
        pollerReleases.add(releaseCurrent);
        return queue;
    }

    private OutputStream producerOf(final String stream)
    {
        final OutputStream producer = producers.get(stream);
        if (producer == null)
        {
            throw new IllegalArgumentException("no node or graph input produces stream '" + stream +
                "'; streams are " + plan.producers.keySet());
        }
        return producer;
    }

    private void checkNotStarted(final String what)
    {
        if (started)
        {
            throw new IllegalStateException(what + "() must be called before start(); this graph's run is " +
                runState());
        }
    }

    /** Before a start: this graph has not run and is not closed, or why it cannot start. */
    private void checkStartable()
    {
        if (closed && !started)
        {
            throw new IllegalStateException("start(): this graph was closed without being started; make a new " +
                "Graph(config) to run it");
        }
        if (started)
        {
            throw new IllegalStateException("start() was called before: this graph's run is " + runState() + ". A " +
                "Graph runs once: wait for this run with waitUntilDone() or completion(), end it with cancel(), and " +
                "make a new Graph(config) for another run");
        }
    }

    /** The run's state, for messages: running, or how it ended. */
    public String runState()
    {
        if (!finished)
        {
            return cancelled ? "being cancelled" : runState.stopping ? "failing" : "running";
        }
        return (failureHandling.runFailed() ? "over: it failed" : cancelled ? "over: it was cancelled" :
            "over: it is done") + (closed ? ", and the graph is closed" : "");
    }

    /**
     * Makes graph inputs remember when each packet was added, for
     * {@link CalculatorContext#graphInputNanos(long)} (a clock read per added packet). On when
     * any node's calculator asks for it in its {@link Contract}; call before {@link #start}.
     */
    public void recordGraphInputArrivals()
    {
        recordsArrivals = true;
    }

    /**
     * Makes every node time its {@code process} calls with the graph's clock, for
     * {@link GraphStats.NodeStats#processNanos()}: two clock reads per call, so off unless asked
     * for (the workers read no clock otherwise). Call before {@link #start}.
     *
     * @throws IllegalStateException if the graph has started.
     */
    public void timeProcessCalls()
    {
        checkNotStarted("timeProcessCalls");
        runState.timesProcessCalls = true;
    }

    /**
     * Starts the run without side packets.
     */
    public void start()
    {
        start(Map.of());
    }

    /**
     * Starts the run: opens every node on its worker, then lets sources run.
     *
     * @param sidePackets values for the nodes' input side packets, by name.
     * @throws IllegalArgumentException naming each node and side packet that has no value.
     * @throws IllegalStateException if the graph was started before (saying whether its run is
     *         still going or how it ended) or closed, if the JVM lacks a flag
     *         ({@code --add-exports}, {@code --add-opens}) the graph needs, naming it, or if the
     *         config asks for a journal and {@code dev.framewire:framewire-journal} is not on the
     *         class path, saying to add it.
     */
    public void start(final Map<String, ?> sidePackets)
    {
        start(sidePackets, true);
    }

    /**
     * Starts the run with no thread for its workers: the calling thread then runs every duty cycle
     * itself, {@link Worker#onStart()} once and then {@link Worker#doWork()} on each worker, and
     * adds the packets too. Not API: for {@code HopPathBenchmark} (framewire-bench), which measures
     * the engine's own work per packet on one thread, apart from the transfers between cores that
     * the two-thread benchmarks measure with it and that change with the host's state.
     *
     * @return the workers, in id order, for the caller to drive.
     */
    public List<Worker> startWithoutWorkerThreads()
    {
        start(Map.of(), false);
        return List.copyOf(scheduler.workers);
    }

    private void start(final Map<String, ?> sidePackets, final boolean workerThreads)
    {
        checkStartable();
        final Node[] nodes = scheduler.nodes; // the graph's own: no subgraph is added before the start
        journalProvider = config.journal() != null ? EngineJournal.provider() : null;
        JvmFlags.check(journalProvider);
        final List<String> missing = new ArrayList<>();
        for (final Node node : nodes)
        {
            final Map<String, Object> values = new HashMap<>();
            for (final String spec : node.config.inputSidePackets())
            {
                final String name = StreamSpec.parse(spec).name;
                if (!sidePackets.containsKey(name))
                {
                    missing.add("node '" + node.name + "' needs side packet '" + name + "'");
                }
                values.put(name, sidePackets.get(name));
            }
            node.sidePackets = values;
        }
        if (!missing.isEmpty())
        {
            throw new IllegalArgumentException("missing side packets: " + String.join("; ", missing) +
                "; given were " + sidePackets.keySet());
        }
        wireBackpressure();
        scheduler.makeLocalNodes();
        if (config.journal() != null)
        {
            journal = EngineJournal.open(journalProvider, config, scheduler.nodes, streamIds, scheduler.workers);
            for (final Worker worker : scheduler.workers)
            {
                worker.journal = journal.worker(worker.id);
            }
        }
        for (int i = 0; i < nodes.length; i++)
        {
            recordsArrivals |= plan.contracts[i].recordsGraphInputArrivals();
        }
        synchronized (completion)
        {
            started = true;
            if (completionWanted)
            {
                startCompleter();
            }
        }
        openNodes.set(nodes.length);
        scheduler.start(workerThreads);
        if (nodes.length == 0)
        {
            checkFinishedWithoutNodes();
        }
        if (config.timeoutGuardNanos() > 0)
        {
            guard = new Thread(new Watchdog(this), "framewire-timeout-guard");
            guard.setDaemon(true);
            guard.start();
        }
    }

    /** Who waits on which queue: MediaPipe's upstream sources, and BMF's producers when asked. */
    private void wireBackpressure()
    {
        final GraphInput[] planInputs = new GraphInput[config.inputStreams().size()];
        for (int k = 0; k < planInputs.length; k++)
        {
            planInputs[k] = inputs.get(config.inputStreams().get(k));
        }
        wireBackpressure(scheduler.queues, plan, ownNodes, planInputs);
    }

    /**
     * Who waits on which of {@code queues}, before any of them is used: the plan's node {@code i}
     * is {@code planNodes[i]}, its graph input {@code k} is {@code planInputs[k]}.
     */
    private void wireBackpressure(
        final List<InputQueue> queues, final GraphPlan plan, final Node[] planNodes, final GraphInput[] planInputs)
    {
        final Map<Node, List<InputQueue>> nodeQueues = new HashMap<>();
        final Map<GraphInput, List<InputQueue>> inputQueues = new HashMap<>();
        for (final InputQueue queue : queues)
        {
            if (queue.backEdge)
            {
                continue;
            }
            final Set<Integer> sources = plan.sourcesOfStream(queue.streamName);
            final List<Node> wakeNodes = new ArrayList<>();
            final List<GraphInput> wakeInputs = new ArrayList<>();
            for (final int source : sources)
            {
                if (source >= 0)
                {
                    wakeNodes.add(planNodes[source]);
                    nodeQueues.computeIfAbsent(planNodes[source], n -> new ArrayList<>()).add(queue);
                }
                else
                {
                    final GraphInput input = planInputs[-1 - source];
                    wakeInputs.add(input);
                    inputQueues.computeIfAbsent(input, n -> new ArrayList<>()).add(queue);
                }
            }
            if (config.backpressure() == Backpressure.ALL_NODES && queue.producer != null && !queue.producer.isSource)
            {
                wakeNodes.add(queue.producer);
                nodeQueues.computeIfAbsent(queue.producer, n -> new ArrayList<>()).add(queue);
            }
            queue.holdsBack(wakeNodes.toArray(new Node[0]), wakeInputs.toArray(new GraphInput[0]));
        }
        nodeQueues.forEach((node, list) -> node.throttleQueues = list.toArray(new InputQueue[0]));
        inputQueues.forEach((input, list) -> input.throttleQueues = list.toArray(new InputQueue[0]));
    }

    /**
     * Adds a packet to a graph input stream, waiting while a queue downstream is full. An off-heap
     * payload's reference passes to the graph (also when this throws).
     *
     * @param stream    a graph input stream.
     * @param value     a Java object or a {@link Payload}.
     * @param timestamp above the stream's previous packet and bound.
     * @throws TimestampException naming the stream and both timestamps.
     * @throws IllegalStateException if the stream is closed or the run has ended.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final String stream, final Object value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, value).add(timestamp, value, 0, true);
    }

    /**
     * Adds a {@code long} packet, unboxed, waiting while a queue downstream is full.
     *
     * @param stream    a graph input stream.
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final String stream, final long value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.LONG, value, true);
    }

    /**
     * Adds a {@code double} packet, unboxed, waiting while a queue downstream is full.
     *
     * @param stream    a graph input stream.
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @throws InterruptedException if interrupted while waiting for room.
     */
    public void addPacket(final String stream, final double value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value), true);
    }

    /**
     * Adds a packet unless a queue downstream is full, in which case it is refused at once and the
     * caller keeps its payload reference.
     *
     * @param stream    a graph input stream.
     * @param value     a Java object or a {@link Payload}.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final String stream, final Object value, final long timestamp)
    {
        return tryAdd(inputFor(stream, value), timestamp, value, 0);
    }

    /**
     * Adds a {@code long} packet unless a queue downstream is full.
     *
     * @param stream    a graph input stream.
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final String stream, final long value, final long timestamp)
    {
        return tryAdd(inputFor(stream, null), timestamp, InputQueue.LONG, value);
    }

    /**
     * Adds a {@code double} packet unless a queue downstream is full.
     *
     * @param stream    a graph input stream.
     * @param value     the value.
     * @param timestamp above the stream's previous packet and bound.
     * @return true if added, false if refused.
     */
    public boolean tryAddPacket(final String stream, final double value, final long timestamp)
    {
        return tryAdd(inputFor(stream, null), timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value));
    }

    public static boolean tryAdd(final GraphInput input, final long timestamp, final Object value, final long word)
    {
        try
        {
            return input.add(timestamp, value, word, false);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt(); // cannot happen: a refusing add never waits
            return false;
        }
    }

    private GraphInput inputFor(final String stream, final Object value)
    {
        final GraphInput input = inputs.get(stream);
        if (input == null)
        {
            if (value instanceof Payload)
            {
                ((Payload)value).release();
            }
            throw new IllegalArgumentException("'" + stream + "' is not a graph input stream; graph input streams are " +
                inputs.keySet());
        }
        if (value != null && !(value instanceof Payload) && !started)
        {
            throw new IllegalStateException("graph input stream '" + stream + "' belongs to a graph not started yet");
        }
        return input;
    }

    /**
     * Promises that no packet below {@code bound} will come on a graph input stream.
     *
     * @param stream a graph input stream.
     * @param bound  the next timestamp a packet may carry.
     * @throws TimestampException if {@code bound} is below the stream's bound (as MediaPipe
     *                            refuses it); the run goes on.
     */
    public void setInputBound(final String stream, final long bound)
    {
        inputFor(stream, null).setBound(bound);
    }

    /**
     * Closes a graph input stream: its bound becomes {@link Timestamp#DONE}.
     *
     * @param stream a graph input stream.
     */
    public void closeInput(final String stream)
    {
        closeInput(inputFor(stream, null));
    }

    /** A graph input's handle or {@link #closeInput(String)}: closes it (again does nothing). */
    public void closeInput(final GraphInput input)
    {
        input.close();
        checkFinishedWithoutNodes();
    }

    /** Any thread: the graph input stream of that name, or why there is none. */
    public GraphInput graphInput(final String stream)
    {
        return inputFor(stream, null);
    }

    /**
     * Closes every graph input stream.
     */
    public void closeAllInputs()
    {
        for (final GraphInput input : inputs.values())
        {
            if (!input.isClosed())
            {
                input.close();
            }
        }
        checkFinishedWithoutNodes();
    }

    private void checkFinishedWithoutNodes()
    {
        if (ownNodes.length == 0 && inputs.values().stream().allMatch(GraphInput::isClosed))
        {
            finish();
        }
    }

    /**
     * Waits until no node is queued or running. As in MediaPipe, a graph with source nodes is
     * never idle while they run, so this is refused for such graphs.
     *
     * @throws InterruptedException if interrupted.
     * @throws IllegalStateException if the graph has source nodes.
     */
    public void waitUntilIdle() throws InterruptedException
    {
        for (final Node node : scheduler.nodes)
        {
            if (node.isSource)
            {
                throw new IllegalStateException("waitUntilIdle() is not supported on a graph with source nodes " +
                    "(node '" + node.name + "'); use waitUntilDone()");
            }
        }
        scheduler.waitUntilIdle();
    }

    /**
     * Waits until the run ends: every node closed, or a failure, or a cancellation. Stops the
     * workers and releases what the run still held.
     *
     * @throws GraphException with every failure, or marked cancelled.
     * @throws InterruptedException if interrupted.
     */
    public void waitUntilDone() throws GraphException, InterruptedException
    {
        if (!started)
        {
            throw new IllegalStateException("waitUntilDone() before start()");
        }
        done.await();
        stopWorkers();
        final GraphException failure = outcome();
        if (failure != null)
        {
            throw failure;
        }
    }

    /** Once the run has ended: what {@link #waitUntilDone()} throws, or null for a run that is done. */
    private GraphException outcome()
    {
        return failureHandling.outcome(cancelled);
    }

    /**
     * A future of the run's end, for callers that do not block on {@link #waitUntilDone()}: it
     * completes normally when the run is done, and exceptionally when it failed or was cancelled,
     * with the {@link GraphException} {@code waitUntilDone()} throws as the cause (a
     * {@link java.util.concurrent.CompletionException} around it, as for any dependent stage:
     * {@code get()} throws an {@link java.util.concurrent.ExecutionException} whose cause it is).
     * It completes after the workers have stopped and every payload the run held was released,
     * as {@code waitUntilDone()} returns; {@link #close()} is still for the caller to call (it
     * closes the graph's own pool and checks it for leaks). A graph closed without being started
     * completes it as cancelled.
     *
     * <pre>{@code
     * graph.completion().whenCompleteAsync((ok, failure) -> log(failure), myExecutor);
     * }</pre>
     *
     * <p>Threading: it is completed on a thread of the graph's own, {@code framewire-completion},
     * started by the first call (or by {@link #start} if that comes later), which waits for the
     * end and does nothing else: never on a worker, so no stage can hold up the run. Stages
     * attached before the end run on that thread, those attached after on the attaching thread; a
     * stage that blocks or takes long belongs on an executor of the caller's ({@code *Async} with
     * an executor). Each call returns a new future: completing or cancelling it affects neither
     * the run (that is {@link #cancel()}) nor any other caller's future.
     *
     * @return a future of the run's end.
     */
    public CompletableFuture<Void> completion()
    {
        synchronized (completion)
        {
            if (!completionWanted)
            {
                completionWanted = true;
                if (started)
                {
                    startCompleter();
                }
                else if (closed)
                {
                    completion.completeExceptionally(new GraphException(List.of(), true));
                }
            }
        }
        return completion.copy();
    }

    /** Holding the completion's monitor, once: the thread that completes it when the run has ended. */
    private void startCompleter()
    {
        final Thread completer = new Thread(() ->
        {
            try
            {
                done.await();
                stopWorkers();
            }
            catch (final InterruptedException ex)
            {
                completion.completeExceptionally(ex);
                return;
            }
            catch (final RuntimeException | Error ex)
            {
                completion.completeExceptionally(ex);
                throw ex;
            }
            final GraphException failure = outcome();
            if (failure == null)
            {
                completion.complete(null);
            }
            else
            {
                completion.completeExceptionally(failure);
            }
        }, "framewire-completion");
        completer.setDaemon(true);
        completer.start();
    }

    /**
     * Waits up to a timeout for the run to end.
     *
     * @param timeout how long.
     * @param unit    its unit.
     * @return true if the run ended (then {@link #waitUntilDone()} returns or throws at once).
     * @throws InterruptedException if interrupted.
     */
    public boolean awaitDone(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return done.await(timeout, unit);
    }

    /**
     * Ends the run cooperatively: nodes stop being run, calculators polling
     * {@link CalculatorContext#isCancelled()} return early, and every payload is released. The run
     * then ends as cancelled, which {@link GraphException#isCancelled()} tells from a failure.
     */
    public void cancel()
    {
        if (!finished)
        {
            cancelled = true;
            stop();
        }
    }

    /**
     * Pauses every worker after its current call; packets still queue up.
     */
    public void pause()
    {
        scheduler.pause();
    }

    /**
     * Resumes after {@link #pause()}.
     */
    public void resume()
    {
        scheduler.resume();
    }

    /**
     * Ends the run if it is still going, releases every payload still held by the graph and, if
     * the pool is the graph's own, closes it.
     *
     * @throws IllegalStateException listing payloads still held when the graph's own pool closes.
     */
    @Override
    public void close()
    {
        closed = true;
        synchronized (completion)
        {
            if (!started && completionWanted)
            {
                completion.completeExceptionally(new GraphException(List.of(), true)); // never started
            }
        }
        if (started && !finished)
        {
            cancel();
        }
        try
        {
            stopWorkers();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < pollerQueues.size(); i++)
        {
            pollerReleases.get(i).run();
            pollerQueues.get(i).drainAndRelease();
        }
        if (ownPool)
        {
            pool.close();
        }
    }

    /**
     * Packets a node dropped: by its input policy (fixed size, early close), on purpose by its
     * calculator ({@link CalculatorContext#countDrop()}), or by a failure the run went on after
     * (under {@link FailurePolicy#DROP_TIMESTAMP} each packet of the failed input set, or of a
     * source's discarded shipment; under {@link MemoryLimitPolicy#DROP_OLDEST} each packet shed or
     * of an input set dropped). Packets, not drop events: an input set of three packets counts 3.
     *
     * @param node a node's name.
     * @return the count so far.
     * @throws IllegalArgumentException if there is no such node.
     */
    public long dropCount(final String node)
    {
        for (final Node n : scheduler.nodes)
        {
            if (n.name.equals(node))
            {
                return n.drops;
            }
        }
        throw new IllegalArgumentException("no node '" + node + "'; nodes are " + nodeNames());
    }

    /**
     * The failures so far, first one first: under DROP_TIMESTAMP the run goes on and this is where
     * they are reported; under the other policies {@link #waitUntilDone()} throws them. Bounded: the
     * first failure and the last {@link GraphConfig.Builder#keptFailures(int) kept} ones, with their
     * causes; {@link #failureCount()} counts them all.
     *
     * @return a snapshot.
     */
    public List<GraphFailure> failures()
    {
        return failureHandling.failures();
    }

    /**
     * How many failures there were so far, kept or not.
     *
     * @return the count.
     */
    public long failureCount()
    {
        return failureHandling.failureCount();
    }

    /**
     * Drops made to stay within the memory budget under {@link MemoryLimitPolicy#DROP_OLDEST}, one
     * sentence each (the first 10,000): a queued packet shed, or a whole input set dropped (the
     * sentence says how many packets). {@link #memoryDropCount()} counts the packets.
     *
     * @return a snapshot.
     */
    public List<String> memoryDrops()
    {
        return memory.drops();
    }

    /**
     * Packets dropped to stay within the memory budget under {@link MemoryLimitPolicy#DROP_OLDEST}:
     * every queued packet shed and every packet of an input set dropped, however many drops that was.
     * They are also in the nodes' {@link #dropCount(String)}.
     *
     * @return the count so far.
     */
    public long memoryDropCount()
    {
        return memory.droppedPackets();
    }

    /**
     * Calls a node has had: input sets processed, or shipments for a source.
     *
     * @param node a node's name.
     * @return the count so far.
     */
    public long callCount(final String node)
    {
        return node(node).calls;
    }

    private List<String> nodeNames()
    {
        final List<String> names = new ArrayList<>();
        for (final Node n : scheduler.nodes)
        {
            names.add(n.name);
        }
        return names;
    }

    /**
     * A report of every node, queue and worker: what a stuck run waits on.
     *
     * @return the report, several lines.
     */
    public String report()
    {
        return GraphReport.of(this);
    }

    // ---------------------------------------------------------------- subgraphs at run time

    /**
     * Adds a subgraph to the running graph, with no observers of its output streams. See
     * {@link #addSubgraph(String, GraphConfig, Map, Map)}.
     *
     * @param name     the subgraph's name, matching {@code [a-z_][a-z0-9_]*}, unique among the
     *                 graph's subgraphs.
     * @param template the subgraph: a config with input and output streams of its own.
     * @param params   values of the template's parameters, by name.
     * @return a future that completes once every node of the subgraph has opened.
     */
    public CompletableFuture<Void> addSubgraph(final String name, final GraphConfig template, final Map<String, ?> params)
    {
        return addSubgraph(name, template, params, Map.of());
    }

    /**
     * Adds a subgraph to the running graph while its other nodes keep running. The template is a
     * graph config (built, or read from {@code .pbtxt}, such as a subgraph registered by type in a
     * {@link SubgraphRegistry}) whose input streams the application feeds and whose output
     * streams it observes. Its nodes are named {@code name__node} and all its streams
     * {@code name__stream}, as {@link SubgraphExpander} names a static use: its input stream
     * {@code frames} becomes the graph input stream {@code name__frames} ({@link #input(String)}),
     * its output stream {@code out} the graph output stream {@code name__out}. A node option
     * whose value is the string {@code "$param"} takes the parameter's value, {@code "${param}"}
     * inside a longer string is replaced by it as text, and an input side packet takes the
     * parameter of its name.
     *
     * <p>Before anything changes, the template is bound and validated, then the graph as it would
     * be with the subgraph is validated and analysed ({@link GraphAnalysis}); any error is thrown
     * here and leaves the running graph as it was. Then the subgraph's nodes are placed on the
     * workers of their executors (all of a subgraph's nodes of one executor on its least loaded
     * worker) and opened there; its sources start once all its nodes have opened. Its nodes share
     * the graph's settings (queue sizes unless the template sets a stream's, failure policy,
     * schedule order, memory budget).
     *
     * <p>A journaled run records the subgraph, its template as text and its parameters, so that
     * {@code framewire journal replay} adds it again at the same point. Not supported (an error
     * says so): a node with
     * {@code max_in_flight} above 1, a template declaring executors, and streams shared with the
     * rest of the graph: a subgraph is fed by its own graph inputs or sources, and read through
     * its own output streams.
     *
     * @param name      the subgraph's name, matching {@code [a-z_][a-z0-9_]*}, unique among the
     *                  graph's subgraphs (one being removed keeps its name until it has left).
     * @param template  the subgraph.
     * @param params    values of the template's parameters, by name; each must be used.
     * @param observers observers of the template's output streams, by the template's stream name;
     *                  called on the producing worker, as {@link #observe} observers are.
     * @return a future that completes, off the workers, once every node of the subgraph has opened
     *         (exceptionally if the run ends first); its graph inputs take packets already.
     * @throws GraphConfigException listing every error of the template, its parameters or the
     *         graph it would make.
     * @throws IllegalArgumentException for a malformed or duplicate name, or an unknown output
     *         stream among the observers.
     * @throws IllegalStateException if the graph is not running, or cannot take the subgraph.
     */
    public CompletableFuture<Void> addSubgraph(
        final String name, final GraphConfig template, final Map<String, ?> params,
        final Map<String, PacketObserver> observers)
    {
        return addSubgraph(name, template, params, observers, Map.of());
    }

    /**
     * Adds a subgraph to the running graph, some of its input streams bound to streams of the
     * graph's own. As {@link #addSubgraph(String, GraphConfig, Map, Map)}, but each template
     * input stream named in {@code bind} is not a graph input stream of its own: it consumes the
     * graph's stream named there (a node's output or a graph input, of the config the graph was
     * made from), from the next packet that stream delivers on. Its producer gains a consumer while
     * the subgraph is in: the consumer array is copied and swapped by the producer's own thread
     * (its worker between two calls, or a graph input's adder under its guard), so the producer
     * never sees a half-made consumer and allocates nothing per packet. Backpressure follows
     * MediaPipe's: the sources upstream of that stream are held back by the subgraph's full queues
     * too. When the subgraph is removed, or leaves, the producer drops the consumer first, and the
     * subgraph sees that input close.
     *
     * @param name      the subgraph's name.
     * @param template  the subgraph.
     * @param params    values of the template's parameters, by name.
     * @param observers observers of the template's output streams, by the template's stream name.
     * @param bind      template input stream to the graph's stream it consumes.
     * @return a future that completes once every node of the subgraph has opened.
     * @throws GraphConfigException listing every error of the template, its parameters, its
     *         bindings or the graph it would make.
     * @throws IllegalArgumentException for a malformed or duplicate name, or an unknown output
     *         stream among the observers.
     * @throws IllegalStateException if the graph is not running, or cannot take the subgraph.
     */
    public CompletableFuture<Void> addSubgraph(
        final String name, final GraphConfig template, final Map<String, ?> params,
        final Map<String, PacketObserver> observers, final Map<String, String> bind)
    {
        return hotplug.add(name, template, params, observers, bind);
    }

    /**
     * Removes a subgraph, draining it for up to 10 s and then cancelling it with a 5 s deadline.
     * See {@link #removeSubgraph(String, java.time.Duration, java.time.Duration)}.
     *
     * @param name a subgraph's name.
     * @return a future of the removal.
     */
    public CompletableFuture<SubgraphRemoval> removeSubgraph(final String name)
    {
        return removeSubgraph(name, java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(5));
    }

    /**
     * Removes a subgraph from the running graph while its other nodes keep running. Draining:
     * its graph inputs close (an add to one then fails, saying it is closed) and its sources
     * close at their next step, so each node processes what is queued for it and closes
     * ({@code Calculator.close}), and its output streams close. If the drain has not finished
     * within {@code drainDeadline} (at once for {@link java.time.Duration#ZERO}), the subgraph is
     * cancelled: each node closes at its next step, its calculator's close called, and the
     * packets still queued for it are released and counted as dropped;
     * {@link CalculatorContext#isCancelled()} is true in its calls. Once every node has closed,
     * the subgraph's workers release what is left on its queues (counted as dropped too) and it
     * leaves the graph: its nodes, streams and name are gone.
     *
     * <p>A node blocked in a call cannot be made to return: if the subgraph has not left
     * {@code cancelDeadline} after it was cancelled, the future fails with a
     * {@link java.util.concurrent.TimeoutException} naming each node not closed and what it
     * is doing, and the subgraph leaves the graph when the call returns.
     *
     * <p>A subgraph whose nodes all close on their own (its sources stopped, its inputs closed)
     * leaves the graph the same way, without a call to this method.
     *
     * @param name           a subgraph's name.
     * @param drainDeadline  how long to let it drain before cancelling it; zero to cancel at once.
     * @param cancelDeadline how long, once cancelled, before giving up on a node that does not close.
     * @return a future that completes, off the workers, once the subgraph has left: with whether it
     *         drained and the packets it dropped.
     * @throws IllegalArgumentException if there is no such subgraph, or a deadline is negative.
     * @throws IllegalStateException if it is being removed already, or the graph is not running.
     */
    public CompletableFuture<SubgraphRemoval> removeSubgraph(
        final String name, final java.time.Duration drainDeadline, final java.time.Duration cancelDeadline)
    {
        return hotplug.remove(name, drainDeadline, cancelDeadline);
    }

    /**
     * The subgraphs added at run time and not yet gone, being removed or not.
     *
     * @return their names, in the order they were added.
     */
    public List<String> subgraphs()
    {
        return hotplug.names();
    }

    // ---------------------------------------------------------------- engine internals

    /** The nodes, in config order: for reports and the watchdog. */
    public Node[] nodes()
    {
        return scheduler.nodes;
    }

    /** Every node input and poller queue: for reports. */
    public List<InputQueue> queues()
    {
        return scheduler.queues;
    }

    /** The output pollers' queues: for reports. */
    public List<InputQueue> pollerQueues()
    {
        return pollerQueues;
    }

    /** The workers of every executor: for reports and the watchdog. */
    public List<Worker> workers()
    {
        return scheduler.workers;
    }

    /** Whether the run has finished (the watchdog's stop signal). */
    public boolean isFinished()
    {
        return finished;
    }

    public NanoClock clock()
    {
        return config.clock();
    }

    public boolean recordsArrivals()
    {
        return recordsArrivals;
    }

    public long graphInputNanos(final long timestamp)
    {
        for (final GraphInput input : inputs.values())
        {
            final long nanos = input.arrivalNanos(timestamp);
            if (nanos >= 0)
            {
                return nanos;
            }
        }
        return -1;
    }

    public boolean isStopping()
    {
        return runState.stopping;
    }

    public boolean isStarted()
    {
        return started;
    }

    // failure handling: the engine's calls, which FailureHandling answers

    /** The graph's failure policy. */
    public FailurePolicy failurePolicy()
    {
        return failureHandling.failurePolicy();
    }

    /** The node's worker: see {@link FailureHandling#keepsStaged(Node, Throwable)}. */
    public boolean keepsStaged(final Node node, final Throwable cause)
    {
        return failureHandling.keepsStaged(node, cause);
    }

    /**
     * The node's worker: a calculator threw; what happens follows the graph's failure policy. See
     * {@link FailureHandling#onNodeFailure(Node, long, Throwable, int, boolean)}.
     */
    public void onNodeFailure(
        final Node node, final long timestamp, final Throwable cause, final int packets, final boolean delivered)
    {
        failureHandling.onNodeFailure(node, timestamp, cause, packets, delivered);
    }

    /** Any thread: a failure; under FAIL_RUN the run stops. See {@link FailureHandling#fail}. */
    public void fail(final String where, final long timestamp, final Throwable cause)
    {
        failureHandling.fail(where, timestamp, cause);
    }

    /** Any thread: a failure the run goes on after, kept and journaled. See {@link FailureHandling#recordFailure}. */
    public void recordFailure(final String where, final long timestamp, final Throwable cause)
    {
        failureHandling.recordFailure(where, timestamp, cause);
    }

    /** A node by name, the subgraphs' too. */
    public Node node(final String name)
    {
        for (final Node n : scheduler.nodes)
        {
            if (n.name.equals(name))
            {
                return n;
            }
        }
        throw new IllegalArgumentException("no node '" + name + "'; nodes are " + nodeNames());
    }

    public void onNodeOpened(final Node node)
    {
        if (node.subgraph != null)
        {
            node.subgraph.onNodeOpened();
            return;
        }
        scheduler.onOwnNodeOpened();
    }

    public void onNodeClosed(final Node node)
    {
        final Subgraph subgraph = node.subgraph;
        if (subgraph != null && subgraph.onNodeClosed())
        {
            hotplug.onSubgraphClosed(subgraph); // before the count below, which may end the run
        }
        if (node.isSource && subgraph == null)
        {
            scheduler.onOwnSourceClosed(node);
        }
        if (openNodes.decrementAndGet() == 0)
        {
            finish();
        }
    }

    /**
     * Under the hot-plug lock, as a subgraph joins: counts {@code count} more open nodes, unless
     * the run has ended (no node open).
     */
    public boolean reserveOpenNodes(final int count)
    {
        int open;
        do
        {
            open = openNodes.get();
            if (open == 0 || finished || runState.stopping)
            {
                return false;
            }
        }
        while (!openNodes.compareAndSet(open, open + count));
        return true;
    }

    /** The journal's id of a stream, or -1 (for a drop of a whole input set, named ""). */
    public int streamId(final String stream)
    {
        final Integer id = streamIds.get(stream);
        return id == null ? -1 : id;
    }

    /** Any thread: the run stops (a failure, a cancel); the workers are woken to see it. */
    public void stop()
    {
        runState.stopping = true;
        scheduler.onStop();
        for (final InputQueue queue : pollerQueues)
        {
            queue.poller.wake();
        }
        finish();
    }

    private void finish()
    {
        finished = true;
        done.countDown();
        hotplug.onRunFinished();
    }

    private synchronized void stopWorkers() throws InterruptedException
    {
        if (!scheduler.stopWorkers())
        {
            return;
        }
        if (guard != null)
        {
            guard.interrupt();
            guard.join();
        }
        // Workers have stopped: this thread now owns every node. Release what the run still holds.
        for (final Node node : scheduler.nodes)
        {
            node.releaseLanes();
            node.closeAfterStop();
            node.releaseInputs();
            for (final OutputStream output : node.outputs)
            {
                output.discardStaged();
            }
        }
        for (final InputQueue queue : scheduler.queues)
        {
            if (queue.consumer != null)
            {
                queue.drainAndRelease();
            }
        }
        final JournalSink journal = this.journal;
        if (journal != null)
        {
            journal.runEnd(failureHandling.runEndsFailed() ? "failed" : cancelled ? "cancelled" : "done");
            journal.close();
        }
    }

    /**
     * The graph as its nodes see it ({@link NodeRunState}): each method reads the graph's field, or
     * calls its method, that a node used to reach directly, with the same semantics. A nested class
     * rather than {@code Graph implements NodeRunState}: an interface's methods are public, and the
     * graph's public API would gain them.
     *
     * <p>It holds the two fields a node reads on every run itself, so that a node reads them one
     * load away, as it read the graph's: whether the run is stopping (written by the graph when it
     * fails, is cancelled or ends) and whether calls are timed (set before the start).
     *
     * <p>Threading: as {@link NodeRunState} says per method.
     */
    public final class RunState implements NodeRunState
    {
        /** Set once when the run fails, is cancelled or ends; read by every worker per node run. */
        public volatile boolean stopping;
        /** Whether nodes time their {@code process} calls ({@link Graph#timeProcessCalls()}); set before start. */
        public boolean timesProcessCalls;

        @Override
        public boolean isStopping()
        {
            return stopping;
        }

        @Override
        public JournalSink journal()
        {
            return journal;
        }

        @Override
        public boolean timesProcessCalls()
        {
            return timesProcessCalls;
        }

        @Override
        public NanoClock clock()
        {
            return Run.this.clock();
        }

        @Override
        public GraphConfig config()
        {
            return config;
        }

        @Override
        public MemoryGovernor memory()
        {
            return memory;
        }

        @Override
        public PayloadPool pool()
        {
            return pool;
        }

        @Override
        public long graphInputNanos(final long timestamp)
        {
            return Run.this.graphInputNanos(timestamp);
        }

        @Override
        public long shipmentByteCap()
        {
            return shipmentByteCap;
        }

        @Override
        public int streamId(final String stream)
        {
            return Run.this.streamId(stream);
        }

        @Override
        public boolean sourceMayRun(final Node source)
        {
            return scheduler.sourceMayRun(source);
        }

        @Override
        public FailurePolicy failurePolicy()
        {
            return Run.this.failurePolicy();
        }

        @Override
        public boolean keepsStaged(final Node node, final Throwable cause)
        {
            return Run.this.keepsStaged(node, cause);
        }

        @Override
        public void onNodeFailure(
            final Node node, final long timestamp, final Throwable cause, final int packets, final boolean delivered)
        {
            Run.this.onNodeFailure(node, timestamp, cause, packets, delivered);
        }

        @Override
        public void recordFailure(final String where, final long timestamp, final Throwable cause)
        {
            Run.this.recordFailure(where, timestamp, cause);
        }

        /** Any thread: the graph inputs, the subgraphs' too, as they are now. */
        public java.util.Collection<GraphInput> graphInputs()
        {
            return inputs.values();
        }

        /** Any thread, once the run has started: every source looks whether it may run now (the memory budget's call). */
        public void scheduleSources()
        {
            scheduler.scheduleSources();
        }

        /**
         * Any thread: a failure outside a calculator's call (a worker's, the deadlock check's); the
         * scheduler's, not a node's: see {@link Graph#fail}.
         */
        public void fail(final String where, final long timestamp, final Throwable cause)
        {
            Run.this.fail(where, timestamp, cause);
        }

        @Override
        public void onNodeOpened(final Node node)
        {
            Run.this.onNodeOpened(node);
        }

        @Override
        public void onNodeClosed(final Node node)
        {
            Run.this.onNodeClosed(node);
        }
    }
}
