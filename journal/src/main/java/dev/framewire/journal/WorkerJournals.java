package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Composes a worker's part of the journal ({@link JournalWriter#worker}): the ASYNC ring or the
 * sink's default, behind a {@link LevelWorkerJournal} at a level lighter than every call (which
 * keeps what the level promises), behind {@link PayloadCapture}'s wrapper when streams are
 * captured. Keeps the level journals so that the run end closes their open runs of calls.
 *
 * <p>Threading: {@link #runStart} and {@link #compose} before the workers start (which publishes
 * what they set); {@link #endRuns} after the workers stopped.
 */
final class WorkerJournals
{
    /** The journal the workers' journals are part of. */
    private final JournalSink sink;
    private final JournalConfig.Level level;
    private final int sampleEvery;
    private final PacketValues values;
    private final PayloadCapture payloads;
    /** Per stream id: whether no node takes it (set at run start): what the lighter levels keep of packets. */
    private boolean[] endStreams = new boolean[0];
    /** The workers' journals at a lighter level, made before the workers start; ended at run end. */
    private final List<LevelWorkerJournal> levelJournals = new CopyOnWriteArrayList<>();

    WorkerJournals(
        final JournalSink sink,
        final JournalConfig config,
        final PacketValues values,
        final PayloadCapture payloads)
    {
        this.sink = sink;
        this.level = config.level();
        this.sampleEvery = config.sampleEvery();
        this.values = values;
        this.payloads = payloads;
    }

    /**
     * At run start: which streams end in no node.
     *
     * @return the NOTE that says the level, null when the journal holds every call.
     */
    String runStart(final int streamCount, final int[][] nodeInputStreams)
    {
        this.endStreams = PacketValues.endStreams(streamCount, nodeInputStreams);
        if (level == JournalConfig.Level.CALLS)
        {
            return null;
        }
        return JournalWriter.LEVEL_NOTE + level + (level == JournalConfig.Level.SAMPLED ?
            ", one call in " + sampleEvery : "");
    }

    /** The journal's level: how much is recorded. */
    JournalConfig.Level level()
    {
        return level;
    }

    /**
     * A worker's journal around {@code inner}, the ring or the sink's default.
     *
     * @param inner    what records the worker's calls.
     * @param workerId the worker.
     * @return the worker's journal.
     */
    WorkerJournal compose(final WorkerJournal inner, final int workerId)
    {
        if (level == JournalConfig.Level.CALLS)
        {
            return values.capturesAny() ? payloads.wrap(inner, workerId) : inner;
        }
        final LevelWorkerJournal filtered = new LevelWorkerJournal(sink, workerId, inner, level, sampleEvery,
            PayloadCapture.kept(endStreams, values.captureFlags()));
        levelJournals.add(filtered);
        return values.capturesAny() ? payloads.wrap(filtered, workerId) : filtered;
    }

    /** At run end: a lighter level's run of calls still open (the last calls, made as the workers stopped) ends. */
    void endRuns()
    {
        for (final LevelWorkerJournal journal : levelJournals)
        {
            journal.endRun();
        }
    }
}
