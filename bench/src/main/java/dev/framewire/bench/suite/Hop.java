package dev.framewire.bench.suite;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;

/**
 * One hop under test for B0 and B1: the benchmark thread offers a long, a node on another thread
 * takes it and hands it to {@link Arrivals#acceptSentAt(long)} on that same thread (source, node,
 * sink: one thread boundary). The value is the {@code System.nanoTime()} it was sent at, or, in
 * the open loop, was meant to be sent at.
 *
 * <p>Threading: {@link #offer} from the one benchmark thread.
 */
interface Hop extends AutoCloseable
{
    /**
     * Offers a value.
     *
     * @return false when refused because the hop is full; the caller retries.
     */
    boolean offer(long value, long timestamp);

    @Override
    void close() throws Exception;

    /**
     * Builds a contender.
     *
     * @param contender {@code NAME/IDLE}: FRAMEWIRE, DISRUPTOR, LOCKED, TPE or SPSC, and BUSY_SPIN or PARK;
     *                  also FRAMEWIRE_SPIN0 (not in the suite's list, for {@code -p}): PARK workers that
     *                  park at once ({@code spin_before_park_us} 0); FRAMEWIRE_STEALING: the executor's
     *                  scheduling {@code STEALING} (one worker, which runs as {@code PINNED}).
     * @param arrivals  where values end.
     * @return the hop, started.
     */
    static Hop create(final String contender, final Arrivals arrivals)
    {
        final String name = contender.substring(0, contender.indexOf('/'));
        final IdleKind idle = IdleKind.valueOf(contender.substring(contender.indexOf('/') + 1));
        switch (name)
        {
            case "FRAMEWIRE":
                return new FramewireHop(idle, ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS, arrivals);
            case "FRAMEWIRE_SPIN0":
                return new FramewireHop(idle, 0, arrivals);
            case "FRAMEWIRE_STEALING":
                return new FramewireHop(idle, ExecutorConfig.DEFAULT_SPIN_BEFORE_PARK_MICROS, Scheduling.STEALING, arrivals);
            case "DISRUPTOR":
                return new DisruptorHop(idle, arrivals);
            case "LOCKED":
                return new LockedHop(idle, arrivals);
            case "TPE":
                if (idle != IdleKind.PARK)
                {
                    throw new IllegalArgumentException("a ThreadPoolExecutor's worker only parks (LinkedBlockingQueue.take)");
                }
                return new ExecutorHop(arrivals);
            case "SPSC":
                if (idle != IdleKind.BUSY_SPIN)
                {
                    throw new IllegalArgumentException("the SPSC floor only busy-spins");
                }
                return new SpscHop(arrivals);
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
    }
}
