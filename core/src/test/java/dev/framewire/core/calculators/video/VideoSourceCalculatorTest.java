package dev.framewire.core.calculators.video;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.NodeConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import static dev.framewire.core.calculators.video.VideoTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The video source against real ffmpeg: files of known size, rate and length from lavfi's
 * testsrc2, compared with what ffprobe and ffmpeg itself say of them; live MPEG-TS streams on
 * 127.0.0.1 that drop, stall and come back; and no child process left behind.
 */
@Timeout(60)
class VideoSourceCalculatorTest
{
    @TempDir
    Path dir;

    @BeforeEach
    void needsFfmpeg()
    {
        assumeFfmpeg();
    }

    @AfterEach
    void noChildLeft() throws InterruptedException
    {
        await("no ffmpeg child left: " + liveFfmpegChildren(), 10_000, () -> liveFfmpegChildren().isEmpty());
    }

    static GraphConfig source(final Consumer<NodeConfig.Builder> options, final boolean withStatus)
    {
        return GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n ->
            {
                n.calculator("VideoSourceCalculator").executor("camera").outputStream("VIDEO:video");
                if (withStatus)
                {
                    n.outputStream("STATUS:status");
                }
                options.accept(n);
            })
            .outputStream("video")
            .build();
    }

    @Test
    void fileFramesAndTimestampsMatchFfprobe() throws Exception
    {
        final Path file = testVideo(dir, "clip.mp4", "160x120", 25, 30, "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-g", "10", "-bf", "2");
        final long[] expected = probeFrameMicros(file);
        assertEquals(30, expected.length);
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(source(n -> n.option("url", file.toString()).option("pixel_format", "GRAY8"),
            false)))
        {
            graph.observe("video", frames(out, 0));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(expected.length, out.size());
        for (int i = 0; i < expected.length; i++)
        {
            assertEquals(expected[i], out.get(i).timestamp, "frame " + i);
            assertEquals(160, out.get(i).width);
            assertEquals(120, out.get(i).height);
        }
    }

    @Test
    void pixelsMatchFfmpegsOwnRawOutput() throws Exception
    {
        final Path file = testVideo(dir, "clip.mkv", "160x120", 10, 5, "-c:v", "ffv1");
        for (final String[] format : new String[][]{{"GRAY8", "gray"}, {"RGB24", "rgb24"}, {"RGBA32", "rgba"},
            {"I420", "yuv420p"}})
        {
            final byte[] raw = runBytes("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", file.toString(),
                "-f", "rawvideo", "-pix_fmt", format[1], "pipe:1");
            final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
            try (Graph graph = new Graph(source(n -> n.option("url", file.toString()).option("pixel_format", format[0]),
                false)))
            {
                graph.observe("video", frames(out, 100));
                graph.start();
                graph.waitUntilDone();
            }
            assertEquals(5, out.size(), format[0]);
            final int frameBytes = raw.length / 5;
            for (int i = 0; i < 5; i++)
            {
                assertArrayEquals(java.util.Arrays.copyOfRange(raw, i * frameBytes, (i + 1) * frameBytes),
                    out.get(i).bytes, format[0] + " frame " + i);
            }
        }
    }

    @Test
    void missingFfmpegIsAClearErrorAtStart()
    {
        final GraphException ex = assertThrows(GraphException.class, () ->
        {
            try (Graph graph = new Graph(source(n -> n.option("url", "x.mp4")
                .option("ffmpeg_path", dir.resolve("no-ffmpeg-here").toString()), false)))
            {
                graph.start();
                graph.waitUntilDone();
            }
        });
        final String message = ex.getMessage();
        assertTrue(message.contains("node 'cam' (VideoSourceCalculator) needs ffmpeg"), message);
        assertTrue(message.contains("apt-get install ffmpeg"), message);
    }

    @Test
    void aMissingFileFailsWithFfmpegsMessage() throws Exception
    {
        final GraphException ex = assertThrows(GraphException.class, () ->
        {
            try (Graph graph = new Graph(source(n -> n.option("url", dir.resolve("nothing.mp4").toString()), false)))
            {
                graph.start();
                graph.waitUntilDone();
            }
        });
        assertTrue(ex.getMessage().contains("No such file or directory"), ex.getMessage());
        assertTrue(ex.getMessage().contains("node 'cam'"), ex.getMessage());
    }
}
