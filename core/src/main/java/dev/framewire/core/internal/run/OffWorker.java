package dev.framewire.core.internal.run;

import dev.framewire.core.SubgraphRemoval;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the engine's own work that must not run on a worker runs: a subgraph leaving, the futures of
 * additions and removals completed, throttles lifted, a removal's deadlines. Never the JDK's common
 * pool: an application whose tasks fill that pool (a single thread on a two-core machine, which JDK
 * 25's {@code CompletableFuture} uses even then, where JDK 17 made a thread per task) would hold that
 * work up, and every future waiting on it. Cached daemon threads, gone after a minute idle.
 *
 * <p>Threading: any thread; nothing here is on the per-packet path.
 */
final class OffWorker
{
    private static final AtomicInteger THREADS = new AtomicInteger();
    /** The threads: cached, daemon, named {@code framewire-off-worker-N}. */
    static final ExecutorService EXECUTOR = Executors.newCachedThreadPool(
        task ->
        {
            final Thread thread = new Thread(task, "framewire-off-worker-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });

    private OffWorker()
    {
    }

    /** Runs {@code task} on a thread of {@link #EXECUTOR}. */
    static CompletableFuture<Void> run(final Runnable task)
    {
        return CompletableFuture.runAsync(task, EXECUTOR);
    }

    /**
     * Completes a future on a thread of {@link #EXECUTOR}, never the calling worker: the stages a
     * caller attached run there, and none can hold up the run.
     */
    static <T> void complete(final CompletableFuture<T> future, final T value, final Throwable failure)
    {
        run(() ->
        {
            if (failure != null)
            {
                future.completeExceptionally(failure);
            }
            else
            {
                future.complete(value);
            }
        });
    }

    /**
     * Runs {@code action} on a thread of {@link #EXECUTOR} once {@code deadline} has passed, unless
     * {@code removal} completes first: then the timer is cancelled and taken off the JDK's delay
     * queue, so a subgraph that has left is not kept reachable (its rings, nodes and names) by a
     * deadline that no longer matters.
     */
    static void unlessDoneWithin(
        final CompletableFuture<SubgraphRemoval> removal, final Duration deadline, final Runnable action)
    {
        final CompletableFuture<Void> timer = new CompletableFuture<Void>()
            .completeOnTimeout(null, deadline.toNanos(), TimeUnit.NANOSECONDS);
        timer.thenRunAsync(() ->
        {
            if (!removal.isDone())
            {
                action.run();
            }
        }, EXECUTOR);
        removal.whenComplete((done, failure) -> timer.cancel(false));
    }
}
