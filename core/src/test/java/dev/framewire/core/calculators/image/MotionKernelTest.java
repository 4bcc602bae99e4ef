package dev.framewire.core.calculators.image;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link MotionKernel}'s SWAR difference against a plain per-pixel loop: every threshold edge
 * (0, 1, 254, 255 and between), differences of every size including 255, rows that are not whole
 * longs, strides wider than the row; and the previous frame becomes the new one.
 */
class MotionKernelTest
{
    @Test
    void changedPixelsAndBoxesMatchAPlainLoop()
    {
        final SplittableRandom random = new SplittableRandom(5);
        final int[] thresholds = {0, 1, 7, 25, 128, 200, 254, 255};
        final int[][] sizes = {{37, 11}, {64, 8}, {1, 1}, {130, 33}};
        for (final int[] size : sizes)
        {
            final int width = size[0];
            final int height = size[1];
            final int stride = width + 5;
            for (final int threshold : thresholds)
            {
                final UnsafeBuffer now = new UnsafeBuffer(ByteBuffer.allocateDirect(stride * height));
                final UnsafeBuffer before = new UnsafeBuffer(ByteBuffer.allocateDirect(stride * height));
                int expected = 0;
                for (int y = 0; y < height; y++)
                {
                    for (int x = 0; x < stride; x++)
                    {
                        final int b = random.nextInt(256);
                        final int n = random.nextBoolean() ? b : random.nextInt(256);
                        now.putByte(y * stride + x, (byte)n);
                        before.putByte(y * stride + x, (byte)b);
                        if (x < width && Math.abs(n - b) > threshold)
                        {
                            expected++;
                        }
                    }
                }
                final MotionKernel kernel = new MotionKernel();
                kernel.reset(width, height, 4);
                assertEquals(expected, kernel.difference(now, stride, before, stride, threshold),
                    width + "x" + height + " at threshold " + threshold);
                for (int y = 0; y < height; y++)
                {
                    final byte[] a = new byte[width];
                    final byte[] b = new byte[width];
                    now.getBytes(y * stride, a);
                    before.getBytes(y * stride, b);
                    assertArrayEquals(a, b, "row " + y + " of the previous frame after the difference");
                }
            }
        }
    }

    @Test
    void oneChangedBlockIsOneBoxExactToThePixel()
    {
        final int width = 50;
        final int height = 30;
        final UnsafeBuffer now = new UnsafeBuffer(ByteBuffer.allocateDirect(width * height));
        final UnsafeBuffer before = new UnsafeBuffer(ByteBuffer.allocateDirect(width * height));
        for (int y = 9; y < 21; y++)
        {
            for (int x = 13; x < 31; x++)
            {
                now.putByte(y * width + x, (byte)200);
            }
        }
        final MotionKernel kernel = new MotionKernel();
        kernel.reset(width, height, 8);
        assertEquals(12 * 18, kernel.difference(now, width, before, width, 25));
        final int[] boxes = new int[10];
        assertEquals(1, kernel.regions(boxes, 2, 1));
        assertArrayEquals(new int[]{13, 9, 18, 12, 216}, java.util.Arrays.copyOf(boxes, 5));
    }
}
