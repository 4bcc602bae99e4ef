package dev.framewire.journal;

import org.agrona.DirectBuffer;

/**
 * Reads varints out of a record, one after the other, up to its end: what
 * {@link CallEntryCursor} and {@link PacketEntryCursor} share.
 *
 * <p>Threading: one thread at a time.
 */
abstract class VarintCursor
{
    DirectBuffer body;
    int limit;
    /** Where the next varint starts; -1 once one ran past the end or was longer than 10 bytes. */
    int position;

    /** Reads the record in {@code body}'s first {@code limit} bytes from {@code position}. */
    final void start(final DirectBuffer body, final int limit, final int position)
    {
        this.body = body;
        this.limit = limit;
        this.position = position;
    }

    /** A byte at {@link #position}, moved past it; -1 past the end (position then -1). */
    final int nextByte()
    {
        if (position < 0 || position >= limit)
        {
            position = -1;
            return -1;
        }
        return body.getByte(position++) & 0xFF;
    }

    /** A varint at {@link #position}, moved past it; once one fails, position stays -1. */
    final long varint()
    {
        int at = position;
        if (at < 0)
        {
            return 0;
        }
        long value = 0;
        for (int shift = 0; shift < 64 && at < limit; shift += 7)
        {
            final byte b = body.getByte(at++);
            value |= (long)(b & 0x7F) << shift;
            if (b >= 0)
            {
                position = at;
                return value;
            }
        }
        position = -1;
        return 0;
    }
}
