package dev.framewire.journal;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;
import static dev.framewire.journal.JournalDescriptor.NANOS_OFFSET;
import static dev.framewire.journal.JournalDescriptor.TIMESTAMP_OFFSET;
import static dev.framewire.journal.JournalDescriptor.VALUE_OFFSET;
import static dev.framewire.journal.JournalDescriptor.unzigzag;

/**
 * Reads the entries of a {@link JournalDescriptor#PACKED_INPUTS} or
 * {@link JournalDescriptor#PACKED_EMITS} record (their layouts are drawn there) one after the
 * other: each a packet's stream, value kind, (PACKED_EMITS) node, and value, timestamp and nanos
 * as differences from the entry before (the first's from the header).
 *
 * <p>Threading: one thread at a time.
 */
final class PacketEntryCursor extends VarintCursor
{
    /** Whether the record is a PACKED_EMITS one, whose entries name their node. */
    boolean emits;
    /** The last entry read. */
    int stream;
    int valueKind;
    /** PACKED_EMITS: the entry's node, -1 for a bound; -1 for a graph input. */
    int node = -1;
    long value;
    long timestamp;
    long nanos;

    /**
     * Starts at the first entry of the record in {@code body}'s first {@code limit} bytes, at
     * least {@link JournalDescriptor#FIXED_LENGTH}.
     */
    void reset(final DirectBuffer body, final int limit, final boolean emits)
    {
        this.emits = emits;
        node = -1;
        start(body, limit, FIXED_LENGTH);
        nanos = body.getLong(NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        timestamp = body.getLong(TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
        value = body.getLong(VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Reads the next entry into the fields.
     *
     * @return false when it runs past the record's end or a varint is longer than 10 bytes
     * (the fields are then not to be used).
     */
    boolean next()
    {
        stream = (int)varint();
        valueKind = nextByte();
        if (emits)
        {
            node = (int)varint() - 1;
        }
        value += unzigzag(varint());
        timestamp += unzigzag(varint());
        nanos += unzigzag(varint());
        return position >= 0;
    }
}
