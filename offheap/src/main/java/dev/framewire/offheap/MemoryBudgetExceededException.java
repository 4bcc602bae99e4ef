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
    private final long limitBytes;
    private final boolean hardLimit;

    MemoryBudgetExceededException(
        final String message,
        final long requestedBytes,
        final long bytesInUse,
        final long limitBytes,
        final boolean hardLimit)
    {
        super(message);
        this.requestedBytes = requestedBytes;
        this.bytesInUse = bytesInUse;
        this.limitBytes = limitBytes;
        this.hardLimit = hardLimit;
    }

    /**
     * The limit the acquire would have passed: the budget's hard limit on bytes in use, or its
     * maximum of slab bytes ({@link #isHardLimit()} tells which).
     *
     * @return bytes.
     */
    public long limitBytes()
    {
        return limitBytes;
    }

    /**
     * Whether the refusal was the hard limit on bytes in use (true) or the maximum of slab bytes
     * the pool may reserve (false: free slots of other size classes are not cut up for this one).
     *
     * @return true for the hard limit.
     */
    public boolean isHardLimit()
    {
        return hardLimit;
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
