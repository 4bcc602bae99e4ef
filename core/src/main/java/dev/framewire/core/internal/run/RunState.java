package dev.framewire.core.internal.run;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.internal.node.MemoryGovernor;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.NodeRunState;
import dev.framewire.core.internal.sched.SchedulerRun;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.PayloadPool;
import org.agrona.concurrent.NanoClock;

/**
 * The run as its nodes, streams and scheduler see it ({@link NodeRunState}, {@code StreamRun},
 * {@link SchedulerRun}): the flags they read per packet or per run, held here (one load from the
 * reader), and the calls they make, each delegating to the {@link Run} with the same (plain or
 * volatile) semantics. One instance per run, made by the run and handed to each node, stream and the
 * scheduler through their constructors; one implementation of each interface, so C2 devirtualises
 * the calls.
 *
 * <p>Threading: as each interface method says; the flags are written by the run's owner before the
 * start ({@link #timesProcessCalls}, {@link #recordsArrivals}, {@link #journal}), by whoever stops the
 * run ({@link #stopping}), and read by workers and adders.
 */
public final class RunState implements SchedulerRun
{
    /** Whether the run has started; adders look at it per packet. */
    public volatile boolean started;
    /** Whether graph inputs note when each packet came; adders look at it per packet. */
    public volatile boolean recordsArrivals;
    /** The run's journal, or null; set in {@code start} before any worker or adder uses it. */
    public JournalSink journal;
    /** Set once when the run fails, is cancelled or ends; read by every worker per node run. */
    public volatile boolean stopping;
    /** Set once when the run's sources are closed ({@link #closeAllPacketSources()}); read by each source's worker. */
    public volatile boolean sourcesClosed;
    /** Whether nodes time their {@code process} calls ({@link Graph#timeProcessCalls()}); set before start. */
    public boolean timesProcessCalls;

    private final Run run;

    RunState(final Run run)
    {
        this.run = run;
    }

    @Override
    public boolean isStopping()
    {
        return stopping;
    }

    @Override
    public boolean sourcesClosed()
    {
        return sourcesClosed;
    }

    @Override
    public void closeAllPacketSources()
    {
        run.closeAllPacketSources();
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
    public boolean isStarted()
    {
        return started;
    }

    @Override
    public boolean recordsArrivals()
    {
        return recordsArrivals;
    }

    @Override
    public void adderWaits(final int delta)
    {
        run.scheduler.inputWaiters.addAndGet(delta);
    }

    @Override
    public void checkDeadlock()
    {
        run.scheduler.checkDeadlock();
    }

    @Override
    public NanoClock clock()
    {
        return run.config.clock();
    }

    @Override
    public GraphConfig config()
    {
        return run.config;
    }

    @Override
    public MemoryGovernor memory()
    {
        return run.memory;
    }

    @Override
    public PayloadPool pool()
    {
        return run.pool;
    }

    @Override
    public long graphInputNanos(final long timestamp)
    {
        return run.inputs.arrivalNanos(timestamp);
    }

    @Override
    public long shipmentByteCap()
    {
        return run.shipmentByteCap;
    }

    @Override
    public int streamId(final String stream)
    {
        return run.streamId(stream);
    }

    @Override
    public boolean sourceMayRun(final Node source)
    {
        return run.scheduler.sourceMayRun(source);
    }

    @Override
    public FailurePolicy failurePolicy()
    {
        return run.failureHandling.failurePolicy();
    }

    @Override
    public boolean keepsStaged(final Node node, final Throwable cause)
    {
        return run.failureHandling.keepsStaged(node, cause);
    }

    @Override
    public void onNodeFailure(
        final Node node, final long timestamp, final Throwable cause, final int packets, final boolean delivered)
    {
        run.failureHandling.onNodeFailure(node, timestamp, cause, packets, delivered);
    }

    @Override
    public void recordFailure(final String where, final long timestamp, final Throwable cause)
    {
        run.failureHandling.recordFailure(where, timestamp, cause);
    }

    /** Any thread: the graph inputs, the subgraphs' too, as they are now. */
    @Override
    public void markStopping()
    {
        stopping = true;
    }

    @Override
    public java.util.Collection<GraphInput> graphInputs()
    {
        return run.inputs.all();
    }

    /** Any thread, once the run has started: every source looks whether it may run now (the memory budget's call). */
    public void scheduleSources()
    {
        run.scheduler.scheduleSources();
    }

    /**
     * Any thread: a failure outside a calculator's call (a worker's, the deadlock check's); the
     * scheduler's, not a node's: see {@link Graph#fail}.
     */
    @Override
    public void fail(final String where, final long timestamp, final Throwable cause)
    {
        run.failureHandling.fail(where, timestamp, cause);
    }

    @Override
    public void onNodeOpened(final Node node)
    {
        if (!run.outputSidePackets.countedEarly(node)) // a node that waited for side packets counted then
        {
            run.end.onNodeOpened(node);
        }
    }

    @Override
    public void onNodeClosed(final Node node)
    {
        run.outputSidePackets.onNodeClosed(node); // before the count, which may end the run
        run.end.onNodeClosed(node);
    }

    @Override
    public boolean mayOpen(final Node node)
    {
        return run.outputSidePackets.readyToOpen(node);
    }

    @Override
    public void setOutputSidePacket(final Node node, final String tagOrName, final Object value)
    {
        run.outputSidePackets.set(node, tagOrName, value);
    }
}
