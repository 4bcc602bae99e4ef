package dev.framewire.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * A named executor: how many workers it has, how they wait, which CPUs they are pinned to, and
 * whether they take queued nodes from each other ({@link Scheduling}).
 *
 * <p>Threading: immutable.
 */
public final class ExecutorConfig
{
    /** {@link #spinBeforeParkMicros()} unless set: 15 µs of looking before a park. */
    public static final int DEFAULT_SPIN_BEFORE_PARK_MICROS = 15;

    private final int workers;
    private final IdleKind idle;
    private final int[] cpus;
    private final int spinBeforeParkMicros;
    private final Scheduling scheduling;

    private ExecutorConfig(
        final int workers, final IdleKind idle, final int[] cpus, final int spinBeforeParkMicros,
        final Scheduling scheduling)
    {
        this.workers = workers;
        this.idle = idle;
        this.cpus = cpus;
        this.spinBeforeParkMicros = spinBeforeParkMicros;
        this.scheduling = scheduling;
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
        return new ExecutorConfig(workers, idle, new int[0], DEFAULT_SPIN_BEFORE_PARK_MICROS, Scheduling.PINNED);
    }

    /**
     * The same executor with worker {@code i} pinned to {@code cpus[i]} (OpenHFT affinity).
     *
     * @param cpus one CPU id per worker, or fewer to pin only the first workers.
     * @return a new config.
     */
    public ExecutorConfig pinnedTo(final int... cpus)
    {
        return new ExecutorConfig(workers, idle, cpus.clone(), spinBeforeParkMicros, scheduling);
    }

    /**
     * The same executor whose {@link IdleKind#PARK} workers, out of work, first keep looking for
     * {@code micros} microseconds ({@code Thread.onSpinWait()} between looks) before they park. A
     * packet that comes within that time is taken without the producer's unpark (a system call)
     * and the worker's wake-up: on a steady stream that is most packets (docs/BENCHMARKS.md: B1's
     * parked hop). Measured in time, not in duty cycles, so that it means the same on a fast and
     * a slow machine. 0 parks at once, for executors of many mostly idle workers on a machine
     * without a core to spare. Ignored by the other idle kinds.
     *
     * @param micros 0 or more; {@link #DEFAULT_SPIN_BEFORE_PARK_MICROS} unless set.
     * @return a new config.
     */
    public ExecutorConfig spinBeforeParkMicros(final int micros)
    {
        return new ExecutorConfig(workers, idle, cpus, micros, scheduling);
    }

    /**
     * The same executor with workers that share its nodes as {@code scheduling} says: pinned each to
     * one worker ({@link Scheduling#PINNED}, the default), or taken by an idle worker from a busy
     * one ({@link Scheduling#STEALING}).
     *
     * @param scheduling how the workers share the nodes.
     * @return a new config.
     */
    public ExecutorConfig scheduling(final Scheduling scheduling)
    {
        return new ExecutorConfig(workers, idle, cpus, spinBeforeParkMicros, Objects.requireNonNull(scheduling,
            "scheduling"));
    }

    /**
     * How the workers share the executor's nodes.
     *
     * @return {@link Scheduling#PINNED} unless set.
     */
    public Scheduling scheduling()
    {
        return scheduling;
    }

    /**
     * How long a parking worker keeps looking for work before it parks.
     *
     * @return microseconds.
     */
    public int spinBeforeParkMicros()
    {
        return spinBeforeParkMicros;
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
            ((ExecutorConfig)o).spinBeforeParkMicros == spinBeforeParkMicros && ((ExecutorConfig)o).scheduling == scheduling;
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * (31 * (31 * workers + idle.hashCode()) + Arrays.hashCode(cpus)) + spinBeforeParkMicros) +
            scheduling.hashCode();
    }

    @Override
    public String toString()
    {
        return "executor{workers=" + workers + ", idle=" + idle + (cpus.length > 0 ? ", cpus=" +
            Arrays.toString(cpus) : "") + (idle == IdleKind.PARK && spinBeforeParkMicros != DEFAULT_SPIN_BEFORE_PARK_MICROS ?
            ", spinBeforeParkMicros=" + spinBeforeParkMicros : "") + (scheduling != Scheduling.PINNED ? ", scheduling=" +
            scheduling : "") + '}';
    }
}
