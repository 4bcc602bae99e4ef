package dev.framewire.core.calculators.image;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Vector API rows ({@link VectorRows}) against the arithmetic each replaces, written out here
 * per element, on random rows of lengths that are and are not whole vectors. Runs where the path
 * is on (all of it on JDK 25+, {@code --add-modules jdk.incubator.vector} from {@code .mvn/jvm.config}); the
 * calculators' own tests and bench's {@code ImageKernelsAgainstOpenCvTest} then run through it
 * too. {@link #thePathIsOnExactlyWhereItShouldBe} keeps CI's JDK 25 run from testing the scalar
 * loops twice without saying so.
 */
class VectorKernelsTest
{
    private static final int[] LENGTHS = {1, 7, 16, 33, 640, 1283};

    private static VectorRows rows()
    {
        assumeTrue(Simd.ROWS != null, "the Vector API loops are off on this JVM");
        return Simd.ROWS;
    }

    private static VectorRows all()
    {
        assumeTrue(Simd.ALL != null, "the Vector API loops of JDK 25 are off on this JVM");
        return Simd.ALL;
    }

    @Test
    void thePathIsOnExactlyWhereItShouldBe()
    {
        final String mode = System.getProperty(Simd.PROPERTY, "auto");
        final boolean rows = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && !"false".equals(mode);
        final boolean all = rows && (Runtime.version().feature() >= 25 || "true".equals(mode));
        assertEquals(rows, Simd.ROWS != null, "the lane-wise loops: the incubator module is in the boot layer");
        assertEquals(all, Simd.ALL != null, "every loop: JDK 25 or later");
    }

    @Test
    void motionMarksEachByteThatChangedByMoreThanTheThreshold()
    {
        final VectorRows v = rows();
        final Random random = new Random(1);
        for (final int words : LENGTHS)
        {
            for (final int threshold : new int[] {0, 4, 25, 254, 255})
            {
                final long[] now = new long[words + VectorRows.PAD];
                final long[] before = new long[words + VectorRows.PAD];
                final long[] changed = new long[words + VectorRows.PAD];
                for (int i = 0; i < words; i++)
                {
                    now[i] = random.nextLong();
                    before[i] = random.nextBoolean() ? now[i] ^ random.nextLong() & 0x0303_0303_0303_0303L : random.nextLong();
                }
                final long any = v.motion(now, before, changed, words, threshold);
                long expectedAny = 0;
                for (int i = 0; i < words; i++)
                {
                    long expected = 0;
                    for (int b = 0; b < 8; b++)
                    {
                        final int a = (int)(now[i] >>> 8 * b) & 0xFF;
                        final int c = (int)(before[i] >>> 8 * b) & 0xFF;
                        expected |= Math.abs(a - c) > threshold ? 1L << 8 * b : 0;
                    }
                    assertEquals(expected, changed[i], "word " + i + " of " + words + ", threshold " + threshold);
                    expectedAny |= expected;
                }
                assertEquals(expectedAny != 0, any != 0);
            }
        }
    }

    @Test
    void linearMapClampsAndKeepsAlpha()
    {
        final VectorRows v = rows();
        final Random random = new Random(2);
        for (final int n : new int[] {4, 16, 36, 640, 1284})
        {
            for (final double contrast : new double[] {0.0, 0.8, 1.7, -2.0, 63.0})
            {
                final int mul = (int)Math.round(contrast * 65536);
                final int add = (int)Math.round((128 - 128 * contrast + 10 + 0.5) * 65536);
                final byte[] samples = new byte[n + VectorRows.PAD];
                random.nextBytes(samples);
                final byte[] original = samples.clone();
                for (final boolean keepAlpha : new boolean[] {false, true})
                {
                    final byte[] row = original.clone();
                    v.linearMap(row, n, mul, add, keepAlpha);
                    for (int i = 0; i < n; i++)
                    {
                        final int s = original[i] & 0xFF;
                        final int mapped = Math.max(0, Math.min(255, (s * mul + add) >> 16));
                        final int expected = keepAlpha && (i & 3) == 3 ? s : mapped;
                        assertEquals(expected, row[i] & 0xFF, "sample " + i + " of " + n + ", contrast " + contrast);
                    }
                }
            }
        }
    }

    @Test
    void rgbaToGrayAndYuvToRgbaMatchTheFixedPointArithmetic()
    {
        final VectorRows v = all();
        final Random random = new Random(3);
        for (final int width : LENGTHS)
        {
            final int[] pixels = random.ints(width + VectorRows.PAD).toArray();
            final byte[] gray = new byte[width + VectorRows.PAD];
            v.rgbaToGray(pixels, gray, width);
            for (int x = 0; x < width; x++)
            {
                final int p = pixels[x];
                assertEquals(((p & 0xFF) * 77 + (p >>> 8 & 0xFF) * 150 + (p >>> 16 & 0xFF) * 29 + 128) >>> 8,
                    gray[x] & 0xFF, "pixel " + x);
            }
            final byte[] luma = new byte[width + VectorRows.PAD];
            random.nextBytes(luma);
            final int chromaWidth = (width + 1) >> 1;
            for (final boolean nv12 : new boolean[] {false, true})
            {
                final byte[] chroma = new byte[2 * chromaWidth + VectorRows.PAD];
                random.nextBytes(chroma);
                final int[] us = new int[width + 1 + VectorRows.PAD];
                final int[] vs = new int[width + 1 + VectorRows.PAD];
                v.chroma(chroma, nv12, chromaWidth, us, vs);
                final int[] rgba = new int[width + VectorRows.PAD];
                v.yuvToRgba(luma, us, vs, rgba, width);
                for (int x = 0; x < width; x++)
                {
                    final int c = x >> 1;
                    final int u = (chroma[nv12 ? 2 * c : c] & 0xFF) - 128;
                    final int vv = (chroma[nv12 ? 2 * c + 1 : chromaWidth + c] & 0xFF) - 128;
                    assertEquals(u, us[x], "U at " + x);
                    assertEquals(vv, vs[x], "V at " + x);
                    final int l = Math.max(0, (luma[x] & 0xFF) - 16) * ImageKernels.CY + ImageKernels.HALF;
                    final int r = clamp(l + ImageKernels.CVR * vv >> 20);
                    final int g = clamp(l + ImageKernels.CVG * vv + ImageKernels.CUG * u >> 20);
                    final int b = clamp(l + ImageKernels.CUB * u >> 20);
                    assertEquals(0xFF00_0000 | b << 16 | g << 8 | r, rgba[x], "pixel " + x + ", nv12 " + nv12);
                }
            }
        }
    }

    @Test
    void halveAndBilinearRowsMatchTheScalarSums()
    {
        final VectorRows v = all();
        final Random random = new Random(4);
        for (final int n : LENGTHS)
        {
            final long[] top = random.longs(n + VectorRows.PAD).toArray();
            final long[] bottom = random.longs(n + VectorRows.PAD).toArray();
            final int[] out = new int[n + VectorRows.PAD];
            v.halve(top, bottom, out, n, false);
            for (int i = 0; i < n; i++)
            {
                for (int k = 0; k < 4; k++)
                {
                    final int sum = sample(top[i], 2 * k) + sample(top[i], 2 * k + 1) + sample(bottom[i], 2 * k) +
                        sample(bottom[i], 2 * k + 1);
                    assertEquals((sum + 2) >> 2, out[i] >>> 8 * k & 0xFF, "gray long " + i + ", output " + k);
                }
            }
            v.halve(top, bottom, out, n, true);
            for (int i = 0; i < n; i++)
            {
                for (int ch = 0; ch < 4; ch++)
                {
                    final int sum = sample(top[i], ch) + sample(top[i], ch + 4) + sample(bottom[i], ch) +
                        sample(bottom[i], ch + 4);
                    assertEquals((sum + 2) >> 2, out[i] >>> 8 * ch & 0xFF, "RGBA long " + i + ", channel " + ch);
                }
            }
        }
        for (final int width : LENGTHS)
        {
            final int srcWidth = width * 3 / 2 + 1;
            final int[] lo = new int[width + VectorRows.PAD];
            final int[] hi = new int[width + VectorRows.PAD];
            final int[] weight = new int[width + VectorRows.PAD];
            BilinearResizer.axis(srcWidth, width, lo, hi, weight);
            final byte[] row = new byte[4 * srcWidth + VectorRows.PAD];
            random.nextBytes(row);
            final int[] samples = new int[4 * srcWidth + VectorRows.PAD];
            v.widen(row, samples, 4 * srcWidth);
            for (int i = 0; i < 4 * srcWidth; i++)
            {
                assertEquals(row[i] & 0xFF, samples[i]);
            }
            final int[] into = new int[width + VectorRows.PAD];
            v.horizontalGray(samples, lo, hi, weight, into, width);
            for (int i = 0; i < width; i++)
            {
                assertEquals(samples[lo[i]] * (256 - weight[i]) + samples[hi[i]] * weight[i], into[i], "gray " + i);
            }
            final int[] pixels = random.ints(srcWidth + VectorRows.PAD).toArray();
            final int[] odd = new int[width + VectorRows.PAD];
            final int lanes = v.lanes();
            final int[] base = new int[(width + lanes - 1) / lanes];
            final int[] relLo = new int[lo.length];
            final int[] relHi = new int[hi.length];
            for (int i = 0; i < width; i++)
            {
                base[i / lanes] = lo[i / lanes * lanes];
                relLo[i] = lo[i] - base[i / lanes];
                relHi[i] = hi[i] - base[i / lanes];
            }
            final int[] windowed = new int[width + VectorRows.PAD];
            final int[] windowedOdd = new int[width + VectorRows.PAD];
            v.horizontalWindowed(samples, base, relLo, relHi, weight, windowed, windowedOdd, width, false);
            for (int i = 0; i < width; i++)
            {
                assertEquals(into[i], windowed[i], "windowed gray " + i);
            }
            v.horizontalRgba(pixels, lo, hi, weight, into, odd, width);
            v.horizontalWindowed(pixels, base, relLo, relHi, weight, windowed, windowedOdd, width, true);
            for (int i = 0; i < width; i++)
            {
                assertEquals(into[i], windowed[i], "windowed RGBA R,B " + i);
                assertEquals(odd[i], windowedOdd[i], "windowed RGBA G,A " + i);
            }
            final int[] lower = random.ints(width + VectorRows.PAD, 0, 256 * 256).toArray();
            final int[] lowerOdd = random.ints(width + VectorRows.PAD, 0, 256 * 256).toArray();
            final int[] rgba = new int[width + VectorRows.PAD];
            final byte[] grayOut = new byte[width + VectorRows.PAD];
            v.verticalRgba(into, lower, odd, lowerOdd, 200, 56, rgba, width);
            v.verticalGray(lower, lowerOdd, 1, 255, grayOut, width);
            for (int i = 0; i < width; i++)
            {
                final int w = weight[i];
                final int l = pixels[lo[i]];
                final int r = pixels[hi[i]];
                assertEquals((l & 0x00FF_00FF) * (256 - w) + (r & 0x00FF_00FF) * w, into[i], "RGBA R,B " + i);
                assertEquals((l >>> 8 & 0x00FF_00FF) * (256 - w) + (r >>> 8 & 0x00FF_00FF) * w, odd[i], "RGBA G,A " + i);
                final int expected = weigh(into[i] & 0xFFFF, lower[i] & 0xFFFF) |
                    weigh(odd[i] & 0xFFFF, lowerOdd[i] & 0xFFFF) << 8 |
                    weigh(into[i] >>> 16, lower[i] >>> 16) << 16 | weigh(odd[i] >>> 16, lowerOdd[i] >>> 16) << 24;
                assertEquals(expected, rgba[i], "vertical RGBA " + i);
                assertEquals((byte)((lower[i] + lowerOdd[i] * 255 + 32768) >>> 16), grayOut[i], "vertical gray " + i);
            }
        }
    }

    private static int weigh(final int top, final int bottom)
    {
        return (top * 200 + bottom * 56 + 32768) >>> 16;
    }

    private static int sample(final long word, final int index)
    {
        return (int)(word >>> 8 * index) & 0xFF;
    }

    private static int clamp(final int v)
    {
        return Math.max(0, Math.min(255, v));
    }
}
