package dev.framewire.core.calculators.video;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.framewire.core.calculators.video.VideoTestSupport.Frame;
import static dev.framewire.core.calculators.video.VideoTestSupport.frames;
import static dev.framewire.core.calculators.video.VideoTestSupport.freeUdpPort;
import static dev.framewire.core.calculators.video.VideoTestSupport.kill;
import static dev.framewire.core.calculators.video.VideoTestSupport.liveFfmpegChildren;
import static dev.framewire.core.calculators.video.VideoTestSupport.run;
import static dev.framewire.core.calculators.video.VideoTestSupport.runCollecting;
import static dev.framewire.core.calculators.video.VideoTestSupport.runToEnd;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The video sink against real ffmpeg: a synthetic camera recorded and read back with the video
 * source (same count and timestamps), clip segments, a UDP stream to 127.0.0.1.
 */
@Timeout(60)
@ExtendWith(VideoTestSupport.RealFfmpeg.class)
class VideoSinkCalculatorTest
{
    @TempDir
    Path dir;

    private static GraphConfig record(final int frames, final double fps, final Object... sinkOptions)
    {
        return GraphConfig.builder()
            .node("camera", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("width", 160L).option("height", 120L).option("fps", fps).option("frames", (long)frames))
            .node("recorder", n ->
            {
                n.calculator("VideoSinkCalculator").inputStream("frames");
                for (int i = 0; i < sinkOptions.length; i += 2)
                {
                    n.option((String)sinkOptions[i], sinkOptions[i + 1]);
                }
            })
            .build();
    }

    private static List<Frame> readBack(final Path file) throws Exception
    {
        return runCollecting(GraphConfig.builder()
            .node("reader", n -> n.calculator("VideoSourceCalculator").outputStream("video")
                .option("url", file.toString()).option("pixel_format", "RGB24"))
            .outputStream("video")
            .build(), 0);
    }

    @Test
    void roundTripKeepsCountAndTimestamps() throws Exception
    {
        final Path file = dir.resolve("out/clip.mp4");
        runToEnd(record(30, 0.0, "url", file.toString()));
        final List<Frame> back = readBack(file);
        assertEquals(30, back.size());
        for (int i = 0; i < 30; i++)
        {
            // the synthetic camera unpaced: frame i at i * 16667 us
            assertEquals(i * 16_667L, back.get(i).timestamp, "frame " + i);
            assertEquals(160, back.get(i).width);
        }
        assertTrue(run("ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
            file.toString()).contains("h264"), "H.264 by default");
    }

    @Test
    void segmentsAreCompleteClipFiles() throws Exception
    {
        runToEnd(record(150, 0.0, "url", dir.resolve("clips/cam.mp4").toString(), "segment_seconds", 1.0));
        final List<Path> clips;
        try (Stream<Path> files = Files.list(dir.resolve("clips")))
        {
            clips = files.sorted().collect(Collectors.toList());
        }
        // 150 frames at 16667 us: 2.5 s in clips of 1 s
        assertEquals(List.of("cam-00000.mp4", "cam-00001.mp4", "cam-00002.mp4"),
            clips.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList()));
        int total = 0;
        long previous = -1;
        for (final Path clip : clips)
        {
            final List<Frame> frames = readBack(clip);
            assertFalse(frames.isEmpty(), clip.toString());
            assertTrue(frames.get(0).timestamp > previous, "clips continue in time");
            previous = frames.get(frames.size() - 1).timestamp;
            total += frames.size();
        }
        assertEquals(150, total);
    }

    @Test
    void streamsToUdpOnLoopback() throws Exception
    {
        final int port = freeUdpPort();
        final Process receiver = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin",
            "-probesize", "32768", "-analyzeduration", "200000", "-i", "udp://127.0.0.1:" + port, "-frames:v", "10", "-f", "framecrc", "-")
            .redirectErrorStream(true).start();
        try
        {
            runToEnd(record(100, 25.0, "url", "udp://127.0.0.1:" + port + "?pkt_size=1316", "output_options", "-g 5"));
            assertTrue(receiver.waitFor(20, TimeUnit.SECONDS), "the receiver got 10 frames");
            final String crc = new String(receiver.getInputStream().readAllBytes());
            assertEquals(0, receiver.exitValue(), crc);
            assertEquals(10, crc.lines().filter(l -> l.startsWith("0,")).count(), crc);
        }
        finally
        {
            kill(receiver);
        }
    }

    /**
     * An SRT publish url's passphrase goes to ffmpeg in a private preset file: the receiver,
     * which refuses a peer without it, gets the frames, and no command line but the receiver's
     * has the passphrase while the sink's ffmpeg runs; the file is gone after the run.
     */
    @Test
    void srtPassphraseIsNotOnTheCommandLine() throws Exception
    {
        final String secret = "s3cret-" + Long.toHexString(System.nanoTime());
        final int port = freeUdpPort();
        final Process receiver = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin",
            "-i", "srt://127.0.0.1:" + port + "?mode=listener&passphrase=" + secret, "-frames:v", "10", "-f",
            "framecrc", "-").redirectErrorStream(true).start();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread sender = publisher(failure, () -> runToEnd(record(100, 25.0, "url",
            "srt://127.0.0.1:" + port + "?passphrase=" + secret + "&latency=20000", "output_options", "-g 5")));
        try
        {
            sender.start();
            final Preset preset = presetFile();
            final List<String> leaks = commandLinesWith(secret, receiver.pid());
            assertTrue(leaks.isEmpty(), "passphrase on a command line: " + leaks);
            assertTrue(preset.text().contains("passphrase=" + secret), "the preset file has it");
            assertEquals("rw-------", preset.permissions());
            assertTrue(receiver.waitFor(30, TimeUnit.SECONDS), "the receiver got 10 frames");
            final String crc = new String(receiver.getInputStream().readAllBytes());
            assertEquals(0, receiver.exitValue(), crc);
            assertEquals(10, crc.lines().filter(l -> l.startsWith("0,")).count(), crc);
            sender.join(30_000);
            assertEquals(null, failure.get(), "the publishing run ends cleanly");
            assertFalse(Files.exists(preset.path()), "the preset file is deleted at close");
            assertFalse(Files.exists(preset.path().getParent()), "and its directory");
        }
        finally
        {
            kill(receiver);
            sender.join(30_000);
        }
    }

    /** What a publishing thread runs. */
    private interface Publish
    {
        void run() throws Exception;
    }

    /** A thread that publishes and keeps what it threw in {@code failure}. */
    private static Thread publisher(final AtomicReference<Throwable> failure, final Publish body)
    {
        return new Thread(() ->
        {
            try
            {
                body.run();
            }
            catch (final Throwable ex)
            {
                failure.set(ex);
            }
        });
    }

    /** The sink's ffmpeg's preset file as it was while that ffmpeg ran. */
    private record Preset(Path path, String text, String permissions)
    {
    }

    /**
     * The preset file of the sink's ffmpeg, once it runs with {@code -fpre}, read in the same look
     * that found that ffmpeg: a short publish may end, and its file go, before a second look.
     */
    private static Preset presetFile() throws Exception
    {
        final AtomicReference<Preset> seen = new AtomicReference<>();
        VideoTestSupport.await("the sink's ffmpeg with -fpre and its preset file", 20_000, () ->
        {
            for (final String command : withFpre())
            {
                final Path path = Path.of(command.split("-fpre ")[1].split(" ")[0]);
                try
                {
                    seen.set(new Preset(path, Files.readString(path),
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(path))));
                    return true;
                }
                catch (final java.io.IOException ex)
                {
                    // gone with its ffmpeg: look again
                }
            }
            return false;
        });
        return seen.get();
    }

    /**
     * An RTMP publish url's stream key goes to ffmpeg in a private preset file as
     * {@code rtmp_playpath}: ffmpeg's RTMP listener, told the key, gets the frames without saying
     * "Unexpected stream", and no command line but the listener's holds the key while the sink's
     * ffmpeg runs.
     */
    @Test
    void rtmpStreamKeyIsNotOnTheCommandLine() throws Exception
    {
        final String key = "key-" + Long.toHexString(System.nanoTime());
        final int port = VideoTestSupport.freeTcpPort();
        final Process receiver = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "warning", "-nostdin",
            "-listen", "1", "-i", "rtmp://127.0.0.1:" + port + "/live/" + key, "-frames:v", "10", "-f", "framecrc", "-")
            .redirectErrorStream(true).start();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread sender = publisher(failure, () ->
        {
            VideoTestSupport.await("the RTMP listener", 20_000, () -> VideoTestSupport.tcpListening(port));
            runToEnd(record(100, 25.0, "url", "rtmp://127.0.0.1:" + port + "/live/" + key, "output_options", "-g 5"));
        });
        try
        {
            sender.start();
            final Preset preset = presetFile();
            final List<String> leaks = commandLinesWith(key, receiver.pid());
            assertTrue(leaks.isEmpty(), "stream key on a command line: " + leaks);
            assertTrue(preset.text().contains("rtmp_playpath=" + key), "the preset file has it");
            assertTrue(receiver.waitFor(30, TimeUnit.SECONDS), "the listener got 10 frames");
            final String crc = new String(receiver.getInputStream().readAllBytes());
            assertEquals(10, crc.lines().filter(l -> l.startsWith("0,")).count(), crc);
            assertFalse(crc.contains("Unexpected stream"), "the listener was published the key it expects: " + crc);
            sender.join(30_000);
            assertFalse(Files.exists(preset.path()), "the preset file is deleted at close");
        }
        finally
        {
            kill(receiver);
            sender.join(30_000);
        }
    }

    /**
     * ffmpeg 5.1 takes an rtmp (or http) output's user:password from its command line only: such a
     * url is refused when the graph is built, naming the node, the option and where the credentials
     * can go, without the password in the message; {@code password_on_command_line} accepts it.
     */
    @Test
    void rtmpUserPasswordIsRefusedUnlessAccepted()
    {
        for (final String url : List.of("rtmp://cam:s3cret@127.0.0.1:1935/live/key", "http://cam:s3cret@127.0.0.1/up.ts"))
        {
            final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(record(1, 25.0, "url", url)));
            final String message = ex.getMessage();
            assertTrue(message.contains("recorder") && message.contains("option 'url'") &&
                message.contains("password_on_command_line: true") && message.contains("KEY?user=NAME&pass=SECRET"), message);
            assertFalse(message.contains("s3cret"), message);
        }
        assertDoesNotThrow(() -> new Graph(record(1, 25.0, "url", "rtmp://cam:s3cret@127.0.0.1:1935/live/key",
            "password_on_command_line", true)).close());
        assertDoesNotThrow(() -> new Graph(record(1, 25.0, "url", "rtsp://cam:s3cret@127.0.0.1:8554/live")).close(),
            "rtsp: the relay keeps it");
        assertDoesNotThrow(() -> new Graph(record(1, 25.0, "url", "rtmp://cam@127.0.0.1:1935/live/key")).close(),
            "a user name alone is no secret");
    }

    /**
     * An RTSP publish url with user:password: ffmpeg publishes to the JVM's relay on 127.0.0.1
     * (no user info), which answers GStreamer's RTSP server's Basic challenge; the server
     * receives the frames, and no command line but the server's has the password.
     */
    @Test
    void rtspPublishPasswordStaysInTheJvm() throws Exception
    {
        Assumptions.assumeTrue(CameraTestSupport.rtspServerAvailable(), "GStreamer's RTSP server (python3-gi)");
        final String secret = "pw-" + Long.toHexString(System.nanoTime());
        final Path script = dir.resolve("rtsp_record_server.py");
        try (var in = getClass().getResourceAsStream("/video/rtsp_record_server.py"))
        {
            Files.copy(in, script);
        }
        final Process server = new ProcessBuilder("/usr/bin/python3", script.toString(), "0", "pub", secret)
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread sender = null;
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
                StandardCharsets.UTF_8));
            final String ready = out.readLine();
            assertTrue(ready != null && ready.startsWith("ready "), "the RTSP server listens: " + ready);
            final String url = "rtsp://pub:" + secret + "@127.0.0.1:" + ready.substring(6).trim() + "/rec";
            sender = new Thread(() ->
            {
                try
                {
                    runToEnd(record(100, 25.0, "url", url, "output_options", "-g 5"));
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            });
            sender.start();
            VideoTestSupport.await("the sink's ffmpeg publishing to the relay", 20_000, () ->
                liveFfmpegChildren().stream().anyMatch(c -> c.contains("-rtsp_transport tcp -f rtsp rtsp://127.0.0.1:")));
            final List<String> leaks = commandLinesWith(secret, server.pid());
            assertTrue(leaks.isEmpty(), "password on a command line: " + leaks);
            final AtomicInteger frames = new AtomicInteger();
            final Thread counter = new Thread(() -> out.lines().filter(l -> l.startsWith("frames "))
                .forEach(l -> frames.set(Integer.parseInt(l.substring(7).trim()))));
            counter.setDaemon(true);
            counter.start();
            VideoTestSupport.await("20 frames at the server, or the run's failure", 30_000, () ->
                frames.get() >= 20 || failure.get() != null);
            assertEquals(null, failure.get(), "the publishing run");
            assertTrue(frames.get() >= 20, "the server received at least 20 frames, got " + frames.get());
            sender.join(30_000);
            assertEquals(null, failure.get(), "the publishing run ends cleanly");
        }
        finally
        {
            kill(server);
            if (sender != null)
            {
                sender.join(30_000);
            }
        }
    }

    private static List<String> withFpre()
    {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .map(h -> h.info().commandLine().orElse("")).filter(c -> c.contains(" -fpre ")).collect(Collectors.toList());
    }

    /** Every process's command line (/proc/PID/cmdline) that contains the text, but one pid's. */
    private static List<String> commandLinesWith(final String text, final long except) throws Exception
    {
        try (Stream<Path> procs = Files.list(Path.of("/proc")))
        {
            return procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                .filter(p -> !p.getFileName().toString().equals(String.valueOf(except)))
                .map(p ->
                {
                    try
                    {
                        return p.getFileName() + ": " + new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                    }
                    catch (final Exception gone)
                    {
                        return "";
                    }
                })
                .filter(c -> c.contains(text)).collect(Collectors.toList());
        }
    }
}
