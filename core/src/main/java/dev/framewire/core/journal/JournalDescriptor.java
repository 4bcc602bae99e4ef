package dev.framewire.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The journal's record layout: one Chronicle document per record, the same bytes in the ASYNC
 * ring (there the kind is also the ring's message type). Little-endian, as Chronicle writes it.
 *
 * <pre>
 *   0        1        2        4                8                12               16
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   | kind   | aux    | 0 (16) | worker (int)   | node (int)     | stream (int)   |
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   16                          24                               32                               40
 *   +---------------------------+--------------------------------+--------------------------------+
 *   | nanos (long)              | timestamp (long)               | value (long)                   |
 *   +---------------------------+--------------------------------+--------------------------------+
 *   40: tail, by kind: HEADER magic + pid; RUN_START names and config; GRAPH_INPUT with a
 *       captured payload: length + bytes; ERROR and RUN_END: text.  text = int length + UTF-8.
 * </pre>
 *
 * <p>The first 40 bytes of the HEADER record are frozen across format versions (kind 1 at 0,
 * major at 8, minor at 12, magic at 40), so that any reader can tell a journal and its version.
 * A new minor version may add kinds and tail fields; a new major version may change anything else.
 *
 * <p>Threading: constants and stateless helpers.
 */
final class JournalDescriptor
{
    static final int FORMAT_MAJOR = 1;
    static final int FORMAT_MINOR = 0;
    /** "FWJOURNL" as it reads in the file. */
    static final long MAGIC = 0x4C4E52554F4A5746L;

    static final int KIND_OFFSET = 0;
    static final int AUX_OFFSET = 1;
    static final int WORKER_OFFSET = 4;
    static final int NODE_OFFSET = 8;
    static final int STREAM_OFFSET = 12;
    static final int NANOS_OFFSET = 16;
    static final int TIMESTAMP_OFFSET = 24;
    static final int VALUE_OFFSET = 32;
    static final int FIXED_LENGTH = 40;

    static final int HEADER = JournalRecord.Kind.HEADER.code;
    static final int RUN_START = JournalRecord.Kind.RUN_START.code;
    static final int GRAPH_INPUT = JournalRecord.Kind.GRAPH_INPUT.code;
    static final int EMIT = JournalRecord.Kind.EMIT.code;
    static final int PROCESS_BEGIN = JournalRecord.Kind.PROCESS_BEGIN.code;
    static final int PROCESS_END = JournalRecord.Kind.PROCESS_END.code;
    static final int DROP = JournalRecord.Kind.DROP.code;
    static final int BOUND = JournalRecord.Kind.BOUND.code;
    static final int ERROR = JournalRecord.Kind.ERROR.code;
    static final int RUN_END = JournalRecord.Kind.RUN_END.code;
    static final int LOST = JournalRecord.Kind.LOST.code;

    static
    {
        // Chronicle writes in the platform's order and the reader reads little-endian: refuse
        // rather than write journals no other machine could read.
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new ExceptionInInitializerError("the Framewire journal needs a little-endian platform");
        }
    }

    private JournalDescriptor()
    {
    }

    /** Writes the fixed part at the Chronicle document's write position. */
    static void writeFixed(
        final Bytes<?> bytes,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        bytes.writeByte((byte)kind);
        bytes.writeByte((byte)aux);
        bytes.writeShort((short)0);
        bytes.writeInt(worker);
        bytes.writeInt(node);
        bytes.writeInt(stream);
        bytes.writeLong(nanos);
        bytes.writeLong(timestamp);
        bytes.writeLong(value);
    }

    /** Writes the fixed part into a buffer (the ASYNC ring) at {@code index}. */
    static void putFixed(
        final MutableDirectBuffer buffer,
        final int index,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        buffer.putByte(index + KIND_OFFSET, (byte)kind);
        buffer.putByte(index + AUX_OFFSET, (byte)aux);
        buffer.putShort(index + AUX_OFFSET + 1, (short)0);
        buffer.putInt(index + WORKER_OFFSET, worker);
        buffer.putInt(index + NODE_OFFSET, node);
        buffer.putInt(index + STREAM_OFFSET, stream);
        buffer.putLong(index + NANOS_OFFSET, nanos);
        buffer.putLong(index + TIMESTAMP_OFFSET, timestamp);
        buffer.putLong(index + VALUE_OFFSET, value);
    }

    static void writeText(final Bytes<?> bytes, final String text)
    {
        final byte[] utf8 = (text == null ? "" : text).getBytes(StandardCharsets.UTF_8);
        bytes.writeInt(utf8.length);
        bytes.write(utf8);
    }

    static void writeTexts(final Bytes<?> bytes, final String[] texts)
    {
        bytes.writeInt(texts.length);
        for (final String text : texts)
        {
            writeText(bytes, text);
        }
    }

    static void writeInts(final Bytes<?> bytes, final int[] values)
    {
        bytes.writeInt(values.length);
        for (final int v : values)
        {
            bytes.writeInt(v);
        }
    }
}
