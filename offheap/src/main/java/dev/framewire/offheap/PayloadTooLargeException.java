package dev.framewire.offheap;

/**
 * Thrown when a payload is asked for that is larger than the pool's largest slot: no amount of
 * waiting or freeing makes it fit, only a pool with larger slots
 * ({@link PoolContext#maxSlotBytes(int)}). An {@link IllegalArgumentException}, as every size out
 * of range is; this one says by how much, so that an engine can tell it from a refusal that a
 * later try may pass ({@link MemoryBudgetExceededException}).
 */
public final class PayloadTooLargeException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final long requestedBytes;
    private final int maxSlotBytes;

    PayloadTooLargeException(final String message, final long requestedBytes, final int maxSlotBytes)
    {
        super(message);
        this.requestedBytes = requestedBytes;
        this.maxSlotBytes = maxSlotBytes;
    }

    /**
     * Bytes the refused payload needed.
     *
     * @return bytes.
     */
    public long requestedBytes()
    {
        return requestedBytes;
    }

    /**
     * The pool's largest slot.
     *
     * @return bytes.
     */
    public int maxSlotBytes()
    {
        return maxSlotBytes;
    }
}
