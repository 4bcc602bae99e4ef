package dev.framewire.core.calculators.video;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.framewire.core.calculators.video.CameraTestSupport.probeFrames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two ffmpegs of one camera (a reconnect apart) that each start a segment in the same wall-clock
 * second write two segments, both playable, named in the order they were written: neither
 * overwrites the other (with names by the second alone the second ffmpeg overwrote the first's).
 */
@ExtendWith(VideoTestSupport.RealFfmpeg.class)
class RecordingNamesTest
{
    @TempDir
    Path dir;

    /**
     * Segment names have one-second resolution from ffmpeg's coarse clock: 1 s segments took the
     * last one's name now and then and overwrote it, so a length under 2 s is refused at build,
     * naming the node, the option and what is valid.
     */
    @Test
    void segmentsShorterThanTwoSecondsAreRefused()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(
            VideoSourceCalculatorTest.source(n -> n.option("url", "udp://127.0.0.1:1").option("record_dir",
                dir.resolve("rec").toString()).option("record_segment_seconds", 1.0), false)));
        assertTrue(ex.getMessage().contains("node 'cam': option 'record_segment_seconds' is 1.0; valid is a finite " +
            "number >= 2.0"), ex.getMessage());
    }

    @Test
    void twoFfmpegsStartingASegmentInTheSameSecondKeepBoth() throws Exception
    {
        final Path input = dir.resolve("in.mp4");
        run(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "lavfi", "-i",
            "testsrc2=size=64x48:rate=10", "-t", "0.3", "-c:v", "libx264", "-preset", "ultrafast", "-g", "1",
            "-pix_fmt", "yuv420p", input.toString()));
        for (int attempt = 0; attempt < 5; attempt++)
        {
            final Recording recording = new Recording("cam", dir.resolve("rec" + attempt), 10, "mp4", 0, 0);
            recording.prepare();
            run(ffmpeg(recording, input));
            run(ffmpeg(recording, input)); // the "reconnect": the same camera's next ffmpeg
            final List<Path> segments = recording.segments();
            final String first = second(segments.get(0));
            if (!first.equals(second(segments.get(segments.size() - 1))))
            {
                continue; // the two began in different seconds: not the case under test; again
            }
            assertEquals(2, segments.size(), "two ffmpegs' segments started in " + first + ": " + segments);
            assertTrue(segments.get(0).getFileName().toString().compareTo(segments.get(1).getFileName().toString()) < 0,
                "names sort by start: " + segments);
            for (final Path segment : segments)
            {
                final StringBuilder errors = new StringBuilder();
                assertEquals(3, probeFrames(segment, errors), segment + ": " + errors);
                assertEquals("", errors.toString(), segment.toString());
            }
            return;
        }
        throw new AssertionError("in 5 tries the two ffmpegs never began a segment in the same second: machine too slow");
    }

    private static List<String> ffmpeg(final Recording recording, final Path input)
    {
        final List<String> c = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin",
            "-i", input.toString()));
        c.addAll(recording.outputArgs());
        return c;
    }

    /** The segment's start to the second, from its name ({@code cam-20261128T134041Z-...}). */
    private static String second(final Path segment)
    {
        return segment.getFileName().toString().substring("cam-".length(), "cam-".length() + 16);
    }

    private static void run(final List<String> command) throws Exception
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ffmpeg did not end: " + command);
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + out);
    }
}
