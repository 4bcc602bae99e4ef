package dev.framewire.offheap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One byte budget across every size class of a {@link PayloadPool} (docs/DESIGN-NOTES.md,
 * "Memory budget").
 *
 * <p>Two quantities are tracked: bytes <em>in use</em> (slots currently acquired, counted at
 * their slot size) and bytes <em>reserved</em> (slabs allocated, which never shrink while the
 * pool lives). Reserved bytes never pass {@link #maxBytes()}. In-use bytes are checked
 * against two limits:
 * <ul>
 *   <li>the <b>soft limit</b> is a query: {@link #isOverSoftLimit()} tells a scheduler to hold
 *       sources back and drain the fullest warehouses first;</li>
 *   <li>the <b>hard limit</b> is enforced: an acquire that would pass it fails with
 *       {@link MemoryBudgetExceededException}.</li>
 * </ul>
 *
 * <p>Threading: every method is safe from any thread; reads are volatile, updates are CAS.
 */
public final class MemoryBudget
{
    private final long maxBytes;
    private final long softLimitBytes;
    private final long hardLimitBytes;
    private final AtomicLong bytesInUse = new AtomicLong();
    private final AtomicLong peakBytesInUse = new AtomicLong();
    private final AtomicLong bytesReserved = new AtomicLong();

    MemoryBudget(final long maxBytes, final long softLimitBytes, final long hardLimitBytes)
    {
        this.maxBytes = maxBytes;
        this.softLimitBytes = softLimitBytes;
        this.hardLimitBytes = hardLimitBytes;
    }

    /**
     * The configured maximum: reserved slab bytes never pass it.
     *
     * @return bytes.
     */
    public long maxBytes()
    {
        return maxBytes;
    }

    /**
     * Bytes in use above which {@link #isOverSoftLimit()} is true.
     *
     * @return bytes.
     */
    public long softLimitBytes()
    {
        return softLimitBytes;
    }

    /**
     * Bytes in use that an acquire may never pass.
     *
     * @return bytes.
     */
    public long hardLimitBytes()
    {
        return hardLimitBytes;
    }

    /**
     * Bytes held by acquired slots right now.
     *
     * @return bytes, counted at slot size.
     */
    public long bytesInUse()
    {
        return bytesInUse.get();
    }

    /**
     * The highest {@link #bytesInUse()} seen since the pool was made or {@link #resetPeak()}.
     *
     * @return bytes.
     */
    public long peakBytesInUse()
    {
        return peakBytesInUse.get();
    }

    /**
     * Bytes of slabs allocated so far.
     *
     * @return bytes.
     */
    public long bytesReserved()
    {
        return bytesReserved.get();
    }

    /**
     * Whether bytes in use are above the soft limit: the signal to hold sources back.
     *
     * @return true when over the soft limit.
     */
    public boolean isOverSoftLimit()
    {
        return bytesInUse.get() > softLimitBytes;
    }

    /**
     * Starts a new peak measurement from the current bytes in use.
     */
    public void resetPeak()
    {
        peakBytesInUse.set(bytesInUse.get());
    }

    boolean tryUse(final long bytes)
    {
        final AtomicLong inUse = this.bytesInUse;
        long current;
        long next;
        do
        {
            current = inUse.get();
            next = current + bytes;
            if (next > hardLimitBytes)
            {
                return false;
            }
        }
        while (!inUse.compareAndSet(current, next));

        final AtomicLong peak = this.peakBytesInUse;
        long seen;
        while (next > (seen = peak.get()))
        {
            if (peak.compareAndSet(seen, next))
            {
                break;
            }
        }
        return true;
    }

    void unuse(final long bytes)
    {
        bytesInUse.addAndGet(-bytes);
    }

    boolean tryReserve(final long bytes)
    {
        final AtomicLong reserved = this.bytesReserved;
        long current;
        do
        {
            current = reserved.get();
            if (current + bytes > maxBytes)
            {
                return false;
            }
        }
        while (!reserved.compareAndSet(current, current + bytes));
        return true;
    }

    void unreserve(final long bytes)
    {
        bytesReserved.addAndGet(-bytes);
    }
}
