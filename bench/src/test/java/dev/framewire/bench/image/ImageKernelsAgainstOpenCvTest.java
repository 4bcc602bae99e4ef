package dev.framewire.bench.image;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every image kernel against OpenCV 4.9 on random frames: the benchmark's own check
 * ({@link ImageKernelBenchmark#check}), at sizes whose rows are not whole longs, with several
 * seeds; and the check itself fails on a wrong result.
 */
class ImageKernelsAgainstOpenCvTest
{
    @Test
    void kernelsEqualOpenCvWithinTheDocumentedRounding()
    {
        final int[][] sizes = {{646, 362}, {1282, 722}, {98, 54}};
        long seed = 1;
        for (final int[] size : sizes)
        {
            for (int round = 0; round < 2; round++)
            {
                final ImageKernelBenchmark bench = new ImageKernelBenchmark();
                bench.setUp(size[0], size[1], seed++);
                final String worst = bench.check();
                assertTrue(worst.startsWith("rgbaToGray "), worst);
                System.out.println(size[0] + "x" + size[1] + " largest differences: " + worst);
            }
        }
    }

    @Test
    void theCheckFailsOnAWrongResult()
    {
        final ImageKernelBenchmark bench = new ImageKernelBenchmark();
        bench.setUp(64, 32, 7);
        bench.halveGray_fw();
        bench.halveGray_cv();
        bench.halfGray.buffer.putByte(33, (byte)(bench.halfGrayCv.buffer.getByte(33) + 1));
        assertThrows(IllegalStateException.class, () -> Frames.check("half", bench.halfGray, bench.halfGrayCv, 0, false));
    }

    @Test
    void motionBenchmarkFailsWhenTheCountIsWrong()
    {
        final ImageKernelBenchmark bench = new ImageKernelBenchmark();
        bench.setUp(64, 32, 9);
        bench.check();
        bench.motionNoise_fw();
        bench.expectedNoisyChanges = 1;
        assertThrows(IllegalStateException.class, bench::motionNoise_fw);
    }
}
