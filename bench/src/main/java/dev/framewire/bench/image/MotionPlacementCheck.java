package dev.framewire.bench.image;

import dev.framewire.core.calculators.image.MotionKernel;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.Locale;

/**
 * Motion's cost against where the previous frame lies relative to the new one, interleaved in
 * one JVM: the new frame starts on a page, the previous frame a whole number of pages after its
 * end plus {@code delta} bytes, and each round runs every (size, delta) for a batch of frames,
 * so that the machine's load falls on all alike. Both frames hold the same still scene. Asks
 * whether 720p being slower than 1080p in some runs comes from the frames' addresses (a 720p
 * GRAY8 frame is exactly 225 pages, so frames allocated one after another keep the same offset
 * within a page; a 1080p frame is 506.25 pages) rather than from the work.
 *
 * <pre>
 *   java @.mvn/jvm.config -cp bench/target/benchmarks.jar dev.framewire.bench.image.MotionPlacementCheck \
 *       [rounds [sizes, e.g. 1280x720,1920x1080]]
 * </pre>
 */
public final class MotionPlacementCheck
{
    private static final int[] DELTAS = {0, 16, 48, 64, 1024, 2048};
    private static final int PAGE = 4096;

    private MotionPlacementCheck()
    {
    }

    public static void main(final String[] args)
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        final String[] named = (args.length > 1 ? args[1] : "1280x720,1920x1080").split(",");
        final int[][] sizes = new int[named.length][];
        for (int i = 0; i < named.length; i++)
        {
            final String[] sides = named[i].split("x");
            sizes[i] = new int[] {Integer.parseInt(sides[0]), Integer.parseInt(sides[1])};
        }
        run(rounds, sizes);
    }

    private static void run(final int rounds, final int[][] sizes)
    {
        final int configs = sizes.length * DELTAS.length;
        final MotionKernel[] kernels = new MotionKernel[configs];
        final UnsafeBuffer[] now = new UnsafeBuffer[configs];
        final UnsafeBuffer[] previous = new UnsafeBuffer[configs];
        for (int s = 0; s < sizes.length; s++)
        {
            final int bytes = sizes[s][0] * sizes[s][1];
            final int gap = (bytes + PAGE - 1) / PAGE * PAGE;
            for (int d = 0; d < DELTAS.length; d++)
            {
                final int c = s * DELTAS.length + d;
                final UnsafeBuffer all = new UnsafeBuffer(BufferUtil.allocateDirectAligned(2 * gap + 2 * PAGE, PAGE));
                now[c] = new UnsafeBuffer(all, 0, bytes);
                previous[c] = new UnsafeBuffer(all, gap + DELTAS[d], bytes);
                for (int i = 0; i < bytes; i++)
                {
                    final byte v = (byte)((i % sizes[s][0]) * 7 + (i / sizes[s][0]) * 3);
                    now[c].putByte(i, v);
                    previous[c].putByte(i, v);
                }
                kernels[c] = new MotionKernel();
                kernels[c].reset(sizes[s][0], sizes[s][1], 16);
            }
        }
        final double[][] us = new double[configs][rounds];
        for (int r = -3; r < rounds; r++) // three rounds of warm-up
        {
            for (int c = 0; c < configs; c++)
            {
                final int width = sizes[c / DELTAS.length][0];
                final long t0 = System.nanoTime();
                for (int i = 0; i < 50; i++)
                {
                    if (kernels[c].difference(now[c], width, previous[c], width, 25) != 0)
                    {
                        throw new IllegalStateException("a still scene gave changed pixels");
                    }
                }
                if (r >= 0)
                {
                    us[c][r] = (System.nanoTime() - t0) / 1e3 / 50;
                }
            }
        }
        for (int c = 0; c < configs; c++)
        {
            Arrays.sort(us[c]);
            final int[] size = sizes[c / DELTAS.length];
            System.out.printf(Locale.ROOT, "%dx%d previous at page + %4d B: fastest %7.1f us, median %7.1f us, " +
                "median a megapixel %6.1f us%n", size[0], size[1], DELTAS[c % DELTAS.length], us[c][0],
                us[c][rounds / 2], us[c][rounds / 2] * 1e6 / (size[0] * size[1]));
        }
    }
}
