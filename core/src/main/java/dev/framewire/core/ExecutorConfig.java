package dev.framewire.core;

import java.util.Arrays;

/**
 * A named executor: how many workers it has, how they wait, and which CPUs they are pinned to.
 *
 * <p>Threading: immutable.
 */
public final class ExecutorConfig
{
    /** {@link #spinsBeforePark()} unless set: a few microseconds of looking before a park. */
    public static final int DEFAULT_SPINS_BEFORE_PARK = 200;

    private final int workers;
    private final IdleKind idle;
    private final int[] cpus;
    private final int spinsBeforePark;

    private ExecutorConfig(final int workers, final IdleKind idle, final int[] cpus, final int spinsBeforePark)
    {
        this.workers = workers;
        this.idle = idle;
        this.cpus = cpus;
        this.spinsBeforePark = spinsBeforePark;
    }

    /**
     * An executor of {@code workers} workers waiting with {@code idle}.
     *
     * @param workers at least 1.
     * @param idle    how the workers wait.
     * @return the config.
     */
    public static ExecutorConfig of(final int workers, final IdleKind idle)
    {
        return new ExecutorConfig(workers, idle, new int[0], DEFAULT_SPINS_BEFORE_PARK);
    }

    /**
     * The same executor with worker {@code i} pinned to {@code cpus[i]} (OpenHFT affinity).
     *
     * @param cpus one CPU id per worker, or fewer to pin only the first workers.
     * @return a new config.
     */
    public ExecutorConfig pinnedTo(final int... cpus)
    {
        return new ExecutorConfig(workers, idle, cpus.clone(), spinsBeforePark);
    }

    /**
     * The same executor whose {@link IdleKind#PARK} workers, out of work, first look for more
     * {@code spins} times (one duty cycle each, {@code Thread.onSpinWait()} between) before they
     * park. A packet that comes within those few microseconds is taken without the producer's
     * unpark (a system call) and the worker's wake-up: on a steady stream that is most packets
     * (docs/BENCHMARKS.md: B1's parked hop). 0 parks at once, for executors of many mostly idle
     * workers on a machine without a core to spare. Ignored by the other idle kinds.
     *
     * @param spins 0 or more; {@link #DEFAULT_SPINS_BEFORE_PARK} unless set.
     * @return a new config.
     */
    public ExecutorConfig spinsBeforePark(final int spins)
    {
        return new ExecutorConfig(workers, idle, cpus, spins);
    }

    /**
     * How many idle duty cycles a parking worker spins before it parks.
     *
     * @return the count.
     */
    public int spinsBeforePark()
    {
        return spinsBeforePark;
    }

    /**
     * Number of workers.
     *
     * @return the count.
     */
    public int workers()
    {
        return workers;
    }

    /**
     * How the workers wait.
     *
     * @return the idle kind.
     */
    public IdleKind idle()
    {
        return idle;
    }

    /**
     * CPU ids the workers are pinned to, in worker order.
     *
     * @return a copy.
     */
    public int[] cpus()
    {
        return cpus.clone();
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof ExecutorConfig && ((ExecutorConfig)o).workers == workers &&
            ((ExecutorConfig)o).idle == idle && Arrays.equals(((ExecutorConfig)o).cpus, cpus) &&
            ((ExecutorConfig)o).spinsBeforePark == spinsBeforePark;
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * (31 * workers + idle.hashCode()) + Arrays.hashCode(cpus)) + spinsBeforePark;
    }

    @Override
    public String toString()
    {
        return "executor{workers=" + workers + ", idle=" + idle + (cpus.length > 0 ? ", cpus=" +
            Arrays.toString(cpus) : "") + (idle == IdleKind.PARK && spinsBeforePark != DEFAULT_SPINS_BEFORE_PARK ?
            ", spinsBeforePark=" + spinsBeforePark : "") + '}';
    }
}
