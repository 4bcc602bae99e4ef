package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.internal.node.MemoryGovernor;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.core.journal.JournalProvider;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One run of a graph: the nodes, streams, workers and journal made from a {@link GraphConfig}, and
 * the run's life (start, wait, cancel, close, failures). Its parts: {@link GraphInputs} (its graph
 * input streams by name: adds, bounds, closes), {@link RunEnd} (its open nodes and how it ends),
 * {@link RunPollers}, {@link FailureHandling}, {@link SidePackets} and {@link Hotplug} (subgraphs at run
 * time); {@link RunAssembler} makes and wires its nodes and streams. The public
 * {@code dev.framewire.core.Graph} is a facade over it and them; its javadoc is the contract of the
 * methods here that share its names.
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
    /** Graph input streams by name, the subgraphs' too, and the adds, bounds and closes by name. */
    public final GraphInputs inputs;
    private final Map<String, OutputStream> producers = new HashMap<>();
    /** The subgraphs added at run time, and the hot-plug lock. */
    private final Hotplug hotplug;
    /** Makes and wires the run's nodes and streams, and a subgraph's (see {@link Hotplug}). */
    private final RunAssembler assembler;
    /** The output pollers' queues. */
    private final RunPollers pollers;
    /**
     * Stream name to the journal's stream id, in producer order (graph inputs first), then the
     * hot-plugged subgraphs' streams while they are in (see {@link SubgraphJournal}).
     */
    private final Map<String, Integer> streamIds = new java.util.concurrent.ConcurrentHashMap<>();
    /** What opened {@link #journal}, or null; set in {@link #start} before the JVM flag check. */
    public JournalProvider journalProvider;

    /** What happens when something fails, and the run's failures. */
    final FailureHandling failureHandling;
    /** The open nodes counted down to the run's end, and the latch its waiters wait on. */
    final RunEnd end;
    private volatile boolean closed;
    /** The completion future, the error callback and the completer thread ({@link #completion()}). */
    private final RunCompletion completion = new RunCompletion(this);
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
        this.pollers = new RunPollers(config, plan);
        final Node[] nodes = assembler.nodes(plan, 0, null);
        this.ownNodes = nodes;
        this.outputSidePackets = new SidePackets(this, config, nodes);
        this.scheduler = new Scheduler(config, plan.topoOrder, runState, memory, nodes);
        this.hotplug = new Hotplug(this, config, plan, nodes, producers, scheduler, streamIds, assembler);
        this.failureHandling = new FailureHandling(this, config, plan, this.pool, memory, hotplug);
        this.end = new RunEnd(runState, scheduler, hotplug);
        final GraphInput[] made = assembler.wire(plan, nodes, 0, producers, Set.of(),
            (producer, queue, bound) -> RunAssembler.attach(producer, queue, scheduler.queues));
        this.inputs = new GraphInputs(runState, made, this::checkFinishedWithoutNodes);
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
        return pollers.add(stream, producer, id >= 0 ? ownNodes[id] : null, scheduler.queues, releaseCurrent);
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
        return end.describe(failureHandling.runFailed(), closed);
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
        outputSidePackets.giveInputs(nodes, sidePackets);
        assembler.holdBack(scheduler.queues, plan, ownNodes, inputs.own(config), null, Map.of(), Map.of());
        scheduler.makeLocalNodes();
        if (config.journal() != null)
        {
            runState.journal = EngineJournal.open(journalProvider, config, scheduler.nodes, streamIds, scheduler.workers);
            for (final Worker worker : scheduler.workers)
            {
                worker.journal = runState.journal.worker(worker.id);
            }
        }
        runState.recordsArrivals |= plan.recordsGraphInputArrivals();
        completion.onStart();
        end.start(nodes.length);
        scheduler.start(workerThreads);
        if (nodes.length == 0)
        {
            checkFinishedWithoutNodes();
        }
        guard = config.timeoutGuardNanos() > 0 ? Watchdog.start(this) : null;
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

    /**
     * The API graph's {@code closeAllPacketSources}, whose javadoc is the contract; also a node with
     * inputs calling {@code stop()}. Any thread.
     */
    public void closeAllPacketSources()
    {
        runState.sourcesClosed = true;
        inputs.closeAllInputs();
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
        if (ownNodes.length == 0 && inputs.allClosed())
        {
            end.finish();
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
        return failureHandling.outcome(end.isCancelled());
    }

    /** The API graph's {@code completion}, whose javadoc is the contract. */
    public CompletableFuture<Void> completion()
    {
        return completion.future();
    }

    /** The run has ended: waits for it, then stops the workers. */
    void awaitStopped() throws InterruptedException
    {
        end.await();
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
        return end.await(timeout, unit);
    }

    /** The API graph's {@code cancel(String)}, whose javadoc is the contract. */
    public void cancel(final String reason)
    {
        if (end.cancel(reason))
        {
            stop();
        }
    }

    /** The API graph's {@code cancel}, whose javadoc is the contract. */
    public void cancel()
    {
        cancel(null);
    }

    /** The API graph's {@code close}, whose javadoc is the contract. */
    @Override
    public void close()
    {
        closed = true;
        completion.onClose();
        if (runState.started && !end.isFinished())
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
        pollers.release();
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

    // ---------------------------------------------------------------- engine internals

    /** The subgraphs added at run time, and the hot-plug lock: the API graph's subgraph calls go there. */
    public Hotplug hotplug()
    {
        return hotplug;
    }

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
        return pollers.queues();
    }

    /** The workers of every executor: for reports and the watchdog. */
    public List<Worker> workers()
    {
        return scheduler.workers;
    }

    /** Whether the run has finished (the watchdog's stop signal). */
    public boolean isFinished()
    {
        return end.isFinished();
    }

    public boolean isStopping()
    {
        return runState.stopping;
    }

    public boolean isStarted()
    {
        return runState.started;
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
        pollers.wake();
        end.finish();
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
            journal.runEnd(end.ending(failureHandling.runEndsFailed()));
            journal.close();
        }
    }
}
