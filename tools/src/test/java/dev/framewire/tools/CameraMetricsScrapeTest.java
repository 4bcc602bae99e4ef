package dev.framewire.tools;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The framewire_camera_* lines of a live metrics endpoint, scraped over HTTP while a video source
 * reads a real ffmpeg's output: state, frames, bytes, reconnects, frame age, fps, and the camera's
 * drops (the graph's own meter under the camera tag).
 */
@Timeout(120)
class CameraMetricsScrapeTest
{
    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void aStreamingCameraShowsItsHealthInTheScrape() throws Exception
    {
        Assumptions.assumeTrue(ffmpegRuns(), "ffmpeg is not installed");
        final Path clip = dir.resolve("clip.mp4");
        final Process make = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f",
            "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", clip.toString()).redirectErrorStream(true).start();
        assertTrue(make.waitFor(60, TimeUnit.SECONDS) && make.exitValue() == 0, new String(make.getInputStream()
            .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        final GraphConfig config = GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator("VideoSourceCalculator").executor("camera").outputStream("VIDEO:video")
                .option("url", clip.toString()).option("pixel_format", "GRAY8").option("realtime", true)
                .option("loop", true))
            .outputStream("video")
            .build();
        try (Graph graph = new Graph(config); MetricsEndpoint endpoint = MetricsEndpoint.start(graph, "cams", "127.0.0.1", 0))
        {
            graph.observe("video", p -> { });
            graph.start();
            final URI uri = URI.create(endpoint.url());
            final long deadline = System.nanoTime() + 30_000_000_000L;
            String text = get(uri);
            while (value(text, "framewire_camera_frames_total") < 25 && System.nanoTime() < deadline)
            {
                TimeUnit.MILLISECONDS.sleep(200); // the await: scraped again until the frames are there or 30 s
                text = get(uri);
            }
            final double frames = value(text, "framewire_camera_frames_total");
            assertTrue(frames >= 25, "frames read: " + text);
            assertEquals(1.0, value(text, "framewire_camera_state"), "1 = streaming: " + text);
            // two counters read one after the other while frames arrive: the bytes may trail by the frame in between
            assertTrue(value(text, "framewire_camera_bytes_total") >= (frames - 1) * 160 * 120,
                "a gray frame's bytes each: " + text);
            assertEquals(0.0, value(text, "framewire_camera_reconnects_total"), text);
            assertTrue(value(text, "framewire_node_packets_dropped_total") >= 0, "the camera's drops: " + text);
            final double age = value(text, "framewire_camera_frame_age_seconds");
            assertTrue(age >= 0 && age < 2, "a frame within 2 s: " + age);
            TimeUnit.SECONDS.sleep(1); // fps is frames between two scrapes: a second apart
            final String later = get(uri);
            final double fps = value(later, "framewire_camera_fps");
            assertTrue(fps > 10 && fps < 40, "about 25 fps (realtime): " + fps + "\n" + later);
            graph.cancel();
        }
    }

    private String get(final URI uri) throws Exception
    {
        final HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    /** The value of the metric's line tagged camera="cam"; fails naming it if there is none. */
    private static double value(final String text, final String metric)
    {
        final Matcher m = Pattern.compile("(?m)^" + metric + "\\{[^}]*camera=\"cam\"[^}]*} (\\S+)$").matcher(text);
        assertTrue(m.find(), metric + "{camera=\"cam\"} in:\n" + text);
        return Double.parseDouble(m.group(1));
    }

    private static boolean ffmpegRuns()
    {
        try
        {
            return new ProcessBuilder("ffmpeg", "-version").redirectErrorStream(true).start().waitFor() == 0;
        }
        catch (final Exception ex)
        {
            return false;
        }
    }
}
