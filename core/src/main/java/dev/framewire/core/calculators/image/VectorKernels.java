package dev.framewire.core.calculators.image;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link VectorRows} on the Vector API, at the machine's preferred vector size (16 ints on
 * AVX-512, 8 on AVX2). Bytes are widened to int lanes ({@code B2I}) and narrowed back
 * ({@code I2B}, {@code L2I}), which is what C2's own loop vectoriser does not do for these loops;
 * chroma is spread to its two pixels with a shuffle, and bilinear's columns are gathered.
 *
 * <p>Compiled against the API of JDK 17's incubator (core's release), and using only members
 * whose names and signatures are the same on JDK 25; {@link Simd} loads it by name, on JDK 25
 * or later. Stateless and thread-safe.
 */
final class VectorKernels implements VectorRows
{
    private static final VectorSpecies<Integer> INT = IntVector.SPECIES_PREFERRED;
    private static final int N = INT.length();
    /** As many bytes as {@link #INT} has lanes. */
    private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(N * 8));
    private static final VectorSpecies<Long> LONG = LongVector.SPECIES_PREFERRED;
    /** As many ints as {@link #LONG} has lanes. */
    private static final VectorSpecies<Integer> HALF_INT = VectorSpecies.of(int.class, VectorShape.forBitSize(N * 16));
    /** The bytes of a {@link #LONG} vector. */
    private static final VectorSpecies<Byte> LONG_BYTES = VectorSpecies.of(byte.class, LONG.vectorShape());
    private static final VectorShuffle<Integer> SPREAD = VectorShuffle.fromOp(INT, i -> i >> 1);
    private static final VectorShuffle<Integer> EVEN_SPREAD = VectorShuffle.fromOp(INT, i -> i & ~1);
    private static final VectorShuffle<Integer> ODD_SPREAD = VectorShuffle.fromOp(INT, i -> i | 1);
    private static final VectorMask<Integer> ALPHA = alphaLanes();
    private static final long EVEN = ImageKernels.EVEN_BYTES;

    private static VectorMask<Integer> alphaLanes()
    {
        final boolean[] alpha = new boolean[N];
        for (int i = 3; i < N; i += 4)
        {
            alpha[i] = true;
        }
        return VectorMask.fromArray(INT, alpha, 0);
    }

    private static IntVector bytesAt(final byte[] bytes, final int at)
    {
        return ((IntVector)ByteVector.fromArray(BYTES, bytes, at).convertShape(VectorOperators.B2I, INT, 0)).and(0xFF);
    }

    private static void bytesInto(final IntVector v, final byte[] bytes, final int at)
    {
        ((ByteVector)v.convertShape(VectorOperators.I2B, BYTES, 0)).intoArray(bytes, at);
    }

    private static IntVector clampByte(final IntVector v)
    {
        return v.max(0).min(255);
    }

    @Override
    public long motion(final long[] now, final long[] before, final long[] changed, final int words, final int threshold)
    {
        final byte flip = (byte)0x80;
        final byte limit = (byte)(threshold ^ 0x80);
        final ByteVector zero = ByteVector.zero(LONG_BYTES);
        LongVector any = LongVector.zero(LONG);
        for (int i = 0; i < words; i += LONG.length())
        {
            final ByteVector a = LongVector.fromArray(LONG, now, i).reinterpretAsBytes().lanewise(VectorOperators.XOR, flip);
            final ByteVector b = LongVector.fromArray(LONG, before, i).reinterpretAsBytes().lanewise(VectorOperators.XOR, flip);
            final ByteVector difference = a.max(b).sub(a.min(b)); // 0..255, unsigned in a byte
            final VectorMask<Byte> moved = difference.lanewise(VectorOperators.XOR, flip).compare(VectorOperators.GT, limit);
            final LongVector bits = zero.blend((byte)1, moved).reinterpretAsLongs();
            bits.intoArray(changed, i);
            any = any.or(bits);
        }
        return any.reduceLanes(VectorOperators.OR);
    }

    @Override
    public void linearMap(final byte[] samples, final int n, final int mul, final int add, final boolean keepAlpha)
    {
        for (int i = 0; i < n; i += N)
        {
            final IntVector v = bytesAt(samples, i);
            IntVector s = clampByte(v.mul(mul).add(add).lanewise(VectorOperators.ASHR, 16));
            if (keepAlpha)
            {
                s = s.blend(v, ALPHA);
            }
            bytesInto(s, samples, i);
        }
    }

    @Override
    public void rgbaToGray(final int[] pixels, final byte[] gray, final int width)
    {
        for (int x = 0; x < width; x += N)
        {
            final IntVector p = IntVector.fromArray(INT, pixels, x);
            final IntVector r = p.and(0xFF);
            final IntVector g = p.lanewise(VectorOperators.LSHR, 8).and(0xFF);
            final IntVector b = p.lanewise(VectorOperators.LSHR, 16).and(0xFF);
            bytesInto(r.mul(77).add(g.mul(150)).add(b.mul(29)).add(128).lanewise(VectorOperators.LSHR, 8), gray, x);
        }
    }

    @Override
    public void chroma(final byte[] bytes, final boolean nv12, final int chromaWidth, final int[] us, final int[] vs)
    {
        final int half = N >> 1;
        if (nv12)
        {
            for (int c = 0; c < chromaWidth; c += half)
            {
                final IntVector uv = bytesAt(bytes, 2 * c).sub(128);
                uv.rearrange(EVEN_SPREAD).intoArray(us, 2 * c);
                uv.rearrange(ODD_SPREAD).intoArray(vs, 2 * c);
            }
            return;
        }
        for (int c = 0; c < chromaWidth; c += half)
        {
            bytesAt(bytes, c).sub(128).rearrange(SPREAD).intoArray(us, 2 * c);
            bytesAt(bytes, chromaWidth + c).sub(128).rearrange(SPREAD).intoArray(vs, 2 * c);
        }
    }

    @Override
    public void yuvToRgba(final byte[] luma, final int[] us, final int[] vs, final int[] rgba, final int width)
    {
        for (int x = 0; x < width; x += N)
        {
            final IntVector l = bytesAt(luma, x).sub(16).max(0).mul(ImageKernels.CY).add(ImageKernels.HALF);
            final IntVector u = IntVector.fromArray(INT, us, x);
            final IntVector v = IntVector.fromArray(INT, vs, x);
            final IntVector r = clampByte(l.add(v.mul(ImageKernels.CVR)).lanewise(VectorOperators.ASHR, 20));
            final IntVector g = clampByte(l.add(v.mul(ImageKernels.CVG)).add(u.mul(ImageKernels.CUG))
                .lanewise(VectorOperators.ASHR, 20));
            final IntVector b = clampByte(l.add(u.mul(ImageKernels.CUB)).lanewise(VectorOperators.ASHR, 20));
            r.or(g.lanewise(VectorOperators.LSHL, 8)).or(b.lanewise(VectorOperators.LSHL, 16)).or(0xFF00_0000)
                .intoArray(rgba, x);
        }
    }

    @Override
    public void halve(final long[] top, final long[] bottom, final int[] out, final int n, final boolean rgba)
    {
        for (int i = 0; i < n; i += LONG.length())
        {
            final LongVector p = LongVector.fromArray(LONG, top, i);
            final LongVector q = LongVector.fromArray(LONG, bottom, i);
            final LongVector pOdd = p.lanewise(VectorOperators.LSHR, 8).and(EVEN);
            final LongVector qOdd = q.lanewise(VectorOperators.LSHR, 8).and(EVEN);
            final LongVector word;
            if (rgba) // a long is two pixels; the output pixel is the sum of its halves
            {
                final LongVector even = p.and(EVEN).add(q.and(EVEN));
                final LongVector odd = pOdd.add(qOdd);
                final LongVector e = even.add(even.lanewise(VectorOperators.LSHR, 32)).add(0x0002_0002L)
                    .lanewise(VectorOperators.LSHR, 2).and(0x00FF_00FFL);
                final LongVector o = odd.add(odd.lanewise(VectorOperators.LSHR, 32)).add(0x0002_0002L)
                    .lanewise(VectorOperators.LSHR, 2).and(0x00FF_00FFL);
                word = e.or(o.lanewise(VectorOperators.LSHL, 8));
            }
            else // four outputs in 16-bit lanes, squeezed into the low 32 bits
            {
                final LongVector lanes = p.and(EVEN).add(pOdd).add(q.and(EVEN)).add(qOdd).add(0x0002_0002_0002_0002L)
                    .lanewise(VectorOperators.LSHR, 2).and(EVEN);
                final LongVector pairs = lanes.or(lanes.lanewise(VectorOperators.LSHR, 8)).and(0x0000_FFFF_0000_FFFFL);
                word = pairs.or(pairs.lanewise(VectorOperators.LSHR, 16));
            }
            ((IntVector)word.convertShape(VectorOperators.L2I, HALF_INT, 0)).intoArray(out, i);
        }
    }

    @Override
    public void widen(final byte[] bytes, final int[] ints, final int n)
    {
        for (int i = 0; i < n; i += N)
        {
            bytesAt(bytes, i).intoArray(ints, i);
        }
    }

    @Override
    public int lanes()
    {
        return N;
    }

    @Override
    public void horizontalWindowed(final int[] samples, final int[] base, final int[] lo, final int[] hi,
        final int[] weight, final int[] into, final int[] odd, final int width, final boolean rgba)
    {
        for (int i = 0, block = 0; i < width; i += N, block++)
        {
            final int at = base[block];
            final IntVector first = IntVector.fromArray(INT, samples, at);
            final IntVector second = IntVector.fromArray(INT, samples, at + N);
            final IntVector left = window(first, second, IntVector.fromArray(INT, lo, i));
            final IntVector right = window(first, second, IntVector.fromArray(INT, hi, i));
            final IntVector w = IntVector.fromArray(INT, weight, i);
            final IntVector rest = w.neg().add(256);
            if (rgba)
            {
                left.and(0x00FF_00FF).mul(rest).add(right.and(0x00FF_00FF).mul(w)).intoArray(into, i);
                left.lanewise(VectorOperators.LSHR, 8).and(0x00FF_00FF).mul(rest)
                    .add(right.lanewise(VectorOperators.LSHR, 8).and(0x00FF_00FF).mul(w)).intoArray(odd, i);
            }
            else
            {
                left.mul(rest).add(right.mul(w)).intoArray(into, i);
            }
        }
    }

    /** Lanes {@code index} (0..2N-1) of the two vectors {@code first}, {@code second} laid end to end. */
    private static IntVector window(final IntVector first, final IntVector second, final IntVector index)
    {
        final IntVector lane = index.and(N - 1); // in range for selectFrom on every JDK
        return lane.selectFrom(first).blend(lane.selectFrom(second), index.compare(VectorOperators.GE, N));
    }

    @Override
    public void horizontalGray(final int[] samples, final int[] lo, final int[] hi, final int[] weight, final int[] into,
        final int width)
    {
        for (int i = 0; i < width; i += N)
        {
            final IntVector w = IntVector.fromArray(INT, weight, i);
            final IntVector left = IntVector.fromArray(INT, samples, 0, lo, i);
            final IntVector right = IntVector.fromArray(INT, samples, 0, hi, i);
            left.mul(w.neg().add(256)).add(right.mul(w)).intoArray(into, i);
        }
    }

    @Override
    public void horizontalRgba(final int[] pixels, final int[] lo, final int[] hi, final int[] weight, final int[] into,
        final int[] odd, final int width)
    {
        for (int i = 0; i < width; i += N)
        {
            final IntVector w = IntVector.fromArray(INT, weight, i);
            final IntVector rest = w.neg().add(256);
            final IntVector left = IntVector.fromArray(INT, pixels, 0, lo, i);
            final IntVector right = IntVector.fromArray(INT, pixels, 0, hi, i);
            left.and(0x00FF_00FF).mul(rest).add(right.and(0x00FF_00FF).mul(w)).intoArray(into, i);
            left.lanewise(VectorOperators.LSHR, 8).and(0x00FF_00FF).mul(rest)
                .add(right.lanewise(VectorOperators.LSHR, 8).and(0x00FF_00FF).mul(w)).intoArray(odd, i);
        }
    }

    @Override
    public void verticalGray(final int[] upper, final int[] lower, final int wt, final int wb, final byte[] out,
        final int width)
    {
        for (int i = 0; i < width; i += N)
        {
            final IntVector s = IntVector.fromArray(INT, upper, i).mul(wt).add(IntVector.fromArray(INT, lower, i).mul(wb))
                .add(32768).lanewise(VectorOperators.LSHR, 16);
            bytesInto(s, out, i);
        }
    }

    @Override
    public void verticalRgba(final int[] upper, final int[] lower, final int[] upperOdd, final int[] lowerOdd,
        final int wt, final int wb, final int[] out, final int width)
    {
        for (int i = 0; i < width; i += N)
        {
            final IntVector te = IntVector.fromArray(INT, upper, i);
            final IntVector be = IntVector.fromArray(INT, lower, i);
            final IntVector to = IntVector.fromArray(INT, upperOdd, i);
            final IntVector bo = IntVector.fromArray(INT, lowerOdd, i);
            final IntVector r = weigh(te.and(0xFFFF), be.and(0xFFFF), wt, wb);
            final IntVector b = weigh(te.lanewise(VectorOperators.LSHR, 16), be.lanewise(VectorOperators.LSHR, 16), wt, wb);
            final IntVector g = weigh(to.and(0xFFFF), bo.and(0xFFFF), wt, wb);
            final IntVector a = weigh(to.lanewise(VectorOperators.LSHR, 16), bo.lanewise(VectorOperators.LSHR, 16), wt, wb);
            r.or(g.lanewise(VectorOperators.LSHL, 8)).or(b.lanewise(VectorOperators.LSHL, 16))
                .or(a.lanewise(VectorOperators.LSHL, 24)).intoArray(out, i);
        }
    }

    private static IntVector weigh(final IntVector top, final IntVector bottom, final int wt, final int wb)
    {
        return top.mul(wt).add(bottom.mul(wb)).add(32768).lanewise(VectorOperators.LSHR, 16);
    }
}
