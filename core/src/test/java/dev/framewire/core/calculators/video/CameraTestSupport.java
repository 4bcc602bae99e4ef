package dev.framewire.core.calculators.video;

import dev.framewire.core.Graph;
import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live cameras for the camera tests, all on 127.0.0.1: an H.264 MPEG-TS sender over UDP (as an
 * IP camera's stream), GStreamer's RTSP server (Debian's python3-gi and gir1.2-gst-rtsp-server-1.0),
 * and ffprobe's count of a recording's frames.
 */
final class CameraTestSupport
{
    private CameraTestSupport()
    {
    }

    /**
     * Milliseconds from a process's start to a moment, both read on the kernel's boot clock: the
     * process's start time in {@code /proc/PID/stat} (clock ticks since boot, {@code USER_HZ} 100)
     * against {@code /proc/uptime}. Not {@code ProcessHandle.info().startInstant()}: the JDK adds
     * those ticks to {@code /proc/stat}'s {@code btime}, which is whole seconds, so its instant is
     * early by the boot time's fraction of a second (0.37 s on the machine measured in
     * {@code docs/results/cameras.md}), a bias of 0-1 s that depends on the host.
     *
     * @param pid     a running process.
     * @param atNanos the moment, on {@code System.nanoTime}, at or before now.
     * @return the milliseconds, within 20 ms (two clock ticks).
     * @throws IOException if {@code /proc} cannot be read (not Linux, or the process is gone).
     */
    static long millisSinceStart(final long pid, final long atNanos) throws IOException
    {
        final String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
        // the fields after the command's closing parenthesis start at the 3rd; starttime is the 22nd
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        final long startMillis = Long.parseLong(fields[22 - 3]) * 10;
        final long nowNanos = System.nanoTime();
        final String uptime = Files.readString(Path.of("/proc/uptime"), StandardCharsets.US_ASCII);
        final long uptimeMillis = new java.math.BigDecimal(uptime.substring(0, uptime.indexOf(' ')))
            .movePointRight(3).longValueExact();
        return uptimeMillis - (nowNanos - atNanos) / 1_000_000 - startMillis;
    }

    /**
     * An observer that times a source's first frame against the start of the ffmpeg that delivered
     * it, both read while that frame is in hand: a first attempt that ended (a server still starting,
     * a loaded machine) and was restarted is measured from the restart, and never from a process
     * that is gone by the time the test looks.
     */
    static final class FirstFrame implements PacketObserver
    {
        private volatile String result;
        private volatile long millis = -1;

        @Override
        public void onPacket(final Packet packet)
        {
            if (result != null)
            {
                return;
            }
            final long now = System.nanoTime();
            final List<ProcessHandle> ffmpegs = VideoTestSupport.sourceFfmpegs();
            if (ffmpegs.size() != 1)
            {
                result = "a first frame with " + ffmpegs.size() + " source ffmpegs running: " + ffmpegs;
                return;
            }
            try
            {
                millis = millisSinceStart(ffmpegs.get(0).pid(), now);
                result = "the first frame came " + millis + " ms after ffmpeg (pid " + ffmpegs.get(0).pid() +
                    ") started";
            }
            catch (final IOException ex)
            {
                result = "the first frame's ffmpeg (pid " + ffmpegs.get(0).pid() + ") could not be read: " + ex;
            }
        }

        /** Whether the first frame came. */
        boolean arrived()
        {
            return result != null;
        }

        /** Milliseconds from its ffmpeg's start to the first frame; -1 if that could not be read. */
        long millis()
        {
            return millis;
        }

        /** What was measured, for an assertion's message. */
        String describe()
        {
            return result;
        }
    }

    /** Cancels a run and waits until it is done (its cancellation is what it ends with). */
    static void cancelAndWait(final Graph graph)
    {
        graph.cancel();
        try
        {
            graph.waitUntilDone();
        }
        catch (final Exception expected)
        {
            // cancelled
        }
    }

    /**
     * Frames in recording segments, as ffprobe counts them by decoding.
     *
     * @param errors what ffprobe printed at level error, appended.
     */
    static long recordedFrames(final List<Path> segments, final StringBuilder errors) throws Exception
    {
        long recorded = 0;
        for (final Path segment : segments)
        {
            recorded += probeFrames(segment, errors);
        }
        return recorded;
    }

    /** An H.264 MPEG-TS stream of testsrc2, 30 fps, a key frame every 10 frames, sent to udp://127.0.0.1:port. */
    static Process h264Sender(final int port) throws IOException
    {
        return new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-re",
            "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
            "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "10", "-pix_fmt", "yuv420p",
            "-f", "mpegts", "udp://127.0.0.1:" + port + "?pkt_size=1316")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /**
     * Frames in a video file as ffprobe counts them by decoding it.
     *
     * @param errors set to what ffprobe printed at level error, if not null.
     */
    static long probeFrames(final Path file, final StringBuilder errors) throws Exception
    {
        final Process p = new ProcessBuilder("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.toString())
            .redirectError(ProcessBuilder.Redirect.PIPE).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        final String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        if (errors != null)
        {
            errors.append(err);
        }
        return out.isEmpty() ? 0 : Long.parseLong(out.split("\\R")[0].trim());
    }

    /** Whether GStreamer's RTSP server can be run from Debian's python. */
    static boolean rtspServerAvailable()
    {
        try
        {
            final Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import gi; gi.require_version('GstRtspServer', " +
                "'1.0'); from gi.repository import GstRtspServer").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final IOException | InterruptedException ex)
        {
            return false;
        }
    }

    /** A running RTSP server: {@link #port}, stopped by {@link #close}. */
    static final class RtspServer implements AutoCloseable
    {
        final Process process;
        final int port;

        private RtspServer(final Process process, final int port)
        {
            this.process = process;
            this.port = port;
        }

        /**
         * Starts rtsp_server.py (a test resource) on a port (0 for any free one), with basic auth
         * when a user is given; waits for it to listen.
         */
        static RtspServer start(final Path dir, final int port, final String user, final String password)
            throws Exception
        {
            final Path script = dir.resolve("rtsp_server.py");
            if (!Files.exists(script))
            {
                try (var in = CameraTestSupport.class.getResourceAsStream("/video/rtsp_server.py"))
                {
                    Files.copy(in, script);
                }
            }
            final List<String> command = user == null ? List.of("/usr/bin/python3", script.toString(), "" + port) :
                List.of("/usr/bin/python3", script.toString(), "" + port, user, password);
            final Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            final String line = out.readLine(); // "ready PORT", or null if it failed
            if (line == null || !line.startsWith("ready "))
            {
                p.destroyForcibly();
                throw new IllegalStateException("the RTSP server did not start on port " + port + ": " + line);
            }
            return new RtspServer(p, Integer.parseInt(line.substring(6).trim()));
        }

        /** Stops the server (SIGSTOP): it sends and answers nothing, its connections stay open. */
        void pause() throws Exception
        {
            assertTrue(new ProcessBuilder("kill", "-STOP", Long.toString(process.pid())).start().waitFor(10,
                TimeUnit.SECONDS));
        }

        @Override
        public void close() throws InterruptedException
        {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
