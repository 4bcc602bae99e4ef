package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * A worker's ready nodes in schedule order: a binary min-heap on (priority1, priority2, id) over
 * a fixed array. A node is queued at most once, so the array never needs to grow past the
 * number of nodes on the worker: no allocation, no lock. The keys are the node's
 * ({@link Node#priority1}, {@link Node#priority2}), computed here for the graph's
 * {@link ScheduleOrder} each time the node is queued ({@link #computeKeys}).
 *
 * <p>Threading: the owning worker only; computing a node's keys peeks its input queues as their
 * consumer and reads its output bounds, which the worker that runs the node owns.
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
        computeKeys(node);
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
            computeKeys(node);
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

    /** Worker: the node's heap keys for the graph's schedule order. */
    private void computeKeys(final Node node)
    {
        final ScheduleOrder order = this.order;
        if (order == ScheduleOrder.COMPLETION_PRESSURE)
        {
            node.priority1 = node.lifecycle == Node.UNOPENED ? 0 : node.isSource ? 2 : 1;
            node.priority2 = -completionPressure(node);
            return;
        }
        if (order == ScheduleOrder.BMF)
        {
            node.priority1 = node.lifecycle == Node.UNOPENED ? Long.MIN_VALUE : nextTimestamp(node);
            node.priority2 = node.id;
            return;
        }
        if (node.lifecycle == Node.UNOPENED)
        {
            node.priority1 = 0;
            node.priority2 = node.id;
        }
        else if (!node.isSource)
        {
            node.priority1 = 1;
            node.priority2 = -node.topoIndex;
        }
        else
        {
            node.priority1 = 2 + node.sourceLayer;
            node.priority2 = nextTimestamp(node);
        }
    }

    /**
     * Seed 004 §5.1: the bytes running this node once would free. A run takes one input set, so
     * each input counts the payload of its next packet, divided among the references still held on
     * it (the warehouse's remaining consumers, so the last consumer of a shared frame gets it all);
     * doubled for full queues while over the soft limit (§5.3). Worker only: it peeks the node's
     * own input queues, as their consumer.
     *
     * <p>Not the bytes of the whole queue: in the seed a block consumes its parents' whole
     * warehouses in one execution, here one packet. Counting whole queues made the node behind a
     * shipment, and then each chain's first node, look as if one run freed the lot, so they were
     * drained breadth first and a fan-out of frames peaked at twice the memory of MediaPipe's order
     * (execution.CompletionPressureTest).
     */
    static long completionPressure(final Node node)
    {
        final boolean boost = node.memory.overSoftLimit();
        long pressure = 0;
        for (final InputPort port : node.inputs)
        {
            final InputQueue queue = port.queue;
            if (queue.peekTimestamp() == Timestamp.UNSET || !(queue.peekValue() instanceof Payload))
            {
                continue;
            }
            final Payload next = (Payload)queue.peekValue();
            long share = next.capacity() / Math.max(1, next.refCount());
            if (boost && queue.isFull())
            {
                share *= 2;
            }
            pressure += share;
        }
        return pressure;
    }

    /** A source's lowest output bound, else its inputs' bound: the BMF order's key. */
    private static long nextTimestamp(final Node node)
    {
        if (node.isSource)
        {
            long min = Timestamp.DONE;
            for (final OutputStream output : node.outputs)
            {
                min = Math.min(min, output.bound);
            }
            return min;
        }
        return node.inputBound();
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
