package dev.framewire.core.journal;

/**
 * Where the engine sends a run's journal events: the one type the engine calls on its per-packet
 * path when a graph asks for a journal. The journal itself (Chronicle Queue, its reader, the
 * post-mortem) is in the {@code dev.framewire:framewire-journal} artifact, whose
 * {@code dev.framewire.journal.JournalWriter} extends this class; the engine finds it through a
 * {@link JournalProvider} and never names it, so an application that does not journal does not
 * carry Chronicle.
 *
 * <p>An abstract class rather than an interface, and with one implementation loaded in practice:
 * the JIT sees a single subclass (class hierarchy analysis) and calls it directly, as it did the
 * concrete writer this replaced. Nodes, streams and workers are small int ids whose names
 * {@link #runStart} gives once, and {@link #subgraphAdded} for each subgraph added at run time
 * (ids are never reused in a run); ids are -1 where there is none, a timestamp
 * {@code Timestamp.UNSET} where there is none.
 *
 * <p>Contract for an implementation:
 * <ul>
 *   <li>{@link #graphInput}, {@link #emit}, {@link #processBegin}, {@link #processBeginSameWorker}, {@link #processEnd},
 *       {@link #drop} and {@link #bound} are the hot path: called from worker threads (and a graph
 *       input's adding thread) for every packet, they must not allocate, block, or throw; so are
 *       the methods of the {@link WorkerJournal} each worker takes from {@link #worker}, through
 *       which the engine makes the events of the calls a worker runs;</li>
 *   <li>the journal never fails the run: an event it cannot record is counted and logged, not
 *       thrown;</li>
 *   <li>{@link #subgraphAdded}, {@link #subgraphRemoved} and {@link #subgraphLeft} are rare and
 *       called by the thread changing the graph (never a worker), under the graph's hot-plug
 *       lock: they may allocate, and wait briefly to be in order with what was journaled before
 *       them;</li>
 *   <li>threading: {@link #runStart} before any other call (the engine calls it before its
 *       workers start, which publishes what it sets), then {@link #worker} for each worker; then
 *       the event methods from any thread;
 *       {@link #runEnd} and {@link #close()} after the workers have stopped; calls after
 *       {@code close()} are ignored.</li>
 * </ul>
 */
public abstract class JournalSink implements AutoCloseable
{
    /** Drop reason: the node's input policy dropped the packet (fixed size). */
    public static final int POLICY = 1;
    /** Drop reason: the calculator dropped on purpose (a flow limiter, a gate). */
    public static final int FLOW_LIMIT = 2;
    /** Drop reason: shed to stay within the memory budget. */
    public static final int MEMORY = 3;
    /** Drop reason: a failure (the failure policy dropped the input set, or a failed node's queue). */
    public static final int FAILURE = 4;
    /** Drop reason: the node closed with packets still queued (early close). */
    public static final int CLOSE = 5;

    /**
     * The value the engine passes for a {@code long} packet, whose bits are in the word: the
     * engine's own marker object is translated to this one at the call.
     */
    public static final Object LONG = new Object()
    {
        @Override
        public String toString()
        {
            return "long";
        }
    };
    /** The value the engine passes for a {@code double} packet, whose raw bits are in the word. */
    public static final Object DOUBLE = new Object()
    {
        @Override
        public String toString()
        {
            return "double";
        }
    };

    /** For subclasses. */
    protected JournalSink()
    {
    }

    /**
     * Starts the run's journal with its names and which streams each node consumes. Allocates.
     *
     * @param configText       the graph config as text (for a replay and for humans).
     * @param engineVersion    the engine's version.
     * @param nodeNames        by node id.
     * @param streamNames      by stream id: graph inputs first, then node outputs.
     * @param workerNames      by worker id.
     * @param nodeInputStreams by node id, the stream ids of its inputs; null if unknown.
     * @throws IllegalArgumentException if the journal's settings name a stream that is not among the streams.
     * @throws IllegalStateException    if the run was started before.
     */
    public abstract void runStart(
        String configText,
        String engineVersion,
        String[] nodeNames,
        String[] streamNames,
        String[] workerNames,
        int[][] nodeInputStreams);

    /**
     * A packet added to a graph input stream, on the adding thread (worker -1), after its checks
     * passed and before it is delivered (a payload is still the caller's to read).
     *
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     a {@code Payload}, {@link #LONG} / {@link #DOUBLE} (bits in {@code word}), or a Java object.
     * @param word      the bits of a long or double packet.
     */
    public abstract void graphInput(int streamId, long timestamp, Object value, long word);

    /**
     * A packet a node emitted, when it is delivered.
     *
     * @param workerId  the worker.
     * @param nodeId    the emitting node.
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     the packet's value: a {@code Payload}, {@link #LONG} / {@link #DOUBLE}, or a Java object.
     * @param word      the bits of a long or double packet.
     */
    public abstract void emit(int workerId, int nodeId, int streamId, long timestamp, Object value, long word);

    /**
     * A node's call begins: open (input timestamp Unstarted), a source's call, an input set, or
     * close (Done).
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    public abstract void processBegin(int workerId, int nodeId, long inputTimestamp);

    /**
     * A node's call begins, one that no other thread handed a packet since the worker's last
     * reading of the clock: either every input packet was emitted on this same worker (the node
     * and each node feeding it are pinned to the worker, and no graph input feeds it), or the node's
     * one input was handed over (by a graph input's adder or another worker) and its packet was
     * published before the node's last {@link #processBegin} on this worker began, after the
     * record of its arrival ({@link #graphInput}, {@link #emit}). So a sink may stamp it with the
     * worker's last clock reading, if that is no earlier than the worker's last {@link #processBegin},
     * without breaking causal order across threads ({@code JournalConfig.ClockReads}). Never a
     * source's call or a {@code max_in_flight} node's. By default, {@link #processBegin}.
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    public void processBeginSameWorker(final int workerId, final int nodeId, final long inputTimestamp)
    {
        processBegin(workerId, nodeId, inputTimestamp);
    }

    /**
     * Whether {@link #processBeginSameWorker} stamps a call with its worker's last clock reading
     * rather than read the clock: only then does the engine look, per call, for a handed-over
     * packet published before that reading. Fixed for the run; false by default.
     *
     * @return whether the sink reuses its workers' readings.
     */
    public boolean reusesReadings()
    {
        return false;
    }

    /**
     * The part of the journal one worker writes through: the events of the calls it runs, and its
     * idling ({@link WorkerJournal}). The engine takes one per worker after {@link #runStart} and
     * before the workers start, and makes those events of the worker through it, not through this
     * sink's methods. By default, a {@link WorkerJournal} that passes them on to this sink with
     * the worker's id.
     *
     * @param workerId the worker's id, as named at {@link #runStart}.
     * @return the worker's journal.
     */
    public WorkerJournal worker(final int workerId)
    {
        return new WorkerJournal(this, workerId);
    }

    /**
     * A node's call returned or threw (the engine calls this in a {@code finally}).
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp, as at {@link #processBegin}.
     */
    public abstract void processEnd(int workerId, int nodeId, long inputTimestamp);

    /**
     * A worker ran out of work (once per idle period, before it parks), is paused or is stopping:
     * a sink that holds a worker's records back to write them together lets them go now. On the
     * worker's thread. Does nothing by default.
     *
     * @param workerId the worker.
     */
    public void workerIdle(final int workerId)
    {
    }

    /**
     * A packet, or a whole input set, dropped.
     *
     * @param workerId  the worker.
     * @param nodeId    the node that dropped.
     * @param streamId  the stream of the dropped packet, -1 for a whole input set.
     * @param timestamp the packet's or input set's timestamp.
     * @param reason    {@link #POLICY}, {@link #FLOW_LIMIT}, {@link #MEMORY}, {@link #FAILURE} or {@link #CLOSE}.
     */
    public abstract void drop(int workerId, int nodeId, int streamId, long timestamp, int reason);

    /**
     * A stream's bound moved other than to just past a packet it carried (an explicit bound, an
     * offset, the close).
     *
     * @param workerId the worker, -1 for a graph input's thread.
     * @param streamId the stream.
     * @param bound    the new bound.
     */
    public abstract void bound(int workerId, int streamId, long bound);

    /**
     * A failure. May allocate: failures are rare.
     *
     * @param workerId  the worker, -1 if not on one.
     * @param nodeId    the failed node, -1 if not a node's.
     * @param timestamp the input timestamp of the failed call, or Unset.
     * @param message   what happened: the node, the timestamp and the cause, in a sentence or more.
     */
    public abstract void error(int workerId, int nodeId, long timestamp, String message);

    /**
     * A node's note of something rare that a reader of the journal should see beside the packets:
     * a camera's timestamp jump, a reconnect ({@link dev.framewire.core.CalculatorContext#journalNote}). May allocate.
     *
     * @param workerId  the worker, -1 if not on one.
     * @param nodeId    the node that wrote it.
     * @param timestamp the timestamp it concerns, or Unset.
     * @param value     a number that goes with it (the calculator says which), 0 if none.
     * @param text      what happened, in a sentence.
     */
    public abstract void note(int workerId, int nodeId, long timestamp, long value, String text);

    /**
     * A subgraph added to the running graph ({@code Graph.addSubgraph}), on the adding thread,
     * before any of its nodes runs and before its graph inputs take a packet: every later record
     * naming its nodes or streams comes after this one. The record is in the journal, in order
     * with the graph input records given before, when the call returns (in both modes). Allocates.
     *
     * @param name             the subgraph's name (its nodes are {@code name__node}, its streams {@code name__stream}).
     * @param templateText     the template as config text, nested subgraph types expanded; or a line starting
     *                         {@code "# this config has no text form"} when it has none.
     * @param paramNames       the parameters' names.
     * @param paramTypes       by parameter, its type: {@code string}, {@code int64}, {@code int32}, {@code int16},
     *                         {@code int8}, {@code double}, {@code float}, {@code bool}, {@code null}, or else the
     *                         value's Java class name.
     * @param paramValues      by parameter, its value as text, or null when it has no text form (a Java object:
     *                         recorded by type only).
     * @param boundInputs      template input streams bound to streams of the graph's own.
     * @param boundStreams     by bound input, the graph's stream it consumes.
     * @param nodeIds          the journal's ids of its nodes (the graph's node ids), in template order.
     * @param nodeNames        by node, its name in the graph.
     * @param nodeInputStreams by node, the stream ids of its inputs.
     * @param streamIds        the journal's ids of its new streams: its graph inputs, then its nodes' outputs.
     * @param streamNames      by new stream, its name in the graph.
     */
    public abstract void subgraphAdded(
        String name,
        String templateText,
        String[] paramNames,
        String[] paramTypes,
        String[] paramValues,
        String[] boundInputs,
        String[] boundStreams,
        int[] nodeIds,
        String[] nodeNames,
        int[][] nodeInputStreams,
        int[] streamIds,
        String[] streamNames);

    /**
     * A subgraph's removal asked for ({@code Graph.removeSubgraph}), on the removing thread, before
     * its inputs close; in order with the graph input records given before, as
     * {@link #subgraphAdded}. Allocates.
     *
     * @param name                the subgraph's name.
     * @param drainDeadlineNanos  how long it may drain before it is cancelled (0: cancelled at once).
     * @param cancelDeadlineNanos how long, once cancelled, before its removal gives up on a node.
     */
    public abstract void subgraphRemoved(String name, long drainDeadlineNanos, long cancelDeadlineNanos);

    /**
     * A subgraph left the graph (removed, or every node closed on its own), on the thread that
     * takes it out, before its name can be used again. Allocates.
     *
     * @param name           the subgraph's name.
     * @param drained        whether it drained (false: it was cancelled).
     * @param droppedPackets the packets its nodes dropped over its life.
     */
    public abstract void subgraphLeft(String name, boolean drained, long droppedPackets);

    /**
     * Ends the run's journal, after the workers have stopped. May wait for records still on their
     * way to be written.
     *
     * @param how "done", "failed", "cancelled", or "cancelled: " and the reason given to
     *            {@code Graph.cancel(String)} ("duration elapsed: ...", "stopped: ...").
     */
    public abstract void runEnd(String how);

    /** Releases the journal's files and threads. Idempotent; later calls of the event methods are ignored. */
    @Override
    public abstract void close();
}
