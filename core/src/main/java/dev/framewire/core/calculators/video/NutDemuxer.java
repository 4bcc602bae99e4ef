package dev.framewire.core.calculators.video;

import org.agrona.MutableDirectBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads what {@code ffmpeg -f nut -c:v rawvideo} writes: one video stream of raw frames, each
 * with its presentation time. Only the part of the NUT format (nut-container.org) that ffmpeg's
 * muxer produces for that is decoded: the main header with its frame-code table, stream
 * headers, syncpoints (which reset the time base of the pts coding) and frame headers; every
 * other packet with a startcode (info, index) is skipped by its forward pointer. Elided frame
 * headers and side data, which ffmpeg writes only for compressed codecs or on request, are
 * refused with a message.
 *
 * <p>Why NUT: it carries a pts per packet around raw video with a few bytes of header, in the
 * same pipe as the pixels, so a frame and its time can never be paired wrongly, and ffmpeg
 * writes it for any input. The alternatives each pair two channels ({@code -vf showinfo} on
 * stderr is text, parsed per frame, and checksums every frame; a second {@code framecrc} output
 * hashes every frame too).
 *
 * <p>Reading ({@link NutInput}): headers go through a small direct read-ahead buffer; frame data
 * goes from the channel straight into the destination (a pooled slot's {@code ByteBuffer} view),
 * after the few bytes the read-ahead already took. Nothing is allocated per frame. What the
 * headers say (time bases, the frame-code table, the stream's size) is kept in {@link NutHeaders}.
 *
 * <pre>
 *   file id "nut/multimedia container\0"
 *   packet:  startcode (8, 'N'...) | forward_ptr (v) | [header crc (4) if forward_ptr &gt; 4096] | body | crc (4)
 *   frame:   frame_code (1, not 'N') | coded fields per the frame-code table (v...) | [crc (4)] | data
 * </pre>
 *
 * <p>Threading: one reading thread. {@link #blockedSinceNanos()} may be read from any thread.
 */
final class NutDemuxer
{
    static final long MAIN_STARTCODE = 0x7A561F5F04ADL + ((((long)'N' << 8) + 'M') << 48);
    static final long STREAM_STARTCODE = 0x11405BF2F9DBL + ((((long)'N' << 8) + 'S') << 48);
    static final long SYNCPOINT_STARTCODE = 0xE4ADEECA4569L + ((((long)'N' << 8) + 'K') << 48);
    static final byte[] FILE_ID = "nut/multimedia container\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    static final int FLAG_KEY = 1;
    static final int FLAG_CODED_PTS = 8;
    static final int FLAG_STREAM_ID = 16;
    static final int FLAG_SIZE_MSB = 32;
    static final int FLAG_CHECKSUM = 64;
    static final int FLAG_RESERVED = 128;
    static final int FLAG_SM_DATA = 256;
    static final int FLAG_HEADER_IDX = 1024;
    static final int FLAG_MATCH_TIME = 2048;
    static final int FLAG_CODED = 4096;
    static final int FLAG_INVALID = 8192;

    private static final int MAX_HEADER_PACKET = NutInput.READ_AHEAD;

    private final NutInput in = new NutInput();
    private final NutHeaders headers = new NutHeaders();
    private long pts;

    /**
     * Starts over on a new channel: a new ffmpeg process.
     *
     * @param channel the child's stdout.
     */
    void reset(final ReadableByteChannel channel)
    {
        in.reset(channel);
        headers.reset();
    }

    /**
     * Reads the file id and the headers up to the first stream's.
     *
     * @return false if the channel ended before the file id (ffmpeg wrote nothing).
     * @throws IOException on a read error or data that is not what ffmpeg's NUT muxer writes.
     */
    boolean readHeaders() throws IOException
    {
        final NutInput in = this.in;
        if (!in.fill(FILE_ID.length))
        {
            if (in.remaining() == 0)
            {
                return false;
            }
            throw in.malformed("the stream ended inside the file id");
        }
        for (int i = 0; i < FILE_ID.length; i++)
        {
            if (in.get() != (FILE_ID[i] & 0xFF))
            {
                throw in.malformed("no NUT file id at the start");
            }
        }
        while (!headers.streamSeen())
        {
            if (!in.fill(8))
            {
                if (in.remaining() == 0)
                {
                    return false;
                }
                throw in.malformed("the stream ended inside a startcode");
            }
            if (in.peek() != 'N')
            {
                throw in.malformed("a frame before the stream header");
            }
            packet(in.getLong());
        }
        return true;
    }

    /**
     * Reads up to the next frame's data: its size is returned, its time is {@link #pts()}.
     *
     * @return the frame's data size in bytes, or -1 if the stream ended cleanly between packets.
     * @throws IOException on a read error, or a stream that ends inside a header or is malformed.
     */
    long nextFrame() throws IOException
    {
        final NutInput in = this.in;
        while (true)
        {
            if (!in.fill(1))
            {
                return -1;
            }
            final int code = in.peek();
            if (code == 'N')
            {
                if (!in.fill(8))
                {
                    throw in.malformed("the stream ended inside a startcode");
                }
                packet(in.getLong());
                continue;
            }
            in.get();
            final long size = frameHeader(code);
            if (size >= 0)
            {
                return size;
            }
        }
    }

    /**
     * Reads the current frame's data into a destination: the read-ahead part with one memory
     * copy, the rest by channel reads straight into {@code view}.
     *
     * @param dst  the destination's memory.
     * @param view a {@code ByteBuffer} over the same memory, at least {@code size} long.
     * @param size the frame's data size, from {@link #nextFrame()}.
     * @return false if the stream ended inside the data (the destination then holds a part).
     * @throws IOException on a read error.
     */
    boolean readData(final MutableDirectBuffer dst, final ByteBuffer view, final int size) throws IOException
    {
        return in.readData(dst, view, size);
    }

    /**
     * Skips the current frame's data.
     *
     * @param size its size.
     * @return false if the stream ended inside it.
     * @throws IOException on a read error.
     */
    boolean skip(final long size) throws IOException
    {
        return in.skip(size);
    }

    int width()
    {
        return headers.width();
    }

    int height()
    {
        return headers.height();
    }

    String fourcc()
    {
        return headers.fourcc();
    }

    /**
     * The current frame's presentation time, in the stream's time base.
     *
     * @return pts.
     */
    long pts()
    {
        return pts;
    }

    /**
     * The current frame's presentation time in microseconds, rounded down.
     *
     * @return microseconds.
     */
    long ptsMicros()
    {
        return toMicros(pts, headers.timeBaseNum(), headers.timeBaseDen());
    }

    String timeBase()
    {
        return headers.timeBaseNum() + "/" + headers.timeBaseDen();
    }

    /**
     * Since when the reading thread has been waiting in a channel read, on {@code nanoTime}.
     *
     * @return nanos, or 0 while it is not blocked in a read.
     */
    long blockedSinceNanos()
    {
        return in.blockedSinceNanos();
    }

    /** Bytes of the stream decoded so far, for messages. */
    long offset()
    {
        return in.offset();
    }

    static long toMicros(final long pts, final long num, final long den)
    {
        try
        {
            return Math.floorDiv(Math.multiplyExact(Math.multiplyExact(pts, num), 1_000_000L), den);
        }
        catch (final ArithmeticException ex)
        {
            return (long)Math.floor((double)pts * num * 1e6 / den);
        }
    }

    // ------------------------------------------------------------------ packets

    private void packet(final long startcode) throws IOException
    {
        final NutInput in = this.in;
        final long forward = in.getV();
        if (forward < 0)
        {
            throw in.malformed("a packet's forward pointer " + Long.toUnsignedString(forward) + ", beyond 2^63");
        }
        if (forward > 4096)
        {
            in.skipInPacket(4);
        }
        if (startcode == MAIN_STARTCODE || startcode == STREAM_STARTCODE || startcode == SYNCPOINT_STARTCODE)
        {
            if (forward > MAX_HEADER_PACKET)
            {
                throw in.malformed("a header packet of " + forward + " bytes, more than the " + MAX_HEADER_PACKET +
                    " this reader takes");
            }
            if (!in.fill((int)forward))
            {
                throw in.malformed("the stream ended inside a header packet");
            }
            final int end = in.position() + (int)forward;
            if (startcode == MAIN_STARTCODE)
            {
                headers.mainHeader(in, end);
            }
            else if (startcode == STREAM_STARTCODE)
            {
                headers.streamHeader(in, end);
            }
            else
            {
                headers.syncpoint(in);
            }
            if (in.position() > end)
            {
                throw in.malformed("a header packet longer than its forward pointer");
            }
            in.position(end);
        }
        else if (!in.skip(forward))
        {
            throw in.malformed("the stream ended inside a packet");
        }
    }

    /** Decodes a frame header after its code; returns the data size, or -1 after skipping another stream's frame. */
    private long frameHeader(final int code) throws IOException
    {
        final NutInput in = this.in;
        final NutHeaders h = headers;
        if (!h.streamSeen())
        {
            throw in.malformed("a frame before the stream header");
        }
        int flags = h.codeFlags[code];
        if ((flags & FLAG_INVALID) != 0)
        {
            throw in.malformed("invalid frame code " + code);
        }
        long size = h.codeLsb[code];
        long stream = h.codeStream[code];
        long headerIdx = h.codeHeaderIdx[code];
        long reserved = h.codeReserved[code];
        if ((flags & FLAG_CODED) != 0)
        {
            flags ^= (int)in.getV();
        }
        if ((flags & FLAG_STREAM_ID) != 0)
        {
            stream = in.getV();
        }
        final long framePts = (flags & FLAG_CODED_PTS) != 0 ? codedPts(in.getV()) :
            h.lastPts + h.codePtsDelta[code];
        if ((flags & FLAG_SIZE_MSB) != 0)
        {
            size += h.codeMul[code] * in.getV();
        }
        if ((flags & FLAG_MATCH_TIME) != 0)
        {
            in.getS();
        }
        if ((flags & FLAG_HEADER_IDX) != 0)
        {
            headerIdx = in.getV();
        }
        if ((flags & FLAG_RESERVED) != 0)
        {
            reserved = in.getV();
        }
        for (long i = 0; i < reserved; i++)
        {
            in.getV();
        }
        if (size > 4096)
        {
            headerIdx = 0;
        }
        if (headerIdx != 0)
        {
            throw in.malformed("a frame with an elided header (index " + headerIdx + "), which raw video never has");
        }
        if ((flags & FLAG_CHECKSUM) != 0)
        {
            in.skipInPacket(4);
        }
        if ((flags & FLAG_SM_DATA) != 0)
        {
            throw in.malformed("a frame with side data, which this reader does not take");
        }
        if (stream != 0)
        {
            if (!in.skip(size))
            {
                throw in.malformed("the stream ended inside a frame of stream " + stream);
            }
            return -1;
        }
        h.lastPts = framePts;
        pts = framePts;
        return size;
    }

    /** A frame's coded pts: its low bits relative to the last pts, or the whole pts offset by the range. */
    private long codedPts(final long coded)
    {
        final long range = 1L << headers.msbPtsShift();
        if (coded < range)
        {
            final long mask = range - 1;
            final long delta = headers.lastPts - mask / 2;
            return ((coded - delta) & mask) + delta;
        }
        return coded - range;
    }
}
