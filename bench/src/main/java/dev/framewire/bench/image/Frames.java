package dev.framewire.bench.image;

import dev.framewire.offheap.PixelFormat;
import org.agrona.concurrent.UnsafeBuffer;
import org.opencv.core.CvType;
import org.opencv.core.Mat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Off-heap test frames shared by the image benchmark and its tests: one direct buffer seen both
 * as an Agrona buffer (for the kernels) and as an OpenCV {@link Mat} on the same bytes, tightly
 * packed (stride = width x bytes per pixel), so both sides read the same memory.
 */
final class Frames
{
    private static boolean loaded;

    final int width;
    final int height;
    final int stride;
    final ByteBuffer bytes;
    final UnsafeBuffer buffer;
    final Mat mat;

    /**
     * A frame of zeros.
     *
     * @param width    in pixels.
     * @param height   in pixels.
     * @param channels bytes per pixel of a packed frame, or 0 for a 4:2:0 YUV frame (height x 3/2 rows).
     */
    Frames(final int width, final int height, final int channels)
    {
        loadOpenCv();
        this.width = width;
        this.height = height;
        this.stride = channels == 0 ? width : width * channels;
        final int rows = channels == 0 ? height * 3 / 2 : height;
        bytes = ByteBuffer.allocateDirect(stride * rows);
        buffer = new UnsafeBuffer(bytes);
        mat = new Mat(rows, width, channels == 0 ? CvType.CV_8UC1 : CvType.CV_8UC(channels), bytes);
    }

    static synchronized void loadOpenCv()
    {
        if (!loaded)
        {
            nu.pattern.OpenCV.loadLocally();
            // one thread, as each Framewire kernel runs: OpenCV's default pool would split its
            // cvtColor/resize over both cores and compare two cores with one
            org.opencv.core.Core.setNumThreads(1);
            loaded = true;
        }
    }

    /** Fills with random bytes. */
    Frames random(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0, n = buffer.capacity(); i + 8 <= n; i += 8)
        {
            buffer.putLong(i, random.nextLong());
        }
        return this;
    }

    /** Fills with smooth content (gradients), like a camera image rather than white noise. */
    Frames smooth(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final int a = random.nextInt(1, 7);
        final int b = random.nextInt(1, 7);
        for (int i = 0, n = buffer.capacity(); i < n; i++)
        {
            final int x = (i % stride);
            final int y = i / stride;
            buffer.putByte(i, (byte)((x * a + y * b + (x * y >> 9)) >> 2));
        }
        return this;
    }

    /** This frame's bytes, each moved by a random -amplitude..amplitude, clamped: sensor noise. */
    void noisyCopyOf(final Frames other, final int amplitude, final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0, n = buffer.capacity(); i < n; i++)
        {
            final int v = (other.buffer.getByte(i) & 0xFF) + random.nextInt(-amplitude, amplitude + 1);
            buffer.putByte(i, (byte)Math.max(0, Math.min(255, v)));
        }
    }

    void copyOf(final Frames other)
    {
        buffer.putBytes(0, other.buffer, 0, buffer.capacity());
    }

    PixelFormat yuv(final boolean nv12)
    {
        return nv12 ? PixelFormat.NV12 : PixelFormat.I420;
    }

    /**
     * The largest difference between two frames' bytes, optionally skipping every fourth (alpha).
     *
     * @throws IllegalStateException naming the first byte that differs by more than tolerance.
     */
    static int check(final String what, final Frames ours, final Frames theirs, final int tolerance, final boolean skipAlpha)
    {
        int worst = 0;
        for (int y = 0; y < ours.height; y++)
        {
            for (int i = 0, n = ours.stride; i < n; i++)
            {
                if (skipAlpha && (i & 3) == 3)
                {
                    continue;
                }
                final int a = ours.buffer.getByte(y * ours.stride + i) & 0xFF;
                final int b = theirs.buffer.getByte(y * theirs.stride + i) & 0xFF;
                final int d = Math.abs(a - b);
                if (d > tolerance)
                {
                    throw new IllegalStateException(what + ": byte " + i + " of row " + y + " is " + a +
                        " in Framewire's result and " + b + " in OpenCV's, more than " + tolerance + " apart");
                }
                worst = Math.max(worst, d);
            }
        }
        return worst;
    }
}
