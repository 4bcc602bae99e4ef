package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

/**
 * A worker's journal at a level lighter than every call ({@link JournalConfig.Level}): it decides on
 * the worker, before any record is made, which of the worker's events reach the worker's own
 * journal behind it (the ASYNC ring, or the SYNC writer), so that what a level leaves out costs a
 * field read and a branch.
 *
 * <ul>
 *   <li>{@code RUNS}: a run of calls (from the first call after the worker idled to its next idle)
 *       is one call in the journal: the first call's begin, and at the idle an end for it; packets
 *       on end streams (streams no node takes) are kept;</li>
 *   <li>{@code IO}: no calls; packets on end streams only;</li>
 *   <li>{@code SAMPLED}: as IO, and one outermost call in {@code sampleEvery} whole (begin, packets,
 *       end; a call nested in it goes with it).</li>
 * </ul>
 * Graph inputs, drops, bounds, errors, notes and subgraph records are not a worker's calls and are
 * journaled at every level.
 *
 * <p>Threading: the worker's thread, as {@link WorkerJournal}; its state is the worker's own. After
 * the workers stopped, the thread that stops the run (its calls that close nodes, then
 * {@link #endRun} from the writer's run end): the stop orders it after the worker's last call.
 */
final class LevelWorkerJournal extends WorkerJournal
{
    private final WorkerJournal inner;
    private final JournalConfig.Level level;
    private final int sampleEvery;
    /** Per stream id: whether no node takes it (a graph output). Ids past its end (a subgraph's) are kept. */
    private final boolean[] endStream;

    private int depth;
    private boolean journaling;
    private int count;
    private int runNode = -1;
    private long runTimestamp;

    LevelWorkerJournal(
        final JournalSink sink, final int workerId, final WorkerJournal inner, final JournalConfig.Level level,
        final int sampleEvery, final boolean[] endStream)
    {
        super(sink, workerId);
        this.inner = inner;
        this.level = level;
        this.sampleEvery = sampleEvery;
        this.endStream = endStream;
    }

    @Override
    public void processBegin(final int nodeId, final long inputTimestamp)
    {
        begin(nodeId, inputTimestamp);
    }

    @Override
    public void processBeginSameWorker(final int nodeId, final long inputTimestamp)
    {
        begin(nodeId, inputTimestamp); // a fresh reading: the worker's last call may not have been journaled
    }

    private void begin(final int nodeId, final long inputTimestamp)
    {
        if (depth++ == 0)
        {
            if (level == JournalConfig.Level.SAMPLED)
            {
                journaling = ++count == sampleEvery;
                if (journaling)
                {
                    count = 0;
                    inner.processBegin(nodeId, inputTimestamp);
                }
            }
            else if (level == JournalConfig.Level.RUNS && runNode < 0)
            {
                runNode = nodeId;
                runTimestamp = inputTimestamp;
                inner.processBegin(nodeId, inputTimestamp);
            }
        }
        else if (journaling)
        {
            inner.processBegin(nodeId, inputTimestamp);
        }
    }

    @Override
    public boolean reusesReadings()
    {
        return inner.reusesReadings();
    }

    @Override
    public void emit(final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        if (journaling || streamId >= endStream.length || (streamId >= 0 && endStream[streamId]))
        {
            inner.emit(nodeId, streamId, timestamp, value, word);
        }
    }

    @Override
    public void processEnd(final int nodeId, final long inputTimestamp)
    {
        if (journaling)
        {
            inner.processEnd(nodeId, inputTimestamp);
        }
        if (--depth <= 0)
        {
            depth = 0;
            journaling = false;
        }
    }

    @Override
    public void idle()
    {
        endRun();
        inner.idle();
    }

    /**
     * RUNS: ends the run of calls in progress: the end of its first call, now (the journal reads
     * the run as one call). At the idle, on the worker's thread; and at the run's end, on the
     * stopping thread after the workers stopped (the calls that close nodes run there).
     */
    void endRun()
    {
        if (runNode >= 0)
        {
            inner.processEnd(runNode, runTimestamp);
            runNode = -1;
        }
    }
}
