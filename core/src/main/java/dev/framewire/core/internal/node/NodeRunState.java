package dev.framewire.core.internal.node;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.PayloadPool;
import org.agrona.concurrent.NanoClock;

/**
 * What a {@link Node} (and its {@link Lane}s) needs of its run: the stop flag, the journal, the
 * clock, the memory governor and pool, the source gate, and the calls a node makes as it opens,
 * closes and fails. A node sees its run only through it, as MediaPipe's calculator node gets
 * callbacks in {@code PrepareForRun} rather than the graph. Output streams and graph inputs see the
 * run through the stream layer's {@code StreamRun}.
 *
 * <p>One implementation, the run's {@code RunState}: C2 devirtualises the calls. The two a node
 * makes on every run, {@link #isStopping()} and {@link #timesProcessCalls()}, read fields of the
 * implementation itself, one load away from the node; the rest delegate to the run with the same
 * (volatile or plain) semantics, one load further. None allocates or locks.
 *
 * <p>Threading: as each method says. A node's own steps run on its worker (one at a time, see
 * {@link Node}); its {@code process} calls with {@code max_in_flight} above 1 run on a lane's runner.
 */
public interface NodeRunState
{
    /** Any thread, a volatile read: whether the run is stopping (it failed or was cancelled, or is ending). */
    boolean isStopping();

    /** Any thread, a volatile read: whether the run's sources were closed ({@code Graph.closeAllPacketSources}). */
    boolean sourcesClosed();

    /**
     * Any thread: MediaPipe's {@code CloseAllPacketSources}, also what a node with inputs asks by
     * {@code CalculatorContext.stop()}: sources close at their next turn, graph inputs close, the rest drains.
     */
    void closeAllPacketSources();

    /**
     * Workers, lane runners and graph inputs' adders, a plain read: the run's journal, or null; set
     * before any worker starts or graph input takes a packet.
     */
    JournalSink journal();

    /** Workers and lane runners, a plain read: whether {@code process} calls are timed; set before the start. */
    boolean timesProcessCalls();

    /** Workers and lane runners: the graph's clock, from its config. */
    NanoClock clock();

    /** The node's constructor and its worker: the config the graph was made from (immutable). */
    GraphConfig config();

    /** The node's constructor, which keeps it for its worker: the memory budget's limits as they bear on this run. */
    MemoryGovernor memory();

    /** A calculator, on its node's worker or lane runner: the pool it acquires payloads from. */
    PayloadPool pool();

    /** A calculator, on its node's worker or a lane runner: when the graph input packet at a timestamp came, or -1. */
    long graphInputNanos(long timestamp);

    /** A source's worker, per payload: the most payload bytes, at slot size, a source may emit in one call. */
    long shipmentByteCap();

    /** Workers, journaling a drop: the journal's id of a stream, or -1 (a whole input set, named ""). */
    int streamId(String stream);

    /** The source's worker: whether it may be called now (open, its turn come, not stopping, retrying or held back). */
    boolean sourceMayRun(Node source);

    /** The node's worker: the graph's failure policy. */
    FailurePolicy failurePolicy();

    /** The node's worker, after a failed call: whether what it staged goes out anyway (see {@link FailureHandling}). */
    boolean keepsStaged(Node node, Throwable cause);

    /** The node's worker: a call failed; what happens follows the graph's failure policy. */
    void onNodeFailure(Node node, long timestamp, Throwable cause, int packets, boolean delivered);

    /** Any thread (the node's worker, or the thread that stopped the workers): a failure the run goes on after. */
    void recordFailure(String where, long timestamp, Throwable cause);

    /** The node's worker: it opened, or counts as opened (isolated or cancelled before it opened). */
    void onNodeOpened(Node node);

    /** The node's worker: it closed, was isolated or was cancelled; the last node to close ends the run. */
    void onNodeClosed(Node node);

    /**
     * The node's worker, while the node is unopened: whether it may open, every input side packet it
     * takes from a node being set (see {@code SidePackets}); idempotent.
     */
    default boolean mayOpen(final Node node)
    {
        return true;
    }

    /** The node's worker, in a calculator's call: sets an output side packet (see {@code SidePackets}). */
    default void setOutputSidePacket(final Node node, final String tagOrName, final Object value)
    {
        throw new UnsupportedOperationException("node '" + node.name + "': output side packets are not supported here");
    }
}
