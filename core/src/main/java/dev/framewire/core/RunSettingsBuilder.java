package dev.framewire.core;

import dev.framewire.core.journal.JournalConfig;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;

/**
 * The run-wide setters of {@link GraphConfig.Builder}, apart from its topology ({@link RunSettings}
 * is the built side). Each setter returns the builder it belongs to.
 *
 * <p>Threading: single-threaded, as the builder.
 *
 * @param <B> the builder.
 */
abstract class RunSettingsBuilder<B extends RunSettingsBuilder<B>>
{
    int maxQueueSize;
    int queueHardCap = 4096;
    boolean reportDeadlock;
    ScheduleOrder scheduleOrder = ScheduleOrder.MEDIAPIPE;
    Backpressure backpressure = Backpressure.SOURCES;
    FailurePolicy failurePolicy = FailurePolicy.FAIL_RUN;
    long timeoutGuardNanos = 30_000_000_000L;
    NanoClock clock = SystemNanoClock.INSTANCE;
    MemoryLimitPolicy memoryLimitPolicy = MemoryLimitPolicy.FAIL;
    long memoryBudgetBytes;
    int maxShipmentSize = 64;
    long maxShipmentBytes;
    int inputSetsPerRun = 1;
    int roomBatch = 1;
    int keptFailures = 16;
    JournalConfig journal;

    /** The builder itself, which the setters return. */
    abstract B self();

    /** Takes every setting of a built config (for {@link GraphConfig#toBuilder()}). */
    final void copySettings(final RunSettings from)
    {
        this.maxQueueSize = from.maxQueueSize;
        this.queueHardCap = from.queueHardCap;
        this.reportDeadlock = from.reportDeadlock;
        this.scheduleOrder = from.scheduleOrder;
        this.backpressure = from.backpressure;
        this.failurePolicy = from.failurePolicy;
        this.timeoutGuardNanos = from.timeoutGuardNanos;
        this.clock = from.clock;
        this.memoryLimitPolicy = from.memoryLimitPolicy;
        this.memoryBudgetBytes = from.memoryBudgetBytes;
        this.maxShipmentSize = from.maxShipmentSize;
        this.maxShipmentBytes = from.maxShipmentBytes;
        this.inputSetsPerRun = from.inputSetsPerRun;
        this.roomBatch = from.roomBatch;
        this.keptFailures = from.keptFailures;
        this.journal = from.journal;
    }

    /**
     * The graph-wide queue limit per input stream (MediaPipe's {@code max_queue_size}).
     *
     * @param size 0 for {@value GraphConfig#DEFAULT_MAX_QUEUE_SIZE}, -1 for none, or a positive limit.
     * @return this.
     */
    public B maxQueueSize(final int size)
    {
        this.maxQueueSize = size;
        return self();
    }

    /**
     * The most packets any input queue may ever hold: its ring's capacity, the ceiling for
     * deadlock avoidance's raises. Past it the run fails.
     *
     * @param cap positive, 4096 by default.
     * @return this.
     */
    public B queueHardCap(final int cap)
    {
        this.queueHardCap = cap;
        return self();
    }

    /**
     * On a deadlock of full queues, fail the run naming them (true) or raise their limits (false,
     * the default).
     *
     * @param report whether to report instead of resolving.
     * @return this.
     */
    public B reportDeadlock(final boolean report)
    {
        this.reportDeadlock = report;
        return self();
    }

    /**
     * The order in which workers run ready nodes.
     *
     * @param order MediaPipe's (default) or BMF's.
     * @return this.
     */
    public B scheduleOrder(final ScheduleOrder order)
    {
        this.scheduleOrder = order;
        return self();
    }

    /**
     * What a full queue holds back.
     *
     * @param rule sources only (default) or every upstream node.
     * @return this.
     */
    public B backpressure(final Backpressure rule)
    {
        this.backpressure = rule;
        return self();
    }

    /**
     * What a calculator failure does to the run.
     *
     * @param policy the policy.
     * @return this.
     */
    public B failurePolicy(final FailurePolicy policy)
    {
        this.failurePolicy = policy;
        return self();
    }

    /**
     * The watchdog (BMF's alive watch): when work is pending and no node has run
     * for this long, the run fails with a report naming what waits on what: the node a worker is
     * stuck in (with its stack), the full queues, the streams whose bound does not settle.
     * 30 s by default; 0 turns it off.
     *
     * @param millis the timeout.
     * @return this.
     */
    public B timeoutGuardMillis(final long millis)
    {
        this.timeoutGuardNanos = millis * 1_000_000L;
        return self();
    }

    /**
     * What an acquire past the pool's hard limit does.
     *
     * @param policy fail (default) or drop the oldest queued packets.
     * @return this.
     */
    public B memoryLimitPolicy(final MemoryLimitPolicy policy)
    {
        this.memoryLimitPolicy = policy;
        return self();
    }

    /**
     * The off-heap budget of the pool a graph makes for itself: soft limit at 50 %, hard limit
     * at 75 % of it. Ignored when the graph is given a pool.
     *
     * @param maxBytes positive; 0 keeps the pool's default.
     * @return this.
     */
    public B memoryBudget(final long maxBytes)
    {
        this.memoryBudgetBytes = maxBytes;
        return self();
    }

    /**
     * The most packets a source may emit on one stream in one call (a shipment); it
     * is called again while it has more. 64 by default.
     *
     * @param size positive.
     * @return this.
     */
    public B maxShipmentSize(final int size)
    {
        this.maxShipmentSize = size;
        return self();
    }

    /**
     * The most off-heap bytes a source's shipment may hold: the payloads it emits in one call,
     * each counted at its slot size (what it counts against the budget), across its outputs. The
     * first payload of a call always goes out; an emit that would pass the cap after it fails
     * the call with a {@link MemoryLimitException}, as one past {@link #maxShipmentSize(int)}
     * does, so a source that makes frames ends its shipment when
     * {@link CalculatorContext#shipmentBytesLeft()} is below the next frame.
     *
     * <p>The default, 0, derives the cap from the pool's budget: its hard limit less its soft
     * limit (25 % of the budget with the graph's own pool), or half the soft limit when the two
     * limits are equal. Sources run only while the pool is under the soft limit, so a shipment
     * within that room cannot by itself pass the hard limit.
     *
     * @param bytes positive; 0 for the default derived from the budget; -1 for no cap.
     * @return this.
     */
    public B maxShipmentBytes(final long bytes)
    {
        this.maxShipmentBytes = bytes;
        return self();
    }

    /**
     * How many ready input sets a node may process each time a worker runs it. 1 (the
     * default) is MediaPipe's scheduling: one input set, then the worker picks the
     * highest-priority ready node again, so the order between nodes follows
     * {@link ScheduleOrder} exactly and the least is queued. More lets a node go on with its
     * next ready input sets without going back through the scheduler (a heap, the state
     * machine's fences) each time, while it stays open and nothing holds it back: several
     * times the throughput of a chain of small nodes (docs/BENCHMARKS.md, B2), at the price
     * of up to that many more packets queued between stages and a looser order between
     * nodes. Calls of one node keep their order either way, and outputs are delivered after
     * each call as before.
     *
     * @param count 1 or more.
     * @return this.
     */
    public B inputSetsPerRun(final int count)
    {
        this.inputSetsPerRun = count;
        return self();
    }

    /**
     * How many packets below its limit a full queue must drain before it lets the sources and
     * graph inputs it holds back go on. 1 (the default) is MediaPipe's rule: room for one packet
     * lets them go on, so a producer faster than the queue's consumer is let go and held back
     * again once per packet, each time a hand-over between two threads (the consumer's worker
     * and the adder, or a source's worker). {@code n} hands room out once per {@code n}
     * packets: the producer then adds up to {@code n} packets in a row, and a saturated chain
     * runs several times faster (docs/BENCHMARKS.md, B2 {@code FRAMEWIRE_BATCH128}).
     *
     * <p>What changes for the producers a full queue holds back, and only for them: once held
     * back, they stay held back (a waiting add waits, {@code tryAddPacket} is refused, a source
     * is not run) until the queue holds no more than its limit less {@code n}, or until its
     * consumer stops taking packets (its node goes idle, because it is not ready or has
     * closed), whichever comes first; so nothing waits on room that no one will hand out, and
     * the deadlock check sees what it does under MediaPipe's rule. A producer not held back
     * still adds whenever the queue is below its limit, and a batch never lets a queue hold
     * more than it could under MediaPipe's rule. Queues read by an {@code OutputPoller} keep
     * MediaPipe's rule.
     *
     * @param packets 1 or more; at or above a queue's limit, that queue hands room out only
     *                once it is empty.
     * @return this.
     */
    public B roomBatch(final int packets)
    {
        this.roomBatch = packets;
        return self();
    }

    /**
     * How many failures a run keeps with their causes, besides its first: the last {@code count}
     * (16 unless set). Every failure is still counted, by node and cause, and logged at WARN
     * (rate-limited), so a node that fails on every packet under
     * {@link FailurePolicy#DROP_TIMESTAMP} costs bounded memory. Java builder only.
     *
     * @param count 1 or more.
     * @return this.
     */
    public B keptFailures(final int count)
    {
        this.keptFailures = count;
        return self();
    }

    /**
     * Journals the run with Chronicle Queue (off unless set when embedded; the tools turn it on):
     * every graph input, emit, call, drop, bound move and error, for post-mortems and replay.
     * The journal is the {@code dev.framewire:framewire-journal} artifact, which must then be on
     * the class path: {@link Graph#start()} fails, saying to add it, when it is not.
     *
     * @param journal where and how, or null for none.
     * @return this.
     */
    public B journal(final JournalConfig journal)
    {
        this.journal = journal;
        return self();
    }

    /**
     * The clock the graph measures time with (the timeout guard, calculators' pacing, latency):
     * the system's by default; a {@code org.agrona.concurrent.CachedNanoClock} advanced by hand
     * makes time-dependent behaviour deterministic in tests.
     *
     * @param clock the clock.
     * @return this.
     */
    public B clock(final NanoClock clock)
    {
        this.clock = clock;
        return self();
    }
}
