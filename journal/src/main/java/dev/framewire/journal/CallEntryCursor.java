package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.nio.ByteOrder;

import static dev.framewire.journal.JournalDescriptor.DENSE_FLAG_BITS;
import static dev.framewire.journal.JournalDescriptor.DENSE_FOLDED;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_NANOS;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_STREAM;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_TIMESTAMP;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_VALUE;
import static dev.framewire.journal.JournalDescriptor.PACKED_BASE_NANOS_OFFSET;
import static dev.framewire.journal.JournalDescriptor.PACKED_BASE_TIMESTAMP_OFFSET;
import static dev.framewire.journal.JournalDescriptor.PACKED_ENTRIES_OFFSET;
import static dev.framewire.journal.JournalDescriptor.unzigzag;

/**
 * Reads the entries of a {@link JournalDescriptor#PACKED_CALLS} or
 * {@link JournalDescriptor#DENSE_CALLS} record (their layouts are drawn there) one after the
 * other, each field a varint and most of them differences from the entry before.
 *
 * <p>Threading: one thread at a time.
 */
final class CallEntryCursor extends VarintCursor
{
    /** The last entry read. */
    int node;
    /** -1: no packet folded in. */
    int stream;
    int valueKind;
    long value;
    long timestamp;
    long beginNanos;
    /** When {@link #next} returned false for a DENSE_CALLS entry whose flags do not hold: why. */
    String fault;
    /** What the next entry's differences are from. */
    private long lastValue;
    private boolean dense;
    /** DENSE_CALLS: per node, value kind &lt;&lt; 32 | stream of its last folded entry in the record. */
    private final Long2LongHashMap shapes = new Long2LongHashMap(-1);

    /**
     * Starts at the first entry of the record in {@code body}'s first {@code limit} bytes, at
     * least {@link JournalDescriptor#PACKED_ENTRIES_OFFSET}: a DENSE_CALLS record's when
     * {@code dense}, else a PACKED_CALLS record's.
     */
    void reset(final DirectBuffer body, final int limit, final boolean dense)
    {
        start(body, limit, PACKED_ENTRIES_OFFSET);
        timestamp = body.getLong(PACKED_BASE_TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
        beginNanos = body.getLong(PACKED_BASE_NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        lastValue = 0;
        node = 0;
        fault = null;
        this.dense = dense;
        if (dense)
        {
            shapes.clear();
        }
    }

    /**
     * Reads the next entry into the fields.
     *
     * @return false when it runs past the record's end, a varint is longer than 10 bytes, or
     * a DENSE_CALLS entry's flags do not hold ({@link #fault} says how); the fields are then
     * not to be used.
     */
    boolean next()
    {
        if (dense)
        {
            return nextDense();
        }
        final long nodeAndFlag = varint();
        if (position < 0)
        {
            return false;
        }
        node = (int)(nodeAndFlag >>> 1);
        if ((nodeAndFlag & 1) != 0)
        {
            valueKind = nextByte();
            stream = (int)varint();
            lastValue += unzigzag(varint());
            value = lastValue;
        }
        else
        {
            noPacket();
        }
        timestamp += unzigzag(varint());
        beginNanos += varint();
        return position >= 0;
    }

    private boolean nextDense()
    {
        final long head = varint();
        if (position < 0)
        {
            return false;
        }
        final int flags = (int)head & (1 << DENSE_FLAG_BITS) - 1;
        final long step = head >>> DENSE_FLAG_BITS;
        final boolean folded = (flags & DENSE_FOLDED) != 0;
        if (step > 0xFFFF_FFFFL)
        {
            return broken("has a node difference of more than 32 bits");
        }
        if (!folded && (flags & (DENSE_SAME_STREAM | DENSE_SAME_VALUE)) != 0)
        {
            return broken("has a packet's flags but no packet");
        }
        node += (int)step >>> 1 ^ -((int)step & 1);
        if (folded)
        {
            if ((flags & DENSE_SAME_STREAM) != 0)
            {
                final long shape = shapes.get(node);
                if (shape == -1)
                {
                    return broken("repeats the stream of node " + node +
                        ", which folded no packet before it in the record");
                }
                valueKind = (int)(shape >>> 32);
                stream = (int)shape;
            }
            else
            {
                valueKind = nextByte();
                stream = (int)varint();
                shapes.put(node, (long)valueKind << 32 | stream & 0xFFFF_FFFFL);
            }
            if ((flags & DENSE_SAME_VALUE) == 0)
            {
                lastValue += unzigzag(varint());
            }
            value = lastValue;
        }
        else
        {
            noPacket();
        }
        if ((flags & DENSE_SAME_TIMESTAMP) == 0)
        {
            timestamp += unzigzag(varint());
        }
        if ((flags & DENSE_SAME_NANOS) == 0)
        {
            beginNanos += varint();
        }
        return position >= 0;
    }

    /** The entry just read folded no packet in. */
    private void noPacket()
    {
        stream = -1;
        valueKind = 0;
        value = 0;
    }

    private boolean broken(final String why)
    {
        fault = why;
        position = -1;
        return false;
    }
}
