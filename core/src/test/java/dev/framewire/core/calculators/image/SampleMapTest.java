package dev.framewire.core.calculators.image;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link SampleMap} against the formula it documents, worked per sample in doubles, on random rows
 * whose length is not a whole number of ints, on both of its paths: fixed point (contrasts within
 * +-64) and the table (beyond, where the fixed point would overflow).
 */
class SampleMapTest
{
    @Test
    void everySampleIsTheDocumentedFormulaOnBothPaths()
    {
        final double[] contrasts = {0.5, 0.8, 1.7, -1.0, 0.0, 3.0, 63.9, 100.0, -200.0};
        final long[] brightnesses = {-300, -20, 0, 7, 128, 5000};
        final SplittableRandom random = new SplittableRandom(11);
        final int width = 37;
        final int height = 5;
        final int stride = 4 * width + 3;
        for (final double contrast : contrasts)
        {
            for (final long brightness : brightnesses)
            {
                for (final boolean keepAlpha : new boolean[]{false, true})
                {
                    final int rowBytes = keepAlpha ? 4 * width : 4 * width - 1;
                    final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(stride * height));
                    final byte[] before = new byte[stride * height];
                    for (int i = 0; i < before.length; i++)
                    {
                        before[i] = (byte)random.nextInt(256);
                        frame.putByte(i, before[i]);
                    }
                    new SampleMap(brightness, contrast).apply(frame, stride, rowBytes, height, keepAlpha);
                    for (int y = 0; y < height; y++)
                    {
                        for (int i = 0; i < stride; i++)
                        {
                            final int at = y * stride + i;
                            final int v = before[at] & 0xFF;
                            final boolean mapped = i < rowBytes && !(keepAlpha && (i & 3) == 3);
                            final long b = Math.max(-1024, Math.min(1024, brightness));
                            final int expected = mapped ?
                                (int)Math.max(0, Math.min(255, Math.round((v - 128) * contrast + 128 + b))) : v;
                            assertEquals(expected, frame.getByte(at) & 0xFF, "contrast " + contrast + ", brightness " +
                                brightness + ", keepAlpha " + keepAlpha + ", row " + y + ", byte " + i + ", was " + v);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aFrameTooSmallForItsRowsIsRefusedBeforeAnyWrite()
    {
        final UnsafeBuffer frame = new UnsafeBuffer(ByteBuffer.allocateDirect(100));
        assertThrows(IndexOutOfBoundsException.class, () -> new SampleMap(10, 1.5).apply(frame, 40, 40, 3, false));
        assertEquals(0, frame.getByte(0));
    }
}
