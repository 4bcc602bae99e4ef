package dev.framewire.core.internal.sched;

import dev.framewire.core.IdleKind;
import dev.framewire.core.internal.queue.ParkHandshake;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * A {@code PARK} worker's idle strategy. Out of work, it keeps looking for
 * {@code spinBeforeParkMicros} microseconds ({@code Thread.onSpinWait()} between looks), then parks
 * until a producer unparks the worker ({@link ParkHandshake}: the producer does so only when the
 * worker's {@code parked} flag is set, and the worker re-checks its inbox after setting it, so no
 * wake-up is lost). A timed park bounds the wait in case a pause or stop flag changes without a
 * node arriving. The spin takes a packet that comes within a few microseconds without the
 * producer's unpark and the worker's wake-up (B1's parked hop: p99 from about 15 µs to 1.5). It is
 * measured with the clock, read once per idle duty cycle (never while there is work), so that it
 * lasts as long on a fast machine as on a slow one. Its turns yield the core when the graph has
 * none to spare, and stop for a second when other processes are seen holding the cores
 * ({@link #yieldOnce}).
 *
 * <p>Threading: the worker's own thread only.
 */
public final class ParkingIdleStrategy implements IdleStrategy
{
    private static final long MAX_PARK_NANOS = 10_000_000L;
    /** A yield this long may mean other processes hold the cores ({@link #yieldOnce}). */
    private static final long CONTENDED_YIELD_NANOS = 200_000L;
    /** How long idle periods park at once once other processes were seen holding the cores. */
    private static final long CONTENDED_FOR_NANOS = 1_000_000_000L;
    /** The shortest time over which the process's CPU share is judged (its clock ticks are 10 ms). */
    private static final long CPU_WINDOW_NANOS = 100_000_000L;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private final Worker worker;
    private final long spinNanos;
    /** When this idle period began, or 0 while working. */
    private long idleSinceNanos;
    /** Until when idle periods park without spinning ({@link System#nanoTime()}). */
    private long contendedUntilNanos = System.nanoTime();
    /** When the process's CPU time was last read after a long yield ({@link System#nanoTime()}). */
    private long cpuWindowStartNanos = System.nanoTime() - CPU_WINDOW_NANOS;
    /** The process's CPU time then, -1 before the first read. */
    private long cpuWindowCpuNanos = -1;

    ParkingIdleStrategy(final Worker worker, final int spinBeforeParkMicros)
    {
        this.worker = worker;
        this.spinNanos = spinBeforeParkMicros * 1_000L;
    }

    /** The idle strategy of an executor's {@code idle_strategy}, for {@code worker}. */
    static IdleStrategy of(final Worker worker, final IdleKind idle, final int spinBeforeParkMicros)
    {
        switch (idle)
        {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELD:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy();
            default:
                return new ParkingIdleStrategy(worker, spinBeforeParkMicros);
        }
    }

    @Override
    public void idle(final int workCount)
    {
        if (workCount > 0)
        {
            idleSinceNanos = 0;
            return;
        }
        if (spinNanos > 0)
        {
            final long now = System.nanoTime();
            if (idleSinceNanos == 0)
            {
                if (now - contendedUntilNanos < 0)
                {
                    idle(); // other processes want the cores: park at once, an unpark wakes it soon
                    return;
                }
                idleSinceNanos = now;
                Thread.onSpinWait();
                return;
            }
            if (now - idleSinceNanos < spinNanos)
            {
                if (worker.spinsYield())
                {
                    yieldOnce(now);
                }
                else
                {
                    Thread.onSpinWait();
                }
                return;
            }
        }
        idleSinceNanos = 0;
        idle();
    }

    /**
     * Gives the core away for one turn of the spin: the graph has no core to spare, and a sibling
     * or the thread feeding the graph may be waiting for this one. A yield is a bet that whoever
     * takes the core is one of ours and brief. Other processes make it lose: a yielded thread
     * waits behind them for whole time slices and no unpark can hurry it, while a parked one that
     * is unparked runs soon. So when a yield takes longer than {@link #CONTENDED_YIELD_NANOS} and
     * this process has used less than all the cores but half of one since it last looked (at
     * least {@link #CPU_WINDOW_NANOS} ago: {@link ProcessCpu}), the cores went to others, and for
     * {@link #CONTENDED_FOR_NANOS} this worker's idle periods park at once. Long yields to the
     * graph's own busy threads leave the process at all its cores, and the spin as it was
     * (docs/results/executors.md, "A contended machine").
     */
    private void yieldOnce(final long now)
    {
        Thread.yield();
        final long after = System.nanoTime();
        if (after - now > CONTENDED_YIELD_NANOS && after - cpuWindowStartNanos >= CPU_WINDOW_NANOS)
        {
            final long cpu = ProcessCpu.nanos();
            final long wall = after - cpuWindowStartNanos;
            if (cpuWindowCpuNanos >= 0 && cpu >= 0 && (cpu - cpuWindowCpuNanos) * 2 < wall * (2L * CORES - 1))
            {
                contendedUntilNanos = after + CONTENDED_FOR_NANOS;
            }
            cpuWindowStartNanos = after;
            cpuWindowCpuNanos = cpu;
        }
    }

    @Override
    public void idle()
    {
        worker.parkUnlessWork(MAX_PARK_NANOS);
    }

    @Override
    public void reset()
    {
        idleSinceNanos = 0;
    }

    @Override
    public String alias()
    {
        return "park";
    }
}
