package dev.framewire.core.calculators.video;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import static dev.framewire.core.calculators.video.VideoTestSupport.Frame;
import static dev.framewire.core.calculators.video.VideoTestSupport.await;
import static dev.framewire.core.calculators.video.VideoTestSupport.ffmpegFrameSizes;
import static dev.framewire.core.calculators.video.VideoTestSupport.frames;
import static dev.framewire.core.calculators.video.VideoTestSupport.freeUdpPort;
import static dev.framewire.core.calculators.video.VideoTestSupport.kill;
import static dev.framewire.core.calculators.video.VideoTestSupport.liveFfmpegChildren;
import static dev.framewire.core.calculators.video.VideoTestSupport.probeFrameMicros;
import static dev.framewire.core.calculators.video.VideoTestSupport.run;
import static dev.framewire.core.calculators.video.VideoTestSupport.runBytes;
import static dev.framewire.core.calculators.video.VideoTestSupport.runCollecting;
import static dev.framewire.core.calculators.video.VideoTestSupport.runToEnd;
import static dev.framewire.core.calculators.video.VideoTestSupport.sourceFfmpegs;
import static dev.framewire.core.calculators.video.VideoTestSupport.testVideo;
import static dev.framewire.core.calculators.video.VideoTestSupport.udpSender;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The video source against real ffmpeg: files of known size, rate and length from lavfi's
 * testsrc2, compared with what ffprobe and ffmpeg itself say of them; live MPEG-TS streams on
 * 127.0.0.1 that drop, stall and come back; and no child process left behind.
 */
@Timeout(60)
@ExtendWith(VideoTestSupport.RealFfmpeg.class)
class VideoSourceCalculatorTest
{
    @TempDir
    Path dir;

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
        final List<Frame> out = runCollecting(source(n -> n.option("url", file.toString())
            .option("pixel_format", "GRAY8"), false), 0);
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
            final List<Frame> out = runCollecting(source(n -> n.option("url", file.toString())
                .option("pixel_format", format[0]), false), 100);
            assertEquals(5, out.size(), format[0]);
            final int frameBytes = raw.length / 5;
            for (int i = 0; i < 5; i++)
            {
                assertArrayEquals(java.util.Arrays.copyOfRange(raw, i * frameBytes, (i + 1) * frameBytes),
                    out.get(i).bytes, format[0] + " frame " + i);
            }
        }
    }

    /**
     * Scaled GRAY8 is the luma plane scaled (no chroma, no YUV-to-gray conversion): in full range
     * it equals ffmpeg's own YUV-to-gray scaling with the same filter, for a stream that does not
     * say its range (taken as limited, expanded) and for a full-range one (left as it is); with
     * {@code gray_range: "coded"} it is the luma as coded, inside 16-235 for a limited stream.
     */
    @Test
    void scaledGrayIsTheLumaPlaneInFullRangeOrAsCoded() throws Exception
    {
        final Path limited = testVideo(dir, "limited.mp4", "320x240", 10, 3, "-c:v", "libx264", "-pix_fmt", "yuv420p");
        final Path full = testVideo(dir, "full.avi", "320x240", 10, 3, "-c:v", "mjpeg", "-pix_fmt", "yuvj420p");
        for (final Path file : new Path[]{limited, full})
        {
            final byte[] ffmpegGray = runBytes("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", file.toString(),
                "-vf", "scale=160:-1:flags=area", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1");
            final List<Frame> out = runCollecting(source(n -> n.option("url", file.toString())
                .option("pixel_format", "GRAY8").option("width", 160L), false), 100);
            assertEquals(3, out.size());
            assertEquals(120, out.get(0).height);
            for (int i = 0; i < 3; i++)
            {
                assertArrayEquals(java.util.Arrays.copyOfRange(ffmpegGray, i * 160 * 120, (i + 1) * 160 * 120),
                    out.get(i).bytes, file.getFileName() + " frame " + i);
            }
        }
        final List<Frame> coded = runCollecting(source(n -> n.option("url", limited.toString())
            .option("pixel_format", "GRAY8").option("width", 160L).option("gray_range", "coded"), false), 100);
        final byte[] luma = runBytes("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", limited.toString(),
            "-vf", "extractplanes=y,scale=160:-1:flags=area", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1");
        int min = 255;
        int max = 0;
        for (int i = 0; i < 3; i++)
        {
            final byte[] frame = coded.get(i).bytes;
            assertArrayEquals(java.util.Arrays.copyOfRange(luma, i * 160 * 120, (i + 1) * 160 * 120), frame,
                "coded frame " + i);
            for (final byte b : frame)
            {
                min = Math.min(min, b & 0xFF);
                max = Math.max(max, b & 0xFF);
            }
        }
        assertTrue(min >= 16 && max <= 235 && max - min > 100, "the limited range as coded: " + min + ".." + max);
    }

    @Test
    void missingFfmpegIsAClearErrorAtStart()
    {
        final GraphException ex = assertThrows(GraphException.class, () -> runToEnd(source(n -> n.option("url", "x.mp4")
            .option("ffmpeg_path", dir.resolve("no-ffmpeg-here").toString()), false)));
        final String message = ex.getMessage();
        assertTrue(message.contains("node 'cam' (VideoSourceCalculator) needs ffmpeg"), message);
        assertTrue(message.contains("apt-get install ffmpeg"), message);
    }

    @Test
    void aMissingFileFailsWithFfmpegsMessage() throws Exception
    {
        final GraphException ex = assertThrows(GraphException.class,
            () -> runToEnd(source(n -> n.option("url", dir.resolve("nothing.mp4").toString()), false)));
        assertTrue(ex.getMessage().contains("No such file or directory"), ex.getMessage());
        assertTrue(ex.getMessage().contains("node 'cam'"), ex.getMessage());
    }

    // ------------------------------------------------------------------ live streams

    /** Records what reaches it: frame timestamps, and the highest timestamp settled without a packet. */
    static final class Probe implements dev.framewire.core.Calculator
    {
        static final java.util.Map<String, Probe> BY_NODE = new java.util.concurrent.ConcurrentHashMap<>();
        final List<Long> frames = Collections.synchronizedList(new ArrayList<>());
        final List<VideoStatus> statuses = Collections.synchronizedList(new ArrayList<>());
        volatile long settledWithoutFrame = Long.MIN_VALUE;

        @Override
        public void contract(final dev.framewire.core.Contract contract)
        {
            contract.processTimestampBounds(true);
        }

        @Override
        public void open(final dev.framewire.core.CalculatorContext ctx)
        {
            BY_NODE.put(ctx.nodeName(), this);
        }

        @Override
        public void process(final dev.framewire.core.CalculatorContext ctx)
        {
            final dev.framewire.core.Input video = ctx.input("VIDEO");
            if (!video.isEmpty())
            {
                frames.add(video.timestamp());
            }
            else
            {
                settledWithoutFrame = Math.max(settledWithoutFrame, ctx.inputTimestamp());
            }
            final dev.framewire.core.Input status = ctx.input("STATUS");
            if (!status.isEmpty())
            {
                statuses.add((VideoStatus)status.value());
            }
        }

        long lastFrame()
        {
            synchronized (frames)
            {
                return frames.isEmpty() ? Long.MIN_VALUE : frames.get(frames.size() - 1);
            }
        }

        long countOf(final VideoStatus.Kind kind)
        {
            synchronized (statuses)
            {
                return statuses.stream().filter(s -> s.kind() == kind).count();
            }
        }
    }

    static GraphConfig live(final String url, final long stallMillis)
    {
        return live(url, stallMillis, n -> { });
    }

    /** A live source with a short reconnect backoff and probe, and more options, feeding a {@link Probe}. */
    static GraphConfig live(final String url, final long stallMillis, final Consumer<NodeConfig.Builder> more)
    {
        return GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n ->
            {
                n.calculator("VideoSourceCalculator").executor("camera")
                    .outputStream("VIDEO:video", "STATUS:status")
                    .option("url", url).option("pixel_format", "GRAY8")
                    .option("stall_timeout_ms", stallMillis).option("reconnect_initial_ms", 100L)
                    .option("input_options", "-probesize 32768 -analyzeduration 200000")
                    .option("reconnect_max_ms", 400L);
                more.accept(n);
            })
            .node("probe", n -> n.calculator(Probe::new).inputStream("VIDEO:video", "STATUS:status"))
            .build();
    }

    private static void sendSignal(final Process p, final String signal) throws Exception
    {
        run("kill", "-" + signal, String.valueOf(p.pid()));
    }

    @Test
    void liveStreamDropsReportsAdvancesTheBoundAndReconnects() throws Exception
    {
        final int port = freeUdpPort();
        Process sender = udpSender(port, "160x120", 25);
        try (Graph graph = new Graph(live("udp://127.0.0.1:" + port, 1000)))
        {
            graph.start();
            await("probe open", 5_000, () -> Probe.BY_NODE.get("probe") != null);
            final Probe probe = Probe.BY_NODE.get("probe");
            await("frames", 15_000, () -> probe.frames.size() >= 10);
            assertEquals(1, probe.countOf(VideoStatus.Kind.CONNECTED));

            // the sender dies: on UDP that is silence, so the stall timeout notices it
            kill(sender);
            await("disconnect", 10_000, () -> probe.countOf(VideoStatus.Kind.DISCONNECTED) == 1);
            final long lastBeforeDrop = probe.lastFrame();
            await("bound past the last frame", 5_000, () -> probe.settledWithoutFrame > lastBeforeDrop + 200_000);
            assertTrue(probe.statuses.get(1).reason().contains("stalled"), probe.statuses.get(1).reason());

            // a new sender: the source reconnects and frames flow again, after the bound
            sender = udpSender(port, "160x120", 25);
            final int before = probe.frames.size();
            await("frames again", 20_000, () -> probe.frames.size() >= before + 10);
            assertEquals(2, probe.countOf(VideoStatus.Kind.CONNECTED));
            assertTrue(probe.frames.get(before) > probe.settledWithoutFrame - 1_000_000 &&
                probe.frames.get(before) > lastBeforeDrop);
            assertIncreasing(probe.frames);

            // the source's own ffmpeg dies: reported at once (end of pipe), then reconnected
            final List<ProcessHandle> own = sourceFfmpegs();
            assertEquals(1, own.size(), own.toString());
            own.get(0).destroyForcibly();
            await("second disconnect", 10_000, () -> probe.countOf(VideoStatus.Kind.DISCONNECTED) == 2);
            assertTrue(probe.statuses.get(3).reason().contains("signal 9"), probe.statuses.get(3).reason());
            final int before2 = probe.frames.size();
            await("frames after the restart", 20_000, () -> probe.frames.size() >= before2 + 10);
            assertIncreasing(probe.frames);

            // a stall: the sender is stopped, not killed, then continued
            sendSignal(sender, "STOP");
            await("third disconnect", 10_000, () -> probe.countOf(VideoStatus.Kind.DISCONNECTED) == 3);
            sendSignal(sender, "CONT");
            final int before3 = probe.frames.size();
            await("frames after the stall", 20_000, () -> probe.frames.size() >= before3 + 10);
            assertIncreasing(probe.frames);

            graph.cancel();
            assertThrows(GraphException.class, graph::waitUntilDone);
        }
        finally
        {
            kill(sender);
            Probe.BY_NODE.clear();
        }
    }

    @Test
    void aStallWhileTheGraphIsPausedIsSeenThenAndReportedOnResume() throws Exception
    {
        final int port = freeUdpPort();
        final Process sender = udpSender(port, "160x120", 25);
        // room in the ring for every frame that arrives between the pause and the stop
        try (Graph graph = new Graph(live("udp://127.0.0.1:" + port, 500, n -> n.option("queue_frames", 32L))))
        {
            graph.start();
            await("probe open", 5_000, () -> Probe.BY_NODE.get("probe") != null);
            final Probe probe = Probe.BY_NODE.get("probe");
            await("frames", 15_000, () -> probe.frames.size() >= 5);
            final List<ProcessHandle> own = sourceFfmpegs();
            assertEquals(1, own.size(), own.toString());

            graph.pause();
            sendSignal(sender, "STOP");
            // no process call runs now; the stall thread still sees the reader wait in its read
            await("the stalled ffmpeg killed while the graph is paused", 5_000, () -> !own.get(0).isAlive());
            assertEquals(0, probe.countOf(VideoStatus.Kind.DISCONNECTED), "nothing reaches a paused graph");

            graph.resume();
            await("the dropout reported after resume", 5_000,
                () -> probe.countOf(VideoStatus.Kind.DISCONNECTED) == 1);
            synchronized (probe.statuses)
            {
                assertTrue(probe.statuses.get(1).reason().contains("stalled"), probe.statuses.get(1).reason());
            }
            sendSignal(sender, "CONT");
            final int before = probe.frames.size();
            await("frames after the stall", 20_000, () -> probe.frames.size() >= before + 5);
            assertIncreasing(probe.frames);

            graph.cancel();
            assertThrows(GraphException.class, graph::waitUntilDone);
        }
        finally
        {
            kill(sender);
            Probe.BY_NODE.clear();
        }
    }

    private static void assertIncreasing(final List<Long> timestamps)
    {
        synchronized (timestamps)
        {
            for (int i = 1; i < timestamps.size(); i++)
            {
                assertTrue(timestamps.get(i) > timestamps.get(i - 1), "timestamp " + i + ": " + timestamps.get(i) +
                    " after " + timestamps.get(i - 1));
            }
        }
    }

    // ------------------------------------------------------------------ mpeg-ts files: times, jumps, size changes

    private Path ts(final String name, final String size, final int frames) throws Exception
    {
        return testVideo(dir, name, size, 10, frames, "-c:v", "mpeg2video", "-g", "5", "-bf", "0", "-f", "mpegts");
    }

    private static Path concat(final Path into, final Path... parts) throws Exception
    {
        try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(into))
        {
            for (final Path part : parts)
            {
                java.nio.file.Files.copy(part, out);
            }
        }
        return into;
    }

    @Test
    void mpegTsTimesAreTheStreamsOwnNotFromZero() throws Exception
    {
        final Path file = ts("a.ts", "160x120", 12);
        final long[] expected = probeFrameMicros(file);
        assertTrue(expected[0] > 1_000_000, "mpeg-ts starts at 1.4 s: " + expected[0]);
        final List<Frame> out = runCollecting(source(n -> n.option("url", file.toString())
            .option("pixel_format", "RGB24"), false), 0);
        assertArrayEquals(expected, out.stream().mapToLong(f -> f.timestamp).toArray());
    }

    @Test
    void timesThatGoBackAreShiftedAndStayIncreasing() throws Exception
    {
        final Path part = ts("a.ts", "160x120", 10);
        final Path twice = concat(dir.resolve("aa.ts"), part, part);
        final VideoSourceCalculator calculator = new VideoSourceCalculator();
        final List<Frame> out = runCollecting(GraphConfig.builder()
            .node("cam", n -> n.calculator(() -> calculator).outputStream("VIDEO:video")
                .option("url", twice.toString()).option("pixel_format", "GRAY8"))
            .outputStream("video")
            .build(), 0);
        assertEquals(20, out.size());
        for (int i = 1; i < out.size(); i++)
        {
            assertTrue(out.get(i).timestamp > out.get(i - 1).timestamp, "frame " + i);
        }
        // the first part keeps its own times, 100 ms apart; the second continues 100 ms apart
        assertEquals(100_000, out.get(1).timestamp - out.get(0).timestamp);
        assertEquals(100_000, out.get(11).timestamp - out.get(10).timestamp);
        assertTrue(calculator.timestampResets() > 0);
    }

    @Test
    void aSizeChangeMidStreamFailsNamingBothSizesWithNoTornFrame() throws Exception
    {
        final Path both = concat(dir.resolve("ab.ts"), ts("a.ts", "160x120", 10), ts("b.ts", "320x240", 10));
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        final GraphException ex = assertThrows(GraphException.class, () -> runCollecting(source(n -> n
            .option("url", both.toString()).option("pixel_format", "GRAY8").option("on_resize", "fail"), false), 100, out));
        final String message = ex.getMessage();
        assertTrue(message.contains("node 'cam'") && message.contains("from 160x120 GRAY8") &&
            message.contains("76800 B"), message);
        // as many as ffmpeg itself decodes at the first size (the cut loses the last one of them)
        final long[] sizes = ffmpegFrameSizes(both);
        int before = 0;
        while (sizes[before] == 160 * 120)
        {
            before++;
        }
        assertTrue(before >= 8, java.util.Arrays.toString(sizes));
        assertEquals(before, out.size());
        for (final Frame frame : out)
        {
            assertEquals(160 * 120, frame.bytes.length);
        }
    }

    @Test
    void aSizeChangeOnALiveStreamReopensAtTheNewSize() throws Exception
    {
        final Path both = concat(dir.resolve("ab.ts"), ts("a.ts", "160x120", 20), ts("b.ts", "320x240", 60));
        final int port = freeUdpPort();
        final Process sender = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re",
            "-i", both.toString(), "-c", "copy", "-f", "mpegts", "udp://127.0.0.1:" + port + "?pkt_size=1316")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(live("udp://127.0.0.1:" + port, 2000)))
        {
            graph.observe("video", frames(out, Integer.MAX_VALUE));
            graph.start();
            await("frames of the new size", 20_000, () ->
            {
                synchronized (out)
                {
                    return out.stream().filter(f -> f.width == 320).count() >= 5;
                }
            });
            final Probe probe = Probe.BY_NODE.get("probe");
            graph.cancel();
            assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(out.get(0).width == 160, "starts at the old size");
            for (final Frame frame : out)
            {
                assertEquals(frame.width * frame.height, frame.bytes.length);
            }
            synchronized (probe.statuses)
            {
                assertTrue(probe.statuses.stream().anyMatch(s -> s.kind() == VideoStatus.Kind.CONNECTED && s.width() == 320),
                    probe.statuses.toString());
            }
        }
        finally
        {
            kill(sender);
            Probe.BY_NODE.clear();
        }
    }

    // ------------------------------------------------------------------ no child left behind

    /** Fails on its third frame. */
    static final class FailOnThird implements dev.framewire.core.Calculator
    {
        private int seen;

        @Override
        public void process(final dev.framewire.core.CalculatorContext ctx)
        {
            if (++seen == 3)
            {
                throw new IllegalStateException("third frame refused");
            }
        }
    }

    private GraphConfig looping(final boolean failing) throws Exception
    {
        final Path file = testVideo(dir, "loop.mp4", "160x120", 25, 10, "-c:v", "libx264", "-pix_fmt", "yuv420p");
        final GraphConfig.Builder b = GraphConfig.builder()
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator("VideoSourceCalculator").executor("camera").outputStream("VIDEO:video")
                .option("url", file.toString()).option("loop", true).option("realtime", true));
        if (failing)
        {
            b.node("sink", n -> n.calculator(FailOnThird::new).inputStream("video"));
        }
        return b.outputStream("video").build();
    }

    private static void assertNoFfmpegNow()
    {
        assertEquals(java.util.Set.of(), liveFfmpegChildren(), "ffmpeg processes left");
    }

    @Test
    void closeWhileStreamingLeavesNoChild() throws Exception
    {
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        final Graph graph = new Graph(looping(false));
        graph.observe("video", frames(out, 0));
        graph.start();
        await("frames", 10_000, () -> out.size() >= 12); // past the first loop
        assertEquals(1, sourceFfmpegs().size());
        graph.close();
        assertNoFfmpegNow();
    }

    @Test
    void aFailedRunLeavesNoChild() throws Exception
    {
        try (Graph graph = new Graph(looping(true)))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.getMessage().contains("third frame refused"), ex.getMessage());
            assertNoFfmpegNow();
        }
    }

    @Test
    void aCancelledRunLeavesNoChild() throws Exception
    {
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(looping(false)))
        {
            graph.observe("video", frames(out, 0));
            graph.start();
            await("frames", 10_000, () -> out.size() >= 3);
            graph.cancel();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled());
            assertNoFfmpegNow();
        }
    }
}
