package dev.framewire.core;

/**
 * A packet's timestamp broke a stream's rules: not increasing, below the bound, or not a valid
 * packet timestamp. The message names the node (or graph input), the stream and both timestamps.
 */
public final class TimestampException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * A timestamp out of order.
     *
     * @param message the stream and both timestamps.
     */
    public TimestampException(final String message)
    {
        super(message);
    }
}
