package dev.framewire.core;

import dev.framewire.core.journal.JournalConfig;
import org.agrona.concurrent.NanoClock;

/**
 * A {@link GraphConfig}'s run-wide settings, apart from its topology: queue limits, the deadlock
 * rule, schedule order, backpressure, the failure policy, the watchdog, the memory budget and its
 * policy, shipments, batching, kept failures, the journal and the clock. The getters are
 * {@link GraphConfig}'s; this class only keeps them apart from the streams and nodes.
 * {@link RunSettingsBuilder} is the builder side.
 *
 * <p>Threading: immutable.
 */
abstract class RunSettings
{
    final int maxQueueSize;
    final int queueHardCap;
    final boolean reportDeadlock;
    final ScheduleOrder scheduleOrder;
    final Backpressure backpressure;
    final FailurePolicy failurePolicy;
    final long timeoutGuardNanos;
    final NanoClock clock;
    final MemoryLimitPolicy memoryLimitPolicy;
    final long memoryBudgetBytes;
    final int maxShipmentSize;
    final long maxShipmentBytes;
    final int inputSetsPerRun;
    final int roomBatch;
    final int keptFailures;
    final JournalConfig journal;

    RunSettings(final RunSettingsBuilder<?> b)
    {
        this.maxQueueSize = b.maxQueueSize;
        this.queueHardCap = b.queueHardCap;
        this.reportDeadlock = b.reportDeadlock;
        this.scheduleOrder = b.scheduleOrder;
        this.backpressure = b.backpressure;
        this.failurePolicy = b.failurePolicy;
        this.timeoutGuardNanos = b.timeoutGuardNanos;
        this.clock = b.clock;
        this.memoryLimitPolicy = b.memoryLimitPolicy;
        this.memoryBudgetBytes = b.memoryBudgetBytes;
        this.maxShipmentSize = b.maxShipmentSize;
        this.maxShipmentBytes = b.maxShipmentBytes;
        this.inputSetsPerRun = b.inputSetsPerRun;
        this.roomBatch = b.roomBatch;
        this.keptFailures = b.keptFailures;
        this.journal = b.journal;
    }

    /**
     * The graph-wide queue limit: 0 means {@value GraphConfig#DEFAULT_MAX_QUEUE_SIZE}, -1 none.
     *
     * @return the configured value.
     */
    public int maxQueueSize()
    {
        return maxQueueSize;
    }

    /**
     * The most packets any queue may hold before the run fails (the hard cap).
     *
     * @return the value.
     */
    public int queueHardCap()
    {
        return queueHardCap;
    }

    /**
     * Whether a deadlock fails the run instead of growing the queue that holds it up.
     *
     * @return the value.
     */
    public boolean reportDeadlock()
    {
        return reportDeadlock;
    }

    /**
     * The order a worker runs its ready nodes in.
     *
     * @return the value.
     */
    public ScheduleOrder scheduleOrder()
    {
        return scheduleOrder;
    }

    /**
     * Which producers a full queue holds back.
     *
     * @return the value.
     */
    public Backpressure backpressure()
    {
        return backpressure;
    }

    /**
     * What a failed calculator call does to the run.
     *
     * @return the value.
     */
    public FailurePolicy failurePolicy()
    {
        return failurePolicy;
    }

    /**
     * How long a call may run before the watchdog fails the run, in nanoseconds; 0 for no watchdog.
     *
     * @return the value.
     */
    public long timeoutGuardNanos()
    {
        return timeoutGuardNanos;
    }

    /**
     * The clock the graph times calls and graph input arrivals with.
     *
     * @return the value.
     */
    public NanoClock clock()
    {
        return clock;
    }

    /**
     * What the run does when the memory budget is exceeded.
     *
     * @return the value.
     */
    public MemoryLimitPolicy memoryLimitPolicy()
    {
        return memoryLimitPolicy;
    }

    /**
     * The off-heap budget of a pool the graph makes itself, in bytes; 0 for the default.
     *
     * @return the value.
     */
    public long memoryBudgetBytes()
    {
        return memoryBudgetBytes;
    }

    /**
     * The most packets a source may emit in one call; 0 for no limit.
     *
     * @return the value.
     */
    public int maxShipmentSize()
    {
        return maxShipmentSize;
    }

    /**
     * The most payload bytes a source's shipment (one call) may hold, as configured: positive, 0
     * for the default derived from the memory budget, -1 for none.
     *
     * @return the configured value; see {@link GraphConfig.Builder#maxShipmentBytes(long)}.
     */
    public long maxShipmentBytes()
    {
        return maxShipmentBytes;
    }

    /**
     * Ready input sets a node may process per run (see {@link GraphConfig.Builder#inputSetsPerRun(int)}).
     *
     * @return 1 by default.
     */
    public int inputSetsPerRun()
    {
        return inputSetsPerRun;
    }

    /**
     * How far below its limit a full queue drains before the sources and graph inputs it holds
     * back go on (see {@link GraphConfig.Builder#roomBatch(int)}).
     *
     * @return 1 by default.
     */
    public int roomBatch()
    {
        return roomBatch;
    }

    /**
     * How many failures the run keeps for {@code Graph.failures()}.
     *
     * @return the value.
     */
    public int keptFailures()
    {
        return keptFailures;
    }

    /**
     * The journal settings, or null when the run is not journaled.
     *
     * @return the journal config.
     */
    public JournalConfig journal()
    {
        return journal;
    }
}
