package dev.framewire.core.internal.sched;

import dev.framewire.core.SimulationClock;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * A run on a {@link SimulationClock} (MediaPipe's {@code SimulationClockExecutor}): what the clock
 * asks before it lets time move, whether the graph has nothing left to run but calls that sleep on
 * the clock. Attached to the clock as the workers start and detached as they stop; a worker that
 * goes idle asks the clock to look again ({@link #recheck()}).
 *
 * <p>Threading: {@link #getAsBoolean()} under the clock's lock, from whichever thread made the
 * clock look (a sleeper, a worker going idle, the test's thread); it reads only volatile state
 * (the workers' calls and commands, the nodes' states, the graph inputs' adds) and allocates one
 * small array per look, off the per-packet path: the clock is for tests.
 */
final class SimulatedTime implements BooleanSupplier
{
    private final Scheduler scheduler;
    private final SimulationClock clock;

    SimulatedTime(final Scheduler scheduler, final SimulationClock clock)
    {
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public boolean getAsBoolean()
    {
        final List<Worker> workers = scheduler.workers;
        final Worker[] sleeping = new Worker[workers.size()];
        for (int i = 0; i < sleeping.length; i++)
        {
            final Worker worker = workers.get(i);
            final Thread thread = worker.thread;
            if (thread != null && clock.isSleeping(thread))
            {
                sleeping[i] = worker;
            }
        }
        return scheduler.idleCheck.idleButSleepers(sleeping);
    }

    void attach()
    {
        clock.attach(this);
    }

    void detach()
    {
        clock.detach(this);
    }

    /** A worker that went idle: time may move now. */
    void recheck()
    {
        clock.recheck();
    }
}
