package dev.framewire.offheap;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The slots of one size: the slabs they are cut from and a lock-free free list of them.
 *
 * <p>The free list is a Treiber stack threaded through {@link Payload#nextFree}, its head a
 * {@code long}: the high 32 bits a version bumped on every push and pop (so a pop that read a
 * stale {@code nextFree} cannot succeed: no ABA), the low 32 bits {@code slotIndex + 1}, zero
 * when empty. Chosen over a JCTools/Agrona array queue because it needs no capacity sized up
 * front, allocates nothing, and is LIFO: the slot freed last, still warm in cache, is the next
 * one handed out.
 *
 * <pre>
 *   head: | version (32) | slotIndex + 1 (32) |  --> slot.nextFree --> slot.nextFree --> -1
 * </pre>
 *
 * <p>Threading: {@link #poll()} and {@link #push(Payload)} are lock-free from any thread.
 * {@link #grow()} and {@link #reserve(int)} take a lock; they allocate a slab, which is a system
 * call anyway, and {@code grow} runs only when the list is empty.
 */
final class SizeClass
{
    private static final long INDEX_MASK = 0xFFFF_FFFFL;

    final PayloadPool pool;
    final int index;
    final int slotBytes;
    private final int slotsPerSlab;

    private final AtomicLong head = new AtomicLong();
    private final AtomicLong acquires = new AtomicLong();
    private final AtomicLong releases = new AtomicLong();
    private volatile Payload[] slots = new Payload[0];
    private final ArrayList<ByteBuffer> slabs = new ArrayList<>();

    SizeClass(final PayloadPool pool, final int index, final int slotBytes, final int slabTargetBytes)
    {
        this.pool = pool;
        this.index = index;
        this.slotBytes = slotBytes;
        // a slab and its alignment slack must fit one ByteBuffer
        this.slotsPerSlab = Math.max(1, Math.min(slabTargetBytes, Integer.MAX_VALUE - PayloadPool.ALIGNMENT) / slotBytes);
    }

    Payload poll()
    {
        final AtomicLong head = this.head;
        while (true)
        {
            final long h = head.get();
            final int slotIndex = (int)(h & INDEX_MASK) - 1;
            if (slotIndex < 0)
            {
                return null;
            }
            final Payload payload = slots[slotIndex];
            final long next = ((h >>> 32) + 1) << 32 | ((payload.nextFree + 1) & INDEX_MASK);
            if (head.compareAndSet(h, next))
            {
                acquires.incrementAndGet();
                return payload;
            }
        }
    }

    void push(final Payload payload)
    {
        releases.incrementAndGet();
        pushFree(payload);
    }

    private void pushFree(final Payload payload)
    {
        final AtomicLong head = this.head;
        while (true)
        {
            final long h = head.get();
            payload.nextFree = (int)(h & INDEX_MASK) - 1;
            final long next = ((h >>> 32) + 1) << 32 | ((payload.slotIndex + 1) & INDEX_MASK);
            if (head.compareAndSet(h, next))
            {
                return;
            }
        }
    }

    /**
     * Adds a slab's worth of slots and returns one of them, already taken off the free list.
     *
     * @return a slot, or null when the budget's maximum leaves no room for another slab.
     */
    Payload grow()
    {
        synchronized (this)
        {
            final Payload free = poll();
            if (free != null)
            {
                return free;
            }
            final Payload[] grown = addSlab();
            if (grown == null)
            {
                return null;
            }
            final int first = grown.length - slotsPerSlab;
            for (int i = first + 1; i < grown.length; i++)
            {
                pushFree(grown[i]);
            }
            acquires.incrementAndGet();
            return grown[first];
        }
    }

    /**
     * Adds slabs until this class has at least {@code count} more slots than now, all free.
     *
     * @return the slots it has now; or, when the budget's maximum left no room for a slab it
     *         needed, {@code -1 - added}, where {@code added} is the slots this call added before
     *         that (they stay). Counted under the lock: other threads' reserves do not enter it.
     */
    int reserve(final int count)
    {
        synchronized (this)
        {
            final int before = slots.length;
            final long target = (long)before + count;
            while (slots.length < target)
            {
                final Payload[] grown = addSlab();
                if (grown == null)
                {
                    return -1 - (slots.length - before);
                }
                for (int i = grown.length - slotsPerSlab; i < grown.length; i++)
                {
                    pushFree(grown[i]);
                }
            }
            return slots.length;
        }
    }

    /**
     * Caller holds the lock: allocates a slab and publishes its slots (not yet on the free list).
     *
     * @return the grown slot array, or null when the budget's maximum leaves no room.
     */
    private Payload[] addSlab()
    {
        final long slabBytes = (long)slotsPerSlab * slotBytes;
        if (!pool.budget().tryReserve(slabBytes))
        {
            return null;
        }
        // Aligned by hand rather than with BufferUtil.allocateDirectAligned: that returns a
        // slice, which BufferUtil.free cannot free ("duplicate or slice"); the whole
        // allocation is kept so that close() can free it.
        final ByteBuffer slab;
        try
        {
            slab = ByteBuffer.allocateDirect((int)slabBytes + PayloadPool.ALIGNMENT);
        }
        catch (final RuntimeException | Error ex)
        {
            pool.budget().unreserve(slabBytes);
            throw ex;
        }
        slabs.add(slab);
        final long base = BitUtil.align(BufferUtil.address(slab), PayloadPool.ALIGNMENT);
        final Payload[] old = slots;
        final Payload[] grown = Arrays.copyOf(old, old.length + slotsPerSlab);
        for (int i = 0; i < slotsPerSlab; i++)
        {
            final int slotIndex = old.length + i;
            final long address = base + (long)i * slotBytes;
            grown[slotIndex] = new Payload(this, slotIndex, address, slab, (int)(address - BufferUtil.address(slab)));
        }
        slots = grown;
        return grown;
    }

    /**
     * Slot index at the top of the free list, -1 when it is empty; the rest follows
     * {@link Payload#nextFree}. For tests and diagnostics: exact only while no other thread
     * acquires or releases in this class.
     *
     * @return the slot index or -1.
     */
    int freeListHead()
    {
        return (int)(head.get() & INDEX_MASK) - 1;
    }

    long acquires()
    {
        return acquires.get();
    }

    long releases()
    {
        return releases.get();
    }

    int slotCount()
    {
        return slots.length;
    }

    Payload slot(final int slotIndex)
    {
        return slots[slotIndex];
    }

    synchronized void freeSlabs()
    {
        final long slabBytes = (long)slotsPerSlab * slotBytes;
        for (final ByteBuffer slab : slabs)
        {
            BufferUtil.free(slab);
            pool.budget().unreserve(slabBytes);
        }
        slabs.clear();
        slots = new Payload[0];
        head.set(0);
    }
}
