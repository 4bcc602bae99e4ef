package dev.framewire.core;

/**
 * What happens when an off-heap acquire would pass the payload pool's hard limit.
 */
public enum MemoryLimitPolicy
{
    /**
     * Fail the run at once, with a report of which streams and nodes hold how many bytes. The default.
     */
    FAIL,
    /**
     * Drop the input set whose acquire failed, and have every node drop the oldest payload packets
     * queued on its inputs until memory is back under the soft limit; every drop is counted and
     * reported ({@link Graph#memoryDrops()}, {@link Graph#memoryDropCount()}). A source whose
     * acquire failed loses nothing: what it made in that call goes out, and it is called again for
     * the rest once under the soft limit. A source whose call failed before it made anything is
     * called again after a growing wait, at most ten times in a row before the run fails, and not at
     * all when its slot is larger than the hard limit (it cannot fit even in an empty pool).
     */
    DROP_OLDEST
}
