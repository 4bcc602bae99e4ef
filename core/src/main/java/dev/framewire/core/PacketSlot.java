package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * A reusable {@link Packet} view over one held packet: an observer's view, a poller's current
 * packet, and the base of a node's {@link InputPort}.
 *
 * <p>Threading: owned by one thread at a time, as its owner's javadoc says.
 */
class PacketSlot implements Packet
{
    final String streamName;
    long timestamp = Timestamp.UNSET;
    Object value;
    long word;

    PacketSlot(final String streamName)
    {
        this.streamName = streamName;
    }

    final void set(final long timestamp, final Object value, final long word)
    {
        this.timestamp = timestamp;
        this.value = value;
        this.word = word;
    }

    final void clear()
    {
        value = null;
        word = 0;
    }

    String owner()
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
        return value == InputQueue.LONG;
    }

    @Override
    public final boolean isDouble()
    {
        return value == InputQueue.DOUBLE;
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
        if (v == null)
        {
            throw new IllegalStateException(owner() + " has no packet at timestamp " + Timestamp.toString(timestamp));
        }
        return v;
    }

    static String typeName(final Object v)
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
        return owner() + " @" + Timestamp.toString(timestamp) + " = " + (value == null ? "empty" : typeName(value));
    }
}
