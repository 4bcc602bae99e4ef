package dev.framewire.core.calculators.video;

import java.io.IOException;

/**
 * What the headers of ffmpeg's NUT stream say, as {@link NutDemuxer} decodes them: the main
 * header's time bases and frame-code table (how each frame header's first byte codes its flags,
 * stream, size and pts), stream 0's header (its frame size, fourcc, time base and pts shift),
 * and the pts coding state that syncpoints reset (the stream's last pts).
 *
 * <p>Threading: one reading thread, as {@link NutDemuxer}.
 */
final class NutHeaders
{
    // the frame-code table, by a frame header's first byte
    final int[] codeFlags = new int[256];
    final int[] codeStream = new int[256];
    final long[] codeMul = new long[256];
    final long[] codeLsb = new long[256];
    final long[] codePtsDelta = new long[256];
    final long[] codeReserved = new long[256];
    final long[] codeHeaderIdx = new long[256];

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
    /** The stream's last pts, which a frame's coded pts is relative to; a syncpoint sets it. */
    long lastPts;

    /** Forgets the last stream's headers: a new ffmpeg process. */
    void reset()
    {
        mainSeen = false;
        streamSeen = false;
        streamCount = 0;
        headerLen = new int[]{0};
        width = 0;
        height = 0;
        lastPts = 0;
    }

    boolean streamSeen()
    {
        return streamSeen;
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

    long timeBaseNum()
    {
        return tbNum;
    }

    long timeBaseDen()
    {
        return tbDen;
    }

    int msbPtsShift()
    {
        return msbPtsShift;
    }

    /**
     * Decodes the main header packet's body.
     *
     * @param in  where it is, read ahead whole.
     * @param end where the packet's body ends in the read-ahead.
     * @throws IOException on a version or table this reader does not take.
     */
    void mainHeader(final NutInput in, final int end) throws IOException
    {
        final long version = in.getV();
        if (version < 3 || version > 4)
        {
            throw in.malformed("NUT version " + version + "; this reader takes 3 and 4");
        }
        if (version > 3)
        {
            in.getV(); // minor version
        }
        streamCount = (int)in.getV();
        in.getV(); // max_distance
        final int tbCount = (int)in.getV();
        if (tbCount <= 0 || tbCount > 256)
        {
            throw in.malformed("time base count " + tbCount);
        }
        timeBaseNum = new long[tbCount];
        timeBaseDen = new long[tbCount];
        for (int i = 0; i < tbCount; i++)
        {
            timeBaseNum[i] = in.getV();
            timeBaseDen[i] = in.getV();
            if (timeBaseNum[i] <= 0 || timeBaseDen[i] <= 0)
            {
                throw in.malformed("time base " + timeBaseNum[i] + "/" + timeBaseDen[i]);
            }
        }
        frameCodes(in);
        if (end - in.position() > 4)
        {
            elisionHeaders(in, end);
        }
        mainSeen = true;
    }

    /** The main header's frame-code table: runs of codes that share their fields. */
    private void frameCodes(final NutInput in) throws IOException
    {
        long tmpPts = 0;
        long tmpMul = 1;
        long tmpStream = 0;
        long tmpHeadIdx = 0;
        for (int i = 0; i < 256; )
        {
            final long tmpFlags = in.getV();
            final long fields = in.getV();
            if (fields > 0)
            {
                tmpPts = in.getS();
            }
            if (fields > 1)
            {
                tmpMul = in.getV();
            }
            if (fields > 2)
            {
                tmpStream = in.getV();
            }
            final long tmpSize = fields > 3 ? in.getV() : 0;
            final long tmpRes = fields > 4 ? in.getV() : 0;
            final long count = fields > 5 ? in.getV() : tmpMul - tmpSize;
            if (fields > 6)
            {
                in.getS(); // match time delta: not used
            }
            if (fields > 7)
            {
                tmpHeadIdx = in.getV();
            }
            for (long j = 8; j < fields; j++)
            {
                in.getV();
            }
            if (count <= 0 || count > 256 - (i <= 'N' ? 1 : 0) - i)
            {
                throw in.malformed("frame-code count " + count + " at code " + i);
            }
            for (long j = 0; j < count; j++, i++)
            {
                if (i == 'N')
                {
                    codeFlags[i] = NutDemuxer.FLAG_INVALID;
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
    }

    /** The main header's elision headers: their lengths checked, their bytes skipped (raw video has none). */
    private void elisionHeaders(final NutInput in, final int end) throws IOException
    {
        final int count = (int)in.getV() + 1;
        if (count <= 0 || count > 128)
        {
            throw in.malformed("elision header count " + count);
        }
        headerLen = new int[count];
        for (int i = 1; i < count; i++)
        {
            headerLen[i] = (int)in.getV();
            if (headerLen[i] < 0 || headerLen[i] > 255 || in.position() + headerLen[i] > end)
            {
                throw in.malformed("elision header length " + headerLen[i]);
            }
            in.position(in.position() + headerLen[i]);
        }
    }

    /**
     * Decodes a stream header packet's body; only stream 0's is kept.
     *
     * @param in  where it is, read ahead whole.
     * @param end where the packet's body ends in the read-ahead.
     * @throws IOException on a header this reader does not take.
     */
    void streamHeader(final NutInput in, final int end) throws IOException
    {
        if (!mainSeen)
        {
            throw in.malformed("a stream header before the main header");
        }
        final long id = in.getV();
        final long streamClass = in.getV();
        final long fourccCoded = in.getV();
        if (fourccCoded < 0 || fourccCoded > end - in.position()) // never position + length: it can overflow
        {
            throw in.malformed("fourcc length " + Long.toUnsignedString(fourccCoded) + ", past the stream header's end");
        }
        final int fourccLength = (int)fourccCoded;
        final StringBuilder tag = new StringBuilder(fourccLength);
        for (int i = 0; i < fourccLength; i++)
        {
            final int c = in.get();
            tag.append(c >= 32 && c < 127 ? (char)c : '.');
        }
        final long timeBaseId = in.getV();
        final long shift = in.getV();
        in.getV(); // max_pts_distance
        in.getV(); // decode_delay
        in.getV(); // stream flags
        final long extradataCoded = in.getV();
        if (extradataCoded < 0 || extradataCoded > end - in.position())
        {
            throw in.malformed("codec data length " + Long.toUnsignedString(extradataCoded) +
                ", past the stream header's end");
        }
        in.position(in.position() + (int)extradataCoded);
        if (id != 0)
        {
            return; // ffmpeg is asked for one stream; any other is ignored, and so are its frames
        }
        if (streamClass != 0)
        {
            throw in.malformed("stream 0 is not video (class " + streamClass + ")");
        }
        if (timeBaseId < 0 || timeBaseId >= timeBaseNum.length || shift < 0 || shift > 62)
        {
            throw in.malformed("stream header time base " + timeBaseId + " or pts shift " + shift);
        }
        final long w = in.getV();
        final long h = in.getV();
        if (w <= 0 || h <= 0 || w > 65536 || h > 65536)
        {
            throw in.malformed("frame size " + w + "x" + h);
        }
        width = (int)w;
        height = (int)h;
        fourcc = tag.toString();
        tbNum = timeBaseNum[(int)timeBaseId];
        tbDen = timeBaseDen[(int)timeBaseId];
        msbPtsShift = (int)shift;
        streamSeen = true;
    }

    /**
     * Decodes a syncpoint's body: the stream's last pts becomes the syncpoint's time, rescaled to
     * the stream's time base.
     *
     * @param in where it is, read ahead whole.
     * @throws IOException on a syncpoint before the stream header, or a time that overflows.
     */
    void syncpoint(final NutInput in) throws IOException
    {
        final long coded = in.getV();
        in.getV(); // back_ptr_div16
        if (!streamSeen)
        {
            throw in.malformed("a syncpoint before the stream header");
        }
        if (coded < 0)
        {
            throw in.malformed("syncpoint time " + Long.toUnsignedString(coded) + " beyond 2^63");
        }
        final int n = timeBaseNum.length;
        final int tb = (int)(coded % n);
        final long ts = coded / n;
        try
        {
            lastPts = timeBaseNum[tb] == tbNum && timeBaseDen[tb] == tbDen ? ts :
                Math.floorDiv(Math.multiplyExact(Math.multiplyExact(ts, timeBaseNum[tb]), tbDen),
                    Math.multiplyExact(timeBaseDen[tb], tbNum));
        }
        catch (final ArithmeticException ex)
        {
            throw in.malformed("syncpoint time " + ts + " in time base " + timeBaseNum[tb] + "/" + timeBaseDen[tb] +
                " overflows in the stream's time base " + tbNum + "/" + tbDen);
        }
    }
}
