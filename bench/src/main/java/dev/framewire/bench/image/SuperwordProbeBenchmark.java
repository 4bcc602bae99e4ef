package dev.framewire.bench.image;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Which row loops C2 vectorises, measured: one 1920-sample row (a 1080p row) through each loop
 * shape the image kernels use. A loop C2's superword pass vectorises costs a few hundredths of a
 * nanosecond a sample; one it leaves scalar costs tenths. The kernels that stay behind OpenCV
 * (docs/results/image-kernels.md) are those whose loops need the scalar shapes here: narrowing
 * ints to bytes, widening bytes to ints, and gathering by a table of positions.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(1)
public class SuperwordProbeBenchmark
{
    static final int N = 1920;

    final int[] ints = new int[N];
    final int[] intsOut = new int[N];
    final byte[] bytes = new byte[N];
    final byte[] bytesOut = new byte[N];
    final long[] longs = new long[N / 8];
    final long[] longsOut = new long[N / 8];
    final int[] positions = new int[N];

    @Setup
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < N; i++)
        {
            ints[i] = random.nextInt();
            bytes[i] = (byte)random.nextInt();
            positions[i] = i * 2 / 3;
        }
        for (int i = 0; i < N / 8; i++)
        {
            longs[i] = random.nextLong();
        }
    }

    /** RGBA to gray on int lanes, int[] to int[]: vectorised. */
    @Benchmark
    public int[] intLanes()
    {
        for (int x = 0; x < N; x++)
        {
            final int p = ints[x];
            intsOut[x] = ((p & 0xFF) * 77 + ((p >>> 8) & 0xFF) * 150 + ((p >>> 16) & 0xFF) * 29 + 128) >>> 8;
        }
        return intsOut;
    }

    /** Motion's SWAR threshold on long lanes, 8 pixels a long: vectorised. */
    @Benchmark
    public long[] longSwar()
    {
        for (int i = 0; i < N / 8; i++)
        {
            final long p = longs[i];
            final long q = longsOut[i];
            final long pe = p & 0x00FF_00FF_00FF_00FFL;
            final long qe = q & 0x00FF_00FF_00FF_00FFL;
            longsOut[i] = ((pe | 0x0100_0100_0100_0100L) - qe + 0x00E6_00E6_00E6_00E6L) & 0x0200_0200_0200_0200L;
        }
        return longsOut;
    }

    /** int[] to byte[]: the last step of any byte output. Not vectorised on JDK 17. */
    @Benchmark
    public byte[] narrowIntToByte()
    {
        for (int x = 0; x < N; x++)
        {
            bytesOut[x] = (byte)ints[x];
        }
        return bytesOut;
    }

    /** byte[] to int[]: the first step of any arithmetic on byte input. Not vectorised on JDK 17. */
    @Benchmark
    public int[] widenByteToInt()
    {
        for (int x = 0; x < N; x++)
        {
            intsOut[x] = bytes[x] & 0xFF;
        }
        return intsOut;
    }

    /** A byte loop with masks (brightness on bytes): not vectorised on JDK 17. */
    @Benchmark
    public byte[] byteMasks()
    {
        for (int x = 0; x < N; x++)
        {
            bytesOut[x] = (byte)(((bytes[x] & 0xFF) * 205 + 9000) >> 8);
        }
        return bytesOut;
    }

    /** Resize's gather by a table of positions: not vectorised on JDK 17. */
    @Benchmark
    public int[] gather()
    {
        for (int x = 0; x < N; x++)
        {
            intsOut[x] = ints[positions[x]];
        }
        return intsOut;
    }
}
