package dev.framewire.core.internal.sched;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Scheduling;
import dev.framewire.core.internal.node.Lane;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.NodeThread;
import dev.framewire.core.internal.node.SharedCalls;
import dev.framewire.core.internal.queue.InputQueue;

import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * One thread of an executor, an Agrona {@link Agent}: it drains its inbox (a JCTools MPSC queue
 * that other threads put ready nodes on) into its own {@link NodeHeap}, where no other thread
 * looks, and runs the first node. A node scheduled from this worker's own thread skips the inbox.
 * A busy-spinning or yielding worker also polls the queues from graph inputs into its nodes each
 * duty cycle, so that adding a packet costs the adder no fence, CAS or inbox offer
 * ({@link InputQueue#polled}, {@link PolledInputs}). When a duty cycle finds no work after one that did, it tells the
 * graph once ({@link Scheduler#onWorkerIdle()}): idle waiters and the deadlock check need it.
 * When its executor has {@code max_in_flight} nodes, each duty cycle then also takes one of their
 * steps and one of their calls from the queues the executor's workers share ({@link SharedCalls}).
 *
 * <p>On a {@code STEALING} executor ({@link Scheduling#STEALING}) a worker out of work takes a
 * queued node from a sibling that is in a call, runs one step of it and hands it back to its own
 * worker's inbox ({@link WorkStealing}): a slow call no longer holds up the nodes queued behind it.
 *
 * <p>Life cycle: INITIALISED, RUNNING, PAUSED, TERMINATING, TERMINATED.
 *
 * <p>Subgraphs added to and removed from a running graph ({@link Graph#addSubgraph}) change what
 * the worker owns (its sources, the queues of a removed node) only through {@link #submit}: a
 * command queue ({@link WorkerCommands}) that the worker drains at the top of each duty cycle, so
 * no structure of the worker's is written by another thread. The inbox and the heap have
 * room for {@link #NODE_SLOTS} nodes, so that nodes placed at run time fit without either growing.
 *
 * <p>Threading: {@link #enqueue(Node)} and {@link #submit(Runnable)} from any thread; everything
 * else on the worker's thread, but {@link #placed}, which the graph's hot-plug lock guards, and, on
 * a {@code STEALING} executor, the inbox and heap, which whoever holds {@link #queueLock} owns.
 * A parked worker is unparked only when it has said it is parked ({@link #parked}), so a busy
 * worker costs its producers no system call.
 *
 * <p>Layout: the fields the worker writes per run ({@link WorkerFields}) sit between lines of
 * padding, away from the park handshake's fields, which its producers read.
 */
public final class Worker extends WorkerPad1 implements Agent, NodeThread
{
    static final int INITIALISED = 0;
    static final int RUNNING = 1;
    static final int PAUSED = 2;
    static final int TERMINATING = 3;
    static final int TERMINATED = 4;
    private static final String[] LIFECYCLE_NAMES = {"initialised", "running", "paused", "terminating", "terminated"};

    /**
     * The nodes a worker has room for in its inbox and heap (a node is queued at most once):
     * what it starts with plus room for subgraphs added at run time. Half of it is the most
     * {@link #placed} may reach, the rest covers removed nodes still queued on the worker.
     */
    public static final int NODE_SLOTS = 1024;

    /** What this worker asks as it runs: stop, pause, idle; never the {@link Graph} itself. */
    private final Scheduler scheduler;
    public final String name;
    /** The executor this worker belongs to. */
    public final String executor;
    /** Nodes placed on this worker (pinned to it), static and hot-plugged; guarded by the graph's hot-plug lock. */
    public int placed;
    private final WorkerCommands commands = new WorkerCommands();
    /** Position among the graph's workers: the journal's worker id. */
    public final int id;
    /**
     * The journal's part for this worker, through which the calls it runs are journaled
     * ({@link JournalSink#worker}); null when the graph keeps no journal. Set before the workers
     * start.
     */
    public WorkerJournal journal;
    public final int cpu;
    final MpscArrayQueue<Node> inbox;
    final NodeHeap heap;
    final MessagePassingQueue.Consumer<Node> toHeap;
    /** The executor's shared work, when it has {@code max_in_flight} nodes; null otherwise. */
    public SharedCalls shared;
    public final IdleStrategy idleStrategy;

    /** Graph-input queues into this worker's nodes that it polls; set before the run. */
    InputQueue[] polled = new InputQueue[0];
    /** This worker's source nodes and their backoffs. */
    private final WorkerSources sources = new WorkerSources(this);
    public volatile int lifecycle = INITIALISED;
    /**
     * Whether its executor is {@code STEALING} and has another worker: the worker then lends and
     * borrows queued nodes. Set before the start ({@link Placement}); one worker has no sibling.
     */
    boolean steals;
    /** The other workers of its executor, when it {@link #steals}; set before the start. */
    Worker[] siblings = new Worker[0];
    /** Per sibling: the call (its run count + 1) in which it had nothing this worker could take, or 0; worker only. */
    long[] fruitless = new long[0];
    /** How long the current call has lasted, as reports and the guard see it. */
    private final CallWatch callWatch = new CallWatch();
    private static final VarHandle CALLED;
    private static final VarHandle CALLING;
    private static final VarHandle RUNS;
    private static final VarHandle CURRENT_LANE;
    static final VarHandle QUEUE_LOCK;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            CALLED = lookup.findVarHandle(WorkerFields.class, "calledId", int.class);
            CALLING = lookup.findVarHandle(WorkerFields.class, "calling", boolean.class);
            RUNS = lookup.findVarHandle(WorkerFields.class, "runs", long.class);
            CURRENT_LANE = lookup.findVarHandle(WorkerFields.class, "currentLane", Lane.class);
            QUEUE_LOCK = lookup.findVarHandle(WorkerFields.class, "queueLock", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Why a worker of an executor pinned to CPUs could not pin itself, or null ({@link CpuIds#affinityUnavailable()}). */
    public static String affinityUnavailable()
    {
        return CpuIds.affinityUnavailable();
    }

    public Worker(
        final Scheduler scheduler, final int id, final String name, final String executorName, final int capacity,
        final ExecutorConfig executor, final int cpu)
    {
        this.scheduler = scheduler;
        this.id = id;
        this.name = name;
        this.executor = executorName;
        this.cpu = cpu;
        this.inbox = new MpscArrayQueue<>(Math.max(NODE_SLOTS, capacity));
        this.heap = new NodeHeap(Math.max(NODE_SLOTS, capacity), scheduler.scheduleOrder());
        this.toHeap = heap::add;
        this.idleStrategy = ParkingIdleStrategy.of(this, executor.idle(), executor.spinBeforeParkMicros());
        this.steals = executor.scheduling() == Scheduling.STEALING; // until placed: false for a worker alone
    }

    /** Any thread: hands a queued node to this worker. */
    public void enqueue(final Node node)
    {
        if (Thread.currentThread() == thread && ownsQueues)
        {
            heap.add(node);
            return;
        }
        // Capacity is the number of nodes on this worker and a node is queued at most once,
        // so the offer cannot fail.
        inbox.offer(node); // its CAS is the full fence the handshake needs before reading parked
        wakeIfParked();
        if (steals && queueLock == WorkStealing.FREE)
        {
            WorkStealing.wakeASibling(this); // this worker is in a call: a parked sibling may take the node
        }
    }

    /**
     * Any thread: runs {@code command} on this worker's thread, at the top of a duty cycle (also
     * while the graph is paused); never if the worker has stopped.
     */
    public void submit(final Runnable command)
    {
        commands.offer(command);
        wakeIfParked();
    }

    /** Any thread: wakes the worker if it is parked (pause, resume, stop). */
    public void wake()
    {
        wakeIfParked();
    }

    /** Whether this worker has a node to run or a reason to stop waiting; any thread. */
    @Override
    public boolean hasWork()
    {
        return !inbox.isEmpty() || !heap.isEmpty() || shared != null && !shared.isEmpty() || scheduler.isStopping() ||
            !commands.isEmpty() || steals && WorkStealing.aSiblingLends(this);
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
        if (cpu >= 0)
        {
            CpuIds.pin(executor, name, cpu);
        }
        lifecycle = RUNNING;
    }

    @Override
    public int doWork()
    {
        if (scheduler.isStopping())
        {
            if (lifecycle != TERMINATING)
            {
                lifecycle = TERMINATING;
                journalIdle();
            }
            return 0;
        }
        final int commanded = commands.isEmpty() ? 0 : commands.run();
        if (scheduler.isPaused())
        {
            if (lifecycle != PAUSED)
            {
                lifecycle = PAUSED;
                journalIdle();
            }
            return commanded;
        }
        if (lifecycle != RUNNING)
        {
            lifecycle = RUNNING;
        }
        int work = commanded + inbox.drain(toHeap, 256);
        if (backingOff != 0)
        {
            work += wakeBackedOffSources();
        }
        Node node = polled.length == 0 ? null : PolledInputs.poll(this);
        if (node == null)
        {
            node = heap.poll();
        }
        work += inputsSeen;
        if (node == null)
        {
            scheduler.checkHeldSources();
            if (steals)
            {
                work += WorkStealing.stealFromSiblings(this);
            }
        }
        else
        {
            runNode(node);
            work++;
            if (node.afterRun())
            {
                heap.add(node);
            }
        }
        final SharedCalls shared = this.shared;
        if (shared != null)
        {
            work += runShared(shared);
        }
        if (work > 0)
        {
            busy = true;
        }
        else if (busy)
        {
            busy = false; // MediaPipe's QueueIdleStateChanged: once per idle period, not per node run
            journalIdle();
            scheduler.onWorkerIdle();
        }
        return work;
    }

    /** This thread: tells the journal, if any, that the worker stops running calls for a while. */
    private void journalIdle()
    {
        final WorkerJournal journal = this.journal;
        if (journal != null)
        {
            journal.idle();
        }
    }

    /**
     * This worker's thread: a removed subgraph's node pinned to this worker has been detached; its
     * heap slot goes back (now, or when it leaves the heap).
     */
    public void forgetNow(final Node node)
    {
        assert Thread.currentThread() == thread : name + " changed by " + Thread.currentThread().getName();
        heap.forget(node);
    }

    /** The nodes holding a slot in this worker's heap; read once the worker has stopped. For tests. */
    public List<Node> heldNodes()
    {
        return heap.heldNodes();
    }

    /** Before the run: a source node pinned to this worker. */
    void addSource(final Node source)
    {
        sources.add(source);
    }

    /** This worker's thread: a hot-plugged subgraph's source node pinned to this worker. */
    public void addSourceNow(final Node source)
    {
        assert Thread.currentThread() == thread : name + " changed by " + Thread.currentThread().getName();
        sources.add(source);
    }

    /** This worker's thread: a removed subgraph's source leaves; a backoff it was waiting out is forgotten. */
    public void removeSourceNow(final Node source)
    {
        assert Thread.currentThread() == thread : name + " changed by " + Thread.currentThread().getName();
        sources.remove(source);
    }

    /**
     * This worker's thread, after a source's failed call: the source is not called before
     * {@code retryAtNanos} (System.nanoTime); this worker queues it again then.
     */
    public void backOff(final Node source, final long retryAtNanos)
    {
        assert Thread.currentThread() == thread || thread == null : source + " backed off on " +
            Thread.currentThread().getName() + ", not its worker " + name;
        sources.backOff(source, retryAtNanos);
    }

    /** This worker's thread: queues the sources whose backoff is over ({@link WorkerSources#wakeBackedOff()}). */
    public int wakeBackedOffSources()
    {
        return sources.wakeBackedOff();
    }

    /** Before the run: this worker polls {@code queue} for input instead of being told. */
    public void poll(final InputQueue queue)
    {
        queue.polled = true;
        polled = Arrays.copyOf(polled, polled.length + 1);
        polled[polled.length - 1] = queue;
    }

    /**
     * Any thread: whether a command submitted to this worker has not yet run to its end (one waits
     * in the queue or is running). A command may schedule a node (a local node woken from another
     * thread, a subgraph's node), so a graph whose nodes all look idle is not idle while one is
     * pending ({@link WorkerCommands#pending()}).
     */
    boolean hasPendingCommands()
    {
        return commands.pending();
    }

    /**
     * Any thread: a count that moves whenever this worker finishes a node run or a command: the
     * deadlock check reads it before and after it looks at the nodes, and a change means something
     * ran while it looked.
     */
    public long activity()
    {
        return (long)RUNS.getAcquire(this) + commands.done();
    }

    /** Any thread: whether a polled queue holds input this worker has not seen yet. */
    boolean hasUnseenInput()
    {
        return PolledInputs.hasUnseen(this);
    }

    /** This thread, as a {@code PARK} worker spins: whether to yield its core each turn ({@link Scheduler#spinsYield()}). */
    boolean spinsYield()
    {
        return scheduler.spinsYield();
    }

    /** Whether this worker never sleeps for long, so that it may poll graph inputs (busy spin or yield). */
    public boolean polls()
    {
        return idleStrategy instanceof BusySpinIdleStrategy || idleStrategy instanceof YieldingIdleStrategy;
    }

    /**
     * One step of a {@code max_in_flight} node, then one of their calls, from the executor's
     * shared queues: the step first, so that calls go out before this worker starts a long one.
     */
    private int runShared(final SharedCalls shared)
    {
        int work = 0;
        final Node node = shared.nodes.relaxedPoll();
        if (node != null)
        {
            runNode(node);
            work++;
            if (node.afterRun())
            {
                shared.offer(node);
            }
        }
        final Lane lane = shared.lanes.relaxedPoll();
        return lane == null ? work : work + runLane(lane);
    }

    /** This thread: one call of a {@code max_in_flight} node; reports see the lane while it lasts. */
    private int runLane(final Lane lane)
    {
        CURRENT_LANE.setOpaque(this, lane);
        enterCall(lane.node);
        try
        {
            lane.run(this);
        }
        finally
        {
            leaveCall();
            CURRENT_LANE.setOpaque(this, (Lane)null);
        }
        RUNS.setOpaque(this, runs + 1);
        return 1;
    }

    /** This thread: one step of {@code node}, one of its own, a shared one or one it took from a sibling. */
    void runNode(final Node node)
    {
        assert Thread.currentThread() == thread : name + " ran on " + Thread.currentThread().getName();
        assert node.shared != null || node.worker == this || node.stealable :
            node + " is pinned to " + node.worker.name() + ", not " + name;
        if (node.runningOn != this)
        {
            node.runningOn = this; // only when it changes: see PacketSlot.set
        }
        enterCall(node);
        try
        {
            node.run();
        }
        catch (final Throwable t)
        {
            scheduler.fail(node.name, node.inputTimestamp, t);
        }
        finally
        {
            leaveCall();
        }
        RUNS.setOpaque(this, runs + 1);
    }

    /**
     * This thread, as a step of {@code node} begins: what reports see ({@link #current()}). Opaque
     * stores, a plain move each on x86: diagnostics, read racily (benign). The node's id is stored
     * only when it changes; the release orders it before the flag that says it is in a call.
     */
    private void enterCall(final Node node)
    {
        final int id = node.id;
        if (calledId != id)
        {
            CALLED.setOpaque(this, id);
        }
        CALLING.setRelease(this, true);
        if (steals)
        {
            WorkStealing.lendQueues(this);
        }
    }

    /** This thread, as a step ends: takes its queues back from thieves, if it lent them. */
    private void leaveCall()
    {
        CALLING.setOpaque(this, false);
        if (steals)
        {
            WorkStealing.takeQueuesBack(this);
        }
    }

    /** Any thread, racy: whether a node may be queued here (the heap's size is a plain read, a hint). */
    boolean hasQueued()
    {
        return !inbox.isEmpty() || !heap.isEmpty() || hasUnseenInput();
    }

    /** Any thread, for reports: the node in a step on this worker now, or null (racy: diagnostics). */
    public Node current()
    {
        return (boolean)CALLING.getAcquire(this) ? scheduler.nodeById(calledId) : null;
    }

    /**
     * Any thread, for reports: how long the worker has been in its current call, as observed, or
     * -1 outside calls. The duration counts from the first observation of this call, so it is at
     * most one guard period short.
     */
    public long observedCallNanos(final long now)
    {
        return callWatch.observedNanos(currentLane != null ? currentLane : current(), runs, now);
    }

    @Override
    public void onClose()
    {
        lifecycle = TERMINATED;
    }

    @Override
    public String roleName()
    {
        return name;
    }

    /**
     * The worker a node is pinned to ({@link Node#worker}), typed for the scheduler and the run;
     * every {@link NodeThread} is a worker. A control path (placement, reports, hot-plug).
     *
     * @param node a node of this graph.
     * @return its worker, or null when it has none (a {@code max_in_flight} node before placement).
     */
    public static Worker of(final Node node)
    {
        return (Worker)node.worker;
    }

    @Override
    public int id()
    {
        return id;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public WorkerJournal journal()
    {
        return journal;
    }

    @Override
    public Thread thread()
    {
        return thread;
    }

    public String lifecycleName()
    {
        return LIFECYCLE_NAMES[lifecycle];
    }

    public int queued()
    {
        return inbox.size() + heap.size();
    }
}
