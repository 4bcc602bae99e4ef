package dev.framewire.core.internal.sched;

import dev.framewire.core.ScheduleOrder;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.offheap.Payload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A worker's ready nodes in schedule order: a binary min-heap on (priority1, priority2, id) over
 * a fixed array. A node is queued at most once, so the array never needs to grow past the
 * number of nodes on the worker: no allocation, no lock. The keys are the node's
 * ({@link Node#priority1}, {@link Node#priority2}), computed here for the graph's
 * {@link ScheduleOrder} each time the node is queued ({@link #computeKeys}).
 *
 * <p>The heap holds each node's slot ({@link Node#heapSlot}), an index into {@link #nodes}, not
 * the node: an {@code int} store per add and per sift, where a reference store would cost G1's
 * write barrier, a StoreLoad fence once the graph is in the old generation (see
 * docs/ARCHITECTURE.md, "Rules the code keeps"). A node takes a slot the first time it is queued
 * and keeps it while it is on the graph, so its one reference store is paid once, not per packet.
 * A node a subgraph's removal took out ({@link #forget}) gives its slot back when it is not, or no
 * longer, queued; should it be queued again after that (a wake-up already in the worker's inbox),
 * it takes a slot anew and gives it back when it is polled. The slot table grows (on this thread,
 * a copy) only if more nodes hold slots than it has room for.
 *
 * <p>Threading: the owning worker only, or on a {@code STEALING} executor whichever thread holds the
 * worker's queue lock ({@link WorkStealing}); computing a node's keys peeks its input queues as their
 * consumer and reads its output bounds, which the worker that runs the node owns.
 */
public final class NodeHeap
{
    /** The queued nodes' slots, in heap order. */
    private final int[] heap;
    /** A slot's node; null for a free slot. */
    private Node[] nodes;
    /** Slots given back, a stack; then slots never used, from {@link #nextSlot}. */
    private int[] freeSlots;
    private int freeCount;
    private int nextSlot;
    /** Forgotten nodes queued now: while there are none, a poll does not look at the flag. */
    private int forgottenQueued;
    private final ScheduleOrder order;
    private final Node[] candidates = new Node[TOP_K];
    private int size;
    /** Scratch for {@link #pollStealable()}: the nodes it passed over; made on first need. */
    private Node[] skipped;

    /** Completion pressure is re-evaluated over this many of the best queued nodes. */
    static final int TOP_K = 3;

    public NodeHeap(final int capacity, final ScheduleOrder order)
    {
        this.heap = new int[Math.max(1, capacity)];
        this.nodes = new Node[Math.max(1, capacity)];
        this.freeSlots = new int[nodes.length];
        this.order = order;
    }

    public void add(final Node node)
    {
        computeKeys(node);
        int slot = node.heapSlot;
        if (slot < 0)
        {
            slot = takeSlot(node);
            if (node.forgotten)
            {
                forgottenQueued++;
            }
        }
        int i = size++;
        final int[] heap = this.heap;
        final Node[] nodes = this.nodes;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            final int parentSlot = heap[parent];
            final Node p = nodes[parentSlot];
            if (!before(node, p))
            {
                break;
            }
            heap[i] = parentSlot;
            i = parent;
        }
        heap[i] = slot;
    }

    /**
     * A subgraph's removal took the node out of the graph (its worker's detach): its slot is given
     * back now, or when it is next polled if it is queued.
     */
    public void forget(final Node node)
    {
        if (node.forgotten)
        {
            return;
        }
        node.forgotten = true;
        final int slot = node.heapSlot;
        if (slot < 0)
        {
            return;
        }
        for (int i = 0; i < size; i++)
        {
            if (heap[i] == slot)
            {
                forgottenQueued++; // queued: given back when polled
                return;
            }
        }
        giveBackSlot(node);
    }

    /**
     * The next node to run. Under completion pressure, priorities change while nodes wait, so the
     * best {@link #TOP_K} are taken, re-evaluated against the warehouses as they are now, and the
     * others put back.
     */
    public Node poll()
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

    /**
     * A thief, holding the owner's queue lock ({@link WorkStealing}): the first queued node that
     * may run on another worker ({@link Node#stealable}), or null; the nodes before it (sources,
     * nodes of a subgraph added at run time) stay queued in their order.
     */
    Node pollStealable()
    {
        Node found = null;
        int skipped = 0;
        while (size > 0)
        {
            final Node node = pollFirst();
            if (node.stealable && !node.forgotten)
            {
                found = node;
                break;
            }
            if (this.skipped == null)
            {
                this.skipped = new Node[heap.length]; // once per worker, on a thief's first skip
            }
            this.skipped[skipped++] = node;
        }
        for (int i = 0; i < skipped; i++)
        {
            add(this.skipped[i]);
            this.skipped[i] = null;
        }
        return found;
    }

    private Node pollFirst()
    {
        if (size == 0)
        {
            return null;
        }
        final int[] heap = this.heap;
        final Node[] nodes = this.nodes;
        final Node first = nodes[heap[0]];
        final int lastSlot = heap[--size];
        if (size > 0)
        {
            final Node last = nodes[lastSlot];
            int i = 0;
            final int half = size >>> 1;
            while (i < half)
            {
                int child = 2 * i + 1;
                final int right = child + 1;
                Node c = nodes[heap[child]];
                if (right < size)
                {
                    final Node r = nodes[heap[right]];
                    if (before(r, c))
                    {
                        child = right;
                        c = r;
                    }
                }
                if (!before(c, last))
                {
                    break;
                }
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = lastSlot;
        }
        if (forgottenQueued > 0 && first.forgotten)
        {
            forgottenQueued--;
            giveBackSlot(first);
        }
        return first;
    }

    /** A slot for a node that has none: a given-back one, else the next never used; the table grows when full. */
    private int takeSlot(final Node node)
    {
        final int slot;
        if (freeCount > 0)
        {
            slot = freeSlots[--freeCount];
        }
        else
        {
            if (nextSlot == nodes.length)
            {
                // more nodes hold slots than the worker was sized for: a cold path, once per doubling
                nodes = Arrays.copyOf(nodes, 2 * nodes.length);
                freeSlots = Arrays.copyOf(freeSlots, nodes.length);
            }
            slot = nextSlot++;
        }
        nodes[slot] = node;
        node.heapSlot = slot;
        return slot;
    }

    private void giveBackSlot(final Node node)
    {
        final int slot = node.heapSlot;
        nodes[slot] = null; // a removed node is not kept from the collector
        freeSlots[freeCount++] = slot;
        node.heapSlot = -1;
    }

    /** Nodes holding a slot: queued, or queued before and still on the graph. For tests. */
    public int slotsHeld()
    {
        return nextSlot - freeCount;
    }

    /** The nodes {@link #slotsHeld()} counts, in slot order. For tests. */
    public List<Node> heldNodes()
    {
        final List<Node> held = new ArrayList<>();
        for (int slot = 0; slot < nextSlot; slot++)
        {
            if (nodes[slot] != null)
            {
                held.add(nodes[slot]);
            }
        }
        return held;
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    public int size()
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
     * The bytes running this node once would free. A run takes one input set, so
     * each input counts the payload of its next packet, divided among the references still held on
     * it (the warehouse's remaining consumers, so the last consumer of a shared frame gets it all);
     * doubled for full queues while over the soft limit. Worker only: it peeks the node's
     * own input queues, as their consumer.
     *
     * <p>Not the bytes of the whole queue: in the original design a block consumes its parents' whole
     * warehouses in one execution, here one packet. Counting whole queues made the node behind a
     * shipment, and then each chain's first node, look as if one run freed the lot, so they were
     * drained breadth first and a fan-out of frames peaked at twice the memory of MediaPipe's order
     * (execution.CompletionPressureTest).
     */
    public static long completionPressure(final Node node)
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
