package dev.framewire.core.calculators.image;

/**
 * The row loops of the image kernels written with the Vector API ({@code jdk.incubator.vector}),
 * which the kernels call instead of their scalar loops when {@link Simd#ROWS} is set. Every
 * method works on heap scratch rows that the caller has filled from, and copies back to, the
 * off-heap frame, and gives the same answer as the scalar loop it replaces, to the bit.
 *
 * <p>A method may read and write up to one vector's length past the elements it is asked for:
 * every scratch array is made {@link #PAD} elements longer than the row it holds (and an index
 * array's padding holds valid indices, zeros). What lies there is never copied out.
 *
 * <p>The one implementation, {@code VectorKernels}, is found by name at run time, so that no
 * class the scalar path loads names a type of the incubator module; the interface keeps the
 * call sites monomorphic (a {@code static final} field of one class). Stateless and thread-safe.
 */
interface VectorRows
{
    /** Elements past a row's end that a vector loop may touch: one 512-bit vector of bytes. */
    int PAD = 64;

    /**
     * Motion: for each byte of {@code words} longs of two rows, sets that byte of {@code changed}
     * to 1 where {@code |now - before| > threshold}, else 0.
     *
     * @return the OR of every long written: 0 when nothing changed.
     */
    long motion(long[] now, long[] before, long[] changed, int words, int threshold);

    /**
     * Brightness and contrast in place on {@code n} samples: {@code clamp((v * mul + add) >> 16,
     * 0, 255)}, every fourth sample (alpha) left alone if {@code keepAlpha}.
     */
    void linearMap(byte[] samples, int n, int mul, int add, boolean keepAlpha);

    /** RGBA32 pixels to gray bytes, {@code (77 R + 150 G + 29 B + 128) >> 8}. */
    void rgbaToGray(int[] pixels, byte[] gray, int width);

    /**
     * One chroma row to a chroma value a pixel ({@code sample - 128}, each shared by two pixels).
     * NV12: {@code bytes} holds {@code U V U V ...}; I420: the U row, then the V row from
     * {@code chromaWidth}.
     */
    void chroma(byte[] bytes, boolean nv12, int chromaWidth, int[] us, int[] vs);

    /** One luma row and its chroma values to RGBA32 pixels, {@link ImageKernels#yuvToRgba}'s arithmetic. */
    void yuvToRgba(byte[] luma, int[] us, int[] vs, int[] rgba, int width);

    /**
     * Half size: {@code n} longs of two input rows to output words, {@link ImageKernels#halveGray}'s
     * SWAR sums, one 32-bit output word a long (gray: four output pixels; RGBA: one).
     */
    void halve(long[] top, long[] bottom, int[] out, int n, boolean rgba);

    /** Bytes to ints, {@code n} of them, {@code 0..255}. */
    void widen(byte[] bytes, int[] ints, int n);

    /** @return ints a vector holds: bilinear's windows are planned in blocks of this many outputs. */
    int lanes();

    /**
     * Bilinear's horizontal pass on gray samples (ints), {@code s[lo] (256 - w) + s[hi] w}, where
     * each block of {@link #lanes()} outputs reads only the window of {@code 2 lanes()} samples
     * from {@code base[block]}, and {@code lo}, {@code hi} are relative to it: two loads and
     * in-register permutes instead of gathers. {@code rgba}: the samples are RGBA32 pixels, R,B
     * lanes to {@code into}, G,A lanes to {@code odd}.
     */
    void horizontalWindowed(int[] samples, int[] base, int[] lo, int[] hi, int[] weight, int[] into, int[] odd,
        int width, boolean rgba);

    /** Bilinear's horizontal pass on gray samples (ints): {@code s[lo] (256 - w) + s[hi] w}. */
    void horizontalGray(int[] samples, int[] lo, int[] hi, int[] weight, int[] into, int width);

    /** Bilinear's horizontal pass on RGBA32 pixels: R,B lanes to {@code into}, G,A lanes to {@code odd}. */
    void horizontalRgba(int[] pixels, int[] lo, int[] hi, int[] weight, int[] into, int[] odd, int width);

    /** Bilinear's vertical pass, gray: {@code (upper wt + lower wb + 32768) >> 16} as bytes. */
    void verticalGray(int[] upper, int[] lower, int wt, int wb, byte[] out, int width);

    /** Bilinear's vertical pass, RGBA32: each channel's 16-bit lanes weighted and packed into pixels. */
    void verticalRgba(int[] upper, int[] lower, int[] upperOdd, int[] lowerOdd, int wt, int wb, int[] out, int width);
}
