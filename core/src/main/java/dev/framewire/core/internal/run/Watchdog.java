package dev.framewire.core.internal.run;

import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Worker;

import dev.framewire.core.Timestamp;

import dev.framewire.core.jfr.ReportEvent;

import java.util.concurrent.TimeUnit;

/**
 * BMF's timeout guard, a watchdog: a thread that looks, every quarter of
 * the timeout (at most every 100 ms), whether any worker has run a node since its last look while
 * work is pending (a node queued or running, an adder waiting for room, sources held back by
 * memory); when none has for the whole timeout, it fails the run with the report of what waits on
 * what. It also notes when each worker's current call was first seen, which the report turns into
 * "in a call for N ms" without any clock read on the workers.
 *
 * <p>Threading: its own thread, started with the run; it ends when the run finishes.
 */
public final class Watchdog implements Runnable
{
    private final Run graph;

    public Watchdog(final Run graph)
    {
        this.graph = graph;
    }

    /** The run's start: a watchdog on {@code run}, on a daemon thread of its own, started. */
    static Thread start(final Run run)
    {
        final Thread guard = new Thread(new Watchdog(run), "framewire-timeout-guard");
        guard.setDaemon(true);
        guard.start();
        return guard;
    }

    @Override
    public void run()
    {
        final long timeout = graph.config().timeoutGuardNanos();
        final long period = Math.max(1_000_000L, Math.min(timeout / 4, 100_000_000L));
        long lastRuns = -1;
        long lastProgress = graph.config().clock().nanoTime();
        // an array, not the list: a tick every 100 ms for months allocates nothing (an iterator per loop did)
        final Worker[] workers = graph.workers().toArray(new Worker[0]);
        try
        {
            while (!graph.isFinished())
            {
                TimeUnit.NANOSECONDS.sleep(period);
                long runs = 0;
                for (final Worker worker : workers)
                {
                    runs += worker.runs;
                }
                final long now = graph.config().clock().nanoTime();
                for (final Worker worker : workers)
                {
                    worker.observedCallNanos(now); // notes when each call was first seen, for the report
                }
                final Scheduler scheduler = graph.scheduler;
                if (runs != lastRuns || !scheduler.hasPendingWork() || scheduler.isPaused())
                {
                    lastRuns = runs;
                    lastProgress = now;
                }
                else if (now - lastProgress >= timeout)
                {
                    final String report = "no node has run for " + TimeUnit.NANOSECONDS.toMillis(now - lastProgress) +
                        " ms while work is pending:\n" + graph.report();
                    ReportEvent.emit("watchdog", report);
                    graph.failureHandling.fail("watchdog", Timestamp.UNSET, new IllegalStateException(report));
                    return;
                }
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
