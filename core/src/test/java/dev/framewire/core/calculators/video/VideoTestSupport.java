package dev.framewire.core.calculators.video;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.PacketObserver;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Real ffmpeg for the video tests: inputs made by ffmpeg from its lavfi test sources, ffprobe's
 * view of them, senders of live streams to 127.0.0.1, and the check that no child process is
 * left. Test classes run under {@link RealFfmpeg}: without ffmpeg they are skipped with one line
 * saying why, and each test fails if it leaves an ffmpeg child behind.
 */
final class VideoTestSupport
{
    private VideoTestSupport()
    {
    }

    /**
     * {@code @ExtendWith(VideoTestSupport.RealFfmpeg.class)}: before each test, skips it without
     * ffmpeg; after it, waits up to 10 s for every ffmpeg child of this JVM to be gone.
     */
    static final class RealFfmpeg implements BeforeEachCallback, AfterEachCallback
    {
        @Override
        public void beforeEach(final ExtensionContext context)
        {
            assumeFfmpeg();
        }

        @Override
        public void afterEach(final ExtensionContext context) throws InterruptedException
        {
            await("no ffmpeg child left: " + liveFfmpegChildren(), 10_000, () -> liveFfmpegChildren().isEmpty());
        }
    }

    /** Starts a graph and waits for its end. */
    static void runToEnd(final GraphConfig config) throws Exception
    {
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
    }

    /**
     * Runs a graph to its end with {@link #frames} observing its output stream {@code video}.
     *
     * @return what reached it, with the bytes of the first {@code keepBytes} frames.
     */
    static List<Frame> runCollecting(final GraphConfig config, final int keepBytes) throws Exception
    {
        final List<Frame> out = Collections.synchronizedList(new ArrayList<>());
        runCollecting(config, keepBytes, out);
        return out;
    }

    /** As {@link #runCollecting(GraphConfig, int)}, into a list the caller holds (to see it after a failure). */
    static void runCollecting(final GraphConfig config, final int keepBytes, final List<Frame> into) throws Exception
    {
        try (Graph graph = new Graph(config))
        {
            graph.observe("video", frames(into, keepBytes));
            graph.start();
            graph.waitUntilDone();
        }
    }

    static void assumeFfmpeg()
    {
        Assumptions.assumeTrue(Ffmpeg.available() && runs("ffprobe", "-version"),
            "ffmpeg/ffprobe not on PATH: video tests skipped (apt-get install ffmpeg)");
    }

    private static boolean runs(final String... command)
    {
        try
        {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | InterruptedException ex)
        {
            return false;
        }
    }

    /** Runs a command to its end; fails the test with its output if it fails. */
    static String run(final String... command) throws Exception
    {
        final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + String.join(" ", command));
        final String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", command) + "\n" + text);
        return text;
    }

    static byte[] runBytes(final String... command) throws Exception
    {
        final Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", command));
        return out;
    }

    /**
     * A test video made by ffmpeg: lavfi testsrc2 of a size, rate and frame count, encoded with
     * the given codec arguments.
     */
    static Path testVideo(final Path dir, final String name, final String size, final int rate, final int frames,
        final String... codec) throws Exception
    {
        final Path file = dir.resolve(name);
        final List<String> c = new ArrayList<>(Arrays.asList("ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=" + size + ":rate=" + rate, "-frames:v", String.valueOf(frames)));
        c.addAll(Arrays.asList(codec));
        c.add(file.toString());
        run(c.toArray(new String[0]));
        return file;
    }

    /** ffprobe's presentation times of a file's video frames, in microseconds rounded down. */
    static long[] probeFrameMicros(final Path file) throws Exception
    {
        final String tb = run("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
            "stream=time_base", "-of", "csv=p=0", file.toString()).lines().findFirst().orElseThrow()
            .replace(",", "").trim();
        final String[] parts = tb.split("/");
        final long num = Long.parseLong(parts[0]);
        final long den = Long.parseLong(parts[1]);
        final String frames = run("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
            "frame=best_effort_timestamp", "-of", "csv=p=0", file.toString());
        return frames.lines().map(String::trim).filter(l -> !l.isEmpty())
            .map(l -> l.replace(",", "")).mapToLong(Long::parseLong)
            .map(pts -> Math.floorDiv(pts * num * 1_000_000L, den)).toArray();
    }

    /** The byte sizes of the frames ffmpeg itself decodes from a file, as raw GRAY8, in order. */
    static long[] ffmpegFrameSizes(final Path file) throws Exception
    {
        final String crc = run("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", file.toString(), "-map", "0:v:0",
            "-autoscale", "0", "-c:v", "rawvideo", "-pix_fmt", "gray", "-f", "framecrc", "-");
        return crc.lines().filter(l -> !l.startsWith("#") && l.contains(","))
            .mapToLong(l -> Long.parseLong(l.split(",")[4].trim())).toArray();
    }

    /** A free UDP port on 127.0.0.1. */
    static int freeUdpPort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /** A free TCP port on 127.0.0.1. */
    static int freeTcpPort() throws IOException
    {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * Whether a socket listens on TCP port {@code port}, from /proc/net/tcp: without connecting, so
     * a listener that takes one connection (ffmpeg's {@code -listen 1}) keeps it for its publisher.
     */
    static boolean tcpListening(final int port)
    {
        final String local = String.format(":%04X ", port);
        try
        {
            return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/tcp")).stream()
                .anyMatch(l -> l.contains(local) && l.trim().split("\\s+")[3].equals("0A"));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /**
     * Starts an ffmpeg that sends a live MPEG-TS stream of testsrc2 at its own rate to
     * udp://127.0.0.1:port.
     */
    static Process udpSender(final int port, final String size, final int rate) throws IOException
    {
        return new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re",
            "-f", "lavfi", "-i", "testsrc2=size=" + size + ":rate=" + rate,
            "-c:v", "mpeg2video", "-q:v", "5", "-g", "5", "-bf", "0",
            "-f", "mpegts", "udp://127.0.0.1:" + port + "?pkt_size=1316")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    static void kill(final Process p) throws InterruptedException
    {
        if (p != null)
        {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits for a condition, polling; fails with the message after the timeout. */
    static void await(final String what, final long timeoutMillis, final BooleanSupplier condition)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            Thread.sleep(5);
        }
    }

    /** The ffmpeg processes this JVM has started and that are still alive. */
    static Set<String> liveFfmpegChildren()
    {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .filter(h -> h.info().command().map(c -> c.contains("ffmpeg") || c.contains("ffprobe")).orElse(false))
            .map(h -> h.pid() + " " + h.info().commandLine().orElse("?")).collect(Collectors.toSet());
    }

    /** Process ids of live descendants running ffmpeg (for the source's own: those writing NUT). */
    static List<ProcessHandle> sourceFfmpegs()
    {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .filter(h -> h.info().arguments().map(a -> Arrays.asList(a).contains("nut")).orElse(false))
            .collect(Collectors.toList());
    }

    /** A heap copy of one frame: timestamp, size and bytes. */
    static final class Frame
    {
        final long timestamp;
        final int width;
        final int height;
        final byte[] bytes;

        Frame(final long timestamp, final int width, final int height, final byte[] bytes)
        {
            this.timestamp = timestamp;
            this.width = width;
            this.height = height;
            this.bytes = bytes;
        }
    }

    /** An observer that keeps heap copies (of the first {@code keepBytes} frames' bytes). */
    static PacketObserver frames(final List<Frame> into, final int keepBytes)
    {
        return packet ->
        {
            final Payload p = (Payload)packet.value();
            byte[] bytes = null;
            if (into.size() < keepBytes)
            {
                bytes = new byte[p.length()];
                p.buffer().getBytes(0, bytes);
            }
            into.add(new Frame(packet.timestamp(), p.width(), p.height(), bytes));
        };
    }

    static Path write(final Path file, final byte[] bytes) throws IOException
    {
        return Files.write(file, bytes);
    }
}
