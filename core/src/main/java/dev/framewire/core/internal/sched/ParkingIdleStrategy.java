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
 * lasts as long on a fast machine as on a slow one.
 *
 * <p>Threading: the worker's own thread only.
 */
public final class ParkingIdleStrategy implements IdleStrategy
{
    private static final long MAX_PARK_NANOS = 10_000_000L;
    private final Worker worker;
    private final long spinNanos;
    /** When this idle period began, or 0 while working. */
    private long idleSinceNanos;

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
                idleSinceNanos = now;
                Thread.onSpinWait();
                return;
            }
            if (now - idleSinceNanos < spinNanos)
            {
                if (worker.spinsYield())
                {
                    Thread.yield(); // no core to spare: a sibling may be waiting for this one
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
