package dev.framewire.offheap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Where off-heap payloads come from: one pool per engine, with a size class per power of two,
 * each growing by whole 64-byte aligned slabs up to the {@link MemoryBudget}.
 *
 * <p>{@link #acquire(int)} and {@link Payload#release()} are lock-free and allocate nothing
 * once a size class has its slabs (a slab is added under a lock when a class runs dry, within
 * the budget's maximum). Stats are read without allocating.
 *
 * <p>Threading: every method is safe from any thread. {@link #close()} must come after every
 * other thread has stopped using the pool.
 */
public final class PayloadPool implements AutoCloseable
{
    /** Byte alignment of every slab, and so of every slot: a cache line. */
    public static final int ALIGNMENT = 64;
    /** The fix for a payload over the largest slot, in its message. */
    private static final String LARGER_SLOTS = "give the graph a pool with larger slots " +
        "(new PayloadPool(new PoolContext().maxSlotBytes(...)), a power of two)";

    private final MemoryBudget budget;
    private final SizeClass[] sizeClasses;
    private final int minSlotShift;
    private final int maxSlotBytes;
    private final boolean leakTracking;
    private final boolean useAfterReleaseCheck;
    private final AtomicLong copies = new AtomicLong();
    private final AtomicLong failedAcquires = new AtomicLong();
    private volatile boolean closed;
    private boolean slabsFreed;

    /**
     * Makes a pool with default settings (see {@link PoolContext}).
     */
    public PayloadPool()
    {
        this(new PoolContext());
    }

    /**
     * Makes a pool. No memory is reserved until the first acquire of each size class.
     *
     * @param ctx the settings, validated here.
     * @throws IllegalArgumentException naming the setting that is out of range.
     */
    public PayloadPool(final PoolContext ctx)
    {
        ctx.validate();
        final long max = ctx.maxBytes();
        this.budget = new MemoryBudget(max, (long)(max * ctx.softLimitRatio()), (long)(max * ctx.hardLimitRatio()));
        this.leakTracking = ctx.leakTracking();
        this.useAfterReleaseCheck = ctx.useAfterReleaseCheck();
        this.minSlotShift = Integer.numberOfTrailingZeros(ctx.minSlotBytes());
        this.maxSlotBytes = ctx.maxSlotBytes();
        final int classes = Integer.numberOfTrailingZeros(ctx.maxSlotBytes()) - minSlotShift + 1;
        this.sizeClasses = new SizeClass[classes];
        for (int i = 0; i < classes; i++)
        {
            sizeClasses[i] = new SizeClass(this, i, ctx.minSlotBytes() << i, ctx.slabBytes());
        }
    }

    /**
     * Takes a slot big enough for {@code length} bytes, with one reference, the caller's.
     * Its contents are whatever the slot held last.
     *
     * @param length bytes, 1 up to the largest slot size.
     * @return a payload with a reference count of 1.
     * @throws IllegalArgumentException if {@code length} is not positive.
     * @throws PayloadTooLargeException if {@code length} is more than the largest slot.
     * @throws MemoryBudgetExceededException if the hard limit or the maximum would be passed.
     * @throws IllegalStateException if the pool is closed.
     */
    public Payload acquire(final int length)
    {
        checkLength(length);
        if (closed)
        {
            throw new IllegalStateException("payload pool is closed");
        }
        final SizeClass sizeClass = sizeClasses[classIndex(length)];
        if (!budget.tryUse(sizeClass.slotBytes))
        {
            failedAcquires.incrementAndGet();
            throw exceeded("hard limit " + budget.hardLimitBytes() + " B", sizeClass.slotBytes, budget.hardLimitBytes(), true);
        }
        Payload payload = sizeClass.poll();
        if (payload == null)
        {
            try
            {
                payload = sizeClass.grow();
            }
            catch (final RuntimeException | Error ex)
            {
                // e.g. OutOfMemoryError from a direct allocation past -XX:MaxDirectMemorySize:
                // give the bytes back, or the budget would count them as in use forever
                budget.unuse(sizeClass.slotBytes);
                failedAcquires.incrementAndGet();
                throw ex;
            }
            if (payload == null)
            {
                budget.unuse(sizeClass.slotBytes);
                failedAcquires.incrementAndGet();
                throw exceeded("maximum " + budget.maxBytes() + " B of slabs", sizeClass.slotBytes, budget.maxBytes(),
                    false);
            }
        }
        payload.onAcquire(length, leakTracking ? new Throwable("acquired here") : null);
        return payload;
    }

    /**
     * Makes room for {@code count} more payloads of {@code length} bytes before they are needed:
     * grows their size class by at least {@code count} slots, so that the acquires that follow
     * find free slots instead of allocating a slab (a direct allocation, zeroed by the JVM, under
     * the class's lock: tens of milliseconds for frame-sized slabs). A service calls it at start,
     * or a calculator in {@code open} for the frames it expects to have in flight; calls add up.
     * Reserved slabs count against the budget's maximum, as any slab does; they are not in use,
     * so the soft and hard limits do not see them. Slabs are whole, so the class may grow by more
     * slots than asked for.
     *
     * <p>Threading: any thread; acquires and releases in the class go on meanwhile.
     *
     * @param length bytes of each payload, 1 up to the largest slot size; for frames
     *               {@code format.frameBytes(height, format.minStride(width))}.
     * @param count  how many more slots the class should have; 0 does nothing.
     * @return the slots the size class has now.
     * @throws IllegalArgumentException if {@code length} or {@code count} is out of range
     *         ({@link PayloadTooLargeException} for a length over the largest slot).
     * @throws MemoryBudgetExceededException if the budget's maximum leaves no room for them; the
     *         slabs added until then stay.
     * @throws IllegalStateException if the pool is closed.
     */
    public int reserve(final int length, final int count)
    {
        checkLength(length);
        if (count < 0)
        {
            throw new IllegalArgumentException("reserve count " + count + " is negative, valid is 0 or more");
        }
        if (closed)
        {
            throw new IllegalStateException("payload pool is closed");
        }
        final SizeClass sizeClass = sizeClasses[classIndex(length)];
        final int slots = sizeClass.reserve(count);
        if (slots < 0)
        {
            final int added = -1 - slots;
            throw new MemoryBudgetExceededException("cannot reserve " + count + " more slots of " +
                sizeClass.slotBytes + " B for " + length + " B payloads: the maximum of " + budget.maxBytes() +
                " B of slabs left room for " + added, (long)(count - added) * sizeClass.slotBytes,
                budget.bytesInUse(), budget.maxBytes(), false);
        }
        return slots;
    }

    /**
     * Takes a slot for a frame with the tightest stride for its width.
     *
     * @param width  pixels, positive.
     * @param height pixels, positive.
     * @param format pixel format.
     * @return a frame payload with a reference count of 1.
     */
    public Payload acquireFrame(final int width, final int height, final PixelFormat format)
    {
        final long stride = format.minStrideBytes(Math.max(width, 0));
        return acquireFrame(width, height, format, (int)Math.min(stride, Integer.MAX_VALUE));
    }

    /**
     * Takes a slot for a frame with a given stride.
     *
     * @param width  pixels, positive.
     * @param height pixels, positive.
     * @param format pixel format.
     * @param stride bytes per row of plane 0, at least {@code format.minStride(width)}; even for
     *               {@link PixelFormat#I420}.
     * @return a frame payload with a reference count of 1.
     * @throws IllegalArgumentException naming the size, stride or format that does not fit
     *         ({@link PayloadTooLargeException} for a frame over the largest slot).
     */
    public Payload acquireFrame(final int width, final int height, final PixelFormat format, final int stride)
    {
        if (width <= 0 || height <= 0)
        {
            throw new IllegalArgumentException("frame size " + width + "x" + height + " invalid, both must be positive");
        }
        // long arithmetic: an int product of width, height and bytes per pixel can wrap to a
        // small positive number and pass every check with a frame far bigger than its slot
        final long minStride = format.minStrideBytes(width);
        if (stride < minStride)
        {
            throw new IllegalArgumentException("stride " + stride + " too small for a " + width + " pixel wide " +
                format + " frame, the minimum is " + minStride);
        }
        if (format == PixelFormat.I420 && (stride & 1) != 0)
        {
            throw new IllegalArgumentException("stride " + stride + " is odd; an I420 stride must be even so that " +
                "its U and V planes have whole rows of stride / 2 bytes");
        }
        final long bytes = format.frameBytesLong(height, stride);
        if (bytes > maxSlotBytes)
        {
            throw new PayloadTooLargeException("frame " + width + "x" + height + " " + format + " needs " + bytes +
                " bytes, more than the largest slot of " + maxSlotBytes + " bytes; " + LARGER_SLOTS, bytes, maxSlotBytes);
        }
        final Payload payload = acquire((int)bytes);
        payload.frame(width, height, stride, format);
        return payload;
    }

    /**
     * The slot a payload of {@code length} bytes takes: what it counts against the budget.
     *
     * @param length bytes, 1 up to the largest slot size.
     * @return the slot's bytes, the least power of two size class that holds {@code length}.
     * @throws IllegalArgumentException if {@code length} is out of range
     *         ({@link PayloadTooLargeException} when over the largest slot).
     */
    public int slotBytesFor(final int length)
    {
        checkLength(length);
        return sizeClasses[classIndex(length)].slotBytes;
    }

    /**
     * The byte budget shared by every size class.
     *
     * @return the budget.
     */
    public MemoryBudget budget()
    {
        return budget;
    }

    /**
     * Number of size classes.
     *
     * @return the count.
     */
    public int sizeClassCount()
    {
        return sizeClasses.length;
    }

    /**
     * Slot size of a size class.
     *
     * @param classIndex 0 for the smallest.
     * @return bytes.
     */
    public int slotBytes(final int classIndex)
    {
        return sizeClasses[classIndex].slotBytes;
    }

    /**
     * Slots a size class has cut from its slabs so far.
     *
     * @param classIndex 0 for the smallest.
     * @return the slot count.
     */
    public int slotsTotal(final int classIndex)
    {
        return sizeClasses[classIndex].slotCount();
    }

    /**
     * Slots of a size class acquired and not yet released.
     *
     * @param classIndex 0 for the smallest.
     * @return the count.
     */
    public long slotsInUse(final int classIndex)
    {
        final SizeClass sizeClass = sizeClasses[classIndex];
        final long releases = sizeClass.releases();
        return sizeClass.acquires() - releases;
    }

    /**
     * Acquires since the pool was made, across size classes.
     *
     * @return the count.
     */
    public long acquires()
    {
        long sum = 0;
        for (final SizeClass sizeClass : sizeClasses)
        {
            sum += sizeClass.acquires();
        }
        return sum;
    }

    /**
     * Last releases (slots returned) since the pool was made, across size classes.
     *
     * @return the count.
     */
    public long releases()
    {
        long sum = 0;
        for (final SizeClass sizeClass : sizeClasses)
        {
            sum += sizeClass.releases();
        }
        return sum;
    }

    /**
     * Copies made by {@link Payload#writable()} because the payload was shared.
     *
     * @return the count.
     */
    public long copies()
    {
        return copies.get();
    }

    /**
     * Acquires refused by the budget, or by a failed slab allocation.
     *
     * @return the count.
     */
    public long failedAcquires()
    {
        return failedAcquires.get();
    }

    /**
     * Payloads still held, one per line, with their last owner and, when leak tracking is on,
     * where they were acquired. Empty when nothing is held.
     *
     * @return the report.
     */
    public String leakReport()
    {
        final StringBuilder sb = new StringBuilder();
        for (final SizeClass sizeClass : sizeClasses)
        {
            final int slots = sizeClass.slotCount();
            for (int i = 0; i < slots; i++)
            {
                final Payload payload = sizeClass.slot(i);
                if (payload.refCount() > 0)
                {
                    sb.append(payload).append(" held by ").append(payload.refCount()).append(" reference(s)");
                    final Throwable site = payload.acquiredAt();
                    if (site != null)
                    {
                        final StackTraceElement[] frames = site.getStackTrace();
                        sb.append(", acquired at");
                        for (int f = 0; f < Math.min(frames.length, 6); f++)
                        {
                            sb.append("\n    ").append(frames[f]);
                        }
                    }
                    sb.append('\n');
                }
            }
        }
        return sb.toString();
    }

    /**
     * Closes the pool: no acquire succeeds after it. If nothing is held, the slabs are freed; if
     * something is, nothing is freed (a holder may still read it) and the leak report is thrown,
     * and a later {@code close()}, once the holders have released, frees the slabs. Closing a
     * pool whose slabs are freed does nothing.
     *
     * @throws IllegalStateException listing every payload still held.
     */
    @Override
    public void close()
    {
        closed = true;
        if (slabsFreed)
        {
            return;
        }
        final String leaks = leakReport();
        if (!leaks.isEmpty())
        {
            throw new IllegalStateException("payload pool closed with payloads still held:\n" + leaks);
        }
        slabsFreed = true;
        for (final SizeClass sizeClass : sizeClasses)
        {
            sizeClass.freeSlabs();
        }
    }

    SizeClass sizeClass(final int classIndex)
    {
        return sizeClasses[classIndex];
    }

    boolean useAfterReleaseCheck()
    {
        return useAfterReleaseCheck;
    }

    void countCopy()
    {
        copies.incrementAndGet();
    }

    void onFree(final Payload payload)
    {
        // Slot first, bytes second. acquire() counts the bytes in before it takes a slot, so
        // whoever the budget lets in finds a slot on the free list. The other order let an
        // acquire racing this release pass the budget, find the list empty and grow a slab
        // (or fail at the maximum) for a slot that was about to come back.
        final SizeClass sizeClass = payload.sizeClass;
        sizeClass.push(payload);
        budget.unuse(sizeClass.slotBytes);
    }

    private int classIndex(final int length)
    {
        final int shift = 32 - Integer.numberOfLeadingZeros(length - 1);
        return Math.max(0, shift - minSlotShift);
    }

    private void checkLength(final int length)
    {
        if (length <= 0)
        {
            throw new IllegalArgumentException(
                "payload length " + length + " out of range, valid is 1.." + maxSlotBytes + " bytes");
        }
        if (length > maxSlotBytes)
        {
            throw new PayloadTooLargeException("payload length " + length + " is more than the largest slot of " +
                maxSlotBytes + " bytes (valid is 1.." + maxSlotBytes + "); " + LARGER_SLOTS, length, maxSlotBytes);
        }
    }

    private MemoryBudgetExceededException exceeded(
        final String limit, final int slotBytes, final long limitBytes, final boolean hardLimit)
    {
        final StringBuilder sb = new StringBuilder(256);
        sb.append("cannot acquire a ").append(slotBytes).append(" B slot: ").append(budget.bytesInUse())
            .append(" B in use would pass the ").append(limit).append(". Held by size class:");
        for (int i = 0; i < sizeClasses.length; i++)
        {
            final long inUse = slotsInUse(i);
            if (inUse > 0)
            {
                sb.append("\n  ").append(sizeClasses[i].slotBytes).append(" B x ").append(inUse)
                    .append(" = ").append(inUse * sizeClasses[i].slotBytes).append(" B");
            }
        }
        if (leakTracking)
        {
            sb.append("\nHeld payloads:\n").append(leakReport());
        }
        else
        {
            sb.append("\n(turn leak tracking on to see which payloads and owners)");
        }
        return new MemoryBudgetExceededException(sb.toString(), slotBytes, budget.bytesInUse(), limitBytes, hardLimit);
    }
}
