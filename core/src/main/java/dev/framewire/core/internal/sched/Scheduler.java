package dev.framewire.core.internal.sched;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.SimulationClock;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.MemoryGovernor;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;

import dev.framewire.core.journal.JournalSink;

import org.agrona.concurrent.AgentRunner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * {@code QueueIdleStateChanged}). Nothing here is on the per-packet path. Its parts: {@link Placement}
 * (workers and where each node runs), {@link SourceTurns} (when sources run), {@link IdleCheck}
 * (idle waiters, the deadlock check), {@link SimulatedTime} (a run on a {@link SimulationClock}).
 *
 * <p>Threading: made and wired on the thread that builds the {@link Graph}. {@link #nodes},
 * {@link #sourceNodes} and {@link #queues} are replaced or added to under the hot-plug lock
 * ({@link Hotplug}) and read by any thread; the source turns are updated by the workers that open
 * and close nodes; the idle and deadlock checks run on any thread, under {@link #idleLock}.
 */
public final class Scheduler
{
    final GraphConfig config;
    final int[] topoOrder;
    final SchedulerRun runState;
    final MemoryGovernor memory;

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

    /** When sources take their turn. */
    final SourceTurns sourceTurns;
    /** Whether the graph is idle, and the deadlock check. */
    final IdleCheck idleCheck = new IdleCheck(this);
    /** The graph's simulated clock's view of the run, when its clock is a {@link SimulationClock}; else null. */
    private final SimulatedTime simulatedTime;

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
        this.sourceNodes = Arrays.stream(nodes).filter(n -> n.isSource).toArray(Node[]::new);
        this.sourceTurns = new SourceTurns(this, nodes, sourceNodes);
        this.simulatedTime = config.clock() instanceof SimulationClock ?
            new SimulatedTime(this, (SimulationClock)config.clock()) : null;
    }

    // ---------------------------------------------------------------- before the start

    /**
     * Makes each executor's workers (no more than its nodes can keep busy) and pins the graph's own
     * nodes to them round-robin in topological order; then each busy-spinning or yielding worker
     * polls the graph-input queues into its nodes itself.
     */
    public void makeWorkers()
    {
        Placement.makeWorkers(this);
        // a core each for the workers and the journal's agent leaves none for the thread feeding the graph
        spinsYield = workers.size() + (config.journal() != null ? 1 : 0) >= Runtime.getRuntime().availableProcessors();
    }

    /**
     * A node of a subgraph added at run time, placed on its worker and not yet published: on a
     * {@code STEALING} executor a sibling of its worker may run it, as the graph's own nodes.
     */
    public static void placedAtRunTime(final Node node)
    {
        Placement.markStealable(node);
    }

    /**
     * Before the workers start, once backpressure is wired: the nodes that only their own worker
     * schedules get a local state, with no atomic operation per run ({@link ScheduleState#makeLocal()});
     * and the nodes fed only from their own worker are marked for the journal ({@link NodeFeeds#inputsAllFromItsWorker}).
     */
    public void makeLocalNodes()
    {
        Placement.makeLocalNodes(this);
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
        if (simulatedTime != null)
        {
            simulatedTime.attach(); // after the opens are queued: the graph is busy from here
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
        if (simulatedTime != null)
        {
            simulatedTime.recheck();
        }
        if (idleWaiters == 0 && !idleCheck.hasHeldBackSources())
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
        if (idleCheck.hasHeldBackSources())
        {
            checkDeadlock();
        }
    }

    /** The source's worker: whether it may call the source now. */
    public boolean sourceMayRun(final Node node)
    {
        if (node.lifecycle != Node.OPEN || !sourceTurns.active(node) || runState.isStopping() || node.retry.retryAtNanos != 0 ||
            node.isThrottled())
        {
            return false;
        }
        return !memory.holdsSourcesBack();
    }

    /** A node's worker: one of the graph's own nodes opened; once all have, the first layer's sources run. */
    public void onOwnNodeOpened()
    {
        sourceTurns.onOwnNodeOpened();
    }

    /** A source's worker: one of the graph's own sources closed; once its layer has none open, the next layer's run. */
    public void onOwnSourceClosed(final Node source)
    {
        sourceTurns.onOwnSourceClosed(source);
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
     * flight ({@link IdleCheck#isIdle()}).
     */
    boolean isIdle()
    {
        return idleCheck.isIdle();
    }

    /**
     * Any thread: whether work is pending: a node queued or running, an adder waiting for room, or
     * a source held back at the memory soft limit. The timeout guard's question.
     */
    public boolean hasPendingWork()
    {
        return idleCheck.hasPendingWork();
    }

    /**
     * Any thread: if the whole graph is idle while sources are held back by full queues, that is a
     * deadlock: report it, or raise the full queues' limits (MediaPipe's deadlock avoidance).
     */
    public void checkDeadlock()
    {
        synchronized (idleLock)
        {
            idleCheck.checkDeadlock();
        }
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
        if (simulatedTime != null)
        {
            simulatedTime.detach();
        }
        return true;
    }
}
