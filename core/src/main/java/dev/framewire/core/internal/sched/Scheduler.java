package dev.framewire.core.internal.sched;

import dev.framewire.core.Backpressure;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.QueueOverflowException;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Lanes;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SharedCalls;
import dev.framewire.core.internal.queue.HeldBackAdder;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.Schedulable;
import dev.framewire.core.internal.node.MemoryGovernor;
import dev.framewire.core.internal.node.SubgraphState;
import dev.framewire.core.internal.stream.GraphInput;

import dev.framewire.core.journal.JournalSink;

import dev.framewire.core.jfr.ReportEvent;
import org.agrona.concurrent.AgentRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who runs what, and when: a run's workers and the nodes and queues they serve, the order in which
 * sources take their turn, pause and resume, the graph's idle state (for its waiters) and the
 * deadlock check with MediaPipe's deadlock avoidance.
 *
 * <p>Nodes are queued on their workers by whoever brings them input ({@link Node#schedule()});
 * this class places them on workers before the start, starts and stops the workers' threads, and
 * answers what a worker asks as it runs: whether to stop or pause, whether a source may run, and
 * what to do when it runs out of work ({@link #onWorkerIdle()}, MediaPipe's
 * {@code QueueIdleStateChanged}). Nothing here is on the per-packet path.
 *
 * <p>Threading: made and wired on the thread that builds the {@link Graph}. {@link #nodes},
 * {@link #sourceNodes} and {@link #queues} are replaced or added to under the hot-plug lock
 * ({@link Hotplug}) and read by any thread; the source turns are updated by the workers that open
 * and close nodes; the idle and deadlock checks run on any thread, under {@link #idleLock}.
 */
public final class Scheduler
{
    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final GraphConfig config;
    private final int[] topoOrder;
    private final SchedulerRun runState;
    private final MemoryGovernor memory;

    /**
     * Every node, the graph's own first (index = id) and then those of hot-plugged subgraphs:
     * copied on write by {@link Hotplug} under the hot-plug lock, read by any thread.
     */
    public volatile Node[] nodes;
    /** Every source node, the subgraphs' too; copied on write by {@link Hotplug} under the hot-plug lock. */
    public volatile Node[] sourceNodes;
    /** Every node input and poller queue; written under the hot-plug lock (or before the start). */
    public final List<InputQueue> queues = new CopyOnWriteArrayList<>();
    /** The workers of every executor, in journal id order; hot-plugged subgraphs use these too. */
    public final List<Worker> workers = new ArrayList<>();
    private final List<AgentRunner> runners = new ArrayList<>();

    /** Graph-input adders waiting for room: while any waits, a worker going idle checks for a deadlock. */
    public final AtomicInteger inputWaiters = new AtomicInteger();

    /** The graph's own nodes: sources run once all of them opened. */
    private final int staticNodeCount;
    private final AtomicInteger openedNodes = new AtomicInteger();
    /** Open sources per layer ({@code source_layer}); guarded by its own monitor. */
    private final int[] openSourcesByLayer;
    private volatile int lowestOpenLayer;
    private volatile boolean allOpened;

    /** Guards the idle and deadlock checks; {@link #waitUntilIdle()} waits on it. */
    private final Object idleLock = new Object();
    private volatile int idleWaiters;
    private volatile boolean paused;
    /** Whether a {@code PARK} worker's spin yields its core each turn; set by {@link #makeWorkers()}. */
    private boolean spinsYield;

    /**
     * The graph's own nodes, their outputs and inputs already made.
     *
     * @param runState the run's stop flag and failures.
     * @param memory   whether the memory budget holds sources back.
     * @param nodes    the graph's own nodes, by id.
     */
    public Scheduler(
        final GraphConfig config, final int[] topoOrder, final SchedulerRun runState, final MemoryGovernor memory,
        final Node[] nodes)
    {
        this.config = config;
        this.topoOrder = topoOrder;
        this.runState = runState;
        this.memory = memory;
        this.nodes = nodes;
        this.staticNodeCount = nodes.length;
        this.sourceNodes = Arrays.stream(nodes).filter(n -> n.isSource).toArray(Node[]::new);
        int maxLayer = 0;
        for (final Node node : nodes)
        {
            maxLayer = Math.max(maxLayer, node.sourceLayer);
        }
        this.openSourcesByLayer = new int[maxLayer + 1];
        for (final Node source : sourceNodes)
        {
            openSourcesByLayer[source.sourceLayer]++;
        }
        this.lowestOpenLayer = lowestLayer();
    }

    // ---------------------------------------------------------------- before the start

    /**
     * Makes each executor's workers (no more than its nodes can keep busy) and pins the graph's own
     * nodes to them round-robin in topological order; then each busy-spinning or yielding worker
     * polls the graph-input queues into its nodes itself.
     */
    public void makeWorkers()
    {
        final Map<String, ExecutorConfig> executors = new LinkedHashMap<>();
        executors.put(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK));
        executors.putAll(config.executors());
        for (final Map.Entry<String, ExecutorConfig> e : executors.entrySet())
        {
            final List<Node> members = new ArrayList<>();
            for (final int v : topoOrder)
            {
                if (nodes[v].config.executor().equals(e.getKey()))
                {
                    members.add(nodes[v]);
                }
            }
            if (members.isEmpty())
            {
                continue;
            }
            final ExecutorConfig executor = e.getValue();
            int calls = 0; // a max_in_flight node may keep that many workers busy
            for (final Node member : members)
            {
                calls += member.config.maxInFlight();
            }
            final int count = Math.min(executor.workers(), calls);
            final int[] cpus = executor.cpus();
            final Worker[] group = new Worker[count];
            for (int w = 0; w < count; w++)
            {
                group[w] = new Worker(this, workers.size(), "framewire-" + e.getKey() + "-" + w, e.getKey(),
                    members.size(), executor, w < cpus.length ? cpus[w] : -1);
                workers.add(group[w]);
            }
            for (int m = 0; m < members.size(); m++)
            {
                final Node member = members.get(m);
                final Worker worker = group[m % count];
                member.worker = worker;
                worker.placed++;
                member.runningOn = worker;
                if (member.isSource)
                {
                    worker.addSource(member);
                }
            }
            bindLanes(members, group);
        }
        // a core each for the workers and the journal's agent leaves none for the thread feeding the graph
        spinsYield = workers.size() + (config.journal() != null ? 1 : 0) >= Runtime.getRuntime().availableProcessors();
        for (final InputQueue queue : queues)
        {
            final Node consumer = (Node)queue.consumer;
            if (queue.producer == null && consumer != null && consumer.shared == null && Worker.of(consumer).polls())
            {
                Worker.of(consumer).poll(queue);
            }
        }
    }

    /**
     * Gives each {@code max_in_flight} node its lanes, and the executor's workers the queues they
     * share for those nodes' steps and calls.
     */
    private static void bindLanes(final List<Node> members, final Worker[] group)
    {
        int nodes = 0;
        int lanes = 0;
        for (final Node member : members)
        {
            if (member.config.maxInFlight() > 1)
            {
                nodes++;
                lanes += member.config.maxInFlight();
            }
        }
        if (nodes == 0)
        {
            return;
        }
        final SharedCalls shared = new SharedCalls(group, nodes, lanes);
        for (final Worker worker : group)
        {
            worker.shared = shared;
        }
        for (final Node member : members)
        {
            final int calls = member.config.maxInFlight();
            if (calls > 1)
            {
                member.shared = shared;
                member.lanes = new Lanes(member, shared, calls);
            }
        }
    }

    /**
     * Before the workers start, once backpressure is wired: the nodes that only their own worker
     * schedules get a local state, with no atomic operation per run ({@link ScheduleState#makeLocal()});
     * and the nodes fed only from their own worker are marked for the journal ({@link Node#inputsAllFromItsWorker()}).
     */
    public void makeLocalNodes()
    {
        final Set<Node> heldBack = Collections.newSetFromMap(new IdentityHashMap<>());
        for (final InputQueue queue : queues)
        {
            for (final Schedulable node : queue.wakeOnRoom)
            {
                heldBack.add((Node)node);
            }
        }
        for (final Node node : nodes)
        {
            if (node.schedulesOnlyFromItsWorker(heldBack))
            {
                node.makeLocal();
            }
            node.inputsFromItsWorker = node.inputsAllFromItsWorker();
            node.oneInputHandedOver = node.oneInputFromAnotherThread();
        }
    }

    /**
     * Starts every worker on a daemon thread of its own, then queues every node to open it.
     *
     * @param threads false for a run whose workers get no thread: one caller thread then runs
     *                their duty cycles ({@link Worker#onStart()}, then {@link Worker#doWork()}),
     *                see {@link Graph#startWithoutWorkerThreads()}.
     */
    public void start(final boolean threads)
    {
        if (threads)
        {
            for (final Worker worker : workers)
            {
                final AgentRunner runner = new AgentRunner(worker.idleStrategy, this::onWorkerError, null, worker);
                runners.add(runner);
                AgentRunner.startOnThread(runner, r ->
                {
                    final Thread thread = new Thread(r, worker.name);
                    thread.setDaemon(true);
                    return thread;
                });
            }
        }
        for (final Node node : nodes)
        {
            node.schedule();
        }
    }

    private void onWorkerError(final Throwable t)
    {
        runState.fail("worker " + Thread.currentThread().getName(), Timestamp.UNSET, t); // the failing worker's thread
    }

    // ---------------------------------------------------------------- what a worker asks

    /** The order in which a worker runs its ready nodes. */
    public ScheduleOrder scheduleOrder()
    {
        return config.scheduleOrder();
    }

    /** Any thread: whether the run is stopping (it failed, was cancelled or ended). */
    public boolean isStopping()
    {
        return runState.isStopping();
    }

    /** Any thread: whether the workers are paused ({@link Graph#pause()}). */
    public boolean isPaused()
    {
        return paused;
    }

    /** A worker: its node failed outside the calculator's call (in the engine); the run's failure policy applies. */
    public void fail(final String where, final long timestamp, final Throwable cause)
    {
        runState.fail(where, timestamp, cause);
    }

    /**
     * A {@code PARK} worker, while it spins before it parks: whether to yield its core each turn
     * ({@link Thread#yield()}) rather than hold it ({@link Thread#onSpinWait()}). It yields when
     * the graph's own threads, its workers and the journal's agent if it journals, are at least as
     * many as the cores the JVM may use: then a worker that spins holds the core a sibling needs (the
     * worker or agent its next input waits on, or the thread adding packets), and the others pay for
     * every microsecond of it. Decided once, before the start.
     */
    public boolean spinsYield()
    {
        return spinsYield;
    }

    /**
     * Any thread, for reports: the node with this id, or null when there is none now (a removed
     * subgraph's node). The graph's own nodes sit at their id; a hot-plugged one is looked for.
     */
    public Node nodeById(final int id)
    {
        final Node[] nodes = this.nodes;
        if (id >= 0 && id < nodes.length && nodes[id].id == id)
        {
            return nodes[id];
        }
        for (final Node node : nodes)
        {
            if (node.id == id)
            {
                return node;
            }
        }
        return null;
    }

    /** Any thread: the run's journal, or null. */
    public JournalSink journal()
    {
        return runState.journal();
    }

    /** A worker that found nothing to run: sources the memory budget holds back may go on once under it. */
    public void checkHeldSources()
    {
        memory.checkHeldSources();
    }

    /**
     * Worker: it ran out of work. If someone waits for the graph to be idle, or sources are held
     * back (a deadlock is possible), look whether the whole graph is idle. No counter of busy nodes
     * is kept: it was a graph-wide atomic written twice per node run, a line every worker and graph
     * input bounced. Of several workers going idle at once, at least one sees the others idle: each
     * one's last node went idle with a CAS before it looks.
     */
    void onWorkerIdle()
    {
        if (idleWaiters == 0 && !hasHeldBackSources())
        {
            return;
        }
        if (!isIdle())
        {
            return;
        }
        if (idleWaiters > 0)
        {
            synchronized (idleLock)
            {
                idleLock.notifyAll();
            }
        }
        if (hasHeldBackSources())
        {
            checkDeadlock();
        }
    }

    /** The source's worker: whether it may call the source now. */
    public boolean sourceMayRun(final Node node)
    {
        if (node.lifecycle != Node.OPEN || !sourceActive(node) || runState.isStopping() || node.retry.retryAtNanos != 0 ||
            node.isThrottled())
        {
            return false;
        }
        return !memory.holdsSourcesBack();
    }

    /**
     * Whether a source's turn has come: the graph's own once every node of the graph opened and
     * its layer is the lowest still open; a hot-plugged subgraph's once every node of its subgraph
     * opened, until the subgraph is removed (layers order the graph's own sources only).
     */
    private boolean sourceActive(final Node node)
    {
        final SubgraphState subgraph = node.subgraph;
        if (subgraph != null)
        {
            return subgraph.allOpened && !subgraph.draining;
        }
        return allOpened && node.sourceLayer == lowestOpenLayer;
    }

    /** A node's worker: one of the graph's own nodes opened; once all have, the first layer's sources run. */
    public void onOwnNodeOpened()
    {
        if (openedNodes.incrementAndGet() == staticNodeCount)
        {
            allOpened = true;
            scheduleSources();
        }
    }

    /** A source's worker: one of the graph's own sources closed; once its layer has none open, the next layer's run. */
    public void onOwnSourceClosed(final Node source)
    {
        synchronized (openSourcesByLayer)
        {
            openSourcesByLayer[source.sourceLayer]--;
            final int lowest = lowestLayer();
            if (lowest != lowestOpenLayer)
            {
                lowestOpenLayer = lowest;
                scheduleSources();
            }
        }
    }

    private int lowestLayer()
    {
        for (int layer = 0; layer < openSourcesByLayer.length; layer++)
        {
            if (openSourcesByLayer[layer] > 0)
            {
                return layer;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Any thread: queues every source, to look whether it may run now. */
    public void scheduleSources()
    {
        for (final Node node : sourceNodes)
        {
            node.schedule();
        }
    }

    // ---------------------------------------------------------------- pause, idle, deadlock, stop

    /** Any thread: every worker pauses after its current call; packets still queue up. */
    public void pause()
    {
        paused = true;
    }

    /** Any thread: the workers go on after {@link #pause()}. */
    public void resume()
    {
        paused = false;
        wakeWorkers();
    }

    /** Any thread: wakes every worker, to see a stop or a resume. */
    void wakeWorkers()
    {
        for (final Worker worker : workers)
        {
            worker.wake();
        }
    }

    /** Any thread: the run is stopping; idle waiters return. The caller set the run state's stop flag. */
    public void onStop()
    {
        wakeWorkers();
        synchronized (idleLock)
        {
            idleLock.notifyAll();
        }
    }

    /**
     * Any thread: waits until no node is queued or running, or the run is stopping.
     *
     * @throws InterruptedException if interrupted.
     */
    public void waitUntilIdle() throws InterruptedException
    {
        synchronized (idleLock)
        {
            idleWaiters++;
            try
            {
                while (!isIdle() && !runState.isStopping())
                {
                    idleLock.wait(10);
                }
            }
            finally
            {
                idleWaiters--;
            }
        }
    }

    /**
     * Any thread: whether no node is queued or running and no {@code max_in_flight} call is in
     * flight. A scan of the nodes' states, for the idle waiters, the deadlock check and the guard,
     * never on the per-packet path.
     */
    boolean isIdle()
    {
        // indexed: no iterator, since the timeout guard asks every tick for the life of the run
        for (int i = 0, n = workers.size(); i < n; i++)
        {
            // first: a worker schedules a node before it marks its input seen, or counts a command done
            final Worker worker = workers.get(i);
            if (worker.hasUnseenInput() || worker.hasPendingCommands())
            {
                return false;
            }
        }
        for (final Node node : nodes)
        {
            if (node.state() != Node.IDLE || node.callsInFlight() != 0)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Any thread: whether work is pending: a node queued or running, an adder waiting for room, or
     * a source held back at the memory soft limit (if nothing frees memory, a calculator keeping
     * its frames, the scheduler idles with no queue full). The timeout guard's question.
     */
    public boolean hasPendingWork()
    {
        return !isIdle() || inputWaiters.get() > 0 || memory.holdsSources();
    }

    private boolean hasHeldBackSources()
    {
        if (inputWaiters.get() > 0)
        {
            return true;
        }
        for (final Node node : sourceNodes)
        {
            if (node.lifecycle == Node.OPEN && sourceActive(node) && node.isThrottled())
            {
                return true;
            }
        }
        if (config.backpressure() == Backpressure.ALL_NODES)
        {
            for (final InputQueue queue : queues)
            {
                if (queue.consumer != null && queue.isFull())
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Any thread: if the whole graph is idle while sources are held back by full queues, that is a
     * deadlock: report it, or raise the full queues' limits (MediaPipe's deadlock avoidance).
     */
    public void checkDeadlock()
    {
        synchronized (idleLock)
        {
            if (!isIdle() || runState.isStopping() || fullQueuesHoldingBack().isEmpty())
            {
                return;
            }
            // Looked at twice, with nothing done in between: an adder that has pushed a packet and
            // not yet scheduled the consumer, or a node that ran while the nodes were read one by
            // one, makes a passing state look like a deadlock (and deadlock avoidance then raised
            // limits of a graph that was running: HotplugTest saw a queue of 8 grow to 399).
            final long before = activity();
            if (before < 0 || !isIdle())
            {
                return;
            }
            final List<InputQueue> full = fullQueuesHoldingBack();
            if (full.isEmpty() || activity() != before)
            {
                return;
            }
            if (config.reportDeadlock())
            {
                final StringBuilder sb = new StringBuilder("deadlock: the graph is idle while sources wait on full queues:");
                for (final InputQueue queue : full)
                {
                    sb.append("\n  ").append(queue);
                    if (queue.consumer != null && !"factory".equals(((Node)queue.consumer).config.calculator()))
                    {
                        // the calculator too, as MediaPipe's report names it (its node names are calculator names)
                        sb.append(" (").append(((Node)queue.consumer).config.calculator()).append(')');
                    }
                    sb.append(": ").append(queue.size()).append(" queued, limit ").append(queue.limit);
                }
                sb.append("\nraise max_queue_size of these streams, or turn report_deadlock off to raise them as needed");
                ReportEvent.emit("deadlock", sb.toString());
                runState.fail("graph", Timestamp.UNSET, new IllegalStateException(sb.toString()));
                return;
            }
            for (final InputQueue queue : full)
            {
                final int raised = queue.size() + 1;
                if (raised > queue.capacity())
                {
                    runState.fail("graph", Timestamp.UNSET, new QueueOverflowException("deadlock avoidance cannot " +
                        "raise the limit of " + queue + " to " + raised + ": past its hard cap of " + queue.capacity() +
                        " packets; the graph waits on itself (a join whose other input never settles?)"));
                    return;
                }
                LOG.warn("Resolved a deadlock by raising max_queue_size of {} from {} to {}", queue, queue.limit, raised);
                ReportEvent.emit("deadlock-resolved", "raised max_queue_size of " + queue + " from " + queue.limit +
                    " to " + raised);
                queue.raiseLimit(raised);
            }
        }
    }

    /** The full queues that hold back a source or graph input still open. */
    private List<InputQueue> fullQueuesHoldingBack()
    {
        final List<InputQueue> full = new ArrayList<>();
        for (final InputQueue queue : queues)
        {
            // A poller's queue is drained by a thread outside the scheduler: full, it holds
            // sources back, but an idle scheduler is not a deadlock while it waits on it.
            if (queue.consumer != null && queue.isFull() && heldBack(queue))
            {
                full.add(queue);
            }
        }
        return full;
    }

    /**
     * Any thread: a count of what the run has done (node runs and commands finished on every
     * worker, adds finished on every graph input), or -1 while an add is in progress. Equal before
     * and after a look at the nodes and queues, nothing moved while they were read.
     */
    private long activity()
    {
        long sum = 0;
        for (final GraphInput input : runState.graphInputs())
        {
            final long adds = input.activity();
            if (adds < 0)
            {
                return -1;
            }
            sum += adds;
        }
        for (int i = 0, n = workers.size(); i < n; i++)
        {
            sum += workers.get(i).activity();
        }
        return sum;
    }

    private static boolean heldBack(final InputQueue queue)
    {
        for (final Schedulable node : queue.wakeOnRoom)
        {
            if (((Node)node).lifecycle == Node.OPEN)
            {
                return true;
            }
        }
        for (final HeldBackAdder input : queue.wakeInputsOnRoom)
        {
            if (!input.isClosed())
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The thread that ends the run: raises the stop flag, stops every worker's thread and waits
     * for it; afterwards that thread owns every node. Again, or before the start, does nothing.
     *
     * @return false if there were no workers' threads to stop.
     */
    public boolean stopWorkers()
    {
        if (runners.isEmpty())
        {
            return false;
        }
        runState.markStopping();
        wakeWorkers();
        for (final AgentRunner runner : runners)
        {
            runner.close();
        }
        runners.clear();
        return true;
    }
}
