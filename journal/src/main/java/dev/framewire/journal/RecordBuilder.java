package dev.framewire.journal;

import net.openhft.chronicle.bytes.Bytes;
import org.agrona.ExpandableArrayBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;
import static dev.framewire.journal.JournalDescriptor.NANOS_OFFSET;
import static dev.framewire.journal.JournalDescriptor.checksum;
import static dev.framewire.journal.JournalDescriptor.putFixed;

/**
 * A cold-path record (header, run start) put together on the heap, then appended with its
 * checksum. Allocates.
 *
 * <p>Threading: one thread.
 */
final class RecordBuilder
{
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(256);
    private int length;

    RecordBuilder fixed(
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        putFixed(buffer, 0, kind, aux, worker, node, stream, nanos, timestamp, value);
        length = FIXED_LENGTH;
        return this;
    }

    /** Sets the fixed part's nanos, read just before the record is appended. */
    RecordBuilder nanos(final long nanos)
    {
        buffer.putLong(NANOS_OFFSET, nanos, ByteOrder.LITTLE_ENDIAN);
        return this;
    }

    RecordBuilder putInt(final int value)
    {
        buffer.putInt(length, value, ByteOrder.LITTLE_ENDIAN);
        length += 4;
        return this;
    }

    RecordBuilder putLong(final long value)
    {
        buffer.putLong(length, value, ByteOrder.LITTLE_ENDIAN);
        length += 8;
        return this;
    }

    RecordBuilder putBytes(final byte[] bytes)
    {
        buffer.putBytes(length, bytes);
        length += bytes.length;
        return this;
    }

    RecordBuilder putText(final String text)
    {
        final byte[] utf8 = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
        putInt(utf8.length);
        return putBytes(utf8);
    }

    RecordBuilder putTexts(final String[] texts)
    {
        putInt(texts.length);
        for (final String text : texts)
        {
            putText(text);
        }
        return this;
    }

    RecordBuilder putInts(final int[] values)
    {
        putInt(values.length);
        for (final int v : values)
        {
            putInt(v);
        }
        return this;
    }

    /** Appends the record and its checksum to a Chronicle document. */
    void appendTo(final Bytes<?> out)
    {
        out.write(buffer.byteArray(), 0, length);
        out.writeInt(checksum(buffer.byteArray(), 0, length));
    }
}
