package dev.framewire.offheap;

/**
 * Checks that a pool's books balance, for tests that run while no other thread touches it: in
 * every size class each slot is either live (a positive reference count) or on the free list,
 * never both and never twice; the free list has no cycle; acquires minus releases equals the
 * live slots; the budget's bytes in use equal the live slots' sizes.
 */
final class PoolInvariants
{
    private PoolInvariants()
    {
    }

    /**
     * Checks every invariant.
     *
     * @param pool a pool no other thread is using.
     * @return null when the books balance, else what is wrong.
     */
    static String violation(final PayloadPool pool)
    {
        long bytesLive = 0;
        for (int c = 0; c < pool.sizeClassCount(); c++)
        {
            final SizeClass sizeClass = pool.sizeClass(c);
            final int slots = sizeClass.slotCount();
            final boolean[] free = new boolean[slots];
            int freeCount = 0;
            for (int i = sizeClass.freeListHead(); i != -1; i = sizeClass.slot(i).nextFree)
            {
                if (i < 0 || i >= slots)
                {
                    return "class " + sizeClass.slotBytes + ": free list points at slot " + i + " of " + slots;
                }
                if (free[i])
                {
                    return "class " + sizeClass.slotBytes + ": slot " + i + " is on the free list twice (a double free)";
                }
                free[i] = true;
                freeCount++;
            }
            int live = 0;
            for (int i = 0; i < slots; i++)
            {
                final int refCount = sizeClass.slot(i).refCount();
                if (refCount < 0)
                {
                    return "class " + sizeClass.slotBytes + ": slot " + i + " has reference count " + refCount;
                }
                if (refCount > 0)
                {
                    if (free[i])
                    {
                        return "class " + sizeClass.slotBytes + ": slot " + i + " is live (count " + refCount +
                            ") and on the free list";
                    }
                    live++;
                }
                else if (!free[i])
                {
                    return "class " + sizeClass.slotBytes + ": slot " + i + " is neither live nor free (lost)";
                }
            }
            if (live + freeCount != slots)
            {
                return "class " + sizeClass.slotBytes + ": " + live + " live + " + freeCount + " free != " + slots;
            }
            if (pool.slotsInUse(c) != live)
            {
                return "class " + sizeClass.slotBytes + ": acquires - releases = " + pool.slotsInUse(c) + " but " +
                    live + " slots are live";
            }
            bytesLive += (long)live * sizeClass.slotBytes;
        }
        if (pool.budget().bytesInUse() != bytesLive)
        {
            return "budget counts " + pool.budget().bytesInUse() + " B in use but live slots hold " + bytesLive + " B";
        }
        return null;
    }

    /**
     * Fails when the books do not balance.
     *
     * @param pool a pool no other thread is using.
     */
    static void assertBalanced(final PayloadPool pool)
    {
        final String violation = violation(pool);
        if (violation != null)
        {
            throw new AssertionError(violation);
        }
    }

    /**
     * Fails unless the books balance and nothing is held.
     *
     * @param pool a pool no other thread is using.
     */
    static void assertAllReturned(final PayloadPool pool)
    {
        assertBalanced(pool);
        if (pool.budget().bytesInUse() != 0 || pool.acquires() != pool.releases())
        {
            throw new AssertionError("not every slot is back: " + pool.budget().bytesInUse() + " B in use, " +
                pool.acquires() + " acquires, " + pool.releases() + " releases\n" + pool.leakReport());
        }
    }
}
