package dev.framewire.tools;

import dev.framewire.core.Packet;
import dev.framewire.core.PacketObserver;
import org.HdrHistogram.Histogram;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One camera of the demo and its measurements: when each frame left the camera, the latency to
 * the annotated frame, the frame count; and the latency table's rows. The capture ring is written
 * by the camera's worker only, the histogram and the frame count by the worker that runs the
 * camera's annotator only.
 */
final class DemoCamera
{
    /** Frames remembered per camera between capture and annotation; far more than can be in flight. */
    static final int RING = 4096;
    static final long HIGHEST_NANOS = TimeUnit.SECONDS.toNanos(60);

    final String name;
    final DemoGraph.Chain chain;
    final long[] captureNanos = new long[RING];
    final Histogram latency = new Histogram(HIGHEST_NANOS, 3);
    final AtomicLong frames = new AtomicLong();
    final PacketObserver captureStamp;
    final LatencyProbe latencyProbe;
    /** {@code --hotplug}, on the command's thread: when the camera was added and removed, its frames a second ago. */
    long addedAt;
    long removedAt;
    long lastFrames;

    DemoCamera(final DemoGraph.Chain chain, final double fps, final AtomicLong firstCapture)
    {
        this.name = chain.camera();
        this.chain = chain;
        this.captureStamp = new CaptureStamp(captureNanos, fps, firstCapture);
        this.latencyProbe = new LatencyProbe(captureNanos, fps, latency, frames);
    }

    /** The frame number a synthetic camera's timestamp stands for (see SyntheticCameraCalculator). */
    static long frameIndex(final long timestamp, final double fps)
    {
        return fps > 0 ? Math.round(timestamp * fps / 1e6) : timestamp / 16_667;
    }

    /** On the camera's stream: when each frame left the camera; the first of all cameras starts the clock. */
    static final class CaptureStamp implements PacketObserver
    {
        private final long[] ring;
        private final double fps;
        private final AtomicLong firstCapture;
        private boolean started;

        CaptureStamp(final long[] ring, final double fps, final AtomicLong firstCapture)
        {
            this.ring = ring;
            this.fps = fps;
            this.firstCapture = firstCapture;
        }

        @Override
        public void onPacket(final Packet packet)
        {
            final long now = System.nanoTime();
            ring[(int)(frameIndex(packet.timestamp(), fps) & (RING - 1))] = now;
            if (!started)
            {
                started = true;
                firstCapture.compareAndSet(0, now);
            }
        }
    }

    /** On the annotated stream: now minus when the frame left the camera, for frames after the warm-up. */
    static final class LatencyProbe implements PacketObserver
    {
        /** Frames numbered below this are counted but not recorded; set before the run. */
        long recordFromFrame;
        private final long[] ring;
        private final double fps;
        private final Histogram histogram;
        private final AtomicLong frames;

        LatencyProbe(final long[] ring, final double fps, final Histogram histogram, final AtomicLong frames)
        {
            this.ring = ring;
            this.fps = fps;
            this.histogram = histogram;
            this.frames = frames;
        }

        @Override
        public void onPacket(final Packet packet)
        {
            final long index = frameIndex(packet.timestamp(), fps);
            final long captured = ring[(int)(index & (RING - 1))];
            if (index >= recordFromFrame)
            {
                histogram.recordValue(Math.max(0, Math.min(HIGHEST_NANOS, System.nanoTime() - captured)));
            }
            frames.setRelease(frames.getPlain() + 1);
        }
    }

    static Histogram all(final DemoCamera[] cams)
    {
        final Histogram all = new Histogram(HIGHEST_NANOS, 3);
        for (final DemoCamera cam : cams)
        {
            all.add(cam.latency);
        }
        return all;
    }

    static long total(final DemoCamera[] cams)
    {
        long sum = 0;
        for (final DemoCamera cam : cams)
        {
            sum += cam.frames.get();
        }
        return sum;
    }

    static String mib(final long bytes)
    {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    static String trim(final double value)
    {
        return value == Math.rint(value) ? Long.toString((long)value) : Double.toString(value);
    }

    static void row(
        final PrintWriter out,
        final String name,
        final long frames,
        final double seconds,
        final Histogram h)
    {
        row(out, name, frames, seconds, h, "");
    }

    static void row(
        final PrintWriter out,
        final String name,
        final long frames,
        final double seconds,
        final Histogram h,
        final String suffix)
    {
        final boolean any = h.getTotalCount() > 0;
        out.printf(Locale.ROOT, "%-8s %9d %8.1f %9.3f %9.3f %9.3f %9.3f%s%n", name, frames, frames / seconds,
            any ? h.getValueAtPercentile(50) / 1e6 : 0.0, any ? h.getValueAtPercentile(99) / 1e6 : 0.0,
            any ? h.getValueAtPercentile(99.9) / 1e6 : 0.0, any ? h.getMaxValue() / 1e6 : 0.0, suffix);
    }
}
