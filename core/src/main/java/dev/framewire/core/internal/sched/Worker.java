package dev.framewire.core.internal.sched;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.internal.node.Lane;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.NodeThread;
import dev.framewire.core.internal.node.SharedCalls;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.ParkHandshake;

import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

import net.openhft.affinity.Affinity;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscLinkedQueue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;


abstract class WorkerPad0 extends ParkHandshake
{
    byte p200, p201, p202, p203, p204, p205, p206, p207, p208, p209, p210, p211, p212, p213, p214, p215;
    byte p216, p217, p218, p219, p220, p221, p222, p223, p224, p225, p226, p227, p228, p229, p230, p231;
    byte p232, p233, p234, p235, p236, p237, p238, p239, p240, p241, p242, p243, p244, p245, p246, p247;
    byte p248, p249, p250, p251, p252, p253, p254, p255, p256, p257, p258, p259, p260, p261, p262, p263;
}

abstract class WorkerFields extends WorkerPad0
{
    /** Node runs so far; written by this worker only. */
    public volatile long runs;
    /** How many of {@link Worker}'s sources wait out a backoff after failed calls ({@link SourceRetry}); worker only. */
    public int backingOff;
    /** Whether the last duty cycle did work; worker only. */
    public boolean busy;
    /** The polled queues that {@link Worker#pollInputs()} found changed in this duty cycle; worker only. */
    public int inputsSeen;
    /**
     * The id of the node of the call in progress ({@link #calling}) or of the last one, for
     * reports, which look the node up ({@link Worker#current()}); -1 before the first. An
     * {@code int}, not the node: a worker running several nodes in turn would otherwise store a
     * reference per run, and under G1 each costs the write barrier's fence once the graph is in
     * the old generation (docs/ARCHITECTURE.md, "Rules the code keeps"). Stored only when it changes.
     */
    public volatile int calledId = -1;
    /** Whether the worker is in a node's step now; {@link Worker#current()} reads it first. */
    public volatile boolean calling;
    /** When {@link #calledId} is in a {@code max_in_flight} call: that call, for reports. */
    public volatile Lane currentLane;
}

abstract class WorkerPad1 extends WorkerFields
{
    byte p300, p301, p302, p303, p304, p305, p306, p307, p308, p309, p310, p311, p312, p313, p314, p315;
    byte p316, p317, p318, p319, p320, p321, p322, p323, p324, p325, p326, p327, p328, p329, p330, p331;
    byte p332, p333, p334, p335, p336, p337, p338, p339, p340, p341, p342, p343, p344, p345, p346, p347;
    byte p348, p349, p350, p351, p352, p353, p354, p355, p356, p357, p358, p359, p360, p361, p362, p363;
}

/**
 * One thread of an executor, an Agrona {@link Agent}: it drains its inbox (a JCTools MPSC queue
 * that other threads put ready nodes on) into its own {@link NodeHeap}, where no other thread
 * looks, and runs the first node. A node scheduled from this worker's own thread skips the inbox.
 * A busy-spinning or yielding worker also polls the queues from graph inputs into its nodes each
 * duty cycle, so that adding a packet costs the adder no fence, CAS or inbox offer
 * ({@link InputQueue#polled}). When a duty cycle finds no work after one that did, it tells the
 * graph once ({@link Scheduler#onWorkerIdle()}): idle waiters and the deadlock check need it.
 * When its executor has {@code max_in_flight} nodes, each duty cycle then also takes one of their
 * steps and one of their calls from the queues the executor's workers share ({@link SharedCalls}).
 *
 * <p>Life cycle: INITIALISED, RUNNING, PAUSED, TERMINATING, TERMINATED.
 *
 * <p>Subgraphs added to and removed from a running graph ({@link Graph#addSubgraph}) change what
 * the worker owns (its sources, the queues of a removed node) only through {@link #submit}: a
 * command queue, a JCTools MPSC linked queue (not Agrona's, whose Unsafe access needs a JVM flag a
 * graph of plain packets does not), that the worker drains at the top of each duty
 * cycle, so no structure of the worker's is written by another thread. A command allocates a queue
 * node; commands come per subgraph added or removed, never per packet. The inbox and the heap have
 * room for {@link #NODE_SLOTS} nodes, so that nodes placed at run time fit without either growing.
 *
 * <p>Threading: {@link #enqueue(Node)} and {@link #submit(Runnable)} from any thread; everything
 * else on the worker's thread, but {@link #placed}, which the graph's hot-plug lock guards.
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
    private final MpscLinkedQueue<Runnable> commands = new MpscLinkedQueue<>();
    /** Commands submitted, counted before each is offered; any thread (a cold path: control, not packets). */
    private final AtomicLong commandsSubmitted = new AtomicLong();
    /** Commands run to their end; written by this worker only, after each command's effects. */
    private volatile long commandsDone;
    /** Position among the graph's workers: the journal's worker id. */
    public final int id;
    /**
     * The journal's part for this worker, through which the calls it runs are journaled
     * ({@link JournalSink#worker}); null when the graph keeps no journal. Set before the workers
     * start.
     */
    public WorkerJournal journal;
    public final int cpu;
    private final MpscArrayQueue<Node> inbox;
    private final NodeHeap heap;
    private final MessagePassingQueue.Consumer<Node> toHeap;
    /** The executor's shared work, when it has {@code max_in_flight} nodes; null otherwise. */
    public SharedCalls shared;
    public final IdleStrategy idleStrategy;

    /** Graph-input queues into this worker's nodes that it polls; set before the run. */
    private InputQueue[] polled = new InputQueue[0];
    /** This worker's source nodes; set before the run. */
    private Node[] sources = new Node[0];
    public volatile int lifecycle = INITIALISED;
    /*
     * How long the current call has lasted, as seen from outside: no clock is read on the worker
     * (a clock_gettime per node run was 15% of a 4-stage chain's worker time in B2). A report or
     * the timeout guard looks at (runs, current); the first look that finds a pair notes the time,
     * later looks that find the same pair measure from there. Written by whichever thread reports
     * (a benign race between the guard and a caller of Graph.report(): diagnostics only).
     */
    private long seenRuns = -1;
    private Object seenCall;
    private long seenAtNanos;
    private static final java.lang.invoke.VarHandle CALLED;
    private static final java.lang.invoke.VarHandle CALLING;
    private static final java.lang.invoke.VarHandle RUNS;
    private static final java.lang.invoke.VarHandle CURRENT_LANE;

    static
    {
        try
        {
            final java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.lookup();
            CALLED = lookup.findVarHandle(WorkerFields.class, "calledId", int.class);
            CALLING = lookup.findVarHandle(WorkerFields.class, "calling", boolean.class);
            RUNS = lookup.findVarHandle(WorkerFields.class, "runs", long.class);
            CURRENT_LANE = lookup.findVarHandle(WorkerFields.class, "currentLane", Lane.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Why a worker of an executor pinned to CPUs could not pin itself, or null when it can. Core
     * requires OpenHFT affinity only {@code static} (see module-info.java: its module name would
     * be derived from the jar's file name), so on the module path it is there only when the
     * application adds it; on the class path its jar may be left out. Asked when a graph with a
     * pinned executor is validated, so that the graph fails there and not on a worker's first
     * duty cycle. The class literal loads the class without initializing it.
     */
    public static String affinityUnavailable()
    {
        try
        {
            return Affinity.class.getModule().isNamed() && !Worker.class.getModule().canRead(Affinity.class.getModule()) ?
                "core does not read module " + Affinity.class.getModule().getName() : null;
        }
        catch (final LinkageError ex)
        {
            return "it is not in the module graph or on the class path (" + ex + ")";
        }
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
        this.idleStrategy = idleStrategy(executor.idle(), executor.spinBeforeParkMicros());
    }

    private IdleStrategy idleStrategy(final IdleKind idle, final int spinBeforeParkMicros)
    {
        switch (idle)
        {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy();
            default:
                return new ParkingIdleStrategy(this, spinBeforeParkMicros);
        }
    }

    /** Any thread: hands a queued node to this worker. */
    public void enqueue(final Node node)
    {
        if (Thread.currentThread() == thread)
        {
            heap.add(node);
            return;
        }
        // Capacity is the number of nodes on this worker and a node is queued at most once,
        // so the offer cannot fail.
        inbox.offer(node); // its CAS is the full fence the handshake needs before reading parked
        wakeIfParked();
    }

    /**
     * Any thread: runs {@code command} on this worker's thread, at the top of a duty cycle (also
     * while the graph is paused); never if the worker has stopped.
     */
    public void submit(final Runnable command)
    {
        commandsSubmitted.incrementAndGet();
        commands.offer(command);
        wakeIfParked();
    }

    /** The worker, each duty cycle: runs the commands submitted so far, a few at a time. */
    private int runCommands()
    {
        int work = 0;
        Runnable command;
        while (work < 16 && (command = commands.poll()) != null)
        {
            try
            {
                command.run();
            }
            finally
            {
                commandsDone = commandsDone + 1; // only this thread writes it; the volatile store publishes the effects
            }
            work++;
        }
        return work;
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
            !commands.isEmpty();
    }

    @Override
    public void onStart()
    {
        thread = Thread.currentThread();
        if (cpu >= 0)
        {
            try
            {
                Affinity.setAffinity(cpu);
            }
            catch (final RuntimeException ex)
            {
                throw new IllegalStateException("executor '" + executor + "' cannot pin its worker " + name + " to CPU " +
                    cpu + " (field cpu): " + ex.getMessage() + "; valid are the CPUs " +
                    CpuIds.toList(CpuIds.allowed()) + ", or no cpu to leave it unpinned", ex);
            }
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
        final int commanded = commands.isEmpty() ? 0 : runCommands();
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
        Node node = polled.length == 0 ? null : pollInputs();
        if (node == null)
        {
            node = heap.poll();
        }
        work += inputsSeen;
        if (node == null)
        {
            scheduler.checkHeldSources();
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
     * Schedules the consumers of the polled graph-input queues that changed since the last look
     * (see {@link InputQueue#polled}), and counts those queues in {@link #inputsSeen}. The
     * commonest case skips the heap: when one consumer comes from IDLE and nothing else is queued,
     * the heap would hand it straight back, so it is returned to run now (a heap add and poll, with
     * the keys' computation and two reference stores, less per hop). In any other case they all go
     * on the heap, whose order decides as before.
     *
     * @return the node to run now, or null when the heap holds the next node to run (if any).
     */
    private Node pollInputs()
    {
        Node direct = null;
        int seen = 0;
        for (final InputQueue queue : polled)
        {
            if (queue.pollChanged())
            {
                final Node consumer = (Node)queue.consumer;
                if (consumer.claimFromOwner())
                {
                    direct = runNowOrQueue(direct, consumer);
                }
                queue.markSeen(); // after the claim: an idle check that finds the queue seen finds its node scheduled
                seen++;
            }
        }
        inputsSeen = seen;
        return direct;
    }

    /**
     * {@link #pollInputs()}, for a consumer it took from IDLE: the node to run now (this one, when
     * none was chosen yet and the heap is empty), or null with both on the heap.
     */
    private Node runNowOrQueue(final Node direct, final Node consumer)
    {
        if (direct == null && heap.isEmpty())
        {
            return consumer;
        }
        if (direct != null)
        {
            heap.add(direct);
        }
        heap.add(consumer);
        return null;
    }

    /** Before the run: a source node pinned to this worker. */
    void addSource(final Node source)
    {
        sources = java.util.Arrays.copyOf(sources, sources.length + 1);
        sources[sources.length - 1] = source;
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

    /** This worker's thread: a hot-plugged subgraph's source node pinned to this worker. */
    public void addSourceNow(final Node source)
    {
        assert Thread.currentThread() == thread : name + " changed by " + Thread.currentThread().getName();
        addSource(source);
    }

    /** This worker's thread: a removed subgraph's source leaves; a backoff it was waiting out is forgotten. */
    public void removeSourceNow(final Node source)
    {
        assert Thread.currentThread() == thread : name + " changed by " + Thread.currentThread().getName();
        final Node[] sources = this.sources;
        for (int i = 0; i < sources.length; i++)
        {
            if (sources[i] == source)
            {
                final Node[] fewer = new Node[sources.length - 1];
                System.arraycopy(sources, 0, fewer, 0, i);
                System.arraycopy(sources, i + 1, fewer, i, sources.length - i - 1);
                this.sources = fewer;
                if (source.retry.retryAtNanos != 0)
                {
                    source.retry.retryAtNanos = 0;
                    backingOff--;
                }
                return;
            }
        }
    }

    /**
     * This worker's thread, after a source's failed call: the source is not called before
     * {@code retryAtNanos} (System.nanoTime); this worker queues it again then.
     */
    public void backOff(final Node source, final long retryAtNanos)
    {
        assert Thread.currentThread() == thread || thread == null : source + " backed off on " +
            Thread.currentThread().getName() + ", not its worker " + name;
        if (source.retry.retryAtNanos == 0)
        {
            backingOff++;
        }
        source.retry.retryAtNanos = retryAtNanos == 0 ? 1 : retryAtNanos;
    }

    /**
     * Queues the sources whose backoff is over. One clock read per duty cycle, only while a source
     * of this worker waits.
     */
    public int wakeBackedOffSources()
    {
        final long now = System.nanoTime();
        int woken = 0;
        for (final Node source : sources)
        {
            final long at = source.retry.retryAtNanos;
            if (at != 0 && now - at >= 0)
            {
                source.retry.retryAtNanos = 0;
                backingOff--;
                source.scheduleFromOwnWorker();
                woken++;
            }
        }
        return woken;
    }

    /** Before the run: this worker polls {@code queue} for input instead of being told. */
    public void poll(final InputQueue queue)
    {
        queue.polled = true;
        polled = java.util.Arrays.copyOf(polled, polled.length + 1);
        polled[polled.length - 1] = queue;
    }

    /**
     * Any thread: whether a command submitted to this worker has not yet run to its end (one waits
     * in the queue or is running). A command may schedule a node (a local node woken from another
     * thread, a subgraph's node), so a graph whose nodes all look idle is not idle while one is
     * pending. The count of those done is read first: if it equals the count submitted, read after
     * it, every command submitted before that read has run and its effects are seen.
     */
    boolean hasPendingCommands()
    {
        final long done = commandsDone;
        return commandsSubmitted.get() != done;
    }

    /**
     * Any thread: a count that moves whenever this worker finishes a node run or a command: the
     * deadlock check reads it before and after it looks at the nodes, and a change means something
     * ran while it looked.
     */
    public long activity()
    {
        return (long)RUNS.getAcquire(this) + commandsDone;
    }

    /** Any thread: whether a polled queue holds input this worker has not seen yet. */
    boolean hasUnseenInput()
    {
        for (final InputQueue queue : polled)
        {
            if (queue.pollChanged())
            {
                return true;
            }
        }
        return false;
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
        if (lane != null)
        {
            CURRENT_LANE.setOpaque(this, lane);
            enterCall(lane.node);
            try
            {
                lane.run(this);
            }
            finally
            {
                CALLING.setOpaque(this, false);
                CURRENT_LANE.setOpaque(this, (Lane)null);
            }
            RUNS.setOpaque(this, runs + 1);
            work++;
        }
        return work;
    }

    private void runNode(final Node node)
    {
        assert Thread.currentThread() == thread : name + " ran on " + Thread.currentThread().getName();
        assert node.shared != null || node.worker == this : node + " is pinned to " + node.worker.name() + ", not " + name;
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
            CALLING.setOpaque(this, false);
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
        final Object call = currentLane != null ? currentLane : current();
        final long r = runs;
        if (call == null)
        {
            return -1;
        }
        if (r != seenRuns || call != seenCall)
        {
            seenRuns = r;
            seenCall = call;
            seenAtNanos = now;
        }
        return now - seenAtNanos;
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

    /**
     * Out of work, keeps looking for {@code spinBeforeParkMicros} microseconds
     * ({@code Thread.onSpinWait()} between looks), then parks until a producer unparks this worker
     * ({@link ParkHandshake}: the producer does so only when {@link #parked} is set, and the worker
     * re-checks its inbox after setting it, so no wake-up is lost). A timed park bounds the wait in case a pause or stop
     * flag changes without a node arriving. The spin takes a packet that comes within a few
     * microseconds without the producer's unpark and the worker's wake-up (B1's parked hop: p99
     * from about 15 µs to 1.5). It is measured with the clock, read once per idle duty cycle (never
     * while there is work), so that it lasts as long on a fast machine as on a slow one.
     */
    public static final class ParkingIdleStrategy implements IdleStrategy
    {
        private static final long MAX_PARK_NANOS = 10_000_000L;
        private final Worker worker;
        private final long spinNanos;
        /** When this idle period began, or 0 while working. */
        private long idleSinceNanos;

        ParkingIdleStrategy(final Worker worker, final int spinBeforeParkMicros)
        {
            this.worker = worker;
            this.spinNanos = spinBeforeParkMicros * 1_000L;
        }

        @Override
        public void idle(final int workCount)
        {
            if (workCount > 0)
            {
                idleSinceNanos = 0;
                return;
            }
            if (spinNanos > 0)
            {
                final long now = System.nanoTime();
                if (idleSinceNanos == 0)
                {
                    idleSinceNanos = now;
                    Thread.onSpinWait();
                    return;
                }
                if (now - idleSinceNanos < spinNanos)
                {
                    if (worker.scheduler.spinsYield())
                    {
                        Thread.yield(); // no core to spare: a sibling may be waiting for this one
                    }
                    else
                    {
                        Thread.onSpinWait();
                    }
                    return;
                }
            }
            idleSinceNanos = 0;
            idle();
        }

        @Override
        public void idle()
        {
            worker.parkUnlessWork(MAX_PARK_NANOS);
        }

        @Override
        public void reset()
        {
            idleSinceNanos = 0;
        }

        @Override
        public String alias()
        {
            return "park";
        }
    }
}
