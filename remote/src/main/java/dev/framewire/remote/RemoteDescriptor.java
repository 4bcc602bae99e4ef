package dev.framewire.remote;

import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The layout of one remote-stream message, as an Aeron message carries it: a fixed 96-byte header,
 * then, for a payload packet, the payload's bytes. Little-endian, every field at its natural
 * alignment (Aeron puts a message at a 32-byte aligned offset of its term). Static offsets and
 * stateless accessors over an Agrona buffer, as SBE's generated flyweights: nothing is allocated
 * to write or read a message.
 *
 * <pre>
 *   0                 4        5        6        7        8                 12                16
 *   +-----------------+--------+--------+--------+--------+-----------------+-----------------+
 *   | magic "FWRS"    | version| type   | kind   | flags  | stream id (int) | length (int)    |
 *   +-----------------+--------+--------+--------+--------+-----------------+-----------------+
 *   16                                  24                                  32
 *   +-----------------------------------+-----------------------------------+
 *   | timestamp (long)                  | value (long)                      |
 *   +-----------------------------------+-----------------------------------+
 *   32                                  40                44                48
 *   +-----------------------------------+-----------------+-----------------+
 *   | sequence (long)                   | width (int)     | height (int)    |
 *   +-----------------------------------+-----------------+-----------------+
 *   48                52                56
 *   +-----------------+-----------------+
 *   | stride (int)    | format (int)    |
 *   +-----------------+-----------------+
 *   56                                  64                                  72
 *   +-----------------------------------+-----------------------------------+
 *   | epoch (long)                      | message number (long)             |
 *   +-----------------------------------+-----------------------------------+
 *   72                                  80                                                    96
 *   +-----------------------------------+-----------------------------------------------------+
 *   | sent at, epoch millis (long)      | tag (16 bytes: HMAC-SHA256 truncated, or AES-GCM's) |
 *   +-----------------------------------+-----------------------------------------------------+
 *   96: length bytes of payload (kind BYTES or FRAME), nothing otherwise
 * </pre>
 *
 * <ul>
 *   <li>type: {@link #PACKET} (timestamp = the packet's), {@link #BOUND} (timestamp = the stream's
 *       new bound: the lowest timestamp its next packet may carry), {@link #CLOSE} (the stream is
 *       done; timestamp = its bound before closing; flags bit 0 = closed by a cancelled or failed
 *       run rather than by its input ending).</li>
 *   <li>kind, for a PACKET: {@link #KIND_LONG} and {@link #KIND_DOUBLE} (value = the long, or the
 *       double's raw bits), {@link #KIND_BYTES} (an off-heap payload), {@link #KIND_FRAME} (an
 *       off-heap frame: width, height, stride and format as {@link #formatCode}); {@link #KIND_NONE}
 *       for BOUND and CLOSE. Fields a kind does not use are 0.</li>
 *   <li>stream id: the publisher's Aeron stream id; a receiver drops a message for another.</li>
 *   <li>sequence: for a PACKET, how many packets the publisher handled before it (sent or dropped),
 *       so a receiver counts the packets it never got (dropped by the publisher, or sent before it
 *       joined); for BOUND and CLOSE, the next packet's.</li>
 *   <li>length: the payload's bytes after the header; the message is exactly {@code 96 + length}.</li>
 *   <li>epoch: a random number the publisher draws when it opens, naming its run; message number:
 *       counts every message of the epoch from 1 (packets, bounds, the close, sent or dropped);
 *       sent at: the publisher's wall clock. With {@link #FLAG_AUTHENTICATED} the tag authenticates
 *       the header (tag bytes as zero) and, with {@link #FLAG_PAYLOAD_AUTHENTICATED} or
 *       {@link #FLAG_ENCRYPTED}, the payload: see {@code LinkAuth}. Without, these are 0 but for
 *       the epoch and message number.</li>
 * </ul>
 *
 * <p>Versioning: a receiver reads only {@link #VERSION}; a message of another version is reported
 * and dropped, never guessed at. A later version may use the zero fields and flags; one that moves
 * a field changes the version. docs/REMOTE.md draws the same layout.
 *
 * <p>Threading: stateless.
 */
final class RemoteDescriptor
{
    /** "FWRS" (Framewire remote stream) as it reads in memory. */
    static final int MAGIC = 0x53525746;
    static final int VERSION = 2;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int TYPE_OFFSET = 5;
    static final int KIND_OFFSET = 6;
    static final int FLAGS_OFFSET = 7;
    static final int STREAM_ID_OFFSET = 8;
    static final int LENGTH_OFFSET = 12;
    static final int TIMESTAMP_OFFSET = 16;
    static final int VALUE_OFFSET = 24;
    static final int SEQUENCE_OFFSET = 32;
    static final int WIDTH_OFFSET = 40;
    static final int HEIGHT_OFFSET = 44;
    static final int STRIDE_OFFSET = 48;
    static final int FORMAT_OFFSET = 52;
    static final int EPOCH_OFFSET = 56;
    static final int MESSAGE_OFFSET = 64;
    static final int SENT_OFFSET = 72;
    static final int TAG_OFFSET = 80;
    static final int TAG_LENGTH = 16;
    static final int HEADER_LENGTH = 96;

    static final int PACKET = 1;
    static final int BOUND = 2;
    static final int CLOSE = 3;

    static final int KIND_NONE = 0;
    static final int KIND_LONG = 1;
    static final int KIND_DOUBLE = 2;
    static final int KIND_BYTES = 3;
    static final int KIND_FRAME = 4;

    /** CLOSE flag: the publisher's run was cancelled or failed; its input did not end. */
    static final int FLAG_CANCELLED = 1;
    /** The tag authenticates the header, under the link's key. */
    static final int FLAG_AUTHENTICATED = 2;
    /** The tag authenticates the payload too (HMAC-SHA256 over header and payload). */
    static final int FLAG_PAYLOAD_AUTHENTICATED = 4;
    /** The payload is AES-GCM ciphertext; the tag is GCM's, over the header and the payload. */
    static final int FLAG_ENCRYPTED = 8;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    /**
     * Wire codes of the pixel formats, fixed here rather than taken from the enum's ordinals, so
     * that reordering {@link PixelFormat} cannot change what a message means.
     */
    private static final PixelFormat[] FORMATS = {
        null, PixelFormat.GRAY8, PixelFormat.RGB24, PixelFormat.RGBA32, PixelFormat.NV12, PixelFormat.I420};

    private RemoteDescriptor()
    {
    }

    static int formatCode(final PixelFormat format)
    {
        switch (format)
        {
            case GRAY8:
                return 1;
            case RGB24:
                return 2;
            case RGBA32:
                return 3;
            case NV12:
                return 4;
            case I420:
                return 5;
            default:
                throw new IllegalArgumentException("pixel format " + format + " has no wire code");
        }
    }

    /** The format of a wire code, or null for an unknown code. */
    static PixelFormat format(final int code)
    {
        return code > 0 && code < FORMATS.length ? FORMATS[code] : null;
    }

    // ---------------------------------------------------------------- writing

    /** Writes a header with the common fields; the kind-specific ones are zeroed. */
    static void putHeader(
        final MutableDirectBuffer buffer,
        final int offset,
        final int type,
        final int kind,
        final int flags,
        final int streamId,
        final int length,
        final long timestamp,
        final long sequence)
    {
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putByte(offset + VERSION_OFFSET, (byte)VERSION);
        buffer.putByte(offset + TYPE_OFFSET, (byte)type);
        buffer.putByte(offset + KIND_OFFSET, (byte)kind);
        buffer.putByte(offset + FLAGS_OFFSET, (byte)flags);
        buffer.putInt(offset + STREAM_ID_OFFSET, streamId, ORDER);
        buffer.putInt(offset + LENGTH_OFFSET, length, ORDER);
        buffer.putLong(offset + TIMESTAMP_OFFSET, timestamp, ORDER);
        buffer.putLong(offset + VALUE_OFFSET, 0L, ORDER);
        buffer.putLong(offset + SEQUENCE_OFFSET, sequence, ORDER);
        buffer.putLong(offset + WIDTH_OFFSET, 0L, ORDER); // width and height
        buffer.putLong(offset + STRIDE_OFFSET, 0L, ORDER); // stride and format
        buffer.putLong(offset + EPOCH_OFFSET, 0L, ORDER);
        buffer.putLong(offset + MESSAGE_OFFSET, 0L, ORDER);
        buffer.putLong(offset + SENT_OFFSET, 0L, ORDER);
        buffer.putLong(offset + TAG_OFFSET, 0L, ORDER);
        buffer.putLong(offset + TAG_OFFSET + 8, 0L, ORDER);
    }

    /** Writes who sent the message and when: the publisher's epoch, the message's number, its wall clock. */
    static void putOrigin(
        final MutableDirectBuffer buffer,
        final int offset,
        final long epoch,
        final long message,
        final long sentMillis)
    {
        buffer.putLong(offset + EPOCH_OFFSET, epoch, ORDER);
        buffer.putLong(offset + MESSAGE_OFFSET, message, ORDER);
        buffer.putLong(offset + SENT_OFFSET, sentMillis, ORDER);
    }

    static void putValue(final MutableDirectBuffer buffer, final int offset, final long value)
    {
        buffer.putLong(offset + VALUE_OFFSET, value, ORDER);
    }

    static void putFrame(
        final MutableDirectBuffer buffer,
        final int offset,
        final int width,
        final int height,
        final int stride,
        final PixelFormat format)
    {
        buffer.putInt(offset + WIDTH_OFFSET, width, ORDER);
        buffer.putInt(offset + HEIGHT_OFFSET, height, ORDER);
        buffer.putInt(offset + STRIDE_OFFSET, stride, ORDER);
        buffer.putInt(offset + FORMAT_OFFSET, formatCode(format), ORDER);
    }

    // ---------------------------------------------------------------- reading

    static int magic(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + MAGIC_OFFSET, ORDER);
    }

    static int version(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + VERSION_OFFSET) & 0xFF;
    }

    static int type(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + TYPE_OFFSET) & 0xFF;
    }

    static int kind(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + KIND_OFFSET) & 0xFF;
    }

    static int flags(final DirectBuffer buffer, final int offset)
    {
        return buffer.getByte(offset + FLAGS_OFFSET) & 0xFF;
    }

    static int streamId(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + STREAM_ID_OFFSET, ORDER);
    }

    static int length(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER);
    }

    static long timestamp(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + TIMESTAMP_OFFSET, ORDER);
    }

    static long value(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + VALUE_OFFSET, ORDER);
    }

    static long sequence(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SEQUENCE_OFFSET, ORDER);
    }

    static int width(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + WIDTH_OFFSET, ORDER);
    }

    static int height(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + HEIGHT_OFFSET, ORDER);
    }

    static int stride(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + STRIDE_OFFSET, ORDER);
    }

    static int formatCode(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset + FORMAT_OFFSET, ORDER);
    }

    static long epoch(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + EPOCH_OFFSET, ORDER);
    }

    static long message(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + MESSAGE_OFFSET, ORDER);
    }

    static long sentMillis(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + SENT_OFFSET, ORDER);
    }

    /**
     * Checks the header of a message whose first {@code available} bytes are at {@code offset}, of
     * {@code messageLength} bytes in all (known for an unfragmented message; for the first fragment
     * of a fragmented one, pass -1: only the header is checked then, and the rest as it arrives).
     *
     * @param expectedStreamId the stream id the receiver listens to.
     * @return null when valid, else what is wrong and what would be valid (allocated: a bad
     *         message is rare, and reported).
     */
    static String invalid(
        final DirectBuffer buffer,
        final int offset,
        final int available,
        final int messageLength,
        final int expectedStreamId)
    {
        if (available < HEADER_LENGTH)
        {
            return "truncated message: " + available + " bytes, shorter than the " + HEADER_LENGTH + "-byte header";
        }
        final int magic = magic(buffer, offset);
        if (magic != MAGIC)
        {
            return "magic 0x" + Integer.toHexString(magic) + " is not a Framewire remote stream's (0x" +
                Integer.toHexString(MAGIC) + ", \"FWRS\"): another application on this channel and stream id?";
        }
        final int version = version(buffer, offset);
        if (version != VERSION)
        {
            return "header version " + version + ", this receiver reads version " + VERSION;
        }
        final int streamId = streamId(buffer, offset);
        if (streamId != expectedStreamId)
        {
            return "message for stream id " + streamId + ", this receiver's is " + expectedStreamId;
        }
        final int type = type(buffer, offset);
        final int kind = kind(buffer, offset);
        final int length = length(buffer, offset);
        final int flags = flags(buffer, offset);
        if ((flags & ~(FLAG_CANCELLED | FLAG_AUTHENTICATED | FLAG_PAYLOAD_AUTHENTICATED | FLAG_ENCRYPTED)) != 0 ||
            ((flags & (FLAG_PAYLOAD_AUTHENTICATED | FLAG_ENCRYPTED)) != 0 && (flags & FLAG_AUTHENTICATED) == 0))
        {
            return "flags 0x" + Integer.toHexString(flags) + ", valid are bits 0x1 (cancelled), 0x2 (authenticated), " +
                "0x4 (payload authenticated) and 0x8 (encrypted), the last two only with 0x2";
        }
        if (type == BOUND || type == CLOSE)
        {
            if (kind != KIND_NONE || length != 0)
            {
                return typeName(type) + " message with kind " + kind + " and length " + length + ", valid is kind 0 " +
                    "and length 0";
            }
        }
        else if (type != PACKET)
        {
            return "unknown message type " + type + ", valid are 1 (PACKET), 2 (BOUND), 3 (CLOSE)";
        }
        else if (kind == KIND_LONG || kind == KIND_DOUBLE)
        {
            if (length != 0)
            {
                return "PACKET of kind " + kindName(kind) + " with length " + length + ", valid is 0";
            }
        }
        else if (kind == KIND_BYTES || kind == KIND_FRAME)
        {
            if (length <= 0)
            {
                return "PACKET of kind " + kindName(kind) + " with length " + length + ", valid is 1 or more";
            }
            if (kind == KIND_FRAME)
            {
                final String frame = invalidFrame(buffer, offset, length);
                if (frame != null)
                {
                    return frame;
                }
            }
        }
        else
        {
            return "unknown packet kind " + kind + ", valid are 1 (LONG), 2 (DOUBLE), 3 (BYTES), 4 (FRAME)";
        }
        if (messageLength >= 0 && messageLength != HEADER_LENGTH + length)
        {
            return (messageLength < HEADER_LENGTH + length ? "truncated message: " : "overlong message: ") +
                messageLength + " bytes, its header says " + HEADER_LENGTH + " + " + length;
        }
        return null;
    }

    private static String invalidFrame(final DirectBuffer buffer, final int offset, final int length)
    {
        final PixelFormat format = format(formatCode(buffer, offset));
        if (format == null)
        {
            return "FRAME with pixel format code " + formatCode(buffer, offset) +
                ", valid are 1 (GRAY8), 2 (RGB24), 3 (RGBA32), 4 (NV12), 5 (I420)";
        }
        final int width = width(buffer, offset);
        final int height = height(buffer, offset);
        final int stride = stride(buffer, offset);
        // every frame passes here: the messages are built only for a bad one
        if (width <= 0 || height <= 0)
        {
            return shape(width, height, format, stride) + ": width and height must be positive";
        }
        final long bytes;
        try
        {
            final int minStride = format.minStride(width);
            if (stride < minStride || (format == PixelFormat.I420 && (stride & 1) != 0))
            {
                return shape(width, height, format, stride) + ": valid strides are " + minStride + " or more" +
                    (format == PixelFormat.I420 ? ", even" : "");
            }
            bytes = format.frameBytes(height, stride);
        }
        catch (final IllegalArgumentException ex)
        {
            return shape(width, height, format, stride) + ": " + ex.getMessage();
        }
        if (bytes != length)
        {
            return shape(width, height, format, stride) + " is " + bytes + " bytes, its header says length " + length;
        }
        return null;
    }

    private static String shape(final int width, final int height, final PixelFormat format, final int stride)
    {
        return "FRAME " + width + "x" + height + " " + format + " with stride " + stride;
    }

    static String typeName(final int type)
    {
        switch (type)
        {
            case PACKET:
                return "PACKET";
            case BOUND:
                return "BOUND";
            case CLOSE:
                return "CLOSE";
            default:
                return "type " + type;
        }
    }

    static String kindName(final int kind)
    {
        switch (kind)
        {
            case KIND_NONE:
                return "NONE";
            case KIND_LONG:
                return "LONG";
            case KIND_DOUBLE:
                return "DOUBLE";
            case KIND_BYTES:
                return "BYTES";
            case KIND_FRAME:
                return "FRAME";
            default:
                return "kind " + kind;
        }
    }
}
