package dev.framewire.bench.image;

import java.util.Locale;

/**
 * Motion under sensor noise against a still scene, interleaved in one JVM: rounds of 100 frames
 * of a still scene, then 100 of the same scene with +-4 levels of noise (under the threshold of
 * 25), alternating, so that the machine's load falls on both alike. JMH runs its benchmarks one
 * after another, and on a shared machine the load drifts between them by more than the
 * difference this is about. Checks its own answer: no frame of either kind may have a changed
 * pixel.
 *
 * <pre>
 *   java @.mvn/jvm.config -cp bench/target/benchmarks.jar dev.framewire.bench.image.MotionNoiseCheck [width height rounds]
 * </pre>
 */
public final class MotionNoiseCheck
{
    private MotionNoiseCheck()
    {
    }

    public static void main(final String[] args)
    {
        final int width = args.length > 0 ? Integer.parseInt(args[0]) : 1920;
        final int height = args.length > 1 ? Integer.parseInt(args[1]) : 1080;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        final ImageKernelBenchmark bench = new ImageKernelBenchmark();
        bench.setUp(width, height, 42);
        bench.check();
        long still = 0;
        long noise = 0;
        final int warmup = rounds / 6;
        for (int round = 0; round < rounds; round++)
        {
            final long t0 = System.nanoTime();
            for (int i = 0; i < 100; i++)
            {
                bench.motionStill_fw();
            }
            final long t1 = System.nanoTime();
            for (int i = 0; i < 100; i++)
            {
                bench.motionNoise_fw();
            }
            final long t2 = System.nanoTime();
            if (round >= warmup)
            {
                still += t1 - t0;
                noise += t2 - t1;
            }
        }
        final int frames = 100 * (rounds - warmup);
        System.out.printf(Locale.ROOT, "%dx%d, %d frames each, interleaved in rounds of 100: still %.1f us a frame, " +
            "noise +-%d %.1f us a frame, noise / still = %.2f%n", width, height, frames, still / 1e3 / frames,
            ImageKernelBenchmark.NOISE, noise / 1e3 / frames, (double)noise / still);
    }
}
