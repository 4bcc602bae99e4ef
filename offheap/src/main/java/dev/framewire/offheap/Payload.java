package dev.framewire.offheap;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import java.lang.invoke.VarHandle;

/**
 * A reference-counted piece of off-heap memory from a {@link PayloadPool}: a byte blob or a
 * video frame. Seed 004's warehouse: each consumer holds one reference, the last
 * {@link #release()} returns the slot to its pool.
 *
 * <p>Rules:
 * <ul>
 *   <li>{@link #retain()} and {@link #release()} are atomic; releasing more often than
 *       retained throws {@link PayloadStateException} naming the payload and frees nothing.</li>
 *   <li>{@link #buffer()} reads; {@link #mutableBuffer()} writes and is only given to a caller
 *       that holds the only reference. A holder of a shared payload calls {@link #writable()},
 *       which returns this payload when the reference is exclusive and otherwise a counted copy
 *       (copy-on-write, seed 004's just-in-time clone).</li>
 *   <li>Every slot carries a generation, bumped on the last release. Any use after the last
 *       release throws {@link PayloadStateException}. Payload objects are one per slot (so
 *       acquiring allocates nothing); a holder that keeps a payload across a release and a
 *       later reuse of its slot captures {@link #generation()} and calls
 *       {@link #checkGeneration(int)}, as the engine does for every packet it delivers.</li>
 * </ul>
 *
 * <p>Threading: reference counting is safe from any thread. The bytes have one writer at a
 * time, by the copy-on-write rule; readers see writes made before the payload was handed to
 * them through a thread-safe queue. {@link #ownerTag(Object)} is a benign race: it is
 * diagnostics only.
 */
public final class Payload
{
    private static final VarHandle REF_COUNT;
    private static final VarHandle GENERATION;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            REF_COUNT = lookup.findVarHandle(Payload.class, "refCount", int.class);
            GENERATION = lookup.findVarHandle(Payload.class, "generation", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    final SizeClass sizeClass;
    final int slotIndex;
    private final long address;
    private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    /** The slab this slot is cut from and the slot's offset in it, for {@link ByteBuffer} views. */
    private final ByteBuffer slab;
    private final int slabOffset;
    /** This slot's writable view, made on the first {@link #mutableByteBuffer()}; see there. */
    private ByteBuffer byteView;
    private final boolean checked;

    @SuppressWarnings("unused") // accessed through REF_COUNT
    private volatile int refCount;
    @SuppressWarnings("unused") // accessed through GENERATION
    private volatile int generation;

    /** Next free slot index in the size class's free list, -1 at its end; see SizeClass. */
    int nextFree = -1;

    private int length;
    private int width;
    private int height;
    private int stride;
    private PixelFormat format;
    private Object ownerTag;
    private Throwable acquiredAt;

    Payload(
        final SizeClass sizeClass,
        final int slotIndex,
        final long address,
        final ByteBuffer slab,
        final int slabOffset)
    {
        this.sizeClass = sizeClass;
        this.slotIndex = slotIndex;
        this.address = address;
        this.slab = slab;
        this.slabOffset = slabOffset;
        this.checked = sizeClass.pool.useAfterReleaseCheck();
    }

    void onAcquire(final int length, final Throwable acquiredAt)
    {
        this.length = length;
        this.width = 0;
        this.height = 0;
        this.stride = 0;
        this.format = null;
        this.ownerTag = null;
        this.acquiredAt = acquiredAt;
        buffer.wrap(address, length);
        REF_COUNT.setRelease(this, 1);
    }

    void frame(final int width, final int height, final int stride, final PixelFormat format)
    {
        this.width = width;
        this.height = height;
        this.stride = stride;
        this.format = format;
    }

    /**
     * The bytes, to read. Its capacity is {@link #length()}.
     *
     * @return a view of this payload's memory, valid until the last release.
     * @throws PayloadStateException if the payload has been released.
     */
    public DirectBuffer buffer()
    {
        if (checked)
        {
            checkLive();
        }
        return buffer;
    }

    /**
     * The bytes, to write: only for the holder of the only reference.
     *
     * @return a mutable view of this payload's memory.
     * @throws PayloadStateException if released, or shared (call {@link #writable()} first).
     */
    public MutableDirectBuffer mutableBuffer()
    {
        final int count = (int)REF_COUNT.getVolatile(this);
        if (count != 1)
        {
            throw new PayloadStateException(count <= 0 ?
                "write after release of " + this :
                "write to " + this + " shared by " + count + " holders; call writable() for a private copy");
        }
        return buffer;
    }

    /**
     * The bytes as a {@link ByteBuffer}, to write with channel I/O: a {@code FileChannel} or
     * {@code SocketChannel} read into it goes straight from the kernel into this slot, with no
     * heap copy. Position 0, limit {@link #length()}. Only for the holder of the only reference,
     * as {@link #mutableBuffer()}.
     *
     * <p>One view object per slot, made on the first call (so the steady state allocates
     * nothing) and handed out again at every later call on this slot, by whichever holder then
     * owns it alone: its position and limit are reset here, never kept across holders. It stays
     * valid until the pool closes; do not use it after releasing the payload.
     *
     * @return the slot's view, cleared to this payload's length.
     * @throws PayloadStateException if released, or shared (call {@link #writable()} first).
     */
    public ByteBuffer mutableByteBuffer()
    {
        mutableBuffer(); // the exclusivity check
        ByteBuffer view = byteView;
        if (view == null)
        {
            // made by a sole holder; a later holder gets the slot through the pool's free list,
            // whose CAS orders this write before its read
            view = slab.slice(slabOffset, sizeClass.slotBytes);
            byteView = view;
        }
        view.limit(length).position(0);
        return view;
    }

    /**
     * A new read-only {@link ByteBuffer} over this payload's bytes (position 0, limit
     * {@link #length()}), to read with channel I/O ({@code channel.write(view)} sends the slot's
     * memory with no heap copy) by a holder that may share the payload with others, each needing
     * a position of its own.
     *
     * <p>Allocates the view. The slot's memory stays where it is for the pool's life, so a reader
     * on a hot path keeps one view per {@code Payload} (payload objects are one per slot) and
     * sets its limit to {@link #length()} for each new holding, as the video sink does.
     *
     * @return a fresh read-only view.
     * @throws PayloadStateException if the payload has been released.
     */
    public ByteBuffer newReadOnlyByteBuffer()
    {
        checkLive();
        final ByteBuffer view = slab.slice(slabOffset, sizeClass.slotBytes).asReadOnlyBuffer();
        view.limit(length);
        return view;
    }

    /**
     * A payload this caller may write: this one when its reference is the only one, otherwise a
     * copy, in which case the caller's reference to this payload is released and the copy's
     * single reference is the caller's.
     *
     * <p>Not atomic with respect to another holder's {@link #release()}: racing one, it may copy
     * although, an instant later, the reference would have been the only one. That costs a copy;
     * the counts stay right and the original is freed by whichever release comes last.
     *
     * @return this, or a fresh copy with the same bytes and frame shape.
     * @throws MemoryBudgetExceededException if a copy is needed and the budget has no room; the
     *                                       caller then still holds its reference to this payload.
     */
    public Payload writable()
    {
        final int count = (int)REF_COUNT.getVolatile(this);
        if (count == 1)
        {
            return this;
        }
        if (count <= 0)
        {
            throw new PayloadStateException("writable() after release of " + this);
        }
        final Payload copy = sizeClass.pool.acquire(length);
        copy.frame(width, height, stride, format);
        copy.ownerTag = ownerTag;
        copy.buffer.putBytes(0, buffer, 0, length);
        sizeClass.pool.countCopy();
        release();
        return copy;
    }

    /**
     * Adds a reference, for a new holder.
     *
     * @throws PayloadStateException if the payload has been released, or already holds
     *                               {@code Integer.MAX_VALUE} references.
     */
    public void retain()
    {
        retain(1);
    }

    /**
     * Adds {@code n} references at once, for fan-out to {@code n} more holders.
     *
     * @param n at least 0.
     * @throws IllegalArgumentException if {@code n} is negative: references are dropped one
     *                                  {@link #release()} at a time, so the last one frees the slot.
     * @throws PayloadStateException    if the payload has been released, or the count would pass
     *                                  {@code Integer.MAX_VALUE}.
     */
    public void retain(final int n)
    {
        if (n < 0)
        {
            throw new IllegalArgumentException("retain(" + n + ") on " + this + ": n must be at least 0");
        }
        while (true)
        {
            final int count = (int)REF_COUNT.getVolatile(this);
            if (count <= 0)
            {
                throw new PayloadStateException("retain after release of " + this);
            }
            if (count > Integer.MAX_VALUE - n)
            {
                throw new PayloadStateException(
                    "reference count overflow: " + count + " + " + n + " references to " + this);
            }
            if (REF_COUNT.compareAndSet(this, count, count + n))
            {
                return;
            }
        }
    }

    /**
     * Drops the caller's reference; the last one returns the slot to its pool.
     *
     * <p>The count reaches zero a moment before the slot is back on its free list and its bytes
     * back in the budget: a thread that sees zero (a refused {@link #retain()}) may, for that
     * moment, not yet be able to acquire those bytes. Nothing is lost or handed out twice.
     *
     * @return true when this was the last reference and the slot was freed.
     * @throws PayloadStateException if the payload holds no reference: a release too many.
     */
    public boolean release()
    {
        while (true)
        {
            final int count = (int)REF_COUNT.getVolatile(this);
            if (count <= 0)
            {
                throw new PayloadStateException("released more often than retained: " + this);
            }
            if (REF_COUNT.compareAndSet(this, count, count - 1))
            {
                if (count == 1)
                {
                    free();
                    return true;
                }
                return false;
            }
        }
    }

    private void free()
    {
        GENERATION.getAndAdd(this, 1);
        acquiredAt = null; // the owner tag stays, to name the payload in errors about a stale use
        sizeClass.pool.onFree(this);
    }

    /**
     * References held right now.
     *
     * @return the count; 0 once released.
     */
    public int refCount()
    {
        return (int)REF_COUNT.getVolatile(this);
    }

    /**
     * The slot's generation, bumped at every last release. Capture it while holding a reference
     * and pass it to {@link #checkGeneration(int)} to be sure the slot was not reused since.
     *
     * @return the current generation.
     */
    public int generation()
    {
        return (int)GENERATION.getVolatile(this);
    }

    /**
     * Checks that this payload is still the one that had {@code expected} as its generation, and
     * is live.
     *
     * @param expected a generation captured earlier by {@link #generation()}.
     * @throws PayloadStateException naming the payload and both generations if not.
     */
    public void checkGeneration(final int expected)
    {
        final int current = (int)GENERATION.getVolatile(this);
        if (current != expected)
        {
            throw new PayloadStateException(
                "use after release: held generation " + expected + " but the slot is at " + current + ": " + this);
        }
        checkLive();
    }

    private void checkLive()
    {
        if ((int)REF_COUNT.getVolatile(this) <= 0)
        {
            throw new PayloadStateException("use after release of " + this);
        }
    }

    /**
     * Byte length of the payload (the frame's total bytes for a frame).
     *
     * @return bytes.
     */
    public int length()
    {
        return length;
    }

    /**
     * The slot size this payload occupies, what it counts against the budget.
     *
     * @return bytes.
     */
    public int capacity()
    {
        return sizeClass.slotBytes;
    }

    /**
     * Whether this payload holds a frame (has a pixel format).
     *
     * @return true for frames.
     */
    public boolean isFrame()
    {
        return format != null;
    }

    /**
     * Frame width in pixels, 0 for a blob.
     *
     * @return width.
     */
    public int width()
    {
        return width;
    }

    /**
     * Frame height in pixels, 0 for a blob.
     *
     * @return height.
     */
    public int height()
    {
        return height;
    }

    /**
     * Bytes per row of plane 0, 0 for a blob.
     *
     * @return stride.
     */
    public int stride()
    {
        return stride;
    }

    /**
     * The frame's pixel format, null for a blob.
     *
     * @return the format.
     */
    public PixelFormat format()
    {
        return format;
    }

    /**
     * Tags the payload with its current owner (the engine sets node and stream), shown in leak
     * reports and errors. Stores the reference; allocates nothing.
     *
     * @param tag any object whose {@code toString} names the owner.
     */
    public void ownerTag(final Object tag)
    {
        this.ownerTag = tag;
    }

    /**
     * The last owner tag set, or null.
     *
     * @return the tag.
     */
    public Object ownerTag()
    {
        return ownerTag;
    }

    Throwable acquiredAt()
    {
        return acquiredAt;
    }

    /**
     * Names the payload: size class, slot, generation, shape and last owner.
     *
     * @return a description for errors and reports.
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(96);
        sb.append("payload[class ").append(sizeClass.slotBytes).append(" B slot ").append(slotIndex)
            .append(" gen ").append(generation()).append(", ");
        if (format != null)
        {
            sb.append("frame ").append(width).append('x').append(height).append(' ').append(format)
                .append(" stride ").append(stride);
        }
        else
        {
            sb.append(length).append(" B");
        }
        final Object tag = ownerTag;
        if (tag != null)
        {
            sb.append(", owner ").append(tag);
        }
        return sb.append(']').toString();
    }
}
