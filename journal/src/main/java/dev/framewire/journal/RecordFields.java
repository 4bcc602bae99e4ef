package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;

/**
 * The fields of one record (docs/JOURNAL.md, "Format"): the fixed ones every record has, read by
 * {@link #readFixed}, and a cursor over those past them: ints, longs, length-prefixed texts and
 * bytes, lists, each checked against the bytes the record has. A field that does not fit is a
 * {@link CorruptRecord} naming the record's kind and the field. One per read, reused for every
 * record: {@link #wrap} points it at the next one.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RecordFields
{
    /** The fixed fields of the record, once {@link #readFixed} has read them. */
    int aux;
    int worker;
    int node;
    int stream;
    long nanos;
    long timestamp;
    long value;

    private DirectBuffer buffer;
    private int position;
    private int limit;
    private JournalRecord.Kind kind;

    /**
     * Points the cursor at a record's first field past the fixed ones.
     *
     * @param buffer the record's bytes, from its kind.
     * @param length its length, without its checksum.
     */
    void wrap(final DirectBuffer buffer, final int length)
    {
        this.buffer = buffer;
        this.position = FIXED_LENGTH;
        this.limit = length;
    }

    /** Reads the fixed fields of a record at least {@link JournalDescriptor#FIXED_LENGTH} long. */
    void readFixed()
    {
        final DirectBuffer bytes = buffer;
        aux = bytes.getByte(JournalDescriptor.AUX_OFFSET) & 0xFF;
        worker = bytes.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN);
        node = bytes.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        stream = bytes.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
        nanos = bytes.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        timestamp = bytes.getLong(JournalDescriptor.TIMESTAMP_OFFSET, ByteOrder.LITTLE_ENDIAN);
        value = bytes.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The kind the messages of the checks name.
     *
     * @param kind the record's kind, or the one it is read as.
     */
    void kind(final JournalRecord.Kind kind)
    {
        this.kind = kind;
    }

    JournalRecord.Kind kind()
    {
        return kind;
    }

    /** Where the next field starts. */
    int position()
    {
        return position;
    }

    /** The record's length. */
    int limit()
    {
        return limit;
    }

    /** A list's length, checked against the bytes left ({@code least} bytes an entry at least). */
    int count(final String what, final int least)
    {
        final int n = getInt(what);
        if (n < 0 || n > (limit - position) / least)
        {
            throw new CorruptRecord("the record (" + kind + ") has a list of " + n + " " + what + ", more than " +
                "its bytes hold");
        }
        return n;
    }

    int[] ints(final String what)
    {
        final int n = count(what, 4);
        final int[] ints = new int[n];
        for (int i = 0; i < n; i++)
        {
            ints[i] = getInt(what);
        }
        return ints;
    }

    String[] texts(final String what)
    {
        final int n = count(what, 4);
        final String[] texts = new String[n];
        for (int i = 0; i < n; i++)
        {
            texts[i] = text(what);
        }
        return texts;
    }

    /** A captured payload's bytes, checked against its XXH64 ({@code value}). */
    byte[] capturedBytes(final long value)
    {
        final byte[] payload = bytes("captured payload");
        if (PayloadChecksum.of(new UnsafeBuffer(payload), 0, payload.length) != value)
        {
            throw new CorruptRecord("the record (" + kind + ") holds a captured payload of " + payload.length +
                " bytes that fails its XXH64 checksum");
        }
        return payload;
    }

    String text(final String what)
    {
        return new String(bytes(what), StandardCharsets.UTF_8);
    }

    byte[] bytes(final String what)
    {
        final int length = getInt(what);
        if (length < 0 || length > limit - position)
        {
            throw new CorruptRecord("the record (" + kind + ") says its " + what + " is " + length +
                " bytes, but " + (limit - position) + " are left");
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(position, bytes);
        position += length;
        return bytes;
    }

    int getInt(final String what)
    {
        need(4, what);
        final int v = buffer.getInt(position, ByteOrder.LITTLE_ENDIAN);
        position += 4;
        return v;
    }

    long getLong(final String what)
    {
        need(8, what);
        final long v = buffer.getLong(position, ByteOrder.LITTLE_ENDIAN);
        position += 8;
        return v;
    }

    private void need(final int bytes, final String what)
    {
        if (position + bytes > limit)
        {
            throw new CorruptRecord("the record (" + kind + ") ends inside its " + what + " field");
        }
    }
}
