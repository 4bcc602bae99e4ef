package dev.framewire.offheap;

/**
 * Thrown when a payload is used in a state that would corrupt memory: read, written or retained
 * after its last release, released more often than retained, or used with a stale generation.
 * The message names the payload (size class, slot, generation, frame shape, last owner).
 */
public final class PayloadStateException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    PayloadStateException(final String message)
    {
        super(message);
    }
}
