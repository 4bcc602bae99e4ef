package dev.framewire.core.calculators.video;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

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
 * <p>Reading: headers go through a small direct read-ahead buffer; frame data goes from the
 * channel straight into the destination (a pooled slot's {@code ByteBuffer} view), after the
 * few bytes the read-ahead already took. Nothing is allocated per frame.
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

    private static final int READ_AHEAD = 8192;
    private static final int MAX_HEADER_PACKET = READ_AHEAD;

    private final ByteBuffer ahead = ByteBuffer.allocateDirect(READ_AHEAD);
    private final UnsafeBuffer aheadView = new UnsafeBuffer(ahead);
    private ReadableByteChannel channel;
    /** Bytes read from the channel so far. */
    private long consumed;
    private volatile long blockedSinceNanos;

    private final int[] codeFlags = new int[256];
    private final int[] codeStream = new int[256];
    private final long[] codeMul = new long[256];
    private final long[] codeLsb = new long[256];
    private final long[] codePtsDelta = new long[256];
    private final long[] codeReserved = new long[256];
    private final long[] codeHeaderIdx = new long[256];
    private long[] timeBaseNum = new long[0];
    private long[] timeBaseDen = new long[0];
    private int[] headerLen = {0};
    private boolean mainSeen;
    private int streamCount;

    private boolean streamSeen;
    private int width;
    private int height;
    private String fourcc = "";
    private long tbNum;
    private long tbDen;
    private int msbPtsShift;
    private long lastPts;
    private long pts;

    /**
     * Starts over on a new channel: a new ffmpeg process.
     *
     * @param channel the child's stdout.
     */
    void reset(final ReadableByteChannel channel)
    {
        this.channel = channel;
        ahead.clear().limit(0);
        consumed = 0;
        blockedSinceNanos = 0;
        mainSeen = false;
        streamSeen = false;
        streamCount = 0;
        headerLen = new int[]{0};
        width = 0;
        height = 0;
        lastPts = 0;
    }

    /**
     * Reads the file id and the headers up to the first stream's.
     *
     * @return false if the channel ended before the file id (ffmpeg wrote nothing).
     * @throws IOException on a read error or data that is not what ffmpeg's NUT muxer writes.
     */
    boolean readHeaders() throws IOException
    {
        if (!fill(FILE_ID.length))
        {
            if (ahead.remaining() == 0)
            {
                return false;
            }
            throw malformed("the stream ended inside the file id");
        }
        for (int i = 0; i < FILE_ID.length; i++)
        {
            if (ahead.get() != FILE_ID[i])
            {
                throw malformed("no NUT file id at the start");
            }
        }
        while (!streamSeen)
        {
            if (!fill(8))
            {
                if (ahead.remaining() == 0)
                {
                    return false;
                }
                throw malformed("the stream ended inside a startcode");
            }
            if ((ahead.get(ahead.position()) & 0xFF) != 'N')
            {
                throw malformed("a frame before the stream header");
            }
            packet(getLong());
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
        while (true)
        {
            if (!fill(1))
            {
                return -1;
            }
            final int code = ahead.get(ahead.position()) & 0xFF;
            if (code == 'N')
            {
                if (!fill(8))
                {
                    throw malformed("the stream ended inside a startcode");
                }
                packet(getLong());
                continue;
            }
            ahead.get();
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
        final ByteBuffer ahead = this.ahead;
        final int buffered = Math.min(ahead.remaining(), size);
        if (buffered > 0)
        {
            dst.putBytes(0, aheadView, ahead.position(), buffered);
            ahead.position(ahead.position() + buffered);
        }
        view.limit(size).position(buffered);
        while (view.hasRemaining())
        {
            if (read(view) < 0)
            {
                return false;
            }
        }
        return true;
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
        long left = size;
        while (left > 0)
        {
            if (ahead.remaining() == 0 && !fill(1))
            {
                return false;
            }
            final int n = (int)Math.min(left, ahead.remaining());
            ahead.position(ahead.position() + n);
            left -= n;
        }
        return true;
    }

    int width()
    {
        return width;
    }

    int height()
    {
        return height;
    }

    String fourcc()
    {
        return fourcc;
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
        return toMicros(pts, tbNum, tbDen);
    }

    String timeBase()
    {
        return tbNum + "/" + tbDen;
    }

    /**
     * Since when the reading thread has been waiting in a channel read, on {@code nanoTime}.
     *
     * @return nanos, or 0 while it is not blocked in a read.
     */
    long blockedSinceNanos()
    {
        return blockedSinceNanos;
    }

    /** Bytes of the stream decoded so far, for messages. */
    long offset()
    {
        return consumed - ahead.remaining();
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
        final long forward = getV();
        if (forward < 0)
        {
            throw malformed("a packet's forward pointer " + Long.toUnsignedString(forward) + ", beyond 2^63");
        }
        if (forward > 4096)
        {
            skipInPacket(4);
        }
        if (startcode == MAIN_STARTCODE || startcode == STREAM_STARTCODE || startcode == SYNCPOINT_STARTCODE)
        {
            if (forward > MAX_HEADER_PACKET)
            {
                throw malformed("a header packet of " + forward + " bytes, more than the " + MAX_HEADER_PACKET +
                    " this reader takes");
            }
            if (!fill((int)forward))
            {
                throw malformed("the stream ended inside a header packet");
            }
            final int end = ahead.position() + (int)forward;
            if (startcode == MAIN_STARTCODE)
            {
                mainHeader(end);
            }
            else if (startcode == STREAM_STARTCODE)
            {
                streamHeader(end);
            }
            else
            {
                syncpoint();
            }
            if (ahead.position() > end)
            {
                throw malformed("a header packet longer than its forward pointer");
            }
            ahead.position(end);
        }
        else if (!skip(forward))
        {
            throw malformed("the stream ended inside a packet");
        }
    }

    private void skipInPacket(final int n) throws IOException
    {
        if (!skip(n))
        {
            throw malformed("the stream ended inside a packet header");
        }
    }

    private void mainHeader(final int end) throws IOException
    {
        final long version = getV();
        if (version < 3 || version > 4)
        {
            throw malformed("NUT version " + version + "; this reader takes 3 and 4");
        }
        if (version > 3)
        {
            getV(); // minor version
        }
        streamCount = (int)getV();
        getV(); // max_distance
        final int tbCount = (int)getV();
        if (tbCount <= 0 || tbCount > 256)
        {
            throw malformed("time base count " + tbCount);
        }
        timeBaseNum = new long[tbCount];
        timeBaseDen = new long[tbCount];
        for (int i = 0; i < tbCount; i++)
        {
            timeBaseNum[i] = getV();
            timeBaseDen[i] = getV();
            if (timeBaseNum[i] <= 0 || timeBaseDen[i] <= 0)
            {
                throw malformed("time base " + timeBaseNum[i] + "/" + timeBaseDen[i]);
            }
        }
        long tmpPts = 0;
        long tmpMul = 1;
        long tmpStream = 0;
        long tmpMatch = 1L << 62;
        long tmpHeadIdx = 0;
        for (int i = 0; i < 256; )
        {
            final long tmpFlags = getV();
            final long fields = getV();
            if (fields > 0)
            {
                tmpPts = getS();
            }
            if (fields > 1)
            {
                tmpMul = getV();
            }
            if (fields > 2)
            {
                tmpStream = getV();
            }
            final long tmpSize = fields > 3 ? getV() : 0;
            final long tmpRes = fields > 4 ? getV() : 0;
            final long count = fields > 5 ? getV() : tmpMul - tmpSize;
            if (fields > 6)
            {
                tmpMatch = getS();
            }
            if (fields > 7)
            {
                tmpHeadIdx = getV();
            }
            for (long j = 8; j < fields; j++)
            {
                getV();
            }
            if (count <= 0 || count > 256 - (i <= 'N' ? 1 : 0) - i)
            {
                throw malformed("frame-code count " + count + " at code " + i);
            }
            for (long j = 0; j < count; j++, i++)
            {
                if (i == 'N')
                {
                    codeFlags[i] = FLAG_INVALID;
                    j--;
                    continue;
                }
                codeFlags[i] = (int)tmpFlags;
                codeStream[i] = (int)tmpStream;
                codeMul[i] = tmpMul;
                codeLsb[i] = tmpSize + j;
                codePtsDelta[i] = tmpPts;
                codeReserved[i] = tmpRes;
                codeHeaderIdx[i] = tmpHeadIdx;
            }
        }
        if (end - ahead.position() > 4)
        {
            final int count = (int)getV() + 1;
            if (count <= 0 || count > 128)
            {
                throw malformed("elision header count " + count);
            }
            headerLen = new int[count];
            for (int i = 1; i < count; i++)
            {
                headerLen[i] = (int)getV();
                if (headerLen[i] < 0 || headerLen[i] > 255 || ahead.position() + headerLen[i] > end)
                {
                    throw malformed("elision header length " + headerLen[i]);
                }
                ahead.position(ahead.position() + headerLen[i]);
            }
        }
        mainSeen = true;
    }

    private void streamHeader(final int end) throws IOException
    {
        if (!mainSeen)
        {
            throw malformed("a stream header before the main header");
        }
        final long id = getV();
        final long streamClass = getV();
        final long fourccCoded = getV();
        if (fourccCoded < 0 || fourccCoded > end - ahead.position()) // never position + length: it can overflow
        {
            throw malformed("fourcc length " + Long.toUnsignedString(fourccCoded) + ", past the stream header's end");
        }
        final int fourccLength = (int)fourccCoded;
        final StringBuilder tag = new StringBuilder(fourccLength);
        for (int i = 0; i < fourccLength; i++)
        {
            final int c = ahead.get() & 0xFF;
            tag.append(c >= 32 && c < 127 ? (char)c : '.');
        }
        final long timeBaseId = getV();
        final long shift = getV();
        getV(); // max_pts_distance
        getV(); // decode_delay
        getV(); // stream flags
        final long extradataCoded = getV();
        if (extradataCoded < 0 || extradataCoded > end - ahead.position())
        {
            throw malformed("codec data length " + Long.toUnsignedString(extradataCoded) + ", past the stream header's end");
        }
        final int extradata = (int)extradataCoded;
        ahead.position(ahead.position() + extradata);
        if (id != 0)
        {
            return; // ffmpeg is asked for one stream; any other is ignored, and so are its frames
        }
        if (streamClass != 0)
        {
            throw malformed("stream 0 is not video (class " + streamClass + ")");
        }
        if (timeBaseId < 0 || timeBaseId >= timeBaseNum.length || shift < 0 || shift > 62)
        {
            throw malformed("stream header time base " + timeBaseId + " or pts shift " + shift);
        }
        final long w = getV();
        final long h = getV();
        if (w <= 0 || h <= 0 || w > 65536 || h > 65536)
        {
            throw malformed("frame size " + w + "x" + h);
        }
        width = (int)w;
        height = (int)h;
        fourcc = tag.toString();
        tbNum = timeBaseNum[(int)timeBaseId];
        tbDen = timeBaseDen[(int)timeBaseId];
        msbPtsShift = (int)shift;
        streamSeen = true;
    }

    private void syncpoint() throws IOException
    {
        final long coded = getV();
        getV(); // back_ptr_div16
        if (!streamSeen)
        {
            throw malformed("a syncpoint before the stream header");
        }
        if (coded < 0)
        {
            throw malformed("syncpoint time " + Long.toUnsignedString(coded) + " beyond 2^63");
        }
        final int n = timeBaseNum.length;
        final int tb = (int)(coded % n);
        final long ts = coded / n;
        // the stream's last pts becomes the syncpoint's time, rescaled to the stream's time base
        try
        {
            lastPts = timeBaseNum[tb] == tbNum && timeBaseDen[tb] == tbDen ? ts :
                Math.floorDiv(Math.multiplyExact(Math.multiplyExact(ts, timeBaseNum[tb]), tbDen),
                    Math.multiplyExact(timeBaseDen[tb], tbNum));
        }
        catch (final ArithmeticException ex)
        {
            throw malformed("syncpoint time " + ts + " in time base " + timeBaseNum[tb] + "/" + timeBaseDen[tb] +
                " overflows in the stream's time base " + tbNum + "/" + tbDen);
        }
    }

    /** Decodes a frame header after its code; returns the data size, or -1 after skipping another stream's frame. */
    private long frameHeader(final int code) throws IOException
    {
        if (!streamSeen)
        {
            throw malformed("a frame before the stream header");
        }
        int flags = codeFlags[code];
        if ((flags & FLAG_INVALID) != 0)
        {
            throw malformed("invalid frame code " + code);
        }
        long size = codeLsb[code];
        long stream = codeStream[code];
        long headerIdx = codeHeaderIdx[code];
        long reserved = codeReserved[code];
        if ((flags & FLAG_CODED) != 0)
        {
            flags ^= (int)getV();
        }
        if ((flags & FLAG_STREAM_ID) != 0)
        {
            stream = getV();
        }
        final long framePts;
        if ((flags & FLAG_CODED_PTS) != 0)
        {
            final long coded = getV();
            final long range = 1L << msbPtsShift;
            if (coded < range)
            {
                final long mask = range - 1;
                final long delta = lastPts - mask / 2;
                framePts = ((coded - delta) & mask) + delta;
            }
            else
            {
                framePts = coded - range;
            }
        }
        else
        {
            framePts = lastPts + codePtsDelta[code];
        }
        if ((flags & FLAG_SIZE_MSB) != 0)
        {
            size += codeMul[code] * getV();
        }
        if ((flags & FLAG_MATCH_TIME) != 0)
        {
            getS();
        }
        if ((flags & FLAG_HEADER_IDX) != 0)
        {
            headerIdx = getV();
        }
        if ((flags & FLAG_RESERVED) != 0)
        {
            reserved = getV();
        }
        for (long i = 0; i < reserved; i++)
        {
            getV();
        }
        if (size > 4096)
        {
            headerIdx = 0;
        }
        if (headerIdx != 0)
        {
            throw malformed("a frame with an elided header (index " + headerIdx + "), which raw video never has");
        }
        if ((flags & FLAG_CHECKSUM) != 0)
        {
            skipInPacket(4);
        }
        if ((flags & FLAG_SM_DATA) != 0)
        {
            throw malformed("a frame with side data, which this reader does not take");
        }
        if (stream != 0)
        {
            if (!skip(size))
            {
                throw malformed("the stream ended inside a frame of stream " + stream);
            }
            return -1;
        }
        lastPts = framePts;
        pts = framePts;
        return size;
    }

    // ------------------------------------------------------------------ primitives

    private long getLong() throws IOException
    {
        final long v = ahead.getLong();
        return v;
    }

    private long getV() throws IOException
    {
        long value = 0;
        for (int i = 0; i < 10; i++)
        {
            if (ahead.remaining() == 0 && !fill(1))
            {
                throw malformed("the stream ended inside a number");
            }
            final int b = ahead.get() & 0xFF;
            value = (value << 7) | (b & 0x7F);
            if ((b & 0x80) == 0)
            {
                return value;
            }
        }
        throw malformed("a number longer than 64 bits");
    }

    private long getS() throws IOException
    {
        final long v = getV() + 1;
        return (v & 1) != 0 ? -(v >>> 1) : v >>> 1;
    }

    /**
     * Makes {@code n} bytes available in the read-ahead, reading as much as the channel gives.
     *
     * @return false if the channel ended first (what was there stays available).
     */
    private boolean fill(final int n) throws IOException
    {
        final ByteBuffer ahead = this.ahead;
        if (ahead.remaining() >= n)
        {
            return true;
        }
        ahead.compact();
        try
        {
            while (ahead.position() < n)
            {
                if (read(ahead) < 0)
                {
                    return false;
                }
            }
            return true;
        }
        finally
        {
            ahead.flip();
        }
    }

    private int read(final ByteBuffer into) throws IOException
    {
        blockedSinceNanos = System.nanoTime() | 1; // never 0 while blocked
        try
        {
            final int n = channel.read(into);
            if (n > 0)
            {
                consumed += n;
            }
            return n;
        }
        finally
        {
            blockedSinceNanos = 0;
        }
    }

    private IOException malformed(final String what)
    {
        return new IOException("unexpected NUT stream from ffmpeg near byte " + offset() + ": " + what);
    }
}
