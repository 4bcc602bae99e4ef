package dev.framewire.core.journal;

/**
 * One worker's part of a {@link JournalSink}: the events of the calls the worker runs (a call's
 * begin, the packets it emits, its end) and its idling, which are the journal's per-packet path.
 * The engine takes one per worker from {@link JournalSink#worker} before the workers start and
 * keeps it with the worker, so that a sink that keeps state per worker (the journal's ring and
 * staged calls) is handed that state instead of finding it by the worker's id on every call.
 *
 * <p>This class passes each event on to its sink's method with the worker's id; a sink with per
 * worker state returns a subclass of its own. Contract, as for the sink's hot path: the methods
 * must not allocate, block or throw.
 *
 * <p>Threading: the worker's thread. The engine may also call from another thread with the
 * worker's journal (the graph's owner closing a node after the workers stopped): such a call is
 * journaled as the sink's method with the worker's id would journal it.
 */
public class WorkerJournal
{
    private final JournalSink sink;
    private final int workerId;

    /**
     * A worker's journal that passes its events on to the sink.
     *
     * @param sink     the run's journal.
     * @param workerId the worker's id in the run.
     */
    public WorkerJournal(final JournalSink sink, final int workerId)
    {
        this.sink = sink;
        this.workerId = workerId;
    }

    /**
     * The worker's id in the run.
     *
     * @return the id.
     */
    public final int workerId()
    {
        return workerId;
    }

    /**
     * As {@link JournalSink#processBegin}, for this worker.
     *
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    public void processBegin(final int nodeId, final long inputTimestamp)
    {
        sink.processBegin(workerId, nodeId, inputTimestamp);
    }

    /**
     * As {@link JournalSink#processBeginSameWorker}, for this worker.
     *
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    public void processBeginSameWorker(final int nodeId, final long inputTimestamp)
    {
        sink.processBeginSameWorker(workerId, nodeId, inputTimestamp);
    }

    /**
     * As {@link JournalSink#reusesReadings}.
     *
     * @return whether the sink reuses its workers' clock readings.
     */
    public boolean reusesReadings()
    {
        return sink.reusesReadings();
    }

    /**
     * As {@link JournalSink#emit}, for this worker.
     *
     * @param nodeId    the emitting node.
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     the packet's value: a {@code Payload}, {@link JournalSink#LONG} / {@link JournalSink#DOUBLE},
     *                  or a Java object.
     * @param word      the bits of a long or double packet.
     */
    public void emit(final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        sink.emit(workerId, nodeId, streamId, timestamp, value, word);
    }

    /**
     * As {@link JournalSink#processEnd}, for this worker.
     *
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp, as at the begin.
     */
    public void processEnd(final int nodeId, final long inputTimestamp)
    {
        sink.processEnd(workerId, nodeId, inputTimestamp);
    }

    /** As {@link JournalSink#workerIdle}, for this worker. */
    public void idle()
    {
        sink.workerIdle(workerId);
    }
}
