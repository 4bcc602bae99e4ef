package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

import static dev.framewire.journal.JournalDescriptor.EMIT;
import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;
import static dev.framewire.journal.JournalRecord.VALUE_CAPTURED;
import static dev.framewire.journal.JournalRecord.VALUE_CHECKSUM;
import static dev.framewire.journal.JournalRecord.VALUE_DOUBLE;
import static dev.framewire.journal.JournalRecord.VALUE_LONG;
import static dev.framewire.journal.JournalRecord.VALUE_NONE;
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
 */
public final class JournalWriter extends JournalSink
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    /** How a subgraph added at run time prefixes its streams' names ({@code SubgraphExpander.SEPARATOR}). */
    private static final String SUBGRAPH_SEPARATOR = dev.framewire.core.SubgraphExpander.SEPARATOR;

    private final JournalConfig.Mode mode;
    private final JournalConfig.Level level;
    private final int sampleEvery;
    /** Per stream id: whether no node takes it (set at run start): what the lighter levels keep of packets. */
    private boolean[] endStreams = new boolean[0];
    /** The workers' journals at a lighter level, made before the workers start; ended at {@link #runEnd}. */
    private final java.util.List<LevelWorkerJournal> levelJournals = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Path runDirectory;
    private final WriterLock lock;
    private final CyclePreparer cycles;
    private final SingleChronicleQueue queue;
    private final ThreadLocal<Lane> threadLanes;
    private final List<Lane> createdLanes = new ArrayList<>();
    /**
     * Lanes by worker id, each for the thread it names: a worker finds its own without a
     * lookup. Written under the {@code createdLanes} lock, read racily (see {@link #lane}).
     */
    private LaneSlot[] slots = new LaneSlot[0];
    /** ASYNC: the ring of threads that are not a worker's own (see {@link #ring(int)}); null in SYNC. */
    private final ManyToOneRingBuffer ring;
    /**
     * ASYNC: by worker id, the worker's own one-to-one ring and the thread that owns it; made by
     * {@link #runStart} before the workers start (which publishes them to the workers), handed to
     * the agent through a volatile write.
     */
    private WorkerRing[] workerRings = new WorkerRing[0];
    private final JournalAgent agent;
    private final int ringCapacity;
    private final AgentRunner agentRunner;
    /** ASYNC under {@link JournalConfig.RingFull#WAIT}: a full ring makes the thread wait, not lose the record. */
    private final boolean waitsForRoom;
    /**
     * ASYNC under {@link JournalConfig.ClockReads#HAND_OVER}: a call no other thread handed a packet
     * ({@link #processBeginSameWorker}) begins at its worker's last clock reading.
     */
    final boolean readsAtHandOver;
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final long maxCaptureBytes;
    /** The capture limit, and payloads captured at emit (new in 1.10; see PayloadCapture). */
    private final PayloadCapture payloads;
    private final String[] captureNames;
    private final String[] checksumNames;
    private volatile Throwable firstFailure;
    private volatile boolean closed;
    private boolean started;
    private boolean ended;
    /** By stream id, set by runStart. */
    private boolean[] capture = new boolean[0];
    private boolean[] checksum = new boolean[0];

    /** What a thread appends through: its Chronicle appender and its scratch for checksumming records. */
    private static final class Lane
    {
        final ExcerptAppender appender;
        final RecordScratch scratch = new RecordScratch();

        Lane(final ExcerptAppender appender)
        {
            this.appender = appender;
        }
    }

    private static final class LaneSlot
    {
        final Thread owner;
        final Lane lane;

        LaneSlot(final Thread owner, final Lane lane)
        {
            this.owner = owner;
            this.lane = lane;
        }
    }

    private JournalWriter(
        final JournalConfig config,
        final Path runDirectory,
        final WriterLock lock,
        final CyclePreparer cycles,
        final SingleChronicleQueue queue)
    {
        this.mode = config.mode();
        this.level = config.level();
        this.sampleEvery = config.sampleEvery();
        this.captureNames = config.captureStreams().toArray(new String[0]);
        this.checksumNames = config.checksumStreams().toArray(new String[0]);
        this.runDirectory = runDirectory;
        this.lock = lock;
        this.cycles = cycles;
        this.queue = queue;
        this.threadLanes = ThreadLocal.withInitial(this::newLane);
        // Chronicle refuses a document larger than a quarter of its block; keep room for the fixed part
        this.maxCaptureBytes = queue.blockSize() / 4 - 4096;
        this.payloads = new PayloadCapture(this, config.captureLimit(), maxCaptureBytes);
        this.waitsForRoom = mode == JournalConfig.Mode.ASYNC && config.ringFull() == JournalConfig.RingFull.WAIT;
        this.readsAtHandOver = config.clockReads() == JournalConfig.ClockReads.HAND_OVER;
        if (mode == JournalConfig.Mode.ASYNC)
        {
            this.ringCapacity = config.ringCapacity();
            this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(
                ByteBuffer.allocateDirect(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH)));
            // park between cycles that took little, and up to agentMaxParkNanos when idle: the
            // machine's cores belong to the workers, and the rings absorb the latency of a parked agent
            this.agent = new JournalAgent(queue, ring, lost, this, config.agentBatchScheduling());
            this.agentRunner = new AgentRunner(new PacedIdleStrategy(ringCapacity, config.agentMaxParkNanos()),
                this::onFailure, null, agent);
        }
        else
        {
            this.ringCapacity = 0;
            this.ring = null;
            this.agent = null;
            this.agentRunner = null;
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
        JournalFiles.init();
        final RollCycle rollCycle = JournalFiles.rollCycleNamed(config.rollCycle());
        final Path run;
        final WriterLock lock;
        try
        {
            if (config.deleteOlderThan() != null || config.maxTotalSize() >= 0)
            {
                prune(config);
            }
            run = JournalFiles.createRunDirectory(config.directory());
            lock = WriterLock.take(run);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot make a journal in " + config.directory().toAbsolutePath() + ": " +
                ex.getMessage(), ex);
        }
        final CyclePreparer cycles = new CyclePreparer(run, rollCycle);
        try
        {
            // Chronicle's files, made here owner-only before Chronicle opens them: the metadata (Chronicle
            // initializes an empty one) and this cycle's and the next one's files, in case the clock
            // crosses into it before the first append; a roll later uses the file the listener prepares
            JournalFiles.createOwnerOnly(run.resolve(JournalFiles.METADATA));
            final int cycle = (int)(System.currentTimeMillis() / rollCycle.lengthInMillis());
            cycles.prepare(cycle);
            cycles.prepare(cycle + 1);
            final SingleChronicleQueueBuilder builder = SingleChronicleQueueBuilder.binary(run)
                .rollCycle(rollCycle)
                .checkInterrupts(false) // an interrupted worker must not lose its record
                .storeFileListener(new StoreFileListener()
                {
                    @Override
                    public void onAcquired(final int acquired, final File file)
                    {
                        // Chronicle calls this on its background releaser thread, moments after it
                        // starts a cycle: prepare the next two, so that a roll finds its file made
                        cycles.prepare(acquired + 1);
                        cycles.prepare(acquired + 2);
                    }

                    @Override
                    public void onReleased(final int cycle, final File file)
                    {
                    }
                });
            if (config.blockSize() > 0)
            {
                builder.blockSize(config.blockSize());
            }
            final SingleChronicleQueue queue = builder.build();
            final JournalWriter writer = new JournalWriter(config, run, lock, cycles, queue);
            writer.writeHeader();
            if (writer.agentRunner != null)
            {
                if (config.agentBatchScheduling())
                {
                    BatchScheduling.load(); // here, so that the agent starts draining at once
                }
                AgentRunner.startOnThread(writer.agentRunner, r ->
                {
                    final Thread thread = new Thread(r, "framewire-journal");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            return writer;
        }
        catch (final IOException ex)
        {
            cycles.close();
            lock.close();
            throw new UncheckedIOException("cannot make a journal in " + run + ": " + ex.getMessage(), ex);
        }
        catch (final RuntimeException | Error ex)
        {
            cycles.close();
            lock.close();
            throw ex;
        }
    }

    /** The retention, applied before the new run exists. */
    private static void prune(final JournalConfig config) throws IOException
    {
        LOG.info("{}", JournalRetention.describe(config.directory(), config.deleteOlderThan(), config.maxTotalSize()));
        final List<JournalRetention.Decision> plan = JournalRetention.plan(config.directory(),
            config.deleteOlderThan(), config.maxTotalSize(), Instant.now());
        for (final JournalRetention.Outcome outcome : JournalRetention.apply(plan))
        {
            final JournalRetention.Decision d = outcome.decision();
            if (outcome.deleted())
            {
                LOG.info("deleted journal {} ({}): {}", d.run(), JournalRetention.bytes(d.bytes()), d.reason());
            }
            else
            {
                LOG.warn("journal {} was to be deleted ({}) but: {}", d.run(), d.reason(), outcome.problem());
            }
        }
    }

    /**
     * This run's journal directory, the one {@link JournalReader#read(Path)} takes.
     *
     * @return the directory.
     */
    public Path runDirectory()
    {
        return runDirectory;
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

    private Lane newLane()
    {
        final Lane lane = new Lane(queue.createAppender());
        synchronized (createdLanes)
        {
            createdLanes.add(lane);
        }
        return lane;
    }

    /** The calling thread's lane: its worker slot when it owns it, else its thread local. */
    private Lane lane(final int workerId)
    {
        final LaneSlot[] slots = this.slots;
        if (workerId >= 0 && workerId < slots.length)
        {
            final LaneSlot slot = slots[workerId];
            // racy read: a stale slot names another thread (or none), and the claim re-reads it under the lock
            if (slot != null && slot.owner == Thread.currentThread())
            {
                return slot.lane;
            }
            return claim(workerId);
        }
        return threadLanes.get();
    }

    /**
     * Cold path, once per thread and worker id: the worker's thread adopts the lane
     * {@link #runStart} made for it (creating an appender takes milliseconds, better not on a
     * worker's first record); another thread using the id (the graph's owner after the workers
     * stopped) takes the slot over with its own lane.
     */
    private Lane claim(final int workerId)
    {
        synchronized (createdLanes)
        {
            final Thread thread = Thread.currentThread();
            final LaneSlot slot = slots[workerId];
            final Lane lane;
            if (slot != null && slot.owner == null)
            {
                lane = slot.lane;
                lane.appender.singleThreadedCheckReset(); // made on the runStart thread, used on this one
            }
            else
            {
                lane = threadLanes.get();
            }
            slots[workerId] = new LaneSlot(thread, lane);
            return lane;
        }
    }

    private void writeHeader()
    {
        final RecordBuilder header = new RecordBuilder()
            .fixed(JournalDescriptor.HEADER, 0, -1, JournalDescriptor.FORMAT_MAJOR, JournalDescriptor.FORMAT_MINOR,
                System.nanoTime(), Long.MIN_VALUE, System.currentTimeMillis())
            .putLong(JournalDescriptor.MAGIC)
            .putLong(ProcessHandle.current().pid());
        final DocumentContext dc = lane(-1).appender.writingDocument();
        try
        {
            header.appendTo(dc.wire().bytes());
        }
        finally
        {
            dc.close();
        }
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

    /**
     * Starts the run's journal as the engine does: its names, which streams each node consumes,
     * and {@link #configHash(String)} of the config text.
     *
     * @param configText       the graph config as text.
     * @param engineVersion    the engine's version.
     * @param nodeNames        by node id.
     * @param streamNames      by stream id.
     * @param workerNames      by worker id.
     * @param nodeInputStreams by node id, the stream ids of its inputs; null if unknown.
     * @throws IllegalArgumentException if a capture or checksum stream is not among the streams.
     * @throws IllegalStateException    if the run was started before.
     */
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
            throw new IllegalStateException("runStart() called twice on the journal in " + runDirectory);
        }
        final Map<String, Integer> streamIds = new HashMap<>();
        for (int s = 0; s < streamNames.length; s++)
        {
            streamIds.put(streamNames[s], s);
        }
        final boolean[] capture = flags(captureNames, streamIds, streamNames, "capture");
        final boolean[] checksum = flags(checksumNames, streamIds, streamNames, "checksum");
        if (nodeInputStreams != null && nodeInputStreams.length != nodeNames.length)
        {
            throw new IllegalArgumentException("nodeInputStreams has " + nodeInputStreams.length + " entries for " +
                nodeNames.length + " nodes");
        }
        started = true;
        this.capture = capture;
        this.checksum = checksum;
        final LaneSlot[] slots = new LaneSlot[workerNames.length];
        if (ring == null)
        {
            for (int w = 0; w < slots.length; w++)
            {
                slots[w] = new LaneSlot(null, newLane());
            }
        }
        else
        {
            final WorkerRing[] rings = new WorkerRing[workerNames.length];
            for (int w = 0; w < rings.length; w++)
            {
                rings[w] = new WorkerRing(this, w, ringCapacity);
            }
            this.workerRings = rings;
            agent.workerRings(rings);
        }
        synchronized (createdLanes)
        {
            this.slots = slots;
        }
        final RecordBuilder record = new RecordBuilder()
            .fixed(JournalDescriptor.RUN_START, 0, -1, nodeNames.length, streamNames.length, System.nanoTime(),
                Long.MIN_VALUE, configHash)
            .putInt(JournalDescriptor.FORMAT_MAJOR)
            .putInt(JournalDescriptor.FORMAT_MINOR)
            .putLong(System.currentTimeMillis())
            .putText(engineVersion)
            .putText(configText)
            .putTexts(nodeNames)
            .putTexts(streamNames)
            .putTexts(workerNames);
        if (nodeInputStreams == null)
        {
            record.putInt(-1);
        }
        else
        {
            record.putInt(nodeInputStreams.length);
            for (final int[] inputs : nodeInputStreams)
            {
                record.putInts(inputs == null ? new int[0] : inputs);
            }
        }
        record.putInts(ids(capture)).putInts(ids(checksum));
        final DocumentContext dc = lane(-1).appender.writingDocument();
        try
        {
            record.appendTo(dc.wire().bytes());
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            throw ex;
        }
        finally
        {
            dc.close();
        }
        this.endStreams = endStreams(streamNames.length, nodeInputStreams);
        if (level != JournalConfig.Level.CALLS)
        {
            // a reader (post-mortem, replay) must know that the calls are not all here
            note(-1, -1, Long.MIN_VALUE, level.ordinal(), LEVEL_NOTE + level + (level == JournalConfig.Level.SAMPLED ?
                ", one call in " + sampleEvery : ""));
        }
    }

    /**
     * The streams no node takes as input: the graph's outputs (and unconsumed streams).
     *
     * @param streamCount      the number of streams.
     * @param nodeInputStreams by node id, the stream ids of its inputs; null if unknown (then every stream).
     * @return by stream id, whether it ends in no node.
     */
    private static boolean[] endStreams(final int streamCount, final int[][] nodeInputStreams)
    {
        final boolean[] ends = new boolean[streamCount];
        java.util.Arrays.fill(ends, true);
        if (nodeInputStreams != null)
        {
            for (final int[] inputs : nodeInputStreams)
            {
                for (final int s : inputs == null ? new int[0] : inputs)
                {
                    if (s >= 0 && s < ends.length)
                    {
                        ends[s] = false;
                    }
                }
            }
        }
        return ends;
    }

    /** The NOTE a journal at a level lighter than every call starts with; its value is the level's ordinal. */
    public static final String LEVEL_NOTE = "journal level: ";

    private static boolean[] flags(
        final String[] names, final Map<String, Integer> ids, final String[] streamNames, final String what)
    {
        final boolean[] flags = new boolean[streamNames.length];
        for (final String name : names)
        {
            final Integer id = ids.get(name);
            if (id == null && name.contains(SUBGRAPH_SEPARATOR))
            {
                continue; // a stream of a subgraph added at run time, flagged when it is added
            }
            if (id == null)
            {
                throw new IllegalArgumentException("journal " + what + " stream '" + name + "' is not a stream of " +
                    "this graph; its streams are " + Arrays.toString(streamNames) + " (a stream of a subgraph added " +
                    "at run time is named subgraph" + SUBGRAPH_SEPARATOR + "stream)");
            }
            flags[id] = true;
        }
        return flags;
    }

    private static int[] ids(final boolean[] flags)
    {
        int n = 0;
        for (final boolean f : flags)
        {
            n += f ? 1 : 0;
        }
        final int[] ids = new int[n];
        n = 0;
        for (int i = 0; i < flags.length; i++)
        {
            if (flags[i])
            {
                ids[n++] = i;
            }
        }
        return ids;
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
        // a lighter level's run of calls still open (the last calls, made as the workers stopped) ends here
        for (final LevelWorkerJournal level : levelJournals)
        {
            level.endRun();
        }
        // ASYNC: the workers' rings first, so that what follows, on the many-to-one ring, comes
        // after their records in the file, RUN_END last
        flush(TimeUnit.SECONDS.toNanos(5));
        final WorkerRing[] rings = this.workerRings;
        for (int w = 0; w < rings.length; w++)
        {
            // ASYNC: a call still open when the run ends (its worker stopped inside it, or never
            // returned) goes in as a PROCESS_BEGIN without an end, as SYNC would have it; through
            // the many-to-one ring, since its worker may still be alive. The workers have stopped,
            // which publishes their fields; a worker that never returned is a benign race here (at
            // worst a torn call is journaled as open)
            final WorkerRing own = rings[w];
            before(own, w, ring);
        }
        text(JournalDescriptor.RUN_END, -1, -1, Long.MIN_VALUE, lost.get(), how);
        flush(TimeUnit.SECONDS.toNanos(5));
    }

    // ---------------------------------------------------------------- hot path: allocation-free

    /**
     * A packet added to a graph input stream, on the adding thread (worker -1), after its checks
     * passed and before it is delivered (a payload is still the caller's to read). A payload of a
     * capture stream is copied into the journal (synchronously, in both modes); of a checksum
     * stream, checksummed; else its length is recorded.
     *
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     a {@link Payload}, {@link #LONG} / {@link #DOUBLE} (bits in {@code word}), or a Java object.
     * @param word      the bits of a long or double packet.
     */
    @Override
    public void graphInput(final int streamId, final long timestamp, final Object value, final long word)
    {
        if (closed)
        {
            return;
        }
        if (value instanceof Payload && streamId >= 0 && streamId < capture.length && capture[streamId])
        {
            captured(streamId, timestamp, (Payload)value);
            return;
        }
        final int kind = valueKind(streamId, value, true);
        record(JournalDescriptor.GRAPH_INPUT, kind, -1, -1, streamId, timestamp, value(kind, value, word));
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
        final int kind = valueKind(streamId, value, false);
        record(EMIT, kind, workerId, nodeId, streamId, timestamp, value(kind, value, 0));
    }

    /**
     * A packet a node emitted, with the word the engine keeps beside the value: for a
     * {@link #LONG} or {@link #DOUBLE} packet, its bits are recorded.
     *
     * @param workerId  the worker.
     * @param nodeId    the emitting node.
     * @param streamId  the stream.
     * @param timestamp the packet's timestamp.
     * @param value     the packet's value, or {@link #LONG} / {@link #DOUBLE}.
     * @param word      the bits of a long or double packet.
     */
    @Override
    public void emit(
        final int workerId, final int nodeId, final int streamId, final long timestamp, final Object value, final long word)
    {
        if (closed)
        {
            return;
        }
        if (ring != null)
        {
            final WorkerRing own = ownRing(workerId);
            if (own != null && own.foldsEmit(nodeId, streamId, timestamp))
            {
                fold(own, streamId, value, word);
                return;
            }
        }
        final int kind = valueKind(streamId, value, true);
        record(EMIT, kind, workerId, nodeId, streamId, timestamp, value(kind, value, word));
    }

    /** ASYNC, the worker's thread: the call's packet at its input timestamp goes in with the call's entry. */
    void fold(final WorkerRing own, final int streamId, final Object value, final long word)
    {
        final int kind = valueKind(streamId, value, true);
        own.emitStream = streamId;
        own.emitKind = kind;
        own.emitValue = value(kind, value, word);
    }

    /**
     * A node's call begins: open (input timestamp Unstarted), a source's call, an input set, or
     * close (Done).
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    @Override
    public void processBegin(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = ring == null ? null : ownRing(workerId);
        if (own != null)
        {
            openStaged(own, nodeId, inputTimestamp, true);
            return;
        }
        record(JournalDescriptor.PROCESS_BEGIN, 0, workerId, nodeId, -1, inputTimestamp, 0);
    }

    /**
     * A node's call begins whose every input packet this worker emitted. Under
     * {@link JournalConfig.ClockReads#HAND_OVER} (the default) an ASYNC worker's call begins at
     * the worker's last clock reading, unless the worker idled since: no clock read. Otherwise
     * as {@link #processBegin}.
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp.
     */
    @Override
    public void processBeginSameWorker(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = ring == null || !readsAtHandOver ? null : ownRing(workerId);
        if (own == null || own.readingStale)
        {
            processBegin(workerId, nodeId, inputTimestamp);
            return;
        }
        openStaged(own, nodeId, inputTimestamp, false);
    }

    /**
     * ASYNC on a worker's own ring: the call is staged when it ends, as one DENSE_CALLS entry
     * (with the first packet it emits at its input timestamp), unless another record of this
     * worker comes first (then its BEGIN goes in before that record, see openCall). It begins at a
     * clock read now ({@code readClock}), or at the worker's last reading, taken after the calls
     * before it went (so that a call never begins before the end of those).
     */
    void openStaged(final WorkerRing own, final int nodeId, final long inputTimestamp, final boolean readClock)
    {
        if (own.callOpen)
        {
            openCall(own, own.workerId(), own.ring);
        }
        if (readClock)
        {
            own.reading = System.nanoTime();
            own.readingStale = false;
        }
        own.callNanos = own.reading;
        own.callNode = nodeId;
        own.callTimestamp = inputTimestamp;
        own.emitStream = -1;
        own.callOpen = true;
    }

    /**
     * The worker's part of the journal: in ASYNC mode its ring, which its own thread stages calls
     * on without finding the ring by the worker's id; in SYNC mode the sink's methods.
     *
     * @param workerId the worker's id, as named at {@link #runStart}.
     * @return the worker's journal.
     */
    @Override
    public WorkerJournal worker(final int workerId)
    {
        final WorkerRing[] rings = this.workerRings;
        final WorkerJournal inner = workerId >= 0 && workerId < rings.length ? rings[workerId] : super.worker(workerId);
        if (level == JournalConfig.Level.CALLS)
        {
            return captureNames.length == 0 ? inner : payloads.wrap(inner, workerId);
        }
        final LevelWorkerJournal filtered = new LevelWorkerJournal(this, workerId, inner, level, sampleEvery,
            PayloadCapture.kept(endStreams, capture));
        levelJournals.add(filtered);
        return captureNames.length == 0 ? filtered : payloads.wrap(filtered, workerId);
    }

    /** Whether a stream's payloads are captured (for PayloadCapture). */
    boolean captures(final int streamId)
    {
        final boolean[] capture = this.capture;
        return streamId >= 0 && streamId < capture.length && capture[streamId];
    }

    /** The calling thread's appender (for PayloadCapture). */
    net.openhft.chronicle.queue.ExcerptAppender appender(final int workerId)
    {
        return lane(workerId).appender;
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
        return ring != null && readsAtHandOver;
    }

    /**
     * A node's call returned or threw.
     *
     * @param workerId       the worker.
     * @param nodeId         the node.
     * @param inputTimestamp the input timestamp, as at {@link #processBegin}.
     */
    @Override
    public void processEnd(final int workerId, final int nodeId, final long inputTimestamp)
    {
        if (closed)
        {
            return;
        }
        final WorkerRing own = ring == null ? null : ownRing(workerId);
        if (own != null && own.endsCall(nodeId, inputTimestamp))
        {
            stage(own, nodeId, inputTimestamp);
            return;
        }
        record(JournalDescriptor.PROCESS_END, 0, workerId, nodeId, -1, inputTimestamp, 0);
    }

    /**
     * ASYNC, the worker's thread: a call ended; its entry goes into the staged DENSE_CALLS
     * message, which goes on the ring when full. Its end is the next call's begin, or the flush's
     * clock read.
     */
    void stage(final WorkerRing own, final int nodeId, final long inputTimestamp)
    {
        own.callOpen = false;
        final UnsafeBuffer staged = own.staged;
        final int stream = own.emitStream;
        if (own.stagedCalls == 0)
        {
            // the first entry's timestamp and nanos are differences from the header's
            staged.putLong(JournalDescriptor.PACKED_BASE_NANOS_OFFSET, own.callNanos);
            staged.putLong(JournalDescriptor.PACKED_BASE_TIMESTAMP_OFFSET, inputTimestamp);
            own.entries.reset(inputTimestamp, own.callNanos);
        }
        final int at = own.entries.put(own.stagedBytes, own.stagedLength, nodeId, stream, own.emitKind, own.emitValue,
            inputTimestamp, own.callNanos);
        own.stagedLength = at;
        if (++own.stagedCalls == WorkerRing.STAGED_CALLS ||
            at + JournalDescriptor.DENSE_ENTRY_MAX_LENGTH > own.stagedMaxLength)
        {
            flushStaged(own, own.ring);
        }
    }

    /**
     * ASYNC: the worker's staged calls, if any, onto a ring as one DENSE_CALLS message, the last one
     * ending now: its own ring from its thread, the many-to-one ring from another (at
     * {@link #runEnd}). A full ring loses them all (counted, one a call) or, under
     * {@link JournalConfig.RingFull#WAIT}, waits for room.
     */
    private void flushStaged(final WorkerRing own, final RingBuffer ring)
    {
        final int n = own.stagedCalls;
        if (n == 0)
        {
            return;
        }
        final int length = own.stagedLength;
        own.stagedCalls = 0;
        own.stagedLength = JournalDescriptor.PACKED_ENTRIES_OFFSET;
        own.staged.putInt(JournalDescriptor.CALLS_COUNT_OFFSET, n);
        final long now = System.nanoTime();
        own.staged.putLong(JournalDescriptor.CALLS_END_NANOS_OFFSET, now);
        own.reading = now;
        int index = ring.tryClaim(JournalDescriptor.DENSE_CALLS, length);
        if (index <= 0 && waitsForRoom)
        {
            index = claimWaiting(ring, JournalDescriptor.DENSE_CALLS, length);
        }
        if (index > 0)
        {
            ring.buffer().putBytes(index, own.staged, 0, length);
            ring.commit(index);
        }
        else
        {
            lost.addAndGet(n);
        }
    }

    /**
     * The worker ran out of work, is paused or is stopping: its staged calls go on its ring. ASYNC;
     * on the worker's thread.
     *
     * @param workerId the worker.
     */
    @Override
    public void workerIdle(final int workerId)
    {
        if (closed || ring == null)
        {
            return;
        }
        final WorkerRing own = ownRing(workerId);
        if (own != null)
        {
            idle(own);
        }
    }

    /** ASYNC, the worker's thread: its staged calls go on its ring, and its next call reads the clock. */
    void idle(final WorkerRing own)
    {
        flushStaged(own, own.ring);
        own.readingStale = true;
    }

    /**
     * ASYNC: a record of a worker comes while its call is open and not yet in the ring (an emit
     * that cannot be folded, a drop, a bound, an error, a nested call): its staged calls, then the
     * call's PROCESS_BEGIN (and the packet folded so far, as an EMIT with the call's begin nanos)
     * go into the ring first, so that the file keeps the worker's order; the call then ends with a
     * PROCESS_END.
     */
    private void openCall(final WorkerRing own, final int workerId, final RingBuffer ring)
    {
        flushStaged(own, ring);
        own.callOpen = false;
        offer(ring, JournalDescriptor.PROCESS_BEGIN, 0, workerId, own.callNode, -1, own.callNanos, own.callTimestamp, 0);
        if (own.emitStream >= 0)
        {
            offer(ring, EMIT, own.emitKind, workerId, own.callNode, own.emitStream, own.callNanos, own.callTimestamp,
                own.emitValue);
        }
    }

    /** ASYNC: another record of the worker comes: its staged calls and its open call go before it. */
    private void before(final WorkerRing own, final int worker, final RingBuffer ring)
    {
        if (own.callOpen)
        {
            openCall(own, worker, ring);
        }
        else
        {
            flushStaged(own, ring);
        }
    }

    /**
     * ASYNC: one fixed-size record onto a ring; when it is full, counted lost (never block a
     * worker), or under {@link JournalConfig.RingFull#WAIT} after waiting for room.
     */
    private void offer(
        final RingBuffer ring,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        int index = ring.tryClaim(kind, FIXED_LENGTH);
        if (index <= 0 && waitsForRoom)
        {
            index = claimWaiting(ring, kind, FIXED_LENGTH);
        }
        if (index > 0)
        {
            JournalDescriptor.putFixed(ring.buffer(), index, kind, aux, worker, node, stream, nanos, timestamp, value);
            ring.commit(index);
        }
        else
        {
            lost.incrementAndGet(); // the agent journals the loss
        }
    }

    /**
     * A packet, or a whole input set, dropped.
     *
     * @param workerId  the worker.
     * @param nodeId    the node that dropped.
     * @param streamId  the stream of the dropped packet, -1 for a whole input set.
     * @param timestamp the packet's or input set's timestamp.
     * @param reason    {@link JournalRecord#POLICY}, {@link JournalRecord#FLOW_LIMIT}, {@link JournalRecord#MEMORY},
     *                  {@link JournalRecord#FAILURE} or {@link JournalRecord#CLOSE}.
     */
    @Override
    public void drop(final int workerId, final int nodeId, final int streamId, final long timestamp, final int reason)
    {
        if (!closed)
        {
            record(JournalDescriptor.DROP, reason, workerId, nodeId, streamId, timestamp, 0);
        }
    }

    /**
     * A stream's bound moved other than to just past a packet it carried (an explicit bound, an
     * offset, the close).
     *
     * @param workerId the worker, -1 for a graph input's thread.
     * @param streamId the stream.
     * @param bound    the new bound.
     */
    @Override
    public void bound(final int workerId, final int streamId, final long bound)
    {
        if (!closed)
        {
            record(JournalDescriptor.BOUND, 0, workerId, -1, streamId, bound, 0);
        }
    }

    /**
     * A failure. Allocates (the message's bytes).
     *
     * @param workerId  the worker, -1 if not on one.
     * @param nodeId    the failed node, -1 if not a node's.
     * @param timestamp the input timestamp of the failed call, or Unset.
     * @param message   what happened: the node, the timestamp and the cause, in a sentence or more.
     */
    @Override
    public void error(final int workerId, final int nodeId, final long timestamp, final String message)
    {
        if (!closed)
        {
            text(JournalDescriptor.ERROR, workerId, nodeId, timestamp, 0, message);
        }
    }

    /**
     * A node's note. Allocates (the text's bytes).
     *
     * @param workerId  the worker, -1 if not on one.
     * @param nodeId    the node.
     * @param timestamp the timestamp it concerns, or Unset.
     * @param value     the number that goes with it.
     * @param text      what happened.
     */
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
     * A subgraph added to the running graph: see {@link JournalSink#subgraphAdded}. Appended on
     * the calling thread once every record the many-to-one ring held is in the file (ASYNC), so
     * that it is in the file after the graph inputs given before it and before any record naming
     * its nodes or streams. Allocates.
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
        final int[] captured = SubgraphRecords.named(streamIds, streamNames, captureNames);
        final int[] checksummed = SubgraphRecords.named(streamIds, streamNames, checksumNames);
        appendOrdered(SubgraphRecords.added(name, templateText, paramNames, paramTypes, paramValues, boundInputs,
            boundStreams, nodeIds, nodeNames, nodeInputStreams, streamIds, streamNames, captured, checksummed));
        synchronized (createdLanes)
        {
            // a subgraph's stream named in the settings (cam7__frames) is captured or checksummed like the
            // graph's own. Plain writes: the engine publishes the subgraph (a volatile write) after this
            // returns, and its adders and workers reach its streams through that
            int last = capture.length - 1;
            for (final int id : streamIds)
            {
                last = Math.max(last, id);
            }
            final boolean[] capture = Arrays.copyOf(this.capture, last + 1);
            final boolean[] checksum = Arrays.copyOf(this.checksum, last + 1);
            for (final int id : captured)
            {
                capture[id] = true;
            }
            for (final int id : checksummed)
            {
                checksum[id] = true;
            }
            this.checksum = checksum;
            this.capture = capture;
        }
    }

    /**
     * A subgraph's removal asked for: see {@link JournalSink#subgraphRemoved}. Appended in order
     * as {@link #subgraphAdded}. Allocates.
     */
    @Override
    public void subgraphRemoved(final String name, final long drainDeadlineNanos, final long cancelDeadlineNanos)
    {
        if (!closed)
        {
            appendOrdered(SubgraphRecords.removed(name, drainDeadlineNanos, cancelDeadlineNanos));
        }
    }

    /**
     * A subgraph left the graph: see {@link JournalSink#subgraphLeft}. Appended in order as
     * {@link #subgraphAdded}. Allocates.
     */
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
        if (ring != null && !flush(TimeUnit.SECONDS.toNanos(5)) && !closed)
        {
            LOG.warn("journal {}: the journal agent did not append the records before a subgraph record within 5 s; " +
                "it is appended now, and may come before some of them", runDirectory);
        }
        record.nanos(System.nanoTime());
        append(-1, record);
    }

    /** Appends a built record on {@code worker}'s lane; a failure rolls the document back and is reported. */
    private void append(final int worker, final RecordBuilder record)
    {
        final DocumentContext dc = lane(worker).appender.writingDocument();
        try
        {
            record.appendTo(dc.wire().bytes());
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    private int valueKind(final int streamId, final Object value, final boolean hasWord)
    {
        if (value instanceof Payload)
        {
            return streamId >= 0 && streamId < checksum.length && checksum[streamId] ? VALUE_CHECKSUM : VALUE_PAYLOAD;
        }
        if (value == LONG)
        {
            return hasWord ? VALUE_LONG : VALUE_NONE;
        }
        if (value == DOUBLE)
        {
            return hasWord ? VALUE_DOUBLE : VALUE_NONE;
        }
        if (value instanceof Long)
        {
            return VALUE_LONG;
        }
        if (value instanceof Double)
        {
            return VALUE_DOUBLE;
        }
        return VALUE_NONE;
    }

    private static long value(final int kind, final Object value, final long word)
    {
        switch (kind)
        {
            case VALUE_CHECKSUM:
            {
                final Payload payload = (Payload)value;
                return PayloadChecksum.of(payload.buffer(), 0, payload.length());
            }
            case VALUE_PAYLOAD:
                return ((Payload)value).length();
            case VALUE_LONG:
                return value instanceof Long ? (Long)value : word;
            case VALUE_DOUBLE:
                return value instanceof Double ? Double.doubleToRawLongBits((Double)value) : word;
            default:
                return 0;
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
        if (this.ring != null)
        {
            final WorkerRing own = ownRing(worker);
            final RingBuffer ring = own == null ? this.ring : own.ring;
            if (own != null)
            {
                before(own, worker, ring); // their nanos first: read this record's after
            }
            offer(ring, kind, aux, worker, node, stream, System.nanoTime(), timestamp, value);
            return;
        }
        final long nanos = System.nanoTime();
        final Lane lane = lane(worker);
        final DocumentContext dc = lane.appender.writingDocument();
        try
        {
            lane.scratch.appendFixed(dc.wire().bytes(), kind, aux, worker, node, stream, nanos, timestamp, value);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            onFailure(ex);
        }
        finally
        {
            dc.close();
        }
    }

    /** A record with a text tail: written directly (SYNC) or as a longer ring message (ASYNC). */
    private void text(
        final int kind, final int worker, final int node, final long timestamp, final long value, final String text)
    {
        byte[] utf8 = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
        if (this.ring != null)
        {
            final WorkerRing own = ownRing(worker);
            final RingBuffer ring = own == null ? this.ring : own.ring;
            if (own != null)
            {
                before(own, worker, ring);
            }
            final long nanos = System.nanoTime();
            final int room = ring.maxMsgLength() - FIXED_LENGTH - 4;
            if (utf8.length > room)
            {
                utf8 = Arrays.copyOf(utf8, room); // a very long message is cut (it may split a character)
            }
            // rare and telling records: wait for room (parking) rather than lose them
            final long patience = kind == JournalDescriptor.RUN_END ? TimeUnit.SECONDS.toNanos(5) :
                TimeUnit.SECONDS.toNanos(1);
            final int index = claimPatiently(ring, kind, FIXED_LENGTH + 4 + utf8.length, patience);
            if (index > 0)
            {
                final AtomicBuffer buffer = ring.buffer();
                JournalDescriptor.putFixed(buffer, index, kind, 0, worker, node, -1, nanos, timestamp, value);
                buffer.putInt(index + FIXED_LENGTH, utf8.length);
                buffer.putBytes(index + FIXED_LENGTH + 4, utf8);
                ring.commit(index);
            }
            else
            {
                lost.incrementAndGet();
            }
            return;
        }
        final RecordBuilder record = new RecordBuilder()
            .fixed(kind, 0, worker, node, -1, System.nanoTime(), timestamp, value)
            .putInt(utf8.length)
            .putBytes(utf8);
        append(worker, record);
    }

    /**
     * ASYNC: the calling thread's ring: its worker's own when it owns it (a volatile read, a plain
     * load on x86, and a compare), else the many-to-one ring.
     */
    private WorkerRing ownRing(final int workerId)
    {
        final WorkerRing[] rings = this.workerRings;
        if (workerId >= 0 && workerId < rings.length)
        {
            final WorkerRing own = rings[workerId];
            final Thread owner = own.owner;
            if (owner == Thread.currentThread())
            {
                return own;
            }
            if (owner == null)
            {
                return claimRing(own);
            }
        }
        return null;
    }

    /** Cold path, once per worker: the first thread to journal with a worker's id owns its ring. */
    private WorkerRing claimRing(final WorkerRing own)
    {
        synchronized (createdLanes)
        {
            if (own.owner == null)
            {
                own.owner = Thread.currentThread();
            }
            return own.owner == Thread.currentThread() ? own : null;
        }
    }

    /**
     * ASYNC under {@link JournalConfig.RingFull#WAIT}, the ring found full: claims room once the
     * agent has made it, spinning briefly, then yielding the core (on a machine of few cores the
     * agent may need it), then parking 10 us at a time. Gives up only when the journal is closing
     * or its agent has stopped: then the record is lost and counted as under LOSE.
     *
     * @return the claim's index, or a value of at most 0 when it gave up.
     */
    private int claimWaiting(final RingBuffer ring, final int kind, final int length)
    {
        int index;
        int idles = 0;
        while ((index = ring.tryClaim(kind, length)) <= 0)
        {
            if (closed || agentRunner.isClosed())
            {
                return index;
            }
            if (idles < 100)
            {
                if (idles == 0)
                {
                    wakeAgent(); // it may be parked for up to its pace or agentMaxParkNanos
                }
                idles++;
                Thread.onSpinWait();
            }
            else if (idles < 200)
            {
                idles++;
                Thread.yield();
            }
            else
            {
                LockSupport.parkNanos(10_000L);
            }
        }
        return index;
    }

    /** ASYNC: ends the agent's park, if it is parked, so that it drains the rings now. */
    private void wakeAgent()
    {
        final Thread agentThread = agentRunner.thread();
        if (agentThread != null)
        {
            LockSupport.unpark(agentThread);
        }
    }

    private static int claimPatiently(
        final RingBuffer ring, final int kind, final int length, final long timeoutNanos)
    {
        int index = ring.tryClaim(kind, length);
        final long deadline = System.nanoTime() + timeoutNanos;
        while (index <= 0 && System.nanoTime() - deadline < 0)
        {
            LockSupport.parkNanos(100_000L);
            index = ring.tryClaim(kind, length);
        }
        return index;
    }

    /**
     * A captured graph input: the payload's bytes copied into the journal on the caller's thread,
     * in both modes, since the caller may reuse the payload once the call returns and the ring
     * cannot hold frames. Allocation-free: the record's CRC32C is computed over the payload in
     * place when it is on the heap, else over copies of it in the lane's scratch, a chunk at a
     * time (the JVM checksums direct memory in place only through a {@link ByteBuffer}, and making
     * one for the payload's address would allocate).
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
        final long nanos = System.nanoTime();
        final DirectBuffer buffer = payload.buffer();
        final long sum = PayloadChecksum.of(buffer, 0, length);
        final Lane lane = lane(-1);
        final RecordScratch scratch = lane.scratch;
        JournalDescriptor.putFixed(scratch.buffer, 0, JournalDescriptor.GRAPH_INPUT, VALUE_CAPTURED, -1, -1, streamId,
            nanos, timestamp, sum);
        scratch.buffer.putInt(FIXED_LENGTH, length, ByteOrder.LITTLE_ENDIAN);
        final CRC32C crc = scratch.crc;
        crc.reset();
        scratch.bytes.limit(FIXED_LENGTH + 4).position(0);
        crc.update(scratch.bytes);
        final byte[] array = buffer.byteArray();
        final int arrayOffset = array == null ? 0 : (int)(buffer.addressOffset() - BufferUtil.ARRAY_BASE_OFFSET);
        if (array != null)
        {
            crc.update(array, arrayOffset, length);
        }
        else
        {
            for (int done = 0; done < length; )
            {
                final int chunk = Math.min(length - done, RecordScratch.LENGTH - FIXED_LENGTH - 4);
                buffer.getBytes(done, scratch.buffer, FIXED_LENGTH + 4, chunk);
                scratch.bytes.limit(FIXED_LENGTH + 4 + chunk).position(FIXED_LENGTH + 4);
                crc.update(scratch.bytes);
                done += chunk;
            }
        }
        final int checksum = (int)crc.getValue();
        final DocumentContext dc = lane.appender.writingDocument();
        try
        {
            final Bytes<?> bytes = dc.wire().bytes();
            bytes.unsafeWrite(scratch.buffer.addressOffset(), FIXED_LENGTH + 4);
            if (array != null)
            {
                bytes.write(array, arrayOffset, length);
            }
            else
            {
                bytes.unsafeWrite(buffer.addressOffset(), length);
            }
            bytes.writeInt(checksum);
        }
        catch (final RuntimeException ex)
        {
            dc.rollbackOnClose();
            onFailure(ex);
        }
        finally
        {
            dc.close();
        }
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
        final ManyToOneRingBuffer ring = this.ring;
        if (ring == null)
        {
            return !closed;
        }
        final WorkerRing[] rings = this.workerRings;
        for (final WorkerRing own : rings)
        {
            if (own.owner == Thread.currentThread())
            {
                flushStaged(own, own.ring); // the caller's own staged calls; a worker's go when it idles
            }
        }
        final long[] targets = new long[rings.length + 1];
        for (int w = 0; w < rings.length; w++)
        {
            targets[w] = rings[w].ring.producerPosition();
        }
        targets[rings.length] = ring.producerPosition();
        final long deadline = System.nanoTime() + timeoutNanos;
        for (int w = 0; w <= rings.length; w++)
        {
            final RingBuffer r = w < rings.length ? rings[w].ring : ring;
            while (r.consumerPosition() < targets[w])
            {
                if (closed || System.nanoTime() - deadline > 0)
                {
                    return false;
                }
                wakeAgent(); // rather than wait out its park
                LockSupport.parkNanos(50_000L);
            }
        }
        final long cycle = agent.cycles();
        while (agent.cycles() <= cycle)
        {
            if (closed || System.nanoTime() - deadline > 0)
            {
                return false;
            }
            wakeAgent(); // rather than wait out its park
            LockSupport.parkNanos(50_000L);
        }
        return true;
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
        return failures.get();
    }

    /**
     * The first append failure, for a report.
     *
     * @return the exception, or null.
     */
    public Throwable firstFailure()
    {
        return firstFailure;
    }

    void onFailure(final Throwable t)
    {
        if (failures.getAndIncrement() == 0)
        {
            firstFailure = t;
            LOG.warn("journal {}: an append failed; the run goes on, later failures are only counted", runDirectory, t);
        }
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
            if (agentRunner != null)
            {
                agentRunner.close(); // the agent drains the ring in onClose, on its own thread
            }
        }
        finally
        {
            synchronized (createdLanes)
            {
                for (final Lane lane : createdLanes)
                {
                    // closed from this thread, not the one that used it: the journal is quiet now
                    lane.appender.singleThreadedCheckReset();
                    lane.appender.close();
                }
                createdLanes.clear();
            }
            queue.close();
            cycles.close();
            JournalFiles.restrictAll(runDirectory); // a safety net: every file was made owner-only already
            lock.close();
        }
    }
}
