package dev.framewire.core;

/**
 * A worker's ready nodes in schedule order: a binary min-heap on (priority1, priority2, id) over
 * a fixed array. A node is queued at most once, so the array never needs to grow past the
 * number of nodes on the worker: no allocation, no lock.
 *
 * <p>Threading: the owning worker only.
 */
final class NodeHeap
{
    private final Node[] heap;
    private final ScheduleOrder order;
    private final Node[] candidates = new Node[TOP_K];
    private int size;

    /** Completion pressure is re-evaluated over this many of the best queued nodes (seed 004 A.3). */
    static final int TOP_K = 3;

    NodeHeap(final int capacity, final ScheduleOrder order)
    {
        this.heap = new Node[Math.max(1, capacity)];
        this.order = order;
    }

    void add(final Node node)
    {
        node.computePriority(order);
        int i = size++;
        final Node[] heap = this.heap;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            final Node p = heap[parent];
            if (!before(node, p))
            {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = node;
        node.heapIndex = i;
    }

    /**
     * The next node to run. Under completion pressure, priorities change while nodes wait, so the
     * best {@link #TOP_K} are taken, re-evaluated against the warehouses as they are now, and the
     * others put back (seed 004 A.3).
     */
    Node poll()
    {
        if (order != ScheduleOrder.COMPLETION_PRESSURE || size <= 1)
        {
            return pollFirst();
        }
        final int k = Math.min(TOP_K, size);
        final Node[] candidates = this.candidates;
        int best = 0;
        for (int i = 0; i < k; i++)
        {
            final Node node = pollFirst();
            node.computePriority(order);
            candidates[i] = node;
            if (before(node, candidates[best]))
            {
                best = i;
            }
        }
        final Node chosen = candidates[best];
        for (int i = 0; i < k; i++)
        {
            if (i != best)
            {
                add(candidates[i]);
            }
            candidates[i] = null;
        }
        return chosen;
    }

    private Node pollFirst()
    {
        if (size == 0)
        {
            return null;
        }
        final Node[] heap = this.heap;
        final Node first = heap[0];
        final Node last = heap[--size];
        heap[size] = null;
        if (size > 0)
        {
            int i = 0;
            final int half = size >>> 1;
            while (i < half)
            {
                int child = 2 * i + 1;
                final int right = child + 1;
                if (right < size && before(heap[right], heap[child]))
                {
                    child = right;
                }
                if (!before(heap[child], last))
                {
                    break;
                }
                heap[i] = heap[child];
                heap[i].heapIndex = i;
                i = child;
            }
            heap[i] = last;
            last.heapIndex = i;
        }
        first.heapIndex = -1;
        return first;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    int size()
    {
        return size;
    }

    private static boolean before(final Node a, final Node b)
    {
        if (a.priority1 != b.priority1)
        {
            return a.priority1 < b.priority1;
        }
        if (a.priority2 != b.priority2)
        {
            return a.priority2 < b.priority2;
        }
        return a.id < b.id;
    }
}
