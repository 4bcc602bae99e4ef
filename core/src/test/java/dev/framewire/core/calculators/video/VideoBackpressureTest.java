package dev.framewire.core.calculators.video;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.calculators.video.VideoTestSupport.await;
import static dev.framewire.core.calculators.video.VideoTestSupport.frames;
import static dev.framewire.core.calculators.video.VideoTestSupport.probeFrameMicros;
import static dev.framewire.core.calculators.video.VideoTestSupport.run;
import static dev.framewire.core.calculators.video.VideoTestSupport.testVideo;
import static dev.framewire.core.calculators.video.VideoTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Backpressure through the video calculators, against real ffmpeg: a slow consumer behind the
 * source holds it back (its ring fills, its reader stops reading, ffmpeg blocks on the pipe) and
 * no frame of a file is lost; an encoder that cannot write behind the sink blocks the sink's
 * {@code process} and holds the graph's source back; with a fixed-size input policy the sink
 * drops instead, counted. Every wait is for a condition, with a timeout.
 */
@Timeout(60)
@ExtendWith(VideoTestSupport.RealFfmpeg.class)
class VideoBackpressureTest
{
    private static final int MAX_QUEUE = 2;
    /** A source is held back before a call, and a call may emit one frame (max_shipment_size 1). */
    private static final int SHIPMENT = 1;

    @TempDir
    Path dir;

    /** Takes a frame only when the test hands it a permit; records what it took. */
    static final class Gate implements Calculator
    {
        final Semaphore permits = new Semaphore(0);
        final List<Long> timestamps = Collections.synchronizedList(new ArrayList<>());
        volatile long entered;

        @Override
        public void process(final CalculatorContext ctx) throws InterruptedException
        {
            final Input input = ctx.input(0);
            if (input.isEmpty())
            {
                return;
            }
            entered++;
            if (!permits.tryAcquire(30, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the test never opened the gate");
            }
            timestamps.add(input.timestamp());
        }

        void open()
        {
            permits.release(1_000_000);
        }
    }

    /** Bytes a process has written ({@code wchar} of /proc/PID/io: its pipe, and a few to stderr). */
    private static long bytesWritten(final ProcessHandle process) throws IOException
    {
        for (final String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "io")))
        {
            if (line.startsWith("wchar:"))
            {
                return Long.parseLong(line.substring(6).trim());
            }
        }
        throw new IllegalStateException("no wchar in /proc/" + process.pid() + "/io");
    }

    @Test
    void aSlowConsumerHoldsTheSourceBackAndNoFrameOfAFileIsLost() throws Exception
    {
        final int frames = 100;
        final int frameBytes = 160 * 120; // GRAY8
        final Path file = testVideo(dir, "clip.mkv", "160x120", 25, frames, "-c:v", "ffv1");
        final long[] expected = probeFrameMicros(file);
        assertEquals(frames, expected.length);

        final VideoSourceCalculator source = new VideoSourceCalculator();
        final Gate gate = new Gate();
        final AtomicLong emitted = new AtomicLong();
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(MAX_QUEUE)
            .maxShipmentSize(SHIPMENT)
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .node("cam", n -> n.calculator(() -> source).executor("camera").outputStream("VIDEO:video")
                .option("url", file.toString()).option("pixel_format", "GRAY8").option("realtime", false)
                .option("queue_frames", 4L))
            .node("slow", n -> n.calculator(() -> gate).inputStream("video"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("video", packet -> emitted.incrementAndGet());
            graph.start();
            // the gate holds its first frame, the queue fills, the source stops taking from its
            // ring, the ring fills and the reader parks on it: nothing reads ffmpeg's pipe
            await("the source's reader parked on a full ring", 10_000, () ->
            {
                final SourceReader reader = source.reader();
                return gate.entered == 1 && reader != null && reader.waitingForRoom() &&
                    reader.queued() == reader.capacity() && reader.ffmpeg() != null;
            });
            final SourceReader reader = source.reader();
            final ProcessHandle ffmpeg = reader.ffmpeg();
            final long written = bytesWritten(ffmpeg);
            final long out = emitted.get();
            final long in = gate.entered; // 1: the await above saw the gate holding its first frame

            assertTrue(out <= in + MAX_QUEUE + SHIPMENT, "emitted " + out + " with " + in + " taken: the queue " +
                "limit " + MAX_QUEUE + " holds the source back");
            // ffmpeg has written what the graph holds, the ring, the frame the reader holds, and at
            // most a pipe's worth more (64 KiB) plus headers: it is blocked on the pipe, not done
            final long held = out + reader.capacity() + 1;
            assertTrue(written <= held * (frameBytes + 64) + 65_536 + 8_192, "ffmpeg wrote " + written +
                " B, more than the " + held + " frames held and a pipe's worth: something buffers");
            assertTrue(written < (long)frames * frameBytes, "ffmpeg is not done: " + written + " B");
            assertTrue(ffmpeg.isAlive(), "ffmpeg waits on the pipe");

            gate.open();
            graph.waitUntilDone();
        }
        // realtime off, a file: every frame, in order, with the file's times
        assertEquals(frames, gate.timestamps.size());
        for (int i = 0; i < frames; i++)
        {
            assertEquals(expected[i], gate.timestamps.get(i), "frame " + i);
        }
    }

    // ------------------------------------------------------------------ the sink

    /**
     * A camera of 60 unpaced RGBA frames into a sink whose ffmpeg writes NUT into a named pipe
     * nobody has opened: ffmpeg blocks opening its output, stops reading its stdin, and the
     * sink's write blocks once the pipe to ffmpeg (64 KiB, less than one 160x120 RGBA frame) is
     * full.
     */
    private static GraphConfig recording(final VideoSinkCalculator sink, final Path fifo, final InputPolicy policy,
        final int maxQueue)
    {
        return GraphConfig.builder()
            .maxQueueSize(maxQueue)
            .maxShipmentSize(SHIPMENT)
            .executor("camera", ExecutorConfig.of(1, IdleKind.PARK))
            .executor("rec", ExecutorConfig.of(1, IdleKind.PARK))
            .node("camera", n -> n.calculator("SyntheticCameraCalculator").executor("camera").outputStream("frames")
                .option("width", 160L).option("height", 120L).option("fps", 0.0).option("frames", 60L))
            .node("recorder", n ->
            {
                n.calculator(() -> sink).executor("rec").inputStream("frames")
                    .option("url", fifo.toString()).option("container", "nut").option("codec", "rawvideo")
                    .option("output_pixel_format", "rgba");
                if (policy != null)
                {
                    n.inputPolicy(policy);
                }
            })
            .build();
    }

    private Path fifo() throws Exception
    {
        final Path fifo = dir.resolve("encoded.nut");
        run("mkfifo", fifo.toString());
        return fifo;
    }

    /** Opens the named pipe and copies what ffmpeg writes into a file, on a thread of its own. */
    private static Thread drain(final Path fifo, final Path into)
    {
        final Thread reader = new Thread(() ->
        {
            try (InputStream in = Files.newInputStream(fifo); OutputStream out = Files.newOutputStream(into))
            {
                in.transferTo(out);
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException(ex);
            }
        }, "fifo-drain");
        reader.setDaemon(true);
        reader.start();
        return reader;
    }

    /** Whether the recorder's worker is inside the sink's process, in a write to ffmpeg. */
    private static boolean sinkBlockedInWrite()
    {
        for (final var entry : Thread.getAllStackTraces().entrySet())
        {
            if (!entry.getKey().getName().startsWith("framewire-rec"))
            {
                continue;
            }
            boolean inProcess = false;
            boolean inWrite = false;
            for (final StackTraceElement frame : entry.getValue())
            {
                inProcess |= frame.getClassName().equals(VideoSinkCalculator.class.getName()) &&
                    frame.getMethodName().equals("process");
                inWrite |= frame.getMethodName().startsWith("write") && frame.getClassName().startsWith("sun.nio.ch");
            }
            if (inProcess && inWrite)
            {
                return true;
            }
        }
        return false;
    }

    private static long framesIn(final Path file) throws Exception
    {
        return Long.parseLong(run("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.toString()).trim());
    }

    @Test
    void aBlockedEncoderBlocksTheSinkAndHoldsTheSourceBack() throws Exception
    {
        final Path fifo = fifo();
        final VideoSinkCalculator sink = new VideoSinkCalculator();
        final AtomicLong emitted = new AtomicLong();
        Thread drain = null;
        try (Graph graph = new Graph(recording(sink, fifo, null, MAX_QUEUE)))
        {
            graph.observe("frames", packet -> emitted.incrementAndGet());
            graph.start();
            await("the sink blocked in a write to ffmpeg, its queue full", 10_000, () ->
                sinkBlockedInWrite() && emitted.get() >= sink.frames() + 1 + MAX_QUEUE);
            final long written = sink.frames();
            final long out = emitted.get();
            // one frame in the blocked call, the queue's limit behind it, and one shipment
            assertTrue(out <= written + 1 + MAX_QUEUE + SHIPMENT, "emitted " + out + " with " + written +
                " written: the source is held back");
            assertTrue(out < 60, "the camera has not run ahead to its end: " + out);
            assertEquals(0, graph.dropCount("recorder"), "the default policy waits, it does not drop");

            drain = drain(fifo, dir.resolve("copy.nut"));
            graph.waitUntilDone();
        }
        drain.join(10_000);
        assertEquals(60, sink.frames(), "the sink wrote every frame once the encoder could go on");
        assertEquals(60, framesIn(dir.resolve("copy.nut")));
    }

    @Test
    void aFixedSizePolicyOnTheSinkDropsTheSurplusAndCountsIt() throws Exception
    {
        final int maxQueue = 8;
        final Path fifo = fifo();
        final VideoSinkCalculator sink = new VideoSinkCalculator();
        final AtomicLong emitted = new AtomicLong();
        Thread drain = null;
        final long droppedWhileBlocked;
        final long dropped;
        try (Graph graph = new Graph(recording(sink, fifo, InputPolicy.fixedSize(2, 1, false), maxQueue)))
        {
            graph.observe("frames", packet -> emitted.incrementAndGet());
            graph.start();
            // the policy decides between calls: while the sink is stuck in one, its queue fills to
            // max_queue_size and holds the camera back as under the default policy (bounded)
            await("the sink blocked in a write to ffmpeg, its queue full", 10_000, () ->
                sinkBlockedInWrite() && emitted.get() >= sink.frames() + graph.dropCount("recorder") + 1 + maxQueue);
            droppedWhileBlocked = graph.dropCount("recorder");
            final long out = emitted.get();
            assertTrue(out <= sink.frames() + droppedWhileBlocked + 1 + maxQueue + SHIPMENT, "emitted " + out +
                ", written " + sink.frames() + ", dropped " + droppedWhileBlocked + ": held back");
            assertTrue(out < 60, "the camera has not run ahead to its end: " + out);

            // once the call returns, the queue of 8 is cut to the policy's target of 1: 7 dropped
            drain = drain(fifo, dir.resolve("copy.nut"));
            graph.waitUntilDone();
            dropped = graph.dropCount("recorder");
        }
        drain.join(10_000);
        // (a frame or two may be dropped before, while ffmpeg starts and the sink's first call takes long)
        assertTrue(dropped - droppedWhileBlocked >= maxQueue - 1, "the surplus of the full queue is dropped and " +
            "counted: " + droppedWhileBlocked + " before, " + dropped + " in all");
        assertEquals(60, sink.frames() + dropped, "every frame is written or counted as dropped");
        assertEquals(sink.frames(), framesIn(dir.resolve("copy.nut")));
    }
}
