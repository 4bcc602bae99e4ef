package dev.framewire.bench.image;

import dev.framewire.core.calculators.image.BilinearResizer;
import dev.framewire.core.calculators.image.ImageKernels;
import dev.framewire.core.calculators.image.MotionKernel;
import dev.framewire.core.calculators.image.SampleMap;
import dev.framewire.offheap.PixelFormat;
import org.agrona.UnsafeApi;
import org.opencv.core.Core;
import org.opencv.core.Mat;
import org.opencv.core.Point;
import org.opencv.core.Scalar;
import org.opencv.core.Size;
import org.opencv.imgproc.Imgproc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Each image kernel on off-heap frames, one thread, beside OpenCV 4.9 (its Java bindings, the
 * matching call on the same bytes: {@code *_cv}) and the memory floor (an off-heap to off-heap
 * copy of the input's bytes: {@code copyFloor_*}). Method names are {@code <kernel>_<contender>}
 * ({@code _fw} is Framewire's): JMH runs benchmarks in name order, so a kernel and OpenCV's
 * counterpart run one right after the other, and a machine whose load drifts during the run
 * treats both alike.
 *
 * <p>The benchmark checks its own answer: the trial's setup runs every kernel once on random
 * frames and fails unless its result equals OpenCV's within the documented rounding
 * ({@link #check}), and the motion benchmarks fail if a frame's changed-pixel count is not the
 * expected one.
 *
 * <pre>
 *   scripts/bench.sh 'bench.image' -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class ImageKernelBenchmark
{
    static final int THRESHOLD = 25;
    static final int NOISE = 4;
    static final double CONTRAST = 0.8;
    static final int BRIGHTNESS = 10;

    @Param({"1280x720", "1920x1080"})
    public String size;

    int width;
    int height;
    final ImageKernels kernels = new ImageKernels();
    final BilinearResizer bilinearGray = new BilinearResizer();
    final BilinearResizer bilinearRgba = new BilinearResizer();
    final MotionKernel motion = new MotionKernel();
    final int[] boxes = new int[5 * 16];
    final SampleMap sampleMap = new SampleMap(BRIGHTNESS, CONTRAST);

    Frames rgba;
    Frames rgbaOut;
    Frames rgbaCv;
    Frames gray;
    Frames grayOut;
    Frames grayCv;
    Frames i420;
    Frames nv12;
    Frames halfGray;
    Frames halfGrayCv;
    Frames halfRgba;
    Frames halfRgbaCv;
    Frames smallGray;
    Frames smallGrayCv;
    Frames smallRgba;
    Frames smallRgbaCv;
    Frames still;
    Frames stillNext;
    Frames noisy;
    Frames previous;
    Mat diff;
    boolean flip;
    int expectedNoisyChanges;

    @Setup(Level.Trial)
    public void setUp()
    {
        final String[] sides = size.split("x");
        setUp(Integer.parseInt(sides[0]), Integer.parseInt(sides[1]), 42);
        check();
    }

    /** Frames of a size with random content from a seed; the benchmark's own setup and the tests'. */
    void setUp(final int width, final int height, final long seed)
    {
        this.width = width;
        this.height = height;
        rgba = new Frames(width, height, 4).random(seed);
        rgbaOut = new Frames(width, height, 4);
        rgbaCv = new Frames(width, height, 4);
        gray = new Frames(width, height, 1).random(seed + 1);
        grayOut = new Frames(width, height, 1);
        grayCv = new Frames(width, height, 1);
        i420 = new Frames(width, height, 0).random(seed + 2);
        nv12 = new Frames(width, height, 0).random(seed + 3);
        halfGray = new Frames(width / 2, height / 2, 1);
        halfGrayCv = new Frames(width / 2, height / 2, 1);
        halfRgba = new Frames(width / 2, height / 2, 4);
        halfRgbaCv = new Frames(width / 2, height / 2, 4);
        final int sw = width * 2 / 3;
        final int sh = height * 2 / 3;
        smallGray = new Frames(sw, sh, 1);
        smallGrayCv = new Frames(sw, sh, 1);
        smallRgba = new Frames(sw, sh, 4);
        smallRgbaCv = new Frames(sw, sh, 4);
        bilinearGray.plan(width, height, sw, sh, 1);
        bilinearRgba.plan(width, height, sw, sh, 4);
        still = new Frames(width, height, 1).smooth(seed + 4);
        stillNext = new Frames(width, height, 1);
        stillNext.copyOf(still);
        noisy = new Frames(width, height, 1);
        noisy.noisyCopyOf(still, NOISE, seed + 5);
        previous = new Frames(width, height, 1);
        diff = new Mat();
        motion.reset(width, height, 16);
    }

    /**
     * Runs each kernel and OpenCV's counterpart on the frames and fails unless they agree within
     * the documented rounding: gray and bilinear within 1 level (8-bit against OpenCV's 14- and
     * 11-bit fixed point), brightness within 1 (OpenCV rounds half to even), the rest exactly.
     *
     * @return the largest difference seen, by kernel, for the results page.
     */
    String check()
    {
        final StringBuilder worst = new StringBuilder();
        kernels.rgbaToGray(rgba.buffer, rgba.stride, grayOut.buffer, grayOut.stride, width, height);
        Imgproc.cvtColor(rgba.mat, grayCv.mat, Imgproc.COLOR_RGBA2GRAY);
        worst.append("rgbaToGray ").append(Frames.check("RGBA to gray", grayOut, grayCv, 1, false));
        for (final boolean isNv12 : new boolean[]{false, true})
        {
            final Frames yuv = isNv12 ? nv12 : i420;
            final PixelFormat format = yuv.yuv(isNv12);
            ImageKernels.yuvToGray(format, yuv.buffer, width, grayOut.buffer, grayOut.stride, width, height);
            Imgproc.cvtColor(yuv.mat, grayCv.mat, isNv12 ? Imgproc.COLOR_YUV2GRAY_NV12 : Imgproc.COLOR_YUV2GRAY_I420);
            worst.append(", ").append(format).append("ToGray ")
                .append(Frames.check(format + " to gray", grayOut, grayCv, 0, false));
            kernels.yuvToRgba(format, yuv.buffer, width, rgbaOut.buffer, rgbaOut.stride, width, height);
            Imgproc.cvtColor(yuv.mat, rgbaCv.mat, isNv12 ? Imgproc.COLOR_YUV2RGBA_NV12 : Imgproc.COLOR_YUV2RGBA_I420);
            worst.append(", ").append(format).append("ToRgba ")
                .append(Frames.check(format + " to RGBA", rgbaOut, rgbaCv, 0, false));
        }
        halveGray_fw();
        halveGray_cv();
        worst.append(", halveGray ").append(Frames.check("half size gray", halfGray, halfGrayCv, 0, false));
        halveRgba_fw();
        halveRgba_cv();
        worst.append(", halveRgba ").append(Frames.check("half size RGBA", halfRgba, halfRgbaCv, 0, false));
        bilinearGray_fw();
        bilinearGray_cv();
        worst.append(", bilinearGray ").append(Frames.check("bilinear gray", smallGray, smallGrayCv, 1, false));
        bilinearRgba_fw();
        bilinearRgba_cv();
        worst.append(", bilinearRgba ").append(Frames.check("bilinear RGBA", smallRgba, smallRgbaCv, 1, false));
        checkMotion();
        rgbaOut.copyOf(rgba);
        rgbaCv.copyOf(rgba);
        boxes_fw();
        drawBoxesCv(rgbaCv);
        worst.append(", boxes ").append(Frames.check("boxes", rgbaOut, rgbaCv, 0, false));
        rgbaOut.copyOf(rgba);
        rgbaCv.copyOf(rgba);
        brightnessRgba_fw();
        Core.convertScaleAbs(rgbaCv.mat, rgbaCv.mat, CONTRAST, 128 * (1 - CONTRAST) + BRIGHTNESS);
        worst.append(", brightnessRgba ").append(Frames.check("brightness/contrast", rgbaOut, rgbaCv, 1, true));
        grayOut.copyOf(gray);
        grayCv.copyOf(gray);
        brightnessGray_fw();
        brightnessGray_cv();
        worst.append(", brightnessGray ").append(Frames.check("brightness/contrast gray", grayOut, grayCv, 1, false));
        return worst.toString();
    }

    private void checkMotion()
    {
        // the kernel's count against OpenCV's, on noise under and over the threshold
        for (final int amplitude : new int[]{NOISE, 40})
        {
            final Frames next = new Frames(width, height, 1);
            next.noisyCopyOf(still, amplitude, amplitude);
            Core.absdiff(still.mat, next.mat, diff);
            Imgproc.threshold(diff, diff, THRESHOLD, 255, Imgproc.THRESH_BINARY);
            final int expected = Core.countNonZero(diff);
            previous.copyOf(still);
            final int changed = motion.difference(next.buffer, next.stride, previous.buffer, previous.stride, THRESHOLD);
            if (changed != expected)
            {
                throw new IllegalStateException("motion with noise of +-" + amplitude + ": " + changed +
                    " pixels changed by Framewire's count, " + expected + " by OpenCV's");
            }
            Frames.check("motion's copy of the new frame", previous, next, 0, false);
        }
        previous.copyOf(still);
        expectedNoisyChanges = 0;
    }

    // ---- color

    @Benchmark
    public void rgbaToGray_fw()
    {
        kernels.rgbaToGray(rgba.buffer, rgba.stride, grayOut.buffer, grayOut.stride, width, height);
    }

    @Benchmark
    public void rgbaToGray_cv()
    {
        Imgproc.cvtColor(rgba.mat, grayCv.mat, Imgproc.COLOR_RGBA2GRAY);
    }

    @Benchmark
    public void i420ToGray_fw()
    {
        ImageKernels.yuvToGray(PixelFormat.I420, i420.buffer, width, grayOut.buffer, grayOut.stride, width, height);
    }

    @Benchmark
    public void i420ToGray_cv()
    {
        Imgproc.cvtColor(i420.mat, grayCv.mat, Imgproc.COLOR_YUV2GRAY_I420);
    }

    @Benchmark
    public void nv12ToRgba_fw()
    {
        kernels.yuvToRgba(PixelFormat.NV12, nv12.buffer, width, rgbaOut.buffer, rgbaOut.stride, width, height);
    }

    @Benchmark
    public void nv12ToRgba_cv()
    {
        Imgproc.cvtColor(nv12.mat, rgbaCv.mat, Imgproc.COLOR_YUV2RGBA_NV12);
    }

    @Benchmark
    public void i420ToRgba_fw()
    {
        kernels.yuvToRgba(PixelFormat.I420, i420.buffer, width, rgbaOut.buffer, rgbaOut.stride, width, height);
    }

    @Benchmark
    public void i420ToRgba_cv()
    {
        Imgproc.cvtColor(i420.mat, rgbaCv.mat, Imgproc.COLOR_YUV2RGBA_I420);
    }

    // ---- resize

    @Benchmark
    public void halveGray_fw()
    {
        kernels.halveGray(gray.buffer, gray.stride, halfGray.buffer, halfGray.stride, width / 2, height / 2);
    }

    @Benchmark
    public void halveGray_cv()
    {
        Imgproc.resize(gray.mat, halfGrayCv.mat, new Size(width / 2, height / 2), 0, 0, Imgproc.INTER_AREA);
    }

    @Benchmark
    public void halveRgba_fw()
    {
        kernels.halveRgba(rgba.buffer, rgba.stride, halfRgba.buffer, halfRgba.stride, width / 2, height / 2);
    }

    @Benchmark
    public void halveRgba_cv()
    {
        Imgproc.resize(rgba.mat, halfRgbaCv.mat, new Size(width / 2, height / 2), 0, 0, Imgproc.INTER_AREA);
    }

    @Benchmark
    public void bilinearGray_fw()
    {
        bilinearGray.resize(gray.buffer, gray.stride, smallGray.buffer, smallGray.stride);
    }

    @Benchmark
    public void bilinearGray_cv()
    {
        Imgproc.resize(gray.mat, smallGrayCv.mat, new Size(smallGray.width, smallGray.height), 0, 0,
            Imgproc.INTER_LINEAR);
    }

    @Benchmark
    public void bilinearRgba_fw()
    {
        bilinearRgba.resize(rgba.buffer, rgba.stride, smallRgba.buffer, smallRgba.stride);
    }

    @Benchmark
    public void bilinearRgba_cv()
    {
        Imgproc.resize(rgba.mat, smallRgbaCv.mat, new Size(smallRgba.width, smallRgba.height), 0, 0,
            Imgproc.INTER_LINEAR);
    }

    // ---- motion: each call compares one frame with the one before, alternating between two

    @Benchmark
    public int motionStill_fw()
    {
        return motionStep(stillNext);
    }

    @Benchmark
    public int motionNoise_fw()
    {
        return motionStep(noisy);
    }

    private int motionStep(final Frames other)
    {
        flip = !flip;
        final Frames now = flip ? other : still;
        final int changed = motion.difference(now.buffer, now.stride, previous.buffer, previous.stride, THRESHOLD);
        if (changed != expectedNoisyChanges)
        {
            throw new IllegalStateException("motion found " + changed + " changed pixels in a frame whose " +
                "noise is under the threshold");
        }
        return motion.regions(boxes, 16, 50);
    }

    @Benchmark
    public int motionStill_cv()
    {
        return cvMotion(stillNext);
    }

    @Benchmark
    public int motionNoise_cv()
    {
        return cvMotion(noisy);
    }

    private int cvMotion(final Frames other)
    {
        Core.absdiff(still.mat, other.mat, diff);
        Imgproc.threshold(diff, diff, THRESHOLD, 255, Imgproc.THRESH_BINARY);
        return Core.countNonZero(diff);
    }

    // ---- drawing and brightness, in place

    @Benchmark
    public void boxes_fw()
    {
        for (int i = 0; i < 4; i++)
        {
            final int x = 50 + i * (width / 5);
            final int y = 40 + i * (height / 6);
            final int w = width / 6;
            final int h = height / 5;
            ImageKernels.fillRect(rgbaOut.buffer, rgbaOut.stride, PixelFormat.RGBA32, width, height, x, y, x + w, y + 1,
                0xFF00_00FF, 0);
            ImageKernels.fillRect(rgbaOut.buffer, rgbaOut.stride, PixelFormat.RGBA32, width, height, x, y + h - 1, x + w,
                y + h, 0xFF00_00FF, 0);
            ImageKernels.fillRect(rgbaOut.buffer, rgbaOut.stride, PixelFormat.RGBA32, width, height, x, y, x + 1, y + h,
                0xFF00_00FF, 0);
            ImageKernels.fillRect(rgbaOut.buffer, rgbaOut.stride, PixelFormat.RGBA32, width, height, x + w - 1, y, x + w,
                y + h, 0xFF00_00FF, 0);
        }
    }

    @Benchmark
    public void boxes_cv()
    {
        drawBoxesCv(rgbaCv);
    }

    private static final Scalar RED = new Scalar(255, 0, 0, 255);

    private void drawBoxesCv(final Frames frame)
    {
        for (int i = 0; i < 4; i++)
        {
            final int x = 50 + i * (width / 5);
            final int y = 40 + i * (height / 6);
            final int w = width / 6;
            final int h = height / 5;
            Imgproc.rectangle(frame.mat, new Point(x, y), new Point(x + w - 1, y + h - 1), RED, 1);
        }
    }

    @Benchmark
    public void brightnessRgba_fw()
    {
        sampleMap.apply(rgbaOut.buffer, rgbaOut.stride, rgbaOut.stride, height, true);
    }

    @Benchmark
    public void brightnessRgba_cv()
    {
        Core.convertScaleAbs(rgbaCv.mat, rgbaCv.mat, CONTRAST, 128 * (1 - CONTRAST) + BRIGHTNESS);
    }

    @Benchmark
    public void brightnessGray_fw()
    {
        sampleMap.apply(grayOut.buffer, grayOut.stride, grayOut.stride, height, false);
    }

    @Benchmark
    public void brightnessGray_cv()
    {
        Core.convertScaleAbs(grayCv.mat, grayCv.mat, CONTRAST, 128 * (1 - CONTRAST) + BRIGHTNESS);
    }

    // ---- the memory floor: the input's bytes copied off-heap to off-heap

    @Benchmark
    public void copyFloor_rgba()
    {
        UnsafeApi.copyMemory(rgba.buffer.addressOffset(), rgbaOut.buffer.addressOffset(), rgba.buffer.capacity());
    }

    @Benchmark
    public void copyFloor_gray()
    {
        UnsafeApi.copyMemory(gray.buffer.addressOffset(), grayOut.buffer.addressOffset(), gray.buffer.capacity());
    }

    @Benchmark
    public void copyFloor_yuv()
    {
        UnsafeApi.copyMemory(i420.buffer.addressOffset(), rgbaOut.buffer.addressOffset(), i420.buffer.capacity());
    }
}
