package dev.framewire.core;

/**
 * The run hit the payload pool's hard limit: the message has the pool's own account (bytes held by
 * size class and, with leak tracking, by whom) and the graph's (bytes queued per stream and node).
 */
public final class MemoryLimitException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    MemoryLimitException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
