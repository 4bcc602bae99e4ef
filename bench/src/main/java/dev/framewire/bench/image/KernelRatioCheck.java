package dev.framewire.bench.image;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Each kernel against OpenCV's call, interleaved in one JVM: rounds of about 20 ms of Framewire's
 * kernel, then the same number of calls of OpenCV's, alternating, on the frames and with the
 * answer checks of {@link ImageKernelBenchmark}. A round gives a ratio of two batches measured
 * back to back, so the machine's load (other agents' builds) falls on both alike; the median of
 * the rounds' ratios is printed beside each side's fastest and median time a call. JMH's runs,
 * one benchmark after another, drift with the load by more than the ratios this is about.
 *
 * <pre>
 *   java @.mvn/jvm.config -cp bench/target/benchmarks.jar dev.framewire.bench.image.KernelRatioCheck \
 *       [width height rounds kernel-regex]
 * </pre>
 */
public final class KernelRatioCheck
{
    private KernelRatioCheck()
    {
    }

    public static void main(final String[] args)
    {
        final int width = args.length > 0 ? Integer.parseInt(args[0]) : 1920;
        final int height = args.length > 1 ? Integer.parseInt(args[1]) : 1080;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 21;
        final Pattern only = Pattern.compile(args.length > 3 ? args[3] : ".*");
        final ImageKernelBenchmark b = new ImageKernelBenchmark();
        b.setUp(width, height, 42);
        b.check();
        System.out.printf(Locale.ROOT, "%dx%d, %d rounds; us a call: fastest / median; fw/cv throughput ratio, " +
            "median of rounds (min..max)%n", width, height, rounds);
        final Object[][] pairs = {
            {"rgbaToGray", (Runnable)b::rgbaToGray_fw, (Runnable)b::rgbaToGray_cv},
            {"i420ToGray", (Runnable)b::i420ToGray_fw, (Runnable)b::i420ToGray_cv},
            {"i420ToRgba", (Runnable)b::i420ToRgba_fw, (Runnable)b::i420ToRgba_cv},
            {"nv12ToRgba", (Runnable)b::nv12ToRgba_fw, (Runnable)b::nv12ToRgba_cv},
            {"halveGray", (Runnable)b::halveGray_fw, (Runnable)b::halveGray_cv},
            {"halveRgba", (Runnable)b::halveRgba_fw, (Runnable)b::halveRgba_cv},
            {"bilinearGray", (Runnable)b::bilinearGray_fw, (Runnable)b::bilinearGray_cv},
            {"bilinearRgba", (Runnable)b::bilinearRgba_fw, (Runnable)b::bilinearRgba_cv},
            {"motionStill", (Runnable)b::motionStill_fw, (Runnable)b::motionStill_cv},
            {"motionNoise", (Runnable)b::motionNoise_fw, (Runnable)b::motionNoise_cv},
            {"boxes", (Runnable)b::boxes_fw, (Runnable)b::boxes_cv},
            {"brightnessRgba", (Runnable)b::brightnessRgba_fw, (Runnable)b::brightnessRgba_cv},
            {"brightnessGray", (Runnable)b::brightnessGray_fw, (Runnable)b::brightnessGray_cv},
        };
        for (final Object[] pair : pairs)
        {
            if (only.matcher((String)pair[0]).matches())
            {
                compare((String)pair[0], (Runnable)pair[1], (Runnable)pair[2], rounds);
            }
        }
    }

    private static void compare(final String name, final Runnable fw, final Runnable cv, final int rounds)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < 200 || System.nanoTime() - t0 < 2_000_000_000L; i++) // warm-up, both
        {
            fw.run();
            cv.run();
            if (i >= 20_000)
            {
                break;
            }
        }
        final long t1 = System.nanoTime();
        fw.run();
        final long one = Math.max(1, System.nanoTime() - t1);
        final int calls = (int)Math.max(1, Math.min(100_000, 20_000_000L / one));
        final double[] fwUs = new double[rounds];
        final double[] cvUs = new double[rounds];
        final double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++)
        {
            fwUs[r] = batch(fw, calls);
            cvUs[r] = batch(cv, calls);
            ratio[r] = cvUs[r] / fwUs[r];
        }
        Arrays.sort(fwUs);
        Arrays.sort(cvUs);
        Arrays.sort(ratio);
        System.out.printf(Locale.ROOT, "%-15s fw %8.1f / %8.1f   cv %8.1f / %8.1f   fw/cv %.2f (%.2f..%.2f)%n", name,
            fwUs[0], fwUs[rounds / 2], cvUs[0], cvUs[rounds / 2], ratio[rounds / 2], ratio[0], ratio[rounds - 1]);
    }

    private static double batch(final Runnable task, final int calls)
    {
        final long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++)
        {
            task.run();
        }
        return (System.nanoTime() - t0) / 1e3 / calls;
    }
}
