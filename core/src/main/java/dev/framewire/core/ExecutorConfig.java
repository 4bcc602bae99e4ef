package dev.framewire.core;

import java.util.Arrays;

/**
 * A named executor: how many workers it has, how they wait, and which CPUs they are pinned to.
 *
 * <p>Threading: immutable.
 */
public final class ExecutorConfig
{
    private final int workers;
    private final IdleKind idle;
    private final int[] cpus;

    private ExecutorConfig(final int workers, final IdleKind idle, final int[] cpus)
    {
        this.workers = workers;
        this.idle = idle;
        this.cpus = cpus;
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
        return new ExecutorConfig(workers, idle, new int[0]);
    }

    /**
     * The same executor with worker {@code i} pinned to {@code cpus[i]} (OpenHFT affinity).
     *
     * @param cpus one CPU id per worker, or fewer to pin only the first workers.
     * @return a new config.
     */
    public ExecutorConfig pinnedTo(final int... cpus)
    {
        return new ExecutorConfig(workers, idle, cpus.clone());
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
            ((ExecutorConfig)o).idle == idle && Arrays.equals(((ExecutorConfig)o).cpus, cpus);
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * workers + idle.hashCode()) + Arrays.hashCode(cpus);
    }

    @Override
    public String toString()
    {
        return "executor{workers=" + workers + ", idle=" + idle + (cpus.length > 0 ? ", cpus=" +
            Arrays.toString(cpus) : "") + '}';
    }
}
