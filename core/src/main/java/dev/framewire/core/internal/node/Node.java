package dev.framewire.core.internal.node;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;
import dev.framewire.core.Output;
import dev.framewire.core.internal.handler.DropSink;
import dev.framewire.core.internal.handler.InputSync;
import dev.framewire.core.internal.handler.SingleInputSync;
import dev.framewire.core.internal.queue.HeldBack;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.Schedulable;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.core.jfr.NodeProcessEvent;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.Payload;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A calculator in a running graph: its inputs and outputs, its place in the schedule, and the
 * state machine that queues it exactly once.
 *
 * <p>Scheduling state ({@link #state}): IDLE, SCHEDULED (queued or running: the worker owns it),
 * SCHEDULED_DIRTY. Any thread that brings input calls {@link #schedule()}: IDLE becomes SCHEDULED
 * and the node goes to its worker (once); SCHEDULED becomes SCHEDULED_DIRTY, so the worker looks
 * again before it lets the node go idle and no wake-up is lost. Only the worker moves a node out of
 * SCHEDULED (to IDLE) or clears the dirty mark, and it writes the state only then: a node that
 * stays busy is run again and again with no write to its state (see {@link #afterRun()}).
 *
 * <p>Threading: the calculator, the ports, the outputs and the lifecycle belong to the node's
 * worker (a node is pinned to one worker, so it never runs concurrently with itself). The
 * volatile fields are read by the timeout guard and reports from other threads. The node sees its
 * graph only through {@link NodeRunState}: the stop flag, the journal, the clock and the calls it
 * makes as it opens, closes and fails.
 *
 * <p>With {@code max_in_flight} above 1 the node has {@link Lanes}: its {@code process} calls run
 * in them, on several workers at once, while the node's own steps (handing input sets out,
 * retiring finished calls in timestamp order, open, close) stay one at a time under the state
 * machine, on whichever worker of the executor is free first ({@link SharedCalls}). A node without
 * them pays one null test per step for it.
 *
 * <p>Split by concept: the step and the scheduling state machine are here (the per-packet path, with
 * no dispatch added); a call of the calculator in a step (a source's, an input set's, with its
 * counters, timing, journal and JFR records) is {@link NodeCalls}; whether the node wants another
 * step is {@link StepEligibility}; who hands it
 * its input, decided before the run, is {@link NodeFeeds}; the lifecycle and failure state machine
 * (open, close, failure, isolation, cancellation) is {@link NodeLifecycle}; what the calculator's
 * context shares with a lane's call is {@link CallContext}, which both implement; offsets' bounds
 * are {@link OffsetBounds}. The ones a step reaches are static calls on the node's fields.
 *
 * <p>Layout: the fields the worker writes per call ({@link NodeHotFields}) sit between the
 * schedule state's padding and a line of their own ({@link NodeHotPad}): not on the state's line,
 * which producers on other threads read, nor on a line with whatever object lies after the node.
 */
public final class Node extends NodeHotPad implements CallContext, DropSink, Schedulable
{

    public static final int UNOPENED = 0;
    public static final int OPEN = 1;
    public static final int CLOSED = 2;
    /** Failed under {@link FailurePolicy#ISOLATE}: stays failed for the run. */
    public static final int FAILED = 3;
    /** Blocked under {@link FailurePolicy#ISOLATE}: an input socket lost its last live producer. */
    static final int BLOCKED = 4;

    /** Readiness: nothing to do. */
    public static final long NOT_READY = InputSync.NOT_READY;
    /** Readiness: every input is done and empty. */
    public static final long READY_FOR_CLOSE = InputSync.READY_FOR_CLOSE;

    static final VarHandle INPUT_TIMESTAMP;
    static final VarHandle CALLS;
    static final VarHandle CALL_NANOS;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            INPUT_TIMESTAMP = lookup.findVarHandle(NodeHotFields.class, "inputTimestamp", long.class);
            CALLS = lookup.findVarHandle(NodeHotFields.class, "calls", long.class);
            CALL_NANOS = lookup.findVarHandle(NodeHotFields.class, "callNanos", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** What this node sees of its graph; never the {@link Graph} itself. */
    public final NodeRunState runState;
    /** The memory budget's limits as they bear on this run; the heap's completion pressure reads it too. */
    public final MemoryGovernor memory;
    public final int id;
    public final String name;
    public final NodeConfig config;
    public final Calculator calculator;
    public final Options options;
    public final InputPolicy policy;
    public final boolean processBounds;
    public InputPort[] inputs;
    public InputSync sync;
    /** {@link #sync} when it is the one-input default policy, whose lean path the run takes; else null. */
    SingleInputSync solo;
    /** Scratch for batch counting, one cursor per input. */
    public int[] batchCursor;
    public OutputStream[] outputs;
    public final boolean isSource;
    public final int sourceLayer;
    public int topoIndex;
    /** A subgraph's removal took the node out: its heap slot goes back when it leaves the heap. Worker only. */
    public boolean forgotten;
    public NodeThread worker;
    /** Queues whose fullness holds this node back: the backpressure it obeys. */
    public InputQueue[] throttleQueues = new InputQueue[0];
    private final HeldBack heldBack = new HeldBack();
    public Map<String, Object> sidePackets = Map.of();
    /** The hot-plugged subgraph this node belongs to ({@link Graph#addSubgraph}), or null for the graph's own. */
    public final SubgraphState subgraph;

    public volatile int lifecycle = UNOPENED;
    /**
     * Asks JFR whether process events are wanted, so that none is made per call while no recording
     * wants them ({@link NodeCalls}). An event made per call and passed to a method that commits it
     * escapes whenever C2 does not inline that method, and then costs an allocation per call with no
     * recording at all (JMH -prof gc: 80 to 96 B/op through four nodes on two workers, in four of
     * five iterations).
     */
    final NodeProcessEvent processEventProbe = new NodeProcessEvent();
    /**
     * {@code -Dframewire.jfr=false} removes the JFR probe from every call: a static final the JIT
     * folds, so the {@code isEnabled()} test is not compiled in at all. It exists to measure what the
     * probe costs when no recording wants the events (bench {@code B2JfrBenchmark}); with it no
     * recording ever gets {@code dev.framewire.NodeProcess} events.
     */
    static final boolean JFR_PROBES = !"false".equals(System.getProperty("framewire.jfr"));

    /** Set by any thread when this node must become blocked; acted on by its worker. */
    public volatile boolean blockRequested;
    /** The calculator's own line in reports ({@link CalculatorContext#reportLine}); null if none. */
    public volatile Consumer<StringBuilder> reportLine;
    /** {@link #drops} by reason, and each drop's record in the journal and for JFR. */
    public final DropRecords dropRecords;
    /** A source's failed calls in a row and the wait before its next call; null for other nodes. */
    public final SourceRetry retry;
    /** A source asked to stop ({@link #stop()}): its call closes it ({@link NodeCalls#source}). */
    boolean stopRequested;
    /** Whether the calculator set an offset in {@code open}; read by {@link Lanes} too. */
    boolean hasOffset;
    /** The graph's {@code input_sets_per_run}. */
    final int inputSetsPerRun;
    /** Whether the graph's {@code room_batch} is above 1: going idle then hands out room (see {@link StepEligibility#handOutRoomOnIdle}). */
    private final boolean roomBatched;
    /** The offset the calculator set in {@code open}, when {@link #hasOffset}; read by {@link OffsetBounds}. */
    long offset;
    /**
     * With {@code max_in_flight} above 1, the node's calls in flight (see {@link Lanes}); null
     * otherwise. Set before the run starts.
     */
    public Lanes lanes;
    /**
     * With lanes, the executor's shared queues: the node's steps go there, for any of its workers
     * (see {@link SharedCalls}); null otherwise: the node runs on {@link #worker} only.
     */
    public SharedCalls shared;
    /**
     * Whether every input packet of this node is emitted on its own worker (see
     * {@link NodeFeeds#inputsAllFromItsWorker}): its calls are journaled with
     * {@link JournalSink#processBeginSameWorker}. Set before the run starts; false for a node of a
     * subgraph added at run time.
     */
    public boolean inputsFromItsWorker;
    /**
     * Whether this node's one input is handed over by another thread (a graph input, or a node on
     * another worker) and the node runs on its own worker only: a journaled call of an input set
     * may then begin at the worker's last clock reading when its packet was published before that
     * reading ({@link SingleInputSync#publishedBeforeLastReading}); {@link #solo} is not null then.
     * Set before the run starts; false for a node of a subgraph added at run time.
     */
    public boolean oneInputHandedOver;

    public Node(
        final NodeRunState runState,
        final int id,
        final NodeConfig config,
        final Calculator calculator,
        final Options options,
        final Contract contract,
        final boolean isSource,
        final SubgraphState subgraph)
    {
        this.subgraph = subgraph;
        this.runState = runState;
        this.memory = runState.memory();
        this.id = id;
        this.name = config.name();
        this.config = config;
        this.dropRecords = new DropRecords(runState, id, name);
        this.calculator = calculator;
        this.options = options;
        this.policy = config.inputPolicy() != null ? config.inputPolicy() :
            contract.inputPolicy() != null ? contract.inputPolicy() : InputPolicy.DEFAULT;
        this.processBounds = contract.processTimestampBounds();
        this.isSource = isSource;
        this.retry = isSource ? new SourceRetry() : null;
        this.sourceLayer = config.sourceLayer();
        this.inputSetsPerRun = runState.config().inputSetsPerRun();
        this.roomBatched = runState.config().roomBatch() > 1;
    }

    // ---------------------------------------------------------------- scheduling state machine

    /**
     * Any thread: this node may have become ready. Queues it at most once; a node already scheduled
     * is marked dirty, so the worker looks again before it lets the node go idle. In steady state
     * (the node never runs out of input) the state stays dirty and producers only read it: the
     * line is shared, not bounced between the producers' and the worker's cores.
     *
     * <p>The caller has published its packets or bound with a full fence since (see
     * {@link OutputStream#flush()}): the worker's idle attempt writes the state and then reads the
     * queues, the producer writes a queue and then reads the state, and without a StoreLoad on both
     * sides each could miss the other.
     */
    public void schedule()
    {
        if (local)
        {
            scheduleLocal();
        }
        else if (claim())
        {
            enqueue();
        }
    }

    /**
     * {@link #schedule()} of a local node ({@link ScheduleState#makeLocal()}): from its worker's
     * thread directly, from any other as a command its worker runs at the top of a duty cycle. Only
     * control paths get here from other threads (the start, isolating a failed node, waking a
     * producer held back by a queue added at run time); every packet's notification comes from a
     * producer on the node's own worker ({@link OutputStream}), so the command's allocation is not
     * paid per packet.
     */
    private void scheduleLocal()
    {
        if (Thread.currentThread() == worker.thread())
        {
            scheduleFromOwnWorker();
        }
        else
        {
            worker.submit(this::scheduleFromOwnWorker);
        }
    }

    /**
     * The worker this node is pinned to, from its own thread, while running another node: queues
     * this node if it is idle, else leaves it as it is (see {@link ScheduleState#claimFromOwner()}).
     */
    public void scheduleFromOwnWorker()
    {
        assert Thread.currentThread() == worker.thread() || worker.thread() == null || runState.isStopping() || stealable :
            this + " scheduled as from its own worker " + worker.name() + " by " + Thread.currentThread().getName();
        if (claimFromOwner())
        {
            enqueue();
        }
    }

    private void enqueue()
    {
        if (shared == null)
        {
            worker.enqueue(this);
        }
        else
        {
            shared.offer(this);
        }
    }

    /**
     * Worker, after a run: queue again when still runnable; else go idle, unless input arrived
     * meanwhile (the dirty mark), in which case clear it and look again.
     *
     * @return true to put the node back on the worker's heap.
     */
    public boolean afterRun()
    {
        memory.checkHeldSources();
        if (memory.underPressure() && lifecycle == OPEN && !isSource)
        {
            // Here, before StepEligibility.wantsToRun asks the input policy for readiness, which it
            // keeps until the input set is taken: shedding after that (at the start of the next run)
            // dropped the kept timestamp's packets and handed the calculator an empty input set.
            memory.shed(this);
        }
        boolean wants = StepEligibility.wantsToRun(this);
        final SingleInputSync solo = this.solo;
        if (solo != null)
        {
            solo.forgetSeen(); // what the call saw of its input answers the first look only
        }
        if (!wants && roomBatched)
        {
            StepEligibility.handOutRoomOnIdle(this);
        }
        while (!wants)
        {
            if (tryIdle())
            {
                return false;
            }
            wants = StepEligibility.wantsToRun(this);
        }
        return true;
    }

    /** Its worker: {@code queues} (a hot-plugged subgraph's, downstream of this node) also hold it back. */
    public void addThrottles(final InputQueue[] queues)
    {
        throttleQueues = OutputStream.with(throttleQueues, queues);
        heldBack.forget();
    }

    /** Its worker: {@code queues} no longer hold it back; it may run again. */
    public void removeThrottles(final InputQueue[] queues)
    {
        throttleQueues = OutputStream.without(throttleQueues, queues);
        heldBack.forget();
        scheduleFromOwnWorker();
    }

    /** Whether a queue this node must not overfill is full. */
    public boolean isThrottled()
    {
        return heldBack.check(throttleQueues);
    }

    // ---------------------------------------------------------------- running

    /** Worker: one step of the node: open, one input set or source call, or close. */
    public void run()
    {
        final int life = lifecycle;
        final SubgraphState subgraph = this.subgraph;
        if (subgraph != null && subgraph.cancelled)
        {
            if (life < CLOSED)
            {
                NodeLifecycle.cancelForRemoval(this);
            }
            else
            {
                sync.dropAll(this); // closed or failed: what still arrives is released and counted
            }
            return;
        }
        if (life >= FAILED || (blockRequested && life != CLOSED))
        {
            if (life < FAILED)
            {
                isolate(BLOCKED);
            }
            else
            {
                NodeLifecycle.releaseQueued(this); // a failed or blocked node never runs; what still arrives is released
            }
            return;
        }
        if (life == UNOPENED)
        {
            if (runState.mayOpen(this)) // its input side packets set by nodes are all set
            {
                NodeLifecycle.open(this);
            }
        }
        else if (life == OPEN)
        {
            if (isSource)
            {
                if ((subgraph != null && subgraph.draining) || runState.sourcesClosed())
                {
                    close(); // its subgraph is being removed, or the run's sources closed: as if it had asked to
                }
                else if (runState.sourceMayRun(this))
                {
                    NodeCalls.source(this);
                }
            }
            else if (lanes != null)
            {
                lanes.retireAndHandOut();
            }
            else if (!isThrottled())
            {
                final long ready = readiness();
                if (ready == READY_FOR_CLOSE)
                {
                    close();
                }
                else if (ready != NOT_READY)
                {
                    NodeCalls.inputSet(this, ready);
                    if (sync.batchSize() > 1)
                    {
                        NodeCalls.restOfBatch(this);
                    }
                    else if (inputSetsPerRun > 1)
                    {
                        NodeCalls.moreReady(this);
                    }
                }
                else if (hasOffset)
                {
                    OffsetBounds.propagate(this);
                }
            }
        }
    }

    /** Worker: builds the input policy once the ports exist. */
    public void initInputs()
    {
        batchCursor = new int[inputs.length];
        sync = InputSync.create(inputs, this, batchCursor, policy, processBounds);
        solo = sync instanceof SingleInputSync ? (SingleInputSync)sync : null;
    }

    // ---------------------------------------------------------------- max_in_flight (see Lanes)

    /** Calls handed out and not yet retired, 0 without lanes; read racily by reports. */
    public long callsInFlight()
    {
        final Lanes lanes = this.lanes;
        return lanes == null ? 0 : lanes.inFlight();
    }

    /** The thread that stopped the workers: releases the calls not retired, if the node has lanes. */
    public void releaseLanes()
    {
        final Lanes lanes = this.lanes;
        if (lanes != null)
        {
            lanes.releaseNotRetired();
        }
    }

    /**
     * The input policy's readiness (sticky until the input set is filled).
     *
     * @return the timestamp to process, {@link #NOT_READY} or {@link #READY_FOR_CLOSE}.
     */
    public long readiness()
    {
        return sync.readiness();
    }

    public long inputBound()
    {
        return sync.inputBound();
    }

    /** Worker: closes the calculator and its outputs ({@link NodeLifecycle#close}). */
    public void close()
    {
        NodeLifecycle.close(this);
    }

    /** Worker, a failure under DROP_TIMESTAMP: see {@link NodeLifecycle#dropTimestamp}. */
    public void dropTimestamp(final long timestamp)
    {
        NodeLifecycle.dropTimestamp(this, timestamp);
    }

    /** Worker, under ISOLATE: the node is failed or blocked for the rest of the run; see {@link NodeLifecycle#isolate}. */
    public void isolate(final int state)
    {
        NodeLifecycle.isolate(this, state);
    }

    /** Worker, its removed subgraph closed: see {@link NodeLifecycle#releaseAfterRemoval}. */
    public void releaseAfterRemoval()
    {
        NodeLifecycle.releaseAfterRemoval(this);
    }

    /** The thread that stopped the workers, after a failed or cancelled run: see {@link NodeLifecycle#closeAfterStop}. */
    public void closeAfterStop()
    {
        NodeLifecycle.closeAfterStop(this);
    }

    void flushOutputs() throws Exception
    {
        for (final OutputStream output : outputs)
        {
            output.flush();
        }
    }

    /** Worker: a call failed ({@link NodeLifecycle#onFailure}), its input set's packets counted here. */
    void onFailure(final long timestamp, final Throwable cause)
    {
        NodeLifecycle.onFailure(this, timestamp, cause, NodeLifecycle.inputPackets(inputs));
    }

    public void releaseInputs()
    {
        for (final InputPort port : inputs)
        {
            port.releaseHeld();
        }
    }

    // ---------------------------------------------------------------- CalculatorContext (what differs from a lane's; the rest: CallContext)

    /** This node: its own steps are the calls this context serves. */
    @Override
    public Node callNode()
    {
        return this;
    }

    /** The worker running the node's current step. */
    @Override
    public NodeThread callWorker()
    {
        return runningOn;
    }

    @Override
    public long inputTimestamp()
    {
        return inputTimestamp;
    }

    @Override
    public Input input(final int index)
    {
        return inputs[index];
    }

    @Override
    public Output output(final int index)
    {
        return outputs[index];
    }

    @Override
    public void setOffset(final long offset)
    {
        if (lifecycle != UNOPENED)
        {
            // MediaPipe fails a SetOffset outside Open (FailedPrecondition): the bounds already
            // sent could not follow an offset that changes under them
            throw new IllegalStateException("node '" + name + "': setOffset is for open, not process or close");
        }
        this.hasOffset = true;
        this.offset = offset;
    }

    @Override
    public void stop()
    {
        if (isSource)
        {
            stopRequested = true;
        }
        else
        {
            runState.closeAllPacketSources(); // MediaPipe's StatusStop from Process: the run drains and ends OK
        }
    }

    @Override
    public long shipmentBytesLeft()
    {
        return isSource ? Math.max(0, runState.shipmentByteCap() - shipmentBytes) : Long.MAX_VALUE;
    }

    @Override
    public boolean isCancelled()
    {
        return runState.isStopping() || subgraph != null && subgraph.cancelled;
    }

    @Override
    public void countDrop()
    {
        dropped("", inputTimestamp, "calculator");
    }

    /** Worker: counts a drop and records it in the journal and, when a recording asks, for JFR. */
    @Override
    public void dropped(final String stream, final long timestamp, final String reason)
    {
        drops = drops + 1;
        dropRecords.packet(runningOn, stream, timestamp, reason);
    }

    /** Any thread: {@link #callNanos}, an opaque load. */
    public long callNanosOpaque()
    {
        return (long)CALL_NANOS.getOpaque(this);
    }

    /**
     * Worker: a whole input set, or a source's shipment, of {@code packets} packets was dropped (a
     * failed call under DROP_TIMESTAMP, an input set whose acquire passed the hard limit under
     * DROP_OLDEST). The count goes up by the packets; the journal and JFR get one drop of the set
     * ({@link DropRecords#inputSet}).
     */
    public void droppedSet(final long timestamp, final String reason, final int packets)
    {
        drops = drops + packets;
        dropRecords.inputSet(runningOn, timestamp, reason, packets);
    }

    /**
     * Worker, a source's emit of a payload: counts it in the call's shipment, or refuses it when it
     * would take the shipment past {@code max_shipment_bytes} (the first payload of a call always
     * goes out). The caller releases the payload when this throws.
     */
    public void addToShipment(final String stream, final Payload payload)
    {
        final long bytes = payload.capacity();
        final long before = shipmentBytes;
        if (before > 0 && before + bytes > runState.shipmentByteCap())
        {
            throw MemoryLimits.shipment(this, stream, before, bytes);
        }
        shipmentBytes = before + bytes;
    }

    /** Both {@link Schedulable}'s and the context's (see {@link CallContext#nodeName()}). */
    @Override
    public String nodeName()
    {
        return name;
    }

    @Override
    public String toString()
    {
        return "node '" + name + "'";
    }
}
