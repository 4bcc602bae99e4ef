package dev.framewire.remote;

import dev.framewire.offheap.PixelFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The wire header: fields land where docs/REMOTE.md draws them, and every kind of bad header is named. */
class RemoteDescriptorTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(256));

    @Test
    void fieldsAreWhereTheLayoutSays()
    {
        RemoteDescriptor.putHeader(buffer, 8, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_FRAME, 0, 77, 64 * 48 * 4, 123L, 99L);
        RemoteDescriptor.putFrame(buffer, 8, 64, 48, 256, PixelFormat.RGBA32);
        final ByteBuffer raw = buffer.byteBuffer().duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals('F', raw.get(8));
        assertEquals('W', raw.get(9));
        assertEquals('R', raw.get(10));
        assertEquals('S', raw.get(11));
        assertEquals(2, raw.get(8 + 4));
        assertEquals(RemoteDescriptor.PACKET, raw.get(8 + 5));
        assertEquals(RemoteDescriptor.KIND_FRAME, raw.get(8 + 6));
        assertEquals(77, raw.getInt(8 + 8));
        assertEquals(64 * 48 * 4, raw.getInt(8 + 12));
        assertEquals(123L, raw.getLong(8 + 16));
        assertEquals(99L, raw.getLong(8 + 32));
        assertEquals(64, raw.getInt(8 + 40));
        assertEquals(48, raw.getInt(8 + 44));
        assertEquals(256, raw.getInt(8 + 48));
        assertEquals(3, raw.getInt(8 + 52));
        assertEquals(96, RemoteDescriptor.HEADER_LENGTH);
        assertNull(RemoteDescriptor.invalid(buffer, 8, 96, 96 + 64 * 48 * 4, 77));
        assertEquals(PixelFormat.RGBA32, RemoteDescriptor.format(RemoteDescriptor.formatCode(buffer, 8)));
    }

    @Test
    void everyFormatHasAWireCodeThatReadsBack()
    {
        for (final PixelFormat format : PixelFormat.values())
        {
            assertEquals(format, RemoteDescriptor.format(RemoteDescriptor.formatCode(format)));
        }
        assertNull(RemoteDescriptor.format(0));
        assertNull(RemoteDescriptor.format(99));
    }

    @Test
    void badHeadersAreNamed()
    {
        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_LONG, 0, 5, 0, 1L, 0L);
        assertNull(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5));
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 20, 20, 5).startsWith("truncated message: 20 bytes"));
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 6).contains("stream id 5, this receiver's is 6"));
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 104, 104, 5).startsWith("overlong message"));

        buffer.putByte(RemoteDescriptor.VERSION_OFFSET, (byte)1);
        assertEquals("header version 1, this receiver reads version 2", RemoteDescriptor.invalid(buffer, 0, 96, 96, 5));
        buffer.putByte(RemoteDescriptor.VERSION_OFFSET, (byte)2);

        buffer.putInt(RemoteDescriptor.MAGIC_OFFSET, 0x12345678);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("magic 0x12345678"));

        RemoteDescriptor.putHeader(buffer, 0, 9, RemoteDescriptor.KIND_NONE, 0, 5, 0, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("unknown message type 9"));

        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, 7, 0, 5, 0, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("unknown packet kind 7"));

        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES, 0, 5, 100, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 106, 106, 5).startsWith("truncated message: 106 bytes, its header says 96 + 100"));
        assertNull(RemoteDescriptor.invalid(buffer, 0, 106, -1, 5), "the first fragment: the rest comes later");

        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_FRAME, 0, 5, 100, 1L, 0L);
        RemoteDescriptor.putFrame(buffer, 0, 10, 10, 10, PixelFormat.GRAY8);
        assertNull(RemoteDescriptor.invalid(buffer, 0, 196, 196, 5));
        RemoteDescriptor.putFrame(buffer, 0, 10, 10, 10, PixelFormat.RGB24);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 196, 196, 5).contains("valid strides are 30 or more"));
        RemoteDescriptor.putFrame(buffer, 0, 10, 11, 10, PixelFormat.GRAY8);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 196, 196, 5).endsWith("is 110 bytes, its header says length 100"));
        buffer.putInt(RemoteDescriptor.FORMAT_OFFSET, 42);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 196, 196, 5).startsWith("FRAME with pixel format code 42"));

        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_LONG,
            RemoteDescriptor.FLAG_ENCRYPTED, 5, 0, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("flags 0x8, valid are"), "encrypted, not authenticated");
        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_LONG, 0x40, 5, 0, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("flags 0x40, valid are"), "an unknown flag");

        RemoteDescriptor.putHeader(buffer, 0, RemoteDescriptor.BOUND, RemoteDescriptor.KIND_LONG, 0, 5, 0, 1L, 0L);
        assertTrue(RemoteDescriptor.invalid(buffer, 0, 96, 96, 5).startsWith("BOUND message with kind 1"));
    }
}
