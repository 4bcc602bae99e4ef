package dev.framewire.core.journal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How a run is journaled: where, in which {@link Mode}, which streams' payloads are captured or
 * checksummed, and how long old journals are kept. Fluent. A graph asks for a journal with
 * {@code GraphConfig.Builder.journal(JournalConfig)}; the journal itself is the
 * {@code dev.framewire:framewire-journal} artifact, which must be on the class path then (its
 * {@code dev.framewire.journal.JournalWriter} reads this, through its {@link JournalProvider}).
 *
 * <pre>{@code
 * JournalConfig journal = new JournalConfig()
 *     .directory(Path.of("journals"))
 *     .mode(JournalConfig.Mode.ASYNC)
 *     .captureStreams("camera")          // graph input frames, for replay
 *     .checksumStreams("detections")     // outputs, for comparing replays
 *     .deleteOlderThan(Duration.ofDays(7))  // retention, applied when a writer opens
 *     .maxTotalSize(10L << 30);               // the oldest runs go first
 * }</pre>
 *
 * <p>Threading: set up on one thread, then handed to the writer, which copies what it needs.
 */
public final class JournalConfig
{
    /** How workers get their records into Chronicle Queue. */
    public enum Mode
    {
        /**
         * Each thread appends to Chronicle itself (its own appender, Chronicle's write lock between
         * threads). A record is in the memory-mapped file when the call returns: it survives a
         * kill -9 of the process (not a power cut, which needs the OS to have written the pages).
         */
        SYNC,
        /**
         * Threads put fixed-size records on an Agrona many-to-one ring buffer (lock-free, no
         * allocation, never blocks: a full ring loses the record and counts it); a journal agent
         * thread drains the ring into Chronicle. A kill -9 loses what was still in the ring.
         */
        ASYNC
    }

    /**
     * How much of a run the journal records, by cost (docs/JOURNAL.md, "Levels", says what each can
     * answer in a post-mortem). The lighter levels filter on the worker, before a record is made.
     */
    public enum Level
    {
        /** Every call: its begin and end, and every packet delivered (the default; what replay and post-mortem need). */
        CALLS,
        /**
         * One record per run of calls on a worker: the run's first begin (with the first call's node
         * and input timestamp) and, when the worker goes idle, its end; plus graph inputs, the
         * packets on the graph's end streams (streams no node takes), drops, errors and notes.
         */
        RUNS,
        /** Graph inputs and outputs only: graph inputs, the packets on the end streams, drops, errors, notes. */
        IO,
        /**
         * As {@link #IO}, plus one call in {@link JournalConfig#sampleEvery()} on each worker, whole
         * (its begin, the packets it delivered, its end).
         */
        SAMPLED
    }

    /** ASYNC: what a thread does when the ring it journals into is full. */
    public enum RingFull
    {
        /**
         * The record is lost and counted (the agent journals the count as a {@code LOST} record):
         * a worker never waits for the journal, and the journal has a gap while the agent is behind.
         */
        LOSE,
        /**
         * The thread waits until the agent has made room (spinning briefly, then yielding its
         * core, then parking a few microseconds at a time): every record is kept, and the graph
         * runs no faster than the agent appends. It gives up, losing the record as {@link #LOSE}
         * does, only when the journal is closing or its agent has stopped.
         */
        WAIT
    }

    /**
     * ASYNC: which of a worker's calls read the clock for their begin ({@code nanos}). A clock
     * read costs about 27 ns on a {@code kvm-clock} VM, the largest part of what a journaled call
     * costs its worker (see {@code docs/JOURNAL.md}).
     */
    public enum ClockReads
    {
        /**
         * A call reads the clock when another thread handed it a packet: a graph input's, one a
         * node on another worker emitted, or any call of a source or a {@code max_in_flight}
         * node. A call whose every input packet its own worker emitted begins at the worker's
         * last reading (the begin of the call that read it, or when the worker last let its
         * staged calls go, at most 64 calls before), and so does a call handed a packet that
         * was already published when the worker last read the clock for that node (a backlog
         * behind a graph input, say, costs one read, not one a packet). {@code nanos} stays
         * causal across threads: a packet's consumer on another thread begins no earlier than
         * the emit that made it; on one worker it never decreases. What is lost: how long each
         * call of such a run of calls took on its own, their time being given to the call that
         * read the clock. The default.
         */
        HAND_OVER,
        /** Every call reads the clock at its begin: each call's own duration, at a clock read per call. */
        EVERY_CALL
    }

    /** The default roll cycle: Chronicle's {@code RollCycles.FAST_HOURLY}, a file an hour. */
    public static final String DEFAULT_ROLL_CYCLE = "FAST_HOURLY";

    /**
     * The default size of each ASYNC ring: 4 MiB, about 87,000 records of 48 bytes (a graph input's, in
     * the shared ring): at 1.5 M graph inputs a second, an agent kept off the cores for about 58 ms
     * before its first record is lost. On two cores, with the adding thread and the worker busy, the
     * agent at times went about 20 ms without a core, or stayed 21-34 ms on one, longer than 1 MiB
     * held.
     */
    public static final int DEFAULT_RING_CAPACITY = 4 << 20;
    /**
     * The default {@link #deleteOlderThan}: runs last written more than a week ago go when a journal
     * opens. A bound by default, so that a service journaling for months does not fill its disk.
     */
    public static final Duration DEFAULT_DELETE_OLDER_THAN = Duration.ofDays(7);
    /**
     * The default {@link #maxTotalSize}: 10 GiB of runs in the directory (the camera demo journals
     * about 0.8 GB an hour: some 12 hours of it); the oldest runs go first.
     */
    public static final long DEFAULT_MAX_TOTAL_SIZE = 10L << 30;
    /**
     * The default {@link #captureLimit}: 1 GiB of captured payload bytes a run (about 4,600 gray
     * 640x360 frames), so that a capture left on does not fill the disk with camera images.
     */
    public static final long DEFAULT_CAPTURE_LIMIT = 1L << 30;

    private Path directory = Path.of("journals");
    private Mode mode = Mode.SYNC;
    private Level level = Level.CALLS;
    private int sampleEvery = 64;
    private String rollCycle = DEFAULT_ROLL_CYCLE;
    private final Set<String> captureStreams = new LinkedHashSet<>();
    private final Set<String> checksumStreams = new LinkedHashSet<>();
    private Duration deleteOlderThan = DEFAULT_DELETE_OLDER_THAN;
    private long maxTotalSize = DEFAULT_MAX_TOTAL_SIZE;
    private long captureLimit = DEFAULT_CAPTURE_LIMIT;
    private int ringCapacity = DEFAULT_RING_CAPACITY;
    private RingFull ringFull = RingFull.LOSE;
    private ClockReads clockReads = ClockReads.HAND_OVER;
    private long blockSize;
    private long agentMaxParkNanos = 1_000_000L;
    private boolean agentBatchScheduling = true;

    /**
     * The directory journals go in, one subdirectory per run ({@code run-<date>-<time>-<pid>}).
     * Created owner-only ({@code rwx------}) if absent.
     *
     * @param directory the directory; {@code journals} by default.
     * @return this.
     */
    public JournalConfig directory(final Path directory)
    {
        this.directory = directory;
        return this;
    }

    /**
     * The directory journals go in.
     *
     * @return the directory.
     */
    public Path directory()
    {
        return directory;
    }

    /**
     * How records get to Chronicle: see {@link Mode}.
     *
     * @param mode SYNC (default) or ASYNC.
     * @return this.
     */
    public JournalConfig mode(final Mode mode)
    {
        this.mode = mode;
        return this;
    }

    /**
     * How records get to Chronicle.
     *
     * @return the mode.
     */
    public Mode mode()
    {
        return mode;
    }

    /**
     * How much the journal records: see {@link Level}.
     *
     * @param level CALLS (default), RUNS, IO or SAMPLED.
     * @return this.
     */
    public JournalConfig level(final Level level)
    {
        this.level = level;
        return this;
    }

    /**
     * How much the journal records.
     *
     * @return the level.
     */
    public Level level()
    {
        return level;
    }

    /**
     * {@link Level#SAMPLED}: each worker journals one call in this many, whole.
     *
     * @param calls at least 1 (default 64).
     * @return this.
     */
    public JournalConfig sampleEvery(final int calls)
    {
        this.sampleEvery = calls;
        return this;
    }

    /**
     * {@link Level#SAMPLED}: one call in how many is journaled on each worker.
     *
     * @return the count.
     */
    public int sampleEvery()
    {
        return sampleEvery;
    }

    /**
     * How often Chronicle starts a new file within a run, by the name of one of Chronicle's roll
     * cycles ({@code RollCycles}: {@code FAST_HOURLY}, {@code FAST_DAILY}, {@code HALF_HOURLY}...; or
     * one of its {@code LargeRollCycles}, {@code SparseRollCycles}, {@code TestRollCycles}). A name,
     * not Chronicle's type, so that this class (in {@code framewire-core}) does not need Chronicle;
     * a name Chronicle does not have is refused when the journal opens, listing the valid ones.
     *
     * @param rollCycle a Chronicle roll cycle's name; {@value #DEFAULT_ROLL_CYCLE} by default.
     * @return this.
     */
    public JournalConfig rollCycle(final String rollCycle)
    {
        this.rollCycle = rollCycle;
        return this;
    }

    /**
     * How often Chronicle starts a new file within a run.
     *
     * @return the roll cycle's name.
     */
    public String rollCycle()
    {
        return rollCycle;
    }

    /**
     * Streams whose payload bytes are written into the journal, so that a replay can feed the
     * same bytes: a graph input's as it is added, a node output's (a source's frames) as it is
     * emitted, with the frame's shape (width, height, stride, pixel format). Off unless asked:
     * it writes every byte of every frame, and camera frames are personal data. At most
     * {@link #captureLimit} bytes a run: past it, capture stops (the journal says where) and the
     * run goes on. A stream of a subgraph added at run time is named as the graph names it
     * ({@code cam7__frames}): captured from its addition on.
     *
     * @param names stream names.
     * @return this.
     */
    public JournalConfig captureStreams(final String... names)
    {
        Collections.addAll(captureStreams, names);
        return this;
    }

    /**
     * Streams whose payload bytes are captured.
     *
     * @return the names.
     */
    public Set<String> captureStreams()
    {
        return Collections.unmodifiableSet(captureStreams);
    }

    /**
     * The most payload bytes a run captures ({@link #captureStreams}), graph inputs and node
     * outputs together. A payload that would go past it is not captured, nor any after it: the
     * journal notes where capture stopped, and the run goes on; those payloads are journaled as
     * if not captured (by length, or checksum).
     *
     * @param bytes at least 0; {@link #DEFAULT_CAPTURE_LIMIT} by default.
     * @return this.
     */
    public JournalConfig captureLimit(final long bytes)
    {
        this.captureLimit = bytes;
        return this;
    }

    /**
     * The most payload bytes a run captures.
     *
     * @return bytes.
     */
    public long captureLimit()
    {
        return captureLimit;
    }

    /**
     * Streams whose emitted payloads get a checksum (XXH64, {@code dev.framewire.journal.PayloadChecksum})
     * in the journal, so that two runs' outputs compare cheaply ({@code dev.framewire.journal.JournalDiff}).
     * A stream of a subgraph added at run time is named as the graph names it ({@code cam7__out}).
     *
     * @param names stream names.
     * @return this.
     */
    public JournalConfig checksumStreams(final String... names)
    {
        Collections.addAll(checksumStreams, names);
        return this;
    }

    /**
     * Streams whose emitted payloads are checksummed.
     *
     * @return the names.
     */
    public Set<String> checksumStreams()
    {
        return Collections.unmodifiableSet(checksumStreams);
    }

    /**
     * When a writer opens, it deletes run journals in {@link #directory()} whose newest file is
     * older than this (see {@code dev.framewire.journal.JournalRetention}). Only directories that are Framewire journals
     * are touched, never a run being written.
     *
     * @param age the age ({@link #DEFAULT_DELETE_OLDER_THAN} by default); null keeps runs of any age.
     * @return this.
     */
    public JournalConfig deleteOlderThan(final Duration age)
    {
        this.deleteOlderThan = age;
        return this;
    }

    /**
     * The age past which old journals are deleted on open.
     *
     * @return the age, or null when runs of any age are kept.
     */
    public Duration deleteOlderThan()
    {
        return deleteOlderThan;
    }

    /**
     * When a writer opens, it deletes the oldest run journals in {@link #directory()} until the
     * runs left hold at most this many bytes (see {@code dev.framewire.journal.JournalRetention}: a run's bytes are what
     * its files hold, not Chronicle's preallocated, sparse tails). The run being opened starts
     * empty and is not counted; runs being written are counted and never deleted.
     *
     * @param bytes the budget ({@link #DEFAULT_MAX_TOTAL_SIZE} by default); -1 for none.
     * @return this.
     */
    public JournalConfig maxTotalSize(final long bytes)
    {
        this.maxTotalSize = bytes;
        return this;
    }

    /**
     * The budget for the runs' total size, applied on open.
     *
     * @return bytes, or -1 for none.
     */
    public long maxTotalSize()
    {
        return maxTotalSize;
    }

    /**
     * ASYNC: the ring's size in bytes, a power of two. A full ring loses records (counted and
     * journaled as a {@code LOST} record), so size it for the longest burst the agent may
     * fall behind by.
     *
     * @param bytes a power of two, at least 4096; {@value #DEFAULT_RING_CAPACITY} by default.
     * @return this.
     */
    public JournalConfig ringCapacity(final int bytes)
    {
        this.ringCapacity = bytes;
        return this;
    }

    /**
     * ASYNC: the ring's size in bytes.
     *
     * @return the capacity.
     */
    public int ringCapacity()
    {
        return ringCapacity;
    }

    /**
     * ASYNC: what a thread does when its ring is full: lose the record ({@link RingFull#LOSE},
     * the default: a worker never waits for the journal) or wait for room ({@link RingFull#WAIT}:
     * a journal without gaps, at the agent's pace).
     *
     * @param ringFull LOSE or WAIT.
     * @return this.
     */
    public JournalConfig onRingFull(final RingFull ringFull)
    {
        this.ringFull = ringFull;
        return this;
    }

    /**
     * ASYNC: what a thread does when its ring is full.
     *
     * @return LOSE or WAIT.
     */
    public RingFull ringFull()
    {
        return ringFull;
    }

    /**
     * ASYNC: which of a worker's calls read the clock: only those another thread handed a packet
     * ({@link ClockReads#HAND_OVER}, the default) or every call ({@link ClockReads#EVERY_CALL},
     * for each call's own duration). SYNC reads the clock for every record.
     *
     * @param clockReads HAND_OVER or EVERY_CALL.
     * @return this.
     */
    public JournalConfig clockReads(final ClockReads clockReads)
    {
        this.clockReads = clockReads;
        return this;
    }

    /**
     * ASYNC: which of a worker's calls read the clock.
     *
     * @return HAND_OVER or EVERY_CALL.
     */
    public ClockReads clockReads()
    {
        return clockReads;
    }

    /**
     * Chronicle's block size: how much file it maps at a time. A record must fit in a quarter of
     * it, so captured payloads larger than that are recorded by length only.
     *
     * @param bytes the block size; 0 (default) keeps Chronicle's (64 MiB on 64-bit JVMs).
     * @return this.
     */
    public JournalConfig blockSize(final long bytes)
    {
        this.blockSize = bytes;
        return this;
    }

    /**
     * Chronicle's block size, 0 for its default.
     *
     * @return the block size.
     */
    public long blockSize()
    {
        return blockSize;
    }

    /**
     * ASYNC: the longest the idle journal agent parks between looks at the ring: the most a
     * record waits in the ring while the agent is idle (and the most a kill -9 then loses).
     *
     * @param nanos positive; 1 ms by default.
     * @return this.
     */
    public JournalConfig agentMaxParkNanos(final long nanos)
    {
        this.agentMaxParkNanos = nanos;
        return this;
    }

    /**
     * ASYNC: the agent's longest park.
     *
     * @return nanos.
     */
    public long agentMaxParkNanos()
    {
        return agentMaxParkNanos;
    }

    /**
     * ASYNC, on Linux: whether the journal agent's thread runs under the {@code SCHED_BATCH}
     * policy while it keeps up. Such a thread keeps its share of the CPU but does not preempt a
     * running thread when it wakes: the agent, which wakes every 100 µs or so under load, then
     * waits for a free core or the next scheduler tick instead of taking a worker's. An agent that
     * finds a ring more than half full goes back to the default policy until it has caught up, so
     * that its rings do not fill and lose records. On by default since the rings are 4 MiB
     * ({@link #DEFAULT_RING_CAPACITY}): with 1 MiB rings, both cores of a 2-vCPU machine busy could
     * keep the agent off them for longer than a ring held, under either policy (docs/BENCHMARKS.md,
     * eleventh and twelfth sessions). Set through JNA (which OpenHFT affinity brings), at the
     * agent's start; where that cannot be done (another OS, no JNA) the agent runs as any thread
     * and the journal logs why, once a JVM. Turn it off for an agent that should preempt as any
     * thread does (on a machine with a core to spare for it the policy is not expected to help;
     * not measured, the benchmark machines have two).
     *
     * @param batch true (the default) to run the agent's thread under SCHED_BATCH while it keeps up.
     * @return this.
     */
    public JournalConfig agentBatchScheduling(final boolean batch)
    {
        this.agentBatchScheduling = batch;
        return this;
    }

    /**
     * ASYNC: whether the agent's thread runs under {@code SCHED_BATCH} (Linux) while it keeps up.
     *
     * @return true by default.
     */
    public boolean agentBatchScheduling()
    {
        return agentBatchScheduling;
    }

    /**
     * Checks the settings, naming the first that is not valid and what would be. The journal
     * calls it when it opens; the roll cycle's name is checked there, against Chronicle's.
     *
     * @throws IllegalArgumentException naming the setting.
     */
    public void validate()
    {
        require(directory != null, "journal directory is null; set JournalConfig.directory(path)");
        require(mode != null && rollCycle != null, "journal mode and roll cycle must not be null");
        require(ringFull != null, "journal onRingFull is null; valid are " + Arrays.toString(RingFull.values()));
        require(clockReads != null, "journal clockReads is null; valid are " + Arrays.toString(ClockReads.values()));
        require(ringCapacity >= 4096 && Integer.bitCount(ringCapacity) == 1, "journal ringCapacity " + ringCapacity +
            " must be a power of two of at least 4096 bytes, e.g. " + DEFAULT_RING_CAPACITY);
        require(agentMaxParkNanos > 0, "journal agentMaxParkNanos " + agentMaxParkNanos + " must be positive");
        require(deleteOlderThan == null || !deleteOlderThan.isNegative(), "journal deleteOlderThan " +
            deleteOlderThan + " must not be negative");
        require(level != null, "journal level must be one of " + Arrays.toString(Level.values()));
        require(sampleEvery >= 1, "journal sampleEvery " + sampleEvery + " must be at least 1");
        require(captureLimit >= 0, "journal captureLimit " + captureLimit + " must be a number of bytes, " +
            "at least 0 (default " + DEFAULT_CAPTURE_LIMIT + ")");
        require(maxTotalSize >= -1, "journal maxTotalSize " + maxTotalSize + " must be -1 (none) or a " +
            "number of bytes");
        require(blockSize >= 0, "journal blockSize " + blockSize + " must be 0 (Chronicle's default) " +
            "or positive");
    }

    private static void require(final boolean valid, final String message)
    {
        if (!valid)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
