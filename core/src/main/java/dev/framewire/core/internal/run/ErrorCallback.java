package dev.framewire.core.internal.run;

import dev.framewire.core.GraphException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * A graph's error callback ({@code Graph.setErrorCallback}, MediaPipe's {@code SetErrorCallback}):
 * called once, with what {@code waitUntilDone()} throws, when a run ends as failed; not for a run that
 * is done or only cancelled. An exception from the callback is logged, naming the callback, and does
 * not stop the run's completion.
 *
 * <p>Threading: set by the graph's owner before the start; called on the run's completer thread
 * ({@code framewire-completion}) after the workers have stopped, before {@code completion()}'s
 * futures complete.
 */
final class ErrorCallback
{
    private static final Logger LOG = LoggerFactory.getLogger("dev.framewire.core.Graph"); // the name users know

    private ErrorCallback()
    {
    }

    /** On the completer thread, once the run has ended: calls the callback if the run failed. */
    static void onRunEnd(final Consumer<GraphException> callback, final GraphException outcome)
    {
        if (callback == null || outcome == null || outcome.isCancelled())
        {
            return;
        }
        try
        {
            callback.accept(outcome);
        }
        catch (final RuntimeException | Error ex)
        {
            LOG.error("the graph's error callback {} threw while told of the run's failure ({}); the run's " +
                "outcome is unchanged", callback, outcome.getMessage(), ex);
        }
    }
}
