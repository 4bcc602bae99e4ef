package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.journal.JournalDescriptor.EMIT;
import static dev.framewire.journal.JournalRecord.VALUE_PAYLOAD;

/**
 * Writes one run's journal: a Chronicle Queue in a run directory of its own, one record per
 * engine event: the {@link JournalSink} the engine finds through {@link ChronicleJournalProvider}
 * when a graph's config asks for a journal, and calls from its worker threads. It can be used
 * without a graph too, as below. Nodes, streams and workers are small int ids whose names
 * {@link #runStart} writes once.
 *
 * <pre>{@code
 * try (JournalWriter journal = JournalWriter.open(config)) {
 *     journal.runStart(configText, hash, "0.1.0", nodeNames, streamNames, workerNames);
 *     journal.processBegin(worker, node, ts);     // allocation-free, ~100 ns (see docs/BENCHMARKS.md)
 *     journal.emit(worker, node, stream, ts, value);
 *     journal.processEnd(worker, node, ts);
 *     journal.runEnd("done");
 * }
 * }</pre>
 *
 * <p>Every record carries {@link System#nanoTime()}, read here when the call is made, and the
 * calling worker's id (-1 for a thread that is not a worker: a graph input's adder, the graph's
 * owner). In {@link JournalConfig.Mode#SYNC} each thread appends through a Chronicle appender of
 * its own (found through a per-worker slot, else a thread local); in
 * {@link JournalConfig.Mode#ASYNC} the hot calls claim a slot in a ring and return, and a journal
 * agent appends: a worker's thread in a one-to-one ring of its own (no CAS, no line shared with
 * another producer), any other thread (a graph input's adder, the graph's owner, a thread using a
 * worker id it does not own) in one many-to-one ring; a worker's calls are staged and go on its
 * ring 64 at a time (see {@link WorkerRing}), with one clock read a call, at its begin, or under
 * {@link JournalConfig.ClockReads#HAND_OVER} (the default) only for a call another thread handed a
 * packet ({@link #processBeginSameWorker}): a call ends where the worker's next one begins, or
 * when its staged calls go. File order is append order; per thread it
 * is the order of its events, across threads (and in ASYNC mode across rings) it is not
 * {@code nanos} order: readers that need a global order sort by {@code nanos}.
 *
 * <p>The journal never fails the run: an append that throws (disk full, say) is counted in
 * {@link #failures()} and logged once, and the run goes on.
 *
 * <p>Threading: {@link #runStart} before any other call (the engine calls it before its workers
 * start, which publishes what it sets); then the event methods from any thread; {@link #runEnd}
 * and {@link #close()} after the workers have stopped. Calls after {@code close()} are ignored.
 *
 * <p>Its parts, each a collaborator in a final field: {@link RunQueue} (the run's directory, lock
 * and Chronicle queue, opened and closed), {@link AppenderLanes} (the threads' appenders and what
 * they append directly), {@link JournalRings} and {@link WorkerRing} (ASYNC's rings and agent, and
 * a worker's staged calls), {@link PacketValues} (what a packet's value is journaled as),
 * {@link RunRecords} (the HEADER and RUN_START records), {@link SubgraphRecords},
 * {@link WorkerJournals} (a worker's journal at the configured level) and {@link AppendFailures}.
 */
public final class JournalWriter extends JournalSink
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);

    /** The NOTE a journal at a level lighter than every call starts with; its value is the level's ordinal. */
    public static final String LEVEL_NOTE = "journal level: ";

    private final JournalConfig.Mode mode;
    private final RunQueue files;
    private final AppenderLanes lanes;
    /** ASYNC: the rings and their agent; null in SYNC. */
    private final JournalRings rings;
    private final AtomicLong lost = new AtomicLong();
    private final AppendFailures failures;
    private final long maxCaptureBytes;
    /** The capture limit, and payloads captured at emit (new in 1.10; see PayloadCapture). */
    private final PayloadCapture payloads;
    /** By stream, what a packet's value is journaled as. */
    private final PacketValues values;
    private final WorkerJournals workers;
    private volatile boolean closed;
    /**
     * Orders a rare append on a thread the engine does not stop before {@link #close()} (a
     * subgraph leaving, journaled on the hot-plug thread) with the close: such a record is either
     * in the file or ignored, never written into a queue being unmapped.
     */
    private final Object closing = new Object();
    private boolean started;
    private boolean ended;

    private JournalWriter(final JournalConfig config, final RunQueue files)
    {
        this.mode = config.mode();
        this.values = new PacketValues(config.captureStreams().toArray(new String[0]),
            config.checksumStreams().toArray(new String[0]));
        this.files = files;
        this.failures = new AppendFailures(files.runDirectory);
        this.lanes = new AppenderLanes(files.queue, failures);
        // Chronicle refuses a document larger than a quarter of its block; keep room for the fixed part
        this.maxCaptureBytes = files.queue.blockSize() / 4 - 4096;
        this.payloads = new PayloadCapture(this, config.captureLimit(), maxCaptureBytes);
        this.workers = new WorkerJournals(this, config, values, payloads);
        if (mode == JournalConfig.Mode.ASYNC)
        {
            final ManyToOneRingBuffer ring = JournalRings.sharedRing(config.ringCapacity());
            // park between cycles that took little, and up to agentMaxParkNanos when idle: the
            // machine's cores belong to the workers, and the rings absorb the latency of a parked agent
            final JournalAgent agent = new JournalAgent(files.queue, ring, lost, this, config.agentBatchScheduling());
            final AgentRunner agentRunner = new AgentRunner(
                new PacedIdleStrategy(config.ringCapacity(), config.agentMaxParkNanos()), failures::onFailure, null,
                agent);
            this.rings = new JournalRings(config, ring, lost, agent, agentRunner);
        }
        else
        {
            this.rings = null;
        }
    }

    /**
     * Opens a new run journal: applies the retention ({@link JournalConfig#deleteOlderThan()},
     * {@link JournalConfig#maxTotalSize()}) to the runs in {@link JournalConfig#directory()},
     * makes an owner-only run directory there and takes its writer lock, prepares Chronicle's files
     * owner-only before Chronicle opens them, writes the header and, in ASYNC mode, starts the
     * journal agent.
     *
     * @param config the journal's settings.
     * @return the writer.
     * @throws UncheckedIOException if the directory cannot be made.
     * @throws IllegalArgumentException naming a setting that is not valid.
     */
    public static JournalWriter open(final JournalConfig config)
    {
        config.validate();
        final RunQueue files = RunQueue.open(config);
        try
        {
            final JournalWriter writer = new JournalWriter(config, files);
            writer.writeHeader();
            if (writer.rings != null)
            {
                writer.rings.startAgent(config.agentBatchScheduling());
            }
            return writer;
        }
        catch (final RuntimeException | Error ex)
        {
            files.abandon();
            throw ex;
        }
    }

    /**
     * This run's journal directory, the one {@link JournalReader#read(Path)} takes.
     *
     * @return the directory.
     */
    public Path runDirectory()
    {
        return files.runDirectory;
    }

    /**
     * The mode records are written in.
     *
     * @return SYNC or ASYNC.
     */
    public JournalConfig.Mode mode()
    {
        return mode;
    }

    private void writeHeader()
    {
        lanes.appendOrThrow(RunRecords.header());
    }

    // ---------------------------------------------------------------- run start and end

    /**
     * Starts the run's journal with its names; without the graph's topology (see the overload).
     *
     * @param configText    the graph config as text (for a replay and for humans).
     * @param configHash    a hash of it, e.g. {@link #configHash(String)}.
     * @param engineVersion the engine's version.
     * @param nodeNames     by node id.
     * @param streamNames   by stream id.
     * @param workerNames   by worker id.
     * @throws IllegalArgumentException if a capture or checksum stream is not among the streams.
     */
    public void runStart(
        final String configText,
        final long configHash,
        final String engineVersion,
        final String[] nodeNames,
        final String[] streamNames,
        final String[] workerNames)
    {
        runStart(configText, configHash, engineVersion, nodeNames, streamNames, workerNames, null);
    }

    /** {@inheritDoc} As the engine does: with {@link #configHash(String)} of the config text. */
    @Override
    public void runStart(
        final String configText,
        final String engineVersion,
        final String[] nodeNames,
        final String[] streamNames,
        final String[] workerNames,
        final int[][] nodeInputStreams)
    {
        runStart(configText, configHash(configText), engineVersion, nodeNames, streamNames, workerNames,
            nodeInputStreams);
    }

    /**
     * Starts the run's journal with its names and which streams each node consumes, which
     * {@link Postmortem} needs to count the packets in flight on each node's inputs.
     *
     * @param configText       the graph config as text.
     * @param configHash       a hash of it, e.g. {@link #configHash(String)}.
     * @param engineVersion    the engine's version.
     * @param nodeNames        by node id.
     * @param streamNames      by stream id.
     * @param workerNames      by worker id.
     * @param nodeInputStreams by node id, the stream ids of its inputs; null if unknown.
     * @throws IllegalArgumentException if a capture or checksum stream is not among the streams.
     * @throws IllegalStateException    if the run was started before.
     */
    public void runStart(
        final String configText,
        final long configHash,
        final String engineVersion,
        final String[] nodeNames,
        final String[] streamNames,
        final String[] workerNames,
        final int[][] nodeInputStreams)
    {
        if (started)
        {
            throw new IllegalStateException("runStart() called twice on the journal in " + files.runDirectory);
        }
        final boolean[] capture = values.flags(streamNames, true);
        final boolean[] checksum = values.flags(streamNames, false);
        if (nodeInputStreams != null && nodeInputStreams.length != nodeNames.length)
        {
            throw new IllegalArgumentException("nodeInputStreams has " + nodeInputStreams.length + " entries for " +
                nodeNames.length + " nodes");
        }
        started = true;
        values.start(capture, checksum);
        if (rings == null)
        {
            lanes.makeWorkerLanes(workerNames.length);
        }
        else
        {
            rings.makeWorkerRings(this, values, workerNames.length);
        }
        lanes.appendOrThrow(RunRecords.runStart(configText, configHash, engineVersion, nodeNames, streamNames,
            workerNames, nodeInputStreams, values.captureIds(), values.checksumIds()));
        final String levelNote = workers.runStart(streamNames.length, nodeInputStreams);
        if (levelNote != null)
        {
            // a reader (post-mortem, replay) must know that the calls are not all here
            note(-1, -1, Long.MIN_VALUE, workers.level().ordinal(), levelNote);
        }
    }

    /**
     * Ends the run's journal. In ASYNC mode, waits (up to 5 s) until the agent has appended
     * every record given before.
     *
     * @param how "done", "failed" or "cancelled".
     */
    @Override
    public void runEnd(final String how)
    {
        if (closed || ended)
        {
            return;
        }
        ended = true;
        workers.endRuns();
        // ASYNC: the workers' rings first, so that what follows, on the many-to-one ring, comes
        // after their records in the file, RUN_END last
        flush(TimeUnit.SECONDS.toNanos(5));
        if (rings != null)
        {
            rings.endWorkers();
        }
        text(JournalDescriptor.RUN_END, -1, -1, Long.MIN_VALUE, lost.get(), how);
        flush(TimeUnit.SECONDS.toNanos(5));
    }

    // ---------------------------------------------------------------- hot path: allocation-free

    /**
     * {@inheritDoc} A payload of a capture stream is copied into the journal (synchronously, in
     * both modes); of a checksum stream, checksummed; else its length is recorded.
     */
    @Override
    public void graphInput(final int streamId, final long timestamp, final Object value, final long word)
    {
        if (closed)
        {
            return;
        }
        if (value instanceof Payload && values.captures(streamId))
        {
            captured(streamId, timestamp, (Payload)value);
            return;
        }
        final int kind = values.kind(streamId, value, true);
        record(JournalDescriptor.GRAPH_INPUT, kind, -1, -1, streamId, timestamp, PacketValues.word(kind, value, word));
    }

    /**
     * A packet a node emitted, when it is delivered. Payloads of checksum streams are checksummed,
     * other payloads recorded by length; a boxed {@code Long} or {@code Double} by its value; other
     * objects by nothing but the timestamp.
     *
     * @param workerId  the worker.
     * @param nodeId    the emitting node.
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     the packet's value.
     */
    public void emit(final int workerId, final int nodeId, final int streamId, final long timestamp, final Object value)
    {
        if (closed)
        {
            return;
        }
        final int kind = values.kind(streamId, value, false);
        record(EMIT, kind, workerId, nodeId, streamId, timestamp, PacketValues.word(kind, value, 0));
    }

    /** {@inheritDoc} For a {@link #LONG} or {@link #DOUBLE} packet, its bits are recorded. */
    @Override
    public void emit(
        final int workerId, final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        if (closed)
        {
            return;
        }
        if (rings != null)
        {
            final WorkerRing own = rings.ownRing(workerId);
            if (own != null && own.foldsEmit(nodeId, streamId, timestamp))
            {
                own.fold(streamId, value, word);
                return;
            }
        }
        final int kind = values.kind(streamId, value, true);
        record(EMIT, kind, workerId, nodeId, streamId, timestamp, PacketValues.word(kind, value, word));
    }

    @Override
    public void processBegin(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = rings == null ? null : rings.ownRing(workerId);
        if (own != null)
        {
            own.open(nodeId, inputTimestamp, true);
            return;
        }
        record(JournalDescriptor.PROCESS_BEGIN, 0, workerId, nodeId, -1, inputTimestamp, 0);
    }

    /**
     * {@inheritDoc} Under {@link JournalConfig.ClockReads#HAND_OVER} (the default) an ASYNC
     * worker's call begins at the worker's last clock reading, unless the worker idled since: no
     * clock read. Otherwise as {@link #processBegin}.
     */
    @Override
    public void processBeginSameWorker(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = rings == null || !rings.readsAtHandOver ? null : rings.ownRing(workerId);
        if (own == null || own.readingStale)
        {
            processBegin(workerId, nodeId, inputTimestamp);
            return;
        }
        own.open(nodeId, inputTimestamp, false);
    }

    /**
     * {@inheritDoc} In ASYNC mode its ring, which its own thread stages calls on without finding
     * the ring by the worker's id; in SYNC mode the sink's methods.
     */
    @Override
    public WorkerJournal worker(final int workerId)
    {
        final WorkerRing[] workerRings = rings == null ? new WorkerRing[0] : rings.workerRings();
        final WorkerJournal inner = workerId >= 0 && workerId < workerRings.length ? workerRings[workerId] :
            super.worker(workerId);
        return workers.compose(inner, workerId);
    }

    /** Whether a stream's payloads are captured (for PayloadCapture). */
    boolean captures(final int streamId)
    {
        return values.captures(streamId);
    }

    /** The calling thread's appender (for PayloadCapture). */
    ExcerptAppender appender(final int workerId)
    {
        return lanes.appender(workerId);
    }

    /** Whether the journal is closed (for PayloadCapture). */
    boolean isClosed()
    {
        return closed;
    }

    /** ASYNC under {@link JournalConfig.ClockReads#HAND_OVER}: a worker's call may begin at its last reading. */
    @Override
    public boolean reusesReadings()
    {
        return rings != null && rings.readsAtHandOver;
    }

    @Override
    public void processEnd(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = rings == null ? null : rings.ownRing(workerId);
        if (own != null && own.endsCall(nodeId, inputTimestamp))
        {
            own.stage(nodeId, inputTimestamp);
            return;
        }
        record(JournalDescriptor.PROCESS_END, 0, workerId, nodeId, -1, inputTimestamp, 0);
    }

    /** {@inheritDoc} ASYNC: its staged calls go on its ring. */
    @Override
    public void workerIdle(final int workerId)
    {
        if (closed || rings == null)
        {
            return;
        }
        final WorkerRing own = rings.ownRing(workerId);
        if (own != null)
        {
            own.idleOwned();
        }
    }

    @Override
    public void drop(final int workerId, final int nodeId, final int streamId, final long timestamp, final int reason)
    {
        if (!closed)
        {
            record(JournalDescriptor.DROP, reason, workerId, nodeId, streamId, timestamp, 0);
        }
    }

    @Override
    public void bound(final int workerId, final int streamId, final long bound)
    {
        if (!closed)
        {
            record(JournalDescriptor.BOUND, 0, workerId, -1, streamId, bound, 0);
        }
    }

    /** {@inheritDoc} Allocates (the message's bytes). */
    @Override
    public void error(final int workerId, final int nodeId, final long timestamp, final String message)
    {
        if (!closed)
        {
            text(JournalDescriptor.ERROR, workerId, nodeId, timestamp, 0, message);
        }
    }

    /** {@inheritDoc} Allocates (the text's bytes). */
    @Override
    public void note(final int workerId, final int nodeId, final long timestamp, final long value, final String text)
    {
        if (!closed)
        {
            text(JournalDescriptor.NOTE, workerId, nodeId, timestamp, value, text);
        }
    }

    // ---------------------------------------------------------------- subgraphs at run time (1.5)

    /**
     * {@inheritDoc} Appended on the calling thread once every record the rings held is in the file
     * (ASYNC), so that it is after the graph inputs given before it and before any record naming
     * its nodes or streams.
     */
    @Override
    public void subgraphAdded(
        final String name,
        final String templateText,
        final String[] paramNames,
        final String[] paramTypes,
        final String[] paramValues,
        final String[] boundInputs,
        final String[] boundStreams,
        final int[] nodeIds,
        final String[] nodeNames,
        final int[][] nodeInputStreams,
        final int[] streamIds,
        final String[] streamNames)
    {
        if (closed)
        {
            return;
        }
        final int[] captured = values.captured(streamIds, streamNames);
        final int[] checksummed = values.checksummed(streamIds, streamNames);
        appendOrdered(SubgraphRecords.added(name, templateText, paramNames, paramTypes, paramValues, boundInputs,
            boundStreams, nodeIds, nodeNames, nodeInputStreams, streamIds, streamNames, captured, checksummed));
        values.subgraphAdded(streamIds, captured, checksummed);
    }

    /** {@inheritDoc} Appended in order as {@link #subgraphAdded}. */
    @Override
    public void subgraphRemoved(final String name, final long drainDeadlineNanos, final long cancelDeadlineNanos)
    {
        if (!closed)
        {
            appendOrdered(SubgraphRecords.removed(name, drainDeadlineNanos, cancelDeadlineNanos));
        }
    }

    /** {@inheritDoc} Appended in order as {@link #subgraphAdded}. */
    @Override
    public void subgraphLeft(final String name, final boolean drained, final long droppedPackets)
    {
        if (!closed)
        {
            appendOrdered(SubgraphRecords.left(name, drained, droppedPackets));
        }
    }

    /**
     * A rare record that must be in the file in order with what other threads gave before it and
     * before what the caller does next: appended on the calling thread (in both modes; it may be
     * longer than a ring holds), in ASYNC mode once the agent has appended every record claimed on
     * the rings so far (the graph inputs given before it on the many-to-one ring, a departing
     * subgraph's last calls on its workers' rings): parking, up to 5 s, then it goes on and says so.
     * Its {@code nanos} is read after that wait, so that sorting by {@code nanos} keeps it after
     * them too.
     */
    private void appendOrdered(final RecordBuilder record)
    {
        if (rings != null && !flush(TimeUnit.SECONDS.toNanos(5)) && !closed)
        {
            LOG.warn("journal {}: the journal agent did not append the records before a subgraph record within 5 s; " +
                "it is appended now, and may come before some of them", files.runDirectory);
        }
        synchronized (closing)
        {
            if (closed)
            {
                return; // the journal closed while this waited: ignored, as after close()
            }
            record.nanos(System.nanoTime());
            lanes.append(-1, record);
        }
    }

    /** One fixed-size record: appended (SYNC) or put on the ring (ASYNC). */
    private void record(
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long timestamp,
        final long value)
    {
        if (rings != null)
        {
            rings.record(kind, aux, worker, node, stream, timestamp, value);
            return;
        }
        lanes.appendFixed(kind, aux, worker, node, stream, timestamp, value);
    }

    /** A record with a text tail: written directly (SYNC) or as a longer ring message (ASYNC). */
    private void text(
        final int kind, final int worker, final int node, final long timestamp, final long value, final String text)
    {
        final byte[] utf8 = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
        if (rings != null)
        {
            rings.text(kind, worker, node, timestamp, value, utf8);
            return;
        }
        lanes.append(worker, new RecordBuilder()
            .fixed(kind, 0, worker, node, -1, System.nanoTime(), timestamp, value)
            .putInt(utf8.length)
            .putBytes(utf8));
    }

    /**
     * A captured graph input: the payload's bytes copied into the journal on the caller's thread,
     * in both modes, since the caller may reuse the payload once the call returns and the ring
     * cannot hold frames. Allocation-free (see {@link AppenderLanes#appendCaptured}).
     */
    private void captured(final int streamId, final long timestamp, final Payload payload)
    {
        final int length = payload.length();
        if (length > maxCaptureBytes || !payloads.take(length, -1, -1, timestamp))
        {
            // too large for one Chronicle document, or past the capture limit: the length only, as uncaptured
            record(JournalDescriptor.GRAPH_INPUT, VALUE_PAYLOAD, -1, -1, streamId, timestamp, length);
            return;
        }
        lanes.appendCaptured(streamId, timestamp, payload);
    }

    // ---------------------------------------------------------------- flush, failures, close

    /**
     * Waits until every record given so far is in Chronicle's mapped files. SYNC records are there
     * when their call returns. ASYNC: the agent has read past every record claimed on any ring
     * before the call, then finished the duty cycle it read them in, which appends the batch they
     * went into: reading a record off its ring is not yet appending it. The calling thread's own
     * staged calls go on its ring first; a running worker's staged calls (up to 63) are not given
     * yet: they go when it idles, or at {@link #runEnd}. Parks while waiting.
     *
     * @param timeoutNanos how long to wait at most.
     * @return true when appended; false on timeout or if the journal is closed.
     */
    public boolean flush(final long timeoutNanos)
    {
        if (rings == null)
        {
            return !closed;
        }
        return rings.flush(timeoutNanos);
    }

    /**
     * ASYNC: records lost so far because the ring was full (each loss is journaled as a
     * {@link JournalRecord.Kind#LOST} record).
     *
     * @return the count.
     */
    public long lostRecords()
    {
        return lost.get();
    }

    /**
     * Appends that failed (the run went on without them).
     *
     * @return the count.
     */
    public long failures()
    {
        return failures.count();
    }

    /**
     * The first append failure, for a report.
     *
     * @return the exception, or null.
     */
    public Throwable firstFailure()
    {
        return failures.first();
    }

    /** An append failed (for the agent and PayloadCapture): counted, the first logged. */
    void onFailure(final Throwable t)
    {
        failures.onFailure(t);
    }

    /**
     * A 64-bit hash of a graph config's text, for {@link #runStart}: {@link PayloadChecksum} of
     * its UTF-8 bytes.
     *
     * @param configText the text.
     * @return the hash.
     */
    public static long configHash(final String configText)
    {
        final byte[] utf8 = configText.getBytes(StandardCharsets.UTF_8);
        return PayloadChecksum.of(new UnsafeBuffer(utf8), 0, utf8.length);
    }

    /**
     * Stops the agent after it drained the ring (ASYNC), closes the queue, deletes the cycle files
     * it prepared and did not need, and releases the run's writer lock. Idempotent.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            if (rings != null)
            {
                rings.close(); // the agent drains the ring in onClose, on its own thread
            }
        }
        finally
        {
            synchronized (closing)
            {
                lanes.close();
                files.close();
            }
        }
    }
}
