package dev.framewire.core.internal.run;

import dev.framewire.core.GraphException;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A run's completion future and error callback: the completer thread ({@code framewire-completion})
 * that waits for the run to end and its workers to stop, calls the error callback, then completes
 * the future.
 *
 * <p>Threading: any thread. This object's monitor guards whether a completion is wanted, the start
 * of the completer thread, and the run's {@link RunState#started} flag as {@link #onStart()} sets it,
 * so a completion asked for at the start is completed once.
 */
final class RunCompletion
{
    private final Run run;
    /** Completed by the completer thread once the run has ended and its workers stopped. */
    private final CompletableFuture<Void> future = new CompletableFuture<>();
    private boolean wanted;
    /** The graph's error callback, or null; set before the start under this object's monitor. */
    private volatile Consumer<GraphException> errorCallback;

    RunCompletion(final Run run)
    {
        this.run = run;
    }

    /** The start: marks the run started and, if a completion is wanted, starts the completer. */
    synchronized void onStart()
    {
        run.runState.started = true;
        if (wanted)
        {
            startCompleter();
        }
    }

    /** The API graph's {@code completion}: a copy of the future, the completer started once. */
    synchronized CompletableFuture<Void> future()
    {
        if (!wanted)
        {
            wanted = true;
            if (run.runState.started)
            {
                startCompleter();
            }
            else if (run.isClosed())
            {
                future.completeExceptionally(new GraphException(List.of(), true));
            }
        }
        return future.copy();
    }

    /** The API graph's {@code setErrorCallback}: before the start only. */
    synchronized void setErrorCallback(final Consumer<GraphException> callback)
    {
        Objects.requireNonNull(callback, "callback");
        final boolean closed = run.isClosed();
        if (run.runState.started || closed)
        {
            throw new IllegalStateException("setErrorCallback() must be called before start(); the graph was " +
                (closed ? "closed" : "started"));
        }
        errorCallback = callback;
        wanted = true; // the completer thread calls it
    }

    /** The graph closes: a completion wanted of a run that never started fails. */
    synchronized void onClose()
    {
        if (!run.runState.started && wanted)
        {
            future.completeExceptionally(new GraphException(List.of(), true)); // never started
        }
    }

    /** Holding this monitor, once: the thread that completes the future when the run has ended. */
    private void startCompleter()
    {
        final Thread completer = new Thread(() ->
        {
            try
            {
                run.awaitStopped();
            }
            catch (final InterruptedException ex)
            {
                future.completeExceptionally(ex);
                return;
            }
            catch (final RuntimeException | Error ex)
            {
                future.completeExceptionally(ex);
                throw ex;
            }
            final GraphException failure = run.outcome();
            ErrorCallback.onRunEnd(errorCallback, failure);
            if (failure == null)
            {
                future.complete(null);
            }
            else
            {
                future.completeExceptionally(failure);
            }
        }, "framewire-completion");
        completer.setDaemon(true);
        completer.start();
    }
}
