package dev.framewire.core.internal.queue;

import dev.framewire.core.Packet;
import dev.framewire.core.Timestamp;

import dev.framewire.offheap.Payload;

abstract class PacketSlotPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class PacketSlotFields extends PacketSlotPad0
{
    public long timestamp = Timestamp.UNSET;
    /**
     * The packet's value while {@link #held}; after it, a marker ({@link InputQueue#LONG},
     * {@link InputQueue#DOUBLE}) may stay, never an object or payload (see {@link PacketSlot#clear()}).
     */
    public Object value;
    public long word;
    /** Whether the slot holds a packet: what {@link PacketSlot#isEmpty()} answers, not {@code value == null}. */
    public boolean held;
    /** {@link InputPort}'s: whether the lent payload's reference was passed on to an output this call. */
    public boolean passed;
}

abstract class PacketSlotPad1 extends PacketSlotFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/**
 * A reusable {@link Packet} view over one held packet: an observer's view, a poller's current
 * packet, and the base of a node's {@link InputPort}.
 *
 * <p>Threading: owned by one thread at a time, as its owner's javadoc says.
 *
 * <p>Layout: the fields its owner writes per packet (timestamp, value, word, and an input port's
 * passed flag) sit between two cache lines of padding (by inheritance), so that no object the
 * allocator or a collection puts beside the slot shares a line that moves per packet: the B1 hop
 * ran 1.3-1.8x slower in about half its forks without it (see {@code docs/BENCHMARKS.md}).
 */
public class PacketSlot extends PacketSlotPad1 implements Packet
{
    public final String streamName;

    public PacketSlot(final String streamName)
    {
        this.streamName = streamName;
    }

    /**
     * Holds the packet ({@code value} null: none, the slot is empty). The value is stored only when
     * it differs from the one there: a stream of {@code long} or {@code double} packets then stores
     * no reference per packet. Under G1 a reference store runs the card-marking barrier, which
     * fences once the holder has been promoted: the B1 graph's hop ran up to about 60 ns slower
     * after a GC with its seven such stores ({@code HopPathBenchmark} with {@code -gc true},
     * docs/BENCHMARKS.md, ninth session).
     */
    public final void set(final long timestamp, final Object value, final long word)
    {
        this.timestamp = timestamp;
        if (this.value != value)
        {
            this.value = value;
        }
        this.word = word;
        this.held = value != null;
    }

    /**
     * Empties the slot. An object or payload is let go (the slot must not keep it reachable);
     * a marker stays, so that the next packet of its kind stores no reference (see {@link #set}).
     */
    public final void clear()
    {
        forget(value);
        word = 0;
    }

    /** Empties the slot, whose value is {@code v}: see {@link #clear()}. */
    public final void forget(final Object v)
    {
        if (!(v instanceof OneToOnePacketRing.Marker))
        {
            value = null;
        }
        held = false;
    }

    /** Whether the slot holds no packet. */
    public boolean isEmpty()
    {
        return !held;
    }

    public String owner()
    {
        return "stream '" + streamName + "'";
    }

    @Override
    public final String streamName()
    {
        return streamName;
    }

    @Override
    public long timestamp()
    {
        return timestamp;
    }

    @Override
    public final Object value()
    {
        final Object v = present();
        if (v == InputQueue.LONG)
        {
            return word;
        }
        if (v == InputQueue.DOUBLE)
        {
            return Double.longBitsToDouble(word);
        }
        return v;
    }

    @Override
    public final <T> T get(final Class<T> type)
    {
        final Object v = value();
        if (!type.isInstance(v))
        {
            throw new IllegalStateException(owner() + " holds a " + typeName(value) + " at timestamp " +
                Timestamp.toString(timestamp) + ", not a " + type.getName());
        }
        return type.cast(v);
    }

    @Override
    public final Payload payload()
    {
        final Object v = present();
        if (!(v instanceof Payload))
        {
            throw new IllegalStateException(owner() + " holds a " + typeName(v) + " at timestamp " +
                Timestamp.toString(timestamp) + ", not a Payload");
        }
        return (Payload)v;
    }

    @Override
    public final boolean isLong()
    {
        return held && value == InputQueue.LONG;
    }

    @Override
    public final boolean isDouble()
    {
        return held && value == InputQueue.DOUBLE;
    }

    @Override
    public final long getLong()
    {
        if (present() != InputQueue.LONG)
        {
            throw new IllegalStateException(owner() + " holds a " + typeName(value) + " at timestamp " +
                Timestamp.toString(timestamp) + ", not a long");
        }
        return word;
    }

    @Override
    public final double getDouble()
    {
        if (present() != InputQueue.DOUBLE)
        {
            throw new IllegalStateException(owner() + " holds a " + typeName(value) + " at timestamp " +
                Timestamp.toString(timestamp) + ", not a double");
        }
        return Double.longBitsToDouble(word);
    }

    private Object present()
    {
        final Object v = value;
        if (!held)
        {
            throw new IllegalStateException(owner() + " has no packet at timestamp " + Timestamp.toString(timestamp));
        }
        return v;
    }

    public static String typeName(final Object v)
    {
        if (v == null)
        {
            return "nothing";
        }
        if (v == InputQueue.LONG || v == InputQueue.DOUBLE)
        {
            return v.toString();
        }
        return v.getClass().getName();
    }

    @Override
    public String toString()
    {
        return owner() + " @" + Timestamp.toString(timestamp) + " = " + (!held ? "empty" : typeName(value));
    }
}
