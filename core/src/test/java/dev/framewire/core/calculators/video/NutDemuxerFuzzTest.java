package dev.framewire.core.calculators.video;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.framewire.offheap.PixelFormat;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes the video source's container reader, {@link NutDemuxer}, over what an ffmpeg child could
 * write on its stdout, driven as {@code VideoSourceCalculator} drives it: the headers, then frame
 * after frame, each read into a frame-sized buffer when it has the stream's size (GRAY8 here) or
 * skipped when not. The only failure allowed is the demuxer's {@link IOException} saying
 * "unexpected NUT stream from ffmpeg near byte N: what"; any other exception, an out-of-memory or
 * a hang is a finding.
 *
 * <p>Seeds under {@code NutDemuxerFuzzTestInputs/demux/}: small NUT streams recorded by ffmpeg
 * 5.1 ({@code -f lavfi -i testsrc -c:v rawvideo -f nut}: GRAY8, RGB24 and I420, a few frames
 * each).
 */
class NutDemuxerFuzzTest
{
    /** Frames larger than this are skipped, not read: the fuzzer's inputs are small anyway. */
    private static final int MAX_READ = 1 << 20;
    /** Frames per input at most: a tiny frame code table can make many frames of few bytes. */
    private static final int MAX_FRAMES = 100_000;

    private final NutDemuxer demuxer = new NutDemuxer();

    @FuzzTest
    void demux(final byte[] data)
    {
        demuxer.reset(Channels.newChannel(new ByteArrayInputStream(data)));
        try
        {
            if (!demuxer.readHeaders())
            {
                return;
            }
            final int width = demuxer.width();
            final int height = demuxer.height();
            assertTrue(width > 0 && height > 0, "a stream header gives a positive frame size: " + width + "x" + height);
            final long frameBytes = PixelFormat.GRAY8.frameBytes(height, PixelFormat.GRAY8.minStride(width));
            for (int i = 0; i < MAX_FRAMES; i++)
            {
                final long before = demuxer.offset();
                final long size = demuxer.nextFrame();
                if (size < 0)
                {
                    return;
                }
                assertTrue(demuxer.offset() > before, "a frame header takes bytes");
                demuxer.ptsMicros();
                if (!(size == frameBytes && size <= MAX_READ ? read((int)size) : demuxer.skip(size)))
                {
                    return; // the stream ended inside the frame's data, which the source reports
                }
            }
        }
        catch (final IOException ex)
        {
            assertTrue(ex.getMessage().startsWith("unexpected NUT stream from ffmpeg near byte "), ex.getMessage());
        }
    }

    private boolean read(final int size) throws IOException
    {
        final ByteBuffer view = ByteBuffer.allocateDirect(size);
        final boolean complete = demuxer.readData(new UnsafeBuffer(view), view, size);
        assertEquals(size, complete ? view.position() : size, "a complete read fills the frame");
        return complete;
    }
}
