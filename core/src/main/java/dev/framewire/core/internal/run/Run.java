package dev.framewire.core.internal.run;

import dev.framewire.core.internal.node.MemoryGovernor;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.PollerSignal;
import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
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
import java.util.function.Consumer;

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
    final GraphConfig config;
    private final GraphPlan plan;
    final PayloadPool pool;
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
    /** Makes and wires the run's nodes and streams, and a subgraph's (see {@link Hotplug}). */
    private final RunAssembler assembler;
    private final List<InputQueue> pollerQueues = new ArrayList<>();
    private final List<Runnable> pollerReleases = new ArrayList<>();
    /**
     * Stream name to the journal's stream id, in producer order (graph inputs first), then the
     * hot-plugged subgraphs' streams while they are in (see {@link SubgraphJournal}).
     */
    private final Map<String, Integer> streamIds = new java.util.concurrent.ConcurrentHashMap<>();
    /** What opened {@link #journal}, or null; set in {@link #start} before the JVM flag check. */
    public JournalProvider journalProvider;

    /** Nodes not closed yet, the subgraphs' too: the run ends when none is left. */
    private final AtomicInteger openNodes = new AtomicInteger();

    /** What happens when something fails, and the run's failures. */
    private final FailureHandling failureHandling;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean closed;
    /** The completion future, the error callback and the completer thread ({@link #completion()}). */
    private final RunCompletion completion = new RunCompletion(this);
    private volatile boolean cancelled;
    /** Why the run was cancelled, for its journal's end of run ({@link #cancel(String)}), or null. */
    private volatile String cancelReason;
    private volatile boolean finished;
    private Thread guard;
    /** The memory budget's soft and hard limits as they bear on this run. */
    public final MemoryGovernor memory;
    /** The most payload bytes a source's call may emit: max_shipment_bytes, or derived from the budget. */
    final long shipmentByteCap;
    /** What the graph's nodes, the subgraphs' too, see of it: made before any node. */
    public final RunState runState = new RunState(this);
    /** The side packets the graph's nodes set, and the nodes waiting for them. */
    public final SidePackets outputSidePackets;

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
        this.plan = new GraphPlan(config, pool);
        this.ownPool = pool == null;
        this.pool = pool != null ? pool : new PayloadPool(
            config.memoryBudgetBytes() > 0 ? new PoolContext().maxBytes(config.memoryBudgetBytes()) : new PoolContext());
        this.memory = new MemoryGovernor(this.pool.budget(), runState::scheduleSources);
        this.shipmentByteCap = shipmentByteCap(config.maxShipmentBytes(), this.pool.budget());
        this.assembler = new RunAssembler(runState, config);
        final Node[] nodes = assembler.nodes(plan, 0, null);
        this.ownNodes = nodes;
        this.outputSidePackets = new SidePackets(this, config, nodes);
        this.scheduler = new Scheduler(config, plan.topoOrder, runState, memory, nodes);
        this.hotplug = new Hotplug(this, config, plan, nodes, producers, scheduler, streamIds, assembler);
        this.failureHandling = new FailureHandling(this, config, plan, this.pool, memory, hotplug);
        final GraphInput[] made = assembler.wire(plan, nodes, 0, producers, Set.of(),
            (producer, queue, bound) -> attach(producer, queue));
        final Map<String, GraphInput> inputs = new LinkedHashMap<>();
        for (final GraphInput input : made)
        {
            inputs.put(input.name, input);
        }
        this.inputs = Collections.unmodifiableMap(inputs);
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

    /** The API graph's {@code pool}, whose javadoc is the contract. */
    public PayloadPool pool()
    {
        return pool;
    }

    /** The API graph's {@code config}, whose javadoc is the contract. */
    public GraphConfig config()
    {
        return config;
    }

    /** The API graph's {@code observe}, whose javadoc is the contract. */
    public void observe(final String stream, final PacketObserver observer)
    {
        checkNotStarted("observe");
        RunAssembler.observe(producerOf(stream), observer);
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
        if (runState.started)
        {
            throw new IllegalStateException(what + "() must be called before start(); this graph's run is " +
                runState());
        }
    }

    /** Before a start: this graph has not run and is not closed, or why it cannot start. */
    private void checkStartable()
    {
        if (closed && !runState.started)
        {
            throw new IllegalStateException("start(): this graph was closed without being started; make a new " +
                "Graph(config) to run it");
        }
        if (runState.started)
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

    /** The API graph's {@code recordGraphInputArrivals}, whose javadoc is the contract. */
    public void recordGraphInputArrivals()
    {
        runState.recordsArrivals = true;
    }

    /** The API graph's {@code timeProcessCalls}, whose javadoc is the contract. */
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

    /** The API graph's {@code start}, whose javadoc is the contract. */
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
                if (!sidePackets.containsKey(name) && !outputSidePackets.produces(name))
                {
                    missing.add("node '" + node.name + "' needs side packet '" + name + "', neither given to start() " +
                        "nor set by a node");
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
        outputSidePackets.checkGiven(sidePackets.keySet());
        wireBackpressure();
        scheduler.makeLocalNodes();
        if (config.journal() != null)
        {
            runState.journal = EngineJournal.open(journalProvider, config, scheduler.nodes, streamIds, scheduler.workers);
            for (final Worker worker : scheduler.workers)
            {
                worker.journal = runState.journal.worker(worker.id);
            }
        }
        for (int i = 0; i < nodes.length; i++)
        {
            runState.recordsArrivals |= plan.contracts[i].recordsGraphInputArrivals();
        }
        completion.onStart();
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
        final GraphInput[] planInputs = ownGraphInputs();
        final Map<Node, List<InputQueue>> nodeQueues = new LinkedHashMap<>();
        final Map<GraphInput, List<InputQueue>> inputQueues = new LinkedHashMap<>();
        assembler.holdBack(scheduler.queues, plan, ownNodes, planInputs, null, nodeQueues, inputQueues);
        nodeQueues.forEach((node, list) -> node.throttleQueues = list.toArray(new InputQueue[0]));
        inputQueues.forEach((input, list) -> input.throttleQueues = list.toArray(new InputQueue[0]));
    }

    /** The graph's own graph inputs, in config order. */
    GraphInput[] ownGraphInputs()
    {
        final GraphInput[] own = new GraphInput[config.inputStreams().size()];
        for (int k = 0; k < own.length; k++)
        {
            own[k] = inputs.get(config.inputStreams().get(k));
        }
        return own;
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final Object value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, value).add(timestamp, value, 0, true);
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final long value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.LONG, value, true);
    }

    /** The API graph's {@code addPacket}, whose javadoc is the contract. */
    public void addPacket(final String stream, final double value, final long timestamp) throws InterruptedException
    {
        inputFor(stream, null).add(timestamp, InputQueue.DOUBLE, Double.doubleToRawLongBits(value), true);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
    public boolean tryAddPacket(final String stream, final Object value, final long timestamp)
    {
        return tryAdd(inputFor(stream, value), timestamp, value, 0);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
    public boolean tryAddPacket(final String stream, final long value, final long timestamp)
    {
        return tryAdd(inputFor(stream, null), timestamp, InputQueue.LONG, value);
    }

    /** The API graph's {@code tryAddPacket}, whose javadoc is the contract. */
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
        if (value != null && !(value instanceof Payload) && !runState.started)
        {
            throw new IllegalStateException("graph input stream '" + stream + "' belongs to a graph not started yet");
        }
        return input;
    }

    /** The API graph's {@code setInputBound}, whose javadoc is the contract. */
    public void setInputBound(final String stream, final long bound)
    {
        inputFor(stream, null).setBound(bound);
    }

    /** The API graph's {@code closeInput}, whose javadoc is the contract. */
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

    /**
     * The API graph's {@code closeAllPacketSources}, whose javadoc is the contract; also a node with
     * inputs calling {@code stop()}. Any thread.
     */
    public void closeAllPacketSources()
    {
        runState.sourcesClosed = true;
        closeAllInputs();
        for (final Node node : scheduler.nodes)
        {
            if (node.isSource)
            {
                node.schedule(); // it closes at its turn, throttled or not
            }
        }
    }

    private void checkFinishedWithoutNodes()
    {
        if (ownNodes.length == 0 && inputs.values().stream().allMatch(GraphInput::isClosed))
        {
            finish();
        }
    }

    /** The API graph's {@code waitUntilIdle}, whose javadoc is the contract. */
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
        if (runState.stopping && failureHandling.runEndsFailed())
        {
            final GraphException failure = outcome();
            throw new IllegalStateException("the run failed: " + failure.getMessage(), failure);
        }
    }

    /** The API graph's {@code waitUntilDone}, whose javadoc is the contract. */
    public void waitUntilDone() throws GraphException, InterruptedException
    {
        if (!runState.started)
        {
            throw new IllegalStateException("waitUntilDone() before start()");
        }
        awaitStopped();
        final GraphException failure = outcome();
        if (failure != null)
        {
            throw failure;
        }
    }

    /** Once the run has ended: what {@link #waitUntilDone()} throws, or null for a run that is done. */
    GraphException outcome()
    {
        return failureHandling.outcome(cancelled);
    }

    /** The API graph's {@code completion}, whose javadoc is the contract. */
    public CompletableFuture<Void> completion()
    {
        return completion.future();
    }

    /** The run has ended: waits for it, then stops the workers. */
    void awaitStopped() throws InterruptedException
    {
        done.await();
        stopWorkers();
    }

    /** Whether the graph was closed. */
    boolean isClosed()
    {
        return closed;
    }

    /** The API graph's {@code setErrorCallback}, whose javadoc is the contract. */
    public void setErrorCallback(final Consumer<GraphException> callback)
    {
        completion.setErrorCallback(callback);
    }

    /** The API graph's {@code awaitDone}, whose javadoc is the contract. */
    public boolean awaitDone(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return done.await(timeout, unit);
    }

    /** The API graph's {@code cancel(String)}, whose javadoc is the contract. */
    public void cancel(final String reason)
    {
        if (!finished && cancelReason == null)
        {
            cancelReason = reason;
        }
        cancel();
    }

    /** The API graph's {@code cancel}, whose javadoc is the contract. */
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

    /** The API graph's {@code close}, whose javadoc is the contract. */
    @Override
    public void close()
    {
        closed = true;
        completion.onClose();
        if (runState.started && !finished)
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

    /** The API graph's {@code dropCount}, whose javadoc is the contract. */
    public long dropCount(final String node)
    {
        return node(node).drops;
    }

    /** The API graph's {@code failures}, whose javadoc is the contract. */
    public List<GraphFailure> failures()
    {
        return failureHandling.failures();
    }

    /** The API graph's {@code failureCount}, whose javadoc is the contract. */
    public long failureCount()
    {
        return failureHandling.failureCount();
    }

    /** The API graph's {@code memoryDrops}, whose javadoc is the contract. */
    public List<String> memoryDrops()
    {
        return memory.drops();
    }

    /** The API graph's {@code memoryDropCount}, whose javadoc is the contract. */
    public long memoryDropCount()
    {
        return memory.droppedPackets();
    }

    /** The API graph's {@code callCount}, whose javadoc is the contract. */
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

    /** The API graph's {@code report}, whose javadoc is the contract. */
    public String report()
    {
        return GraphReport.of(this);
    }

    // ---------------------------------------------------------------- subgraphs at run time

    /** The API graph's {@code addSubgraph}, whose javadoc is the contract. */
    public CompletableFuture<Void> addSubgraph(final String name, final GraphConfig template, final Map<String, ?> params)
    {
        return addSubgraph(name, template, params, Map.of());
    }

    /** The API graph's {@code addSubgraph}, whose javadoc is the contract. */
    public CompletableFuture<Void> addSubgraph(
        final String name, final GraphConfig template, final Map<String, ?> params,
        final Map<String, PacketObserver> observers)
    {
        return addSubgraph(name, template, params, observers, Map.of());
    }

    /** The API graph's {@code addSubgraph}, whose javadoc is the contract. */
    public CompletableFuture<Void> addSubgraph(
        final String name, final GraphConfig template, final Map<String, ?> params,
        final Map<String, PacketObserver> observers, final Map<String, String> bind)
    {
        return hotplug.add(name, template, params, observers, bind);
    }

    /** The API graph's {@code removeSubgraph}, whose javadoc is the contract. */
    public CompletableFuture<SubgraphRemoval> removeSubgraph(final String name)
    {
        return removeSubgraph(name, java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(5));
    }

    /** The API graph's {@code removeSubgraph}, whose javadoc is the contract. */
    public CompletableFuture<SubgraphRemoval> removeSubgraph(
        final String name, final java.time.Duration drainDeadline, final java.time.Duration cancelDeadline)
    {
        return hotplug.remove(name, drainDeadline, cancelDeadline);
    }

    /** The API graph's {@code subgraphs}, whose javadoc is the contract. */
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
        return runState.recordsArrivals;
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
        return runState.started;
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
            ((Subgraph)node.subgraph).onNodeOpened();
            return;
        }
        scheduler.onOwnNodeOpened();
    }

    public void onNodeClosed(final Node node)
    {
        final Subgraph subgraph = (Subgraph)node.subgraph;
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
        RunTeardown.releaseAfterStop(scheduler.nodes, scheduler.queues);
        final JournalSink journal = runState.journal;
        if (journal != null)
        {
            journal.runEnd(failureHandling.runEndsFailed() ? "failed" : cancelled ?
                (cancelReason != null ? "cancelled: " + cancelReason : "cancelled") : "done");
            journal.close();
        }
    }
}
