package dev.framewire.core;

/**
 * How an executor's workers wait when they have nothing to run: Agrona idle strategies.
 */
public enum IdleKind
{
    /**
     * Spin on the CPU ({@code BusySpinIdleStrategy}): the lowest hand-over latency, a whole core
     * per worker. Only with a core to spare for each worker (and ideally pinned to it).
     */
    BUSY_SPIN,
    /** {@code Thread.yield()} between checks ({@code YieldingIdleStrategy}): low latency, shares a core. */
    YIELD,
    /** Spin, then yield, then park with growing periods ({@code BackoffIdleStrategy}). */
    BACKOFF,
    /**
     * Park until woken: a producer unparks the worker only when it is parked. Costs a wake-up per
     * hand-over to an idle worker; uses no CPU while idle. The default.
     */
    PARK
}
