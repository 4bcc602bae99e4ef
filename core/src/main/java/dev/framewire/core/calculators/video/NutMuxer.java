package dev.framewire.core.calculators.video;

import dev.framewire.offheap.PixelFormat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.GatheringByteChannel;

/**
 * Writes raw frames with their timestamps as NUT, for ffmpeg to read on its stdin
 * ({@code -f nut -i pipe:0}): the reverse of {@link NutDemuxer}, and the reason the sink keeps
 * the graph's timestamps (variable frame rate, dropped frames) where raw video on a pipe would
 * be taken as a constant rate.
 *
 * <p>Layout written: the file id; a main header (one stream, time base 1/1000000, a frame-code
 * table whose code 1 means "key frame, pts and size coded, header checksum"); a stream header
 * (the pixel format's fourcc as ffmpeg's own NUT muxer writes it, the frame size); then per frame
 * a syncpoint and a frame header, built in a small direct buffer, written with the frame's bytes
 * in one gathering write (one {@code writev(2)} from the slot's memory, no heap copy). Checksums
 * are ffmpeg's CRC-32 (polynomial 0x04C11DB7, MSB first, initial 0), which its demuxer checks.
 *
 * <p>Threading: one writing thread.
 */
final class NutMuxer
{
    private static final int FRAME_CODE = 1;
    private static final int PTS_SHIFT = 14;
    private static final int[] CRC_TABLE = crcTable();

    private final ByteBuffer header = ByteBuffer.allocateDirect(256).order(ByteOrder.BIG_ENDIAN);
    private final ByteBuffer[] gather = new ByteBuffer[2];

    /**
     * Writes the file id and headers.
     *
     * @param out    the channel (ffmpeg's stdin).
     * @param format the frames' pixel format.
     * @param width  pixels.
     * @param height pixels.
     * @throws IOException if the write fails (ffmpeg exited).
     */
    void writeHeaders(final GatheringByteChannel out, final PixelFormat format, final int width, final int height)
        throws IOException
    {
        final ByteBuffer b = ByteBuffer.allocate(512);
        b.put(NutDemuxer.FILE_ID);

        final ByteBuffer main = ByteBuffer.allocate(128);
        putV(main, 3);          // version
        putV(main, 1);          // stream count
        putV(main, 65536);      // max distance
        putV(main, 1);          // time base count
        putV(main, 1);
        putV(main, 1_000_000);
        putFrameCodes(main, NutDemuxer.FLAG_INVALID, 1); // code 0
        // codes 1..255 but 'N': key frame, coded pts, coded size, checksum
        putFrameCodes(main,
            NutDemuxer.FLAG_KEY | NutDemuxer.FLAG_CODED_PTS | NutDemuxer.FLAG_SIZE_MSB | NutDemuxer.FLAG_CHECKSUM, 254);
        putV(main, 0);          // no elision headers
        packet(b, NutDemuxer.MAIN_STARTCODE, main);

        final ByteBuffer stream = ByteBuffer.allocate(64);
        putV(stream, 0);        // stream id
        putV(stream, 0);        // video
        final byte[] fourcc = fourcc(format);
        putV(stream, fourcc.length);
        stream.put(fourcc);
        putV(stream, 0);        // time base id
        putV(stream, PTS_SHIFT);
        putV(stream, 1L << 40); // max pts distance: every frame has a checksum anyway
        putV(stream, 0);        // decode delay
        putV(stream, 0);        // flags
        putV(stream, 0);        // codec data
        putV(stream, width);
        putV(stream, height);
        putV(stream, 0);
        putV(stream, 0);
        putV(stream, 0);        // colorspace unknown
        packet(b, NutDemuxer.STREAM_STARTCODE, stream);

        b.flip();
        while (b.hasRemaining())
        {
            out.write(b);
        }
    }

    /**
     * Writes one frame: a syncpoint at its time, its header, its bytes.
     *
     * @param out    the channel.
     * @param pts    microseconds, at least 0.
     * @param frame  a view of the frame's bytes, position 0, limit its length.
     * @throws IOException if the write fails.
     */
    void writeFrame(final GatheringByteChannel out, final long pts, final ByteBuffer frame) throws IOException
    {
        final ByteBuffer h = header;
        h.clear();
        // syncpoint: startcode, forward pointer, body (global key pts, back pointer), crc
        h.putLong(NutDemuxer.SYNCPOINT_STARTCODE);
        final int bodyLength = lengthV(pts) + 1;
        putV(h, bodyLength + 4);
        final int bodyStart = h.position();
        putV(h, pts);           // t-coded with one time base: pts * 1 + 0
        putV(h, 0);             // back pointer / 16
        h.putInt(Integer.reverseBytes(crc(h, bodyStart, h.position())));
        // frame header
        final int frameStart = h.position();
        h.put((byte)FRAME_CODE);
        putV(h, pts + (1L << PTS_SHIFT)); // a full pts, not one relative to the last
        putV(h, frame.remaining());
        h.putInt(Integer.reverseBytes(crc(h, frameStart, h.position())));
        h.flip();
        final ByteBuffer[] g = gather;
        g[0] = h;
        g[1] = frame;
        try
        {
            while (frame.hasRemaining())
            {
                out.write(g);
            }
        }
        finally
        {
            g[1] = null;
        }
    }

    /** One run of the main header's frame-code table: {@code count} codes with these flags, no pts delta, size mul 1. */
    private static void putFrameCodes(final ByteBuffer main, final long flags, final long count)
    {
        putV(main, flags);
        putV(main, 6);          // fields that follow
        putS(main, 0);          // pts delta
        putV(main, 1);          // size mul
        putV(main, 0);          // stream id
        putV(main, 0);          // size lsb
        putV(main, 0);          // reserved
        putV(main, count);
    }

    private static void packet(final ByteBuffer into, final long startcode, final ByteBuffer body)
    {
        body.flip();
        into.putLong(startcode);
        putV(into, body.remaining() + 4L);
        final int start = into.position();
        into.put(body);
        into.putInt(Integer.reverseBytes(crc(into, start, into.position())));
    }

    static byte[] fourcc(final PixelFormat format)
    {
        switch (format)
        {
            case GRAY8:
                return new byte[]{'Y', '8', '0', '0'};
            case RGB24:
                return new byte[]{'R', 'G', 'B', 24};
            case RGBA32:
                return new byte[]{'R', 'G', 'B', 'A'};
            case NV12:
                return new byte[]{'N', 'V', '1', '2'};
            default:
                return new byte[]{'I', '4', '2', '0'};
        }
    }

    static void putV(final ByteBuffer b, final long value)
    {
        for (int shift = 7 * (lengthV(value) - 1); shift > 0; shift -= 7)
        {
            b.put((byte)(0x80 | (value >>> shift) & 0x7F));
        }
        b.put((byte)(value & 0x7F));
    }

    private static void putS(final ByteBuffer b, final long value)
    {
        putV(b, value > 0 ? 2 * value - 1 : -2 * value);
    }

    static int lengthV(final long value)
    {
        int n = 1;
        long v = value >>> 7;
        while (v != 0)
        {
            n++;
            v >>>= 7;
        }
        return n;
    }

    /** ffmpeg's {@code av_crc} with the AV_CRC_32_IEEE table: the byte-swapped MSB-first CRC-32. */
    static int crc(final ByteBuffer b, final int from, final int to)
    {
        int crc = 0;
        for (int i = from; i < to; i++)
        {
            crc = CRC_TABLE[(crc ^ b.get(i)) & 0xFF] ^ (crc >>> 8);
        }
        return crc;
    }

    private static int[] crcTable()
    {
        final int[] table = new int[256];
        for (int i = 0; i < 256; i++)
        {
            int c = i << 24;
            for (int j = 0; j < 8; j++)
            {
                c = (c << 1) ^ (0x04C11DB7 & (c >> 31));
            }
            table[i] = Integer.reverseBytes(c);
        }
        return table;
    }
}
