package dev.framewire.core;

/**
 * An input queue reached its hard cap: the run fails rather than let a queue grow without bound.
 * The message names the stream, its consumer and producer, and what to change.
 */
public final class QueueOverflowException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /**
     * A queue past its hard cap.
     *
     * @param message which queue, its size and cap, and what to change.
     */
    public QueueOverflowException(final String message)
    {
        super(message);
    }
}
