package dev.framewire.offheap;

/**
 * Thrown when an acquire would pass the hard limit of the {@link MemoryBudget}, or when no
 * slab can be reserved within its maximum. The message says how many bytes are held, in which
 * size classes, and (when leak tracking is on) by whom.
 */
public final class MemoryBudgetExceededException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** Slot bytes the failed acquire asked for. */
    private final long requestedBytes;
    /** Bytes in use when the acquire failed. */
    private final long bytesInUse;

    MemoryBudgetExceededException(final String message, final long requestedBytes, final long bytesInUse)
    {
        super(message);
        this.requestedBytes = requestedBytes;
        this.bytesInUse = bytesInUse;
    }

    /**
     * Slot bytes the failed acquire asked for.
     *
     * @return bytes.
     */
    public long requestedBytes()
    {
        return requestedBytes;
    }

    /**
     * Bytes in use when the acquire failed.
     *
     * @return bytes.
     */
    public long bytesInUse()
    {
        return bytesInUse;
    }
}
