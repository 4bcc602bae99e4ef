package dev.framewire.remote;

import dev.framewire.offheap.PixelFormat;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

import static dev.framewire.remote.RemoteDescriptor.BOUND;
import static dev.framewire.remote.RemoteDescriptor.CLOSE;
import static dev.framewire.remote.RemoteDescriptor.HEADER_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.KIND_BYTES;
import static dev.framewire.remote.RemoteDescriptor.KIND_DOUBLE;
import static dev.framewire.remote.RemoteDescriptor.KIND_FRAME;
import static dev.framewire.remote.RemoteDescriptor.KIND_LONG;
import static dev.framewire.remote.RemoteDescriptor.KIND_NONE;
import static dev.framewire.remote.RemoteDescriptor.PACKET;

/**
 * {@link RemoteWireFuzzTest}'s seeds, written as {@code AeronPublisherCalculator} writes its
 * messages (the same {@link RemoteDescriptor} and {@link LinkAuth} calls, in the same order), one
 * seed per security mode: a LONG, a DOUBLE, a BYTES packet in two fragments, a 4x2 GRAY8 FRAME, a
 * BOUND and a CLOSE, from one publisher run (epoch) sent at a fixed time, so the seeds are the
 * same bytes on every run.
 */
final class RemoteWireSeeds
{
    static final long EPOCH = 0x5EED_0001_0002_0003L;
    /**
     * Sent in 2191: after any receiver started (a first message of a publisher run sent before the
     * receiver started is refused as a replay) and within the harness's freshness of now.
     */
    static final long SENT_MILLIS = 7_000_000_000_000L;
    /** Packets each seed delivers: LONG, DOUBLE, BYTES, FRAME. */
    static final int PACKETS = 4;

    private final int mode;
    private final LinkSecurity security;
    private final LinkAuth auth;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private long message;
    private long sequence;

    private RemoteWireSeeds(final int mode)
    {
        this.mode = mode;
        this.security = RemoteWireFuzzTest.security(mode);
        this.auth = security.key == null ? null : new LinkAuth(security.key);
        if (auth != null)
        {
            auth.epoch(EPOCH, RemoteWireFuzzTest.STREAM_ID);
        }
        out.write(mode);
    }

    /** The seed of one security mode. */
    static byte[] seed(final int mode)
    {
        final RemoteWireSeeds s = new RemoteWireSeeds(mode);
        s.control(PACKET, KIND_LONG, 1000, 42L);
        s.control(PACKET, KIND_DOUBLE, 2000, Double.doubleToRawLongBits(2.5));
        final byte[] bytes = new byte[40];
        for (int i = 0; i < bytes.length; i++)
        {
            bytes[i] = (byte)(i * 3);
        }
        s.payload(KIND_BYTES, 3000, bytes, null, 2);
        final byte[] pixels = {1, 2, 3, 4, 5, 6, 7, 8};
        s.payload(KIND_FRAME, 4000, pixels, PixelFormat.GRAY8, 1);
        s.control(BOUND, KIND_NONE, 5000, 0);
        s.control(CLOSE, KIND_NONE, 5000, 0);
        return s.out.toByteArray();
    }

    private void control(final int type, final int kind, final long ts, final long value)
    {
        final UnsafeBuffer header = new UnsafeBuffer(new byte[HEADER_LENGTH]);
        RemoteDescriptor.putHeader(header, 0, type, kind, security.flags(false), RemoteWireFuzzTest.STREAM_ID, 0,
            ts, sequence);
        RemoteDescriptor.putValue(header, 0, value);
        sequence += type == PACKET ? 1 : 0;
        origin(header);
        if (auth != null)
        {
            auth.begin(header, 0);
            auth.finish();
            auth.putTag(header, 0);
        }
        fragment(3, header.byteArray());
    }

    private void payload(final int kind, final long ts, final byte[] data, final PixelFormat format, final int fragments)
    {
        final UnsafeBuffer header = new UnsafeBuffer(new byte[HEADER_LENGTH]);
        RemoteDescriptor.putHeader(header, 0, PACKET, kind, security.flags(true), RemoteWireFuzzTest.STREAM_ID,
            data.length, ts, sequence++);
        if (format != null)
        {
            RemoteDescriptor.putFrame(header, 0, data.length / 2, 2, data.length / 2, format);
        }
        origin(header);
        byte[] body = data.clone();
        if (auth != null)
        {
            auth.begin(header, 0);
            if (mode == 3)
            {
                final ByteBuffer memory = ByteBuffer.allocateDirect(data.length + RemoteDescriptor.TAG_LENGTH);
                memory.put(data).clear();
                auth.encrypt(memory.duplicate(), memory, data.length, message, header, 0);
                body = new byte[data.length];
                memory.position(0);
                memory.get(body);
            }
            else
            {
                if (security.payloadAuthenticated)
                {
                    auth.update(new UnsafeBuffer(data), 0, data.length);
                }
                auth.finish();
                auth.putTag(header, 0);
            }
        }
        final byte[] whole = new byte[HEADER_LENGTH + body.length];
        header.getBytes(0, whole, 0, HEADER_LENGTH);
        System.arraycopy(body, 0, whole, HEADER_LENGTH, body.length);
        final int split = fragments == 1 ? whole.length : HEADER_LENGTH + body.length / 2;
        if (fragments == 1)
        {
            fragment(3, whole);
        }
        else
        {
            fragment(1, java.util.Arrays.copyOfRange(whole, 0, split));
            fragment(2, java.util.Arrays.copyOfRange(whole, split, whole.length));
        }
    }

    private void origin(final UnsafeBuffer header)
    {
        message++;
        RemoteDescriptor.putOrigin(header, 0, EPOCH, message, auth == null ? 0 : SENT_MILLIS);
    }

    /** One fragment in the fuzz input's framing: BEGIN/END flags, session 0, length, bytes. */
    private void fragment(final int flags, final byte[] bytes)
    {
        out.write(flags);
        out.write(bytes.length & 0xFF);
        out.write(bytes.length >> 8);
        out.write(bytes, 0, bytes.length);
    }
}
