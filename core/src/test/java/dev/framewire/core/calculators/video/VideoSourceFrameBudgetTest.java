package dev.framewire.core.calculators.video;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

import static dev.framewire.core.calculators.video.VideoTestSupport.testVideo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A video source whose options fix its frames (ffmpeg scales to {@code width} x {@code height} in
 * {@code pixel_format}) declares them, so a budget too small for one is refused at validation, before
 * ffmpeg starts; the frames it declares are the frames ffmpeg gives it.
 */
@Timeout(60)
@ExtendWith(VideoTestSupport.RealFfmpeg.class)
class VideoSourceFrameBudgetTest
{
    @TempDir
    Path dir;

    private static GraphConfig scaled(final Path file, final long budget)
    {
        return GraphConfig.builder().memoryBudget(budget)
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator("VideoSourceCalculator").executor("camera").outputStream("VIDEO:video")
                .option("url", file.toString()).option("pixel_format", "I420").option("width", 202L)
                .option("height", 151L))
            .outputStream("video")
            .build();
    }

    @Test
    void aScaledSourcesDeclaredFramesAreTheFramesItGives() throws Exception
    {
        final Path file = testVideo(dir, "in.mp4", "320x240", 10, 3, "-c:v", "libx264", "-pix_fmt", "yuv420p");
        // 202x151 I420: 202 * 151 luma bytes, 2 * 101 * 76 chroma bytes = 45,854, a 64 KiB slot
        final List<String> errors = assertThrows(GraphConfigException.class,
            () -> new Graph(scaled(file, 64 * 1024)).close()).errors();
        assertEquals(List.of("node 'cam': one frame on stream 'video' is 45854 bytes (202x151 I420) (a 65536 byte " +
            "slot of the pool), but memory_budget_bytes 65536 gives a hard limit of 49152 bytes (75 %); valid is " +
            "memory_budget_bytes of at least 87382, or smaller frames"), errors);
        final Set<String> came = new ConcurrentSkipListSet<>();
        try (Graph graph = new Graph(scaled(file, 64L << 20)))
        {
            graph.observe("video", p -> came.add(p.payload().width() + "x" + p.payload().height() + " " +
                p.payload().format() + " " + p.payload().length()));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(Set.of("202x151 I420 45854"), came);
    }
}
