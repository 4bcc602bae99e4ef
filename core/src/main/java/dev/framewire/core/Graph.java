package dev.framewire.core;

import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.run.GraphRuns;
import dev.framewire.core.internal.run.Run;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.offheap.Payload;

import dev.framewire.offheap.PayloadPool;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A running instance of a {@link GraphConfig}: start it, push timestamped packets into its input
 * streams, observe or poll its outputs, and wait for it to finish.
 *
 * <pre>{@code
 * try (Graph graph = new Graph(config)) {
 *     graph.observe("out", packet -> System.out.println(packet.timestamp()));
 *     GraphInputHandle in = graph.input("in");   // looked up once: no lookup by name per packet
 *     graph.start();
 *     for (long ts = 0; ts < 10; ts++) {
 *         in.addPacket(ts * 2, ts);               // a long packet, not boxed
 *     }
 *     graph.closeAllInputs();
 *     graph.waitUntilDone();                      // throws GraphException on failure
 * }
 * }</pre>
 *
 * <p>A graph runs again, as MediaPipe's {@code StartRun} after {@code WaitUntilDone}: once a run
 * is over (done, failed or cancelled), {@link #start(Map)} starts a new run with new side packets.
 * Each run starts afresh: every calculator is made anew from the config, and counts, failures,
 * bounds and output side packets are the new run's alone. What was registered carries over, as in
 * MediaPipe: observers ({@link #observe}), pollers ({@link #poller}, which then poll the new run;
 * packets of the old run they did not take are released), input handles ({@link #input}), the
 * error callback and the settings made before the start; each may also be added between runs, for
 * the runs that follow. {@link #completion()}, {@link #stats()}, {@link #failures()} and the other
 * readings are of the latest run. {@link #close()} ends the run
 * if it is still going, releases every payload the graph still holds and, when the graph made its
 * own {@link PayloadPool}, closes it, which reports any payload still held elsewhere (a leak).
 * {@link #completion()} is a future of the run's end, for callers that do not block.
 *
 * <p>Subgraphs at run time: {@link #addSubgraph} adds a subgraph (a template config with
 * parameters, its nodes named {@code name__node}) to the running graph and {@link #removeSubgraph}
 * drains or cancels it and takes it out, while the other nodes keep running. A subgraph is
 * self-contained: it is fed through graph input streams of its own ({@code name__stream}), its
 * own sources, or streams of the graph's own it is bound to, and read through graph output
 * streams of its own, observed from the moment it is added; a bound stream's producer gains and
 * loses the subgraph's queue on its own thread. Before a change, the graph
 * as it would be after it is validated and analysed, and an error leaves the graph as it was.
 * Additions and removals are made one at a time under a lock of the graph's (never taken by a
 * worker); the node list, source list and graph input map they change are copied on write and
 * published with a volatile store; a new node reaches its worker by its first enqueue (an MPSC
 * offer), and what a worker owns (its sources, a removed node's queues) is changed by that worker
 * through its command queue. Both return a {@link CompletableFuture}: opening and draining happen
 * on the workers and may take long, so the caller chooses whether and how long to wait, and the
 * future is completed off the workers so that no stage attached to it can hold one up. Bad names,
 * templates and parameters throw at once, before anything changes. See {@code docs/HOTPLUG.md}.
 *
 * <p>Threading: {@code addPacket}, {@code setInputBound}, {@code closeInput}, a
 * {@link GraphInputHandle}'s methods, {@code completion}, {@code addSubgraph},
 * {@code removeSubgraph} and {@code subgraphs} may be called from any thread (a stream's adds are
 * serialized, and so are additions and removals); {@code observe} and {@code poller} before
 * {@code start}; the rest from the thread that owns the graph.
 */
public final class Graph implements AutoCloseable
{
    /** The graph's runs: the first, made here, and the latest (see {@link #start(Map)}). */
    private final GraphRuns runs;
    /** One handle per graph input stream, by name, made when first asked for; rebound to each new run. */
    private final Map<String, GraphInputHandle> handles = new ConcurrentHashMap<>();

    /**
     * Validates a config and builds a graph with a payload pool of its own (default settings).
     *
     * @param config the graph.
     * @throws GraphConfigException listing every error found.
     */
    public Graph(final GraphConfig config)
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
    public Graph(final GraphConfig config, final PayloadPool pool)
    {
        this.runs = new GraphRuns(new Run(config, pool));
        runs.onNewRun(next -> handles.values().forEach(handle -> handle.rebind(next)));
    }

    /**
     * The pool calculators and callers acquire off-heap payloads from.
     *
     * @return the pool.
     */
    public PayloadPool pool()
    {
        return run().pool();
    }

    /**
     * The config this graph was made from.
     *
     * @return the config.
     */
    public GraphConfig config()
    {
        return run().config();
    }

    /**
     * Calls an observer with every packet of a stream, on the producing worker, when the producing
     * call returns, in this run and every later one. Call before {@link #start}, or between runs.
     *
     * @param stream   any stream of the graph.
     * @param observer the observer.
     * @throws IllegalArgumentException if no node or graph input produces the stream.
     */
    public void observe(final String stream, final PacketObserver observer)
    {
        runs.unstarted("observe").observe(stream, observer);
        runs.onNewRun(next -> next.observe(stream, observer));
    }

    /**
     * Makes a poller that pulls a stream's packets on the caller's thread, in this run and every later
     * one (it then polls the new run). Call before {@link #start}, or between runs.
     *
     * @param stream any stream of the graph.
     * @return the poller.
     * @throws IllegalArgumentException if no node or graph input produces the stream.
     */
    public OutputPoller poller(final String stream)
    {
        final OutputPoller[] made = new OutputPoller[1];
        final Run run = runs.unstarted("poller");
        final InputQueue queue = run.pollerQueue(stream, () -> made[0].releaseCurrent());
        made[0] = new OutputPoller(run, queue);
        runs.onNewRun(next -> made[0].rebind(next, next.pollerQueue(stream, () -> made[0].releaseCurrent())));
        return made[0];
    }

    /**
     * Makes graph inputs remember when each packet was added, for
     * {@link CalculatorContext#graphInputNanos(long)} (a clock read per added packet). On when
     * any node's calculator asks for it in its {@link Contract}; call before {@link #start}.
     */
    public void recordGraphInputArrivals()
    {
        run().recordGraphInputArrivals();
        runs.onNewRun(Run::recordGraphInputArrivals);
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
        runs.unstarted("timeProcessCalls").timeProcessCalls();
        runs.onNewRun(Run::timeProcessCalls);
    }

    /**
     * Starts the run without side packets.
     */
    public void start()
    {
        runs.start(Map.of());
    }

    /**
     * Starts a run: opens every node on its worker, then lets sources run. A node whose input side
     * packets include one a node sets ({@code output_side_packet},
     * {@link CalculatorContext#setOutputSidePacket}) opens once every such side packet is set. On
     * a graph whose run is over, starts a new run (see the class comment).
     *
     * @param sidePackets values for the nodes' input side packets, by name; a side packet a node
     *                    sets is not given here.
     * @throws IllegalArgumentException naming each node and side packet that has no value (neither
     *         given nor set by a node), or a side packet both given and set by a node.
     * @throws IllegalStateException if a run is in progress (saying what it is doing) or the graph is
     *         closed, if the JVM lacks a flag
     *         ({@code --add-exports}, {@code --add-opens}) the graph needs, naming it, or if the
     *         config asks for a journal and {@code dev.framewire:framewire-journal} is not on the
     *         class path, saying to add it.
     */
    public void start(final Map<String, ?> sidePackets)
    {
        runs.start(sidePackets);
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
        runs.inputs().addPacket(stream, value, timestamp);
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
        runs.inputs().addPacket(stream, value, timestamp);
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
        runs.inputs().addPacket(stream, value, timestamp);
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
        return runs.inputs().tryAddPacket(stream, value, timestamp);
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
        return runs.inputs().tryAddPacket(stream, value, timestamp);
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
        return runs.inputs().tryAddPacket(stream, value, timestamp);
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
        runs.inputs().setInputBound(stream, bound);
    }

    /**
     * Closes a graph input stream: its bound becomes {@link Timestamp#DONE}.
     *
     * @param stream a graph input stream.
     */
    public void closeInput(final String stream)
    {
        runs.inputs().closeInput(stream);
    }

    /**
     * The handle of a graph input stream, to add packets to it without a lookup by name per packet.
     * The same handle every time for a stream, in later runs too (it then feeds the new run); valid
     * before and after {@link #start}. A subgraph added again under a name it had gets new handles.
     *
     * @param stream a graph input stream.
     * @return its handle.
     * @throws IllegalArgumentException naming the stream and the graph's input streams if it is not one.
     */
    public GraphInputHandle input(final String stream)
    {
        final Run run = run();
        final GraphInput in = run.inputs.graphInput(stream);
        return handles.compute(in.name,
            (name, made) -> made != null && made.feeds(in) ? made : new GraphInputHandle(run, in));
    }

    /**
     * Closes every graph input stream.
     */
    public void closeAllInputs()
    {
        runs.inputs().closeAllInputs();
    }

    /**
     * Closes every packet source, as MediaPipe's {@code CloseAllPacketSources}: each source node is
     * closed at its next turn instead of being called again (its {@code close} runs and its outputs
     * close), and every graph input stream is closed; what is already queued drains, and the run ends
     * as done. Later adds to a graph input fail with {@link IllegalStateException} naming the stream.
     * A node with inputs calling {@link CalculatorContext#stop()} does the same. Calling it again does
     * nothing more.
     *
     * <p>Threading: any thread, also a calculator's.
     */
    public void closeAllPacketSources()
    {
        run().closeAllPacketSources();
    }

    /**
     * Waits until no node is queued or running. As in MediaPipe, a graph with source nodes is
     * never idle while they run, so this is refused for such graphs. As MediaPipe's
     * {@code WaitUntilIdle}, a run that has failed (a node, or a refused graph input add) is reported:
     * it throws rather than returning quietly.
     *
     * @throws InterruptedException if interrupted.
     * @throws IllegalStateException if the graph has source nodes, or if the run failed (its cause is
     *     the {@link GraphException} {@link #waitUntilDone()} throws).
     */
    public void waitUntilIdle() throws InterruptedException
    {
        run().waitUntilIdle();
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
        run().waitUntilDone();
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
        return run().completion();
    }

    /**
     * Sets a callback told when the run fails, for services that do not block in
     * {@link #waitUntilDone()}, as MediaPipe's {@code SetErrorCallback}. It is called once, with the
     * {@link GraphException} {@code waitUntilDone()} throws (every failure, the first first), when the
     * run ends as failed: a node's failure, a refused graph input add, a deadlock. It is not called for
     * a run that is done, nor for one only cancelled. Differs from MediaPipe, which calls it per error
     * on the thread that records it: here once per run, with all of them.
     *
     * <p>Threading: called on the graph's {@code framewire-completion} thread (see {@link #completion()})
     * after the workers have stopped and the run's payloads were released, before the futures of
     * {@code completion()} complete; never on a worker. A callback that blocks delays those futures, not
     * the run. An exception it throws is logged (logger {@code dev.framewire.core.Graph}), not lost, and
     * changes nothing else.
     *
     * @param callback told of the run's failure.
     * @throws IllegalStateException if a run is in progress or the graph is closed: set it before {@link #start()}, or between runs
     *     (it holds for every later run).
     */
    public void setErrorCallback(final Consumer<GraphException> callback)
    {
        runs.unstarted("setErrorCallback").setErrorCallback(callback);
        runs.onNewRun(next -> next.setErrorCallback(callback));
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
        return run().awaitDone(timeout, unit);
    }

    /**
     * Ends the run cooperatively: nodes stop being run, calculators polling
     * {@link CalculatorContext#isCancelled()} return early, and every payload is released. The run
     * then ends as cancelled, which {@link GraphException#isCancelled()} tells from a failure.
     */
    public void cancel()
    {
        run().cancel();
    }

    /**
     * Ends the run as {@link #cancel()} does, for a reason the journal keeps in its end of run
     * ({@code "cancelled: " + reason}): a post-mortem then tells a timed stop
     * ({@code "duration elapsed: ..."}) or a signal ({@code "stopped: ..."}) from a cancel.
     * The first reason given wins; a run already over keeps its ending.
     *
     * @param reason why, in a few words: {@code "duration elapsed: --duration 20 s"}, {@code "stopped: SIGTERM"}.
     */
    public void cancel(final String reason)
    {
        run().cancel(reason);
    }

    /**
     * Pauses every worker after its current call; packets still queue up.
     */
    public void pause()
    {
        run().scheduler.pause();
    }

    /**
     * Resumes after {@link #pause()}.
     */
    public void resume()
    {
        run().scheduler.resume();
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
        runs.close();
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
        return run().dropCount(node);
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
        return run().failures();
    }

    /**
     * How many failures there were so far, kept or not.
     *
     * @return the count.
     */
    public long failureCount()
    {
        return run().failureCount();
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
        return run().memory.drops();
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
        return run().memoryDropCount();
    }

    /**
     * Calls a node has had: input sets processed, or shipments for a source.
     *
     * @param node a node's name.
     * @return the count so far.
     */
    public long callCount(final String node)
    {
        return run().callCount(node);
    }

    /**
     * A report of every node, queue and worker: what a stuck run waits on.
     *
     * @return the report, several lines.
     */
    public String report()
    {
        return run().report();
    }

    /**
     * A new snapshot of this graph's counters (see {@link GraphStats}), from any thread, at any
     * time (before, during and after the run).
     *
     * @return the snapshot.
     */
    public GraphStats stats()
    {
        return GraphStats.fill(run(), null);
    }

    /**
     * Refills a snapshot of this graph's counters in place, allocating nothing, when it was made
     * by this graph with the same nodes; else makes a new one. A scraper keeps the snapshot it
     * gets back and passes it in each time.
     *
     * @param reuse a snapshot from an earlier call, or null.
     * @return {@code reuse} refilled, or a new snapshot.
     */
    public GraphStats stats(final GraphStats reuse)
    {
        return GraphStats.fill(run(), reuse);
    }

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
        return run().hotplug().add(name, template, params, Map.of(), Map.of());
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
        return run().hotplug().add(name, template, params, observers, Map.of());
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
        return run().hotplug().add(name, template, params, observers, bind);
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
        return run().hotplug().remove(name, java.time.Duration.ofSeconds(10), java.time.Duration.ofSeconds(5));
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
        return run().hotplug().remove(name, drainDeadline, cancelDeadline);
    }

    /**
     * The subgraphs added at run time and not yet gone, being removed or not.
     *
     * @return their names, in the order they were added.
     */
    public List<String> subgraphs()
    {
        return run().hotplug().names();
    }

    /**
     * The value a node set for an output side packet in the latest run, as MediaPipe's
     * {@code GetOutputSidePacket}: during the run once set, and after it ends (also after a failed
     * or cancelled run, if it was set) until the next run is prepared, which starts without any.
     *
     * @param name an output side packet of a node ({@code output_side_packet}), by name.
     * @return its value.
     * @throws IllegalArgumentException if no node sets such a side packet, naming those that do.
     * @throws IllegalStateException if it is not set (yet, or the run ended without it), naming its
     *         node and the run's state.
     */
    public Object outputSidePacket(final String name)
    {
        final Run run = run();
        return run.outputSidePackets.get(name, run.runState());
    }

    /** The latest run behind this facade: for the engine's own tests, which look inside it. */
    Run run()
    {
        return runs.current();
    }
}
