package dev.framewire.core.internal.stream;

import dev.framewire.core.Input;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.PacketSlot;
import dev.framewire.core.internal.queue.Schedulable;

import dev.framewire.offheap.Payload;

/**
 * One input of a node as the calculator sees it: the packet of the current input set, or
 * nothing. Holds the engine's reference to a payload while it is lent to the calculator.
 *
 * <p>Threading: the node's worker only.
 */
public final class InputPort extends PacketSlot implements Input
{
    /** The node whose input this is (its name, for messages). */
    public final Schedulable node;
    public final int index;
    public final String tag;
    public final int tagIndex;
    public final StreamSpec spec;
    public final InputQueue queue;

    public InputPort(final Schedulable node, final int index, final StreamSpec spec, final InputQueue queue)
    {
        super(spec.name);
        this.node = node;
        this.index = index;
        this.tag = spec.tag;
        this.tagIndex = spec.index;
        this.spec = spec;
        this.queue = queue;
    }

    @Override
    public String owner()
    {
        return "input stream '" + streamName + "' of node '" + node.nodeName() + "'";
    }

    @Override
    public int index()
    {
        return index;
    }

    @Override
    public String tag()
    {
        return tag;
    }

    @Override
    public Payload writablePayload()
    {
        final Payload held = payload();
        if (passed)
        {
            throw new IllegalStateException(owner() + ": its payload was already passed to an output; " +
                "writing it now would change what the consumers read");
        }
        final Payload writable = held.writable();
        if (writable != held)
        {
            value = writable;
            word = writable.generation();
        }
        return writable;
    }

    /** Fills the port with the queue's head packet (which must be at {@code ts}) and pops it. */
    public boolean take()
    {
        final InputQueue queue = this.queue;
        final long position = queue.headPosition(); // one read of the head for the slot and the pop
        final Object v = queue.valueAt(position);
        final long w = queue.wordAt(position);
        if (v instanceof Payload)
        {
            // before the port holds it: a stale packet stays queued and is released once, by the
            // queue's drain at the end of the run, not by both the port and the queue
            ((Payload)v).checkGeneration((int)w);
        }
        set(queue.timestampAt(position), v, w);
        passed = false;
        if (v instanceof Payload)
        {
            ((Payload)v).ownerTag(this);
        }
        return queue.pop(position);
    }

    /**
     * Moves this port's packet, and the engine's reference to its payload, to {@code target}
     * (a lane's port of the same input), leaving this port empty.
     */
    public void moveTo(final InputPort target)
    {
        final Object v = value;
        target.set(timestamp, v, word);
        target.passed = false;
        if (v instanceof Payload)
        {
            ((Payload)v).ownerTag(target);
        }
        clear();
        passed = false;
    }

    /**
     * Whether a payload being emitted is one of {@code ports} lends: the first emit passes the
     * port's reference on, a later one retains.
     */
    public static boolean passOn(final InputPort[] ports, final Payload payload)
    {
        for (final InputPort port : ports)
        {
            if (port.value == payload)
            {
                if (port.passed)
                {
                    payload.retain();
                }
                port.passed = true;
                return true;
            }
        }
        return false;
    }

    /** After the call: releases a lent payload unless it was passed on, and empties the port. */
    public void releaseHeld()
    {
        final Object v = value;
        if (v instanceof Payload && !passed)
        {
            ((Payload)v).release();
        }
        forget(v);
        passed = false;
    }
}
