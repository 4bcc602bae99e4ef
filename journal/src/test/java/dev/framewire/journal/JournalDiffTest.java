package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Comparing two synthetic journals' outputs: identical, a changed checksum, a changed timestamp,
 * a shorter stream, and streams whose ids differ between the runs.
 */
@Timeout(60)
class JournalDiffTest
{
    @TempDir
    Path dir;

    /**
     * A run: stream "out" carries 10 frames (checksummed), stream "count" 10 longs.
     *
     * @param flipFrameAt a frame whose bytes differ, or -1.
     * @param countAt     a long packet whose timestamp is moved up by 1, or -1.
     * @param frames      how many frames.
     * @param swapIds     whether the run numbers its streams the other way round.
     */
    private JournalReader run(final int flipFrameAt, final int countAt, final int frames, final boolean swapIds)
        throws Exception
    {
        final String[] streams = swapIds ? new String[]{"count", "out"} : new String[]{"out", "count"};
        final int out = swapIds ? 1 : 0;
        final int count = swapIds ? 0 : 1;
        final Path run;
        try (PayloadPool pool = new PayloadPool();
            JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).checksumStreams("out")
                .mode(JournalConfig.Mode.ASYNC).blockSize(1 << 20)))
        {
            run = writer.runDirectory();
            writer.runStart("cfg", 1, "test", new String[]{"n"}, streams, new String[]{"w"});
            for (int i = 0; i < 10; i++)
            {
                final long ts = 100L * i;
                if (i < frames)
                {
                    final Payload frame = pool.acquire(256);
                    for (int b = 0; b < 256; b++)
                    {
                        frame.mutableBuffer().putByte(b, (byte)(b ^ i ^ (i == flipFrameAt ? 1 : 0)));
                    }
                    writer.emit(0, 0, out, ts, frame);
                    frame.release();
                }
                writer.emit(0, 0, count, i == countAt ? ts + 1 : ts, JournalWriter.LONG, i);
            }
            writer.runEnd("done");
        }
        return JournalReader.read(run);
    }

    @Test
    void sameOutputsAreIdenticalWhateverTheIds() throws Exception
    {
        final JournalDiff diff = JournalDiff.compare(run(-1, -1, 10, false), run(-1, -1, 10, true));
        assertTrue(diff.identical(), diff::toString);
        assertNull(diff.firstDifference());
        assertEquals(List.of("out", "count"), diff.streams());
        assertEquals("identical (2 streams compared)", diff.toString());
    }

    @Test
    void aChangedFrameIsFoundByItsChecksum() throws Exception
    {
        final JournalDiff diff = JournalDiff.compare(run(-1, -1, 10, false), run(6, -1, 10, false));
        assertFalse(diff.identical());
        final JournalDiff.Difference d = diff.firstDifference();
        assertEquals("out", d.stream());
        assertEquals(6, d.packet());
        assertEquals(600, d.expected().timestamp());
        assertTrue(d.toString().startsWith("stream `out`, packet #6 at timestamp 600: expected checksum 0x"), d::toString);
        assertTrue(d.toString().contains(", got checksum 0x"), d::toString);
    }

    @Test
    void theFirstDifferenceIsTheEarliestAcrossStreams() throws Exception
    {
        final JournalDiff diff = JournalDiff.compare(run(-1, -1, 10, false), run(6, 3, 10, false));
        assertEquals(2, diff.differences().size());
        assertEquals("stream `count`, packet #3: expected timestamp 300, got 301", diff.firstDifference().toString());
    }

    @Test
    void aStreamThatStopsEarlyIsSaidSo() throws Exception
    {
        final JournalDiff diff = JournalDiff.compare(run(-1, -1, 10, false), run(-1, -1, 4, false));
        assertEquals("stream `out`: the actual journal ends after 4 packets; the expected one goes on with packet #4 " +
            "at timestamp 400 (10 packets in all)", diff.toString());
        assertNull(diff.firstDifference().actual());
    }
}
