package dev.framewire.offheap;

/**
 * The pixel layouts a frame payload can hold, and where each plane lives in the buffer.
 *
 * <p>Packed formats ({@link #GRAY8}, {@link #RGB24}, {@link #RGBA32}) have one plane of
 * {@code height} rows, each {@code stride} bytes apart. Planar YUV 4:2:0 formats keep a full
 * resolution luma plane followed by chroma at half resolution in both directions (rounded up):
 * <pre>
 *   NV12:  Y  [stride x height]
 *          UV [stride x ceil(height/2)]          interleaved U,V pairs
 *   I420:  Y  [stride x height]
 *          U  [stride/2 x ceil(height/2)]
 *          V  [stride/2 x ceil(height/2)]
 * </pre>
 * For planar formats {@code stride} is the luma stride, and the width is rounded up to even for
 * the chroma planes; the stride must be even for I420, so that both chroma planes have whole
 * rows of {@code stride / 2} bytes.
 */
public enum PixelFormat
{
    /** One byte of luminance per pixel. */
    GRAY8(1, 1),
    /** Three bytes per pixel: red, green, blue (ffmpeg {@code rgb24}). */
    RGB24(3, 1),
    /** Four bytes per pixel: red, green, blue, alpha (ffmpeg {@code rgba}). */
    RGBA32(4, 1),
    /** YUV 4:2:0, a luma plane then one interleaved UV plane (ffmpeg {@code nv12}). */
    NV12(1, 2),
    /** YUV 4:2:0, a luma plane then U and V planes at half stride (ffmpeg {@code yuv420p}). */
    I420(1, 3);

    private final int bytesPerPixel;
    private final int planeCount;

    PixelFormat(final int bytesPerPixel, final int planeCount)
    {
        this.bytesPerPixel = bytesPerPixel;
        this.planeCount = planeCount;
    }

    /**
     * Bytes per pixel of a packed format, or of the luma plane of a planar one.
     *
     * @return bytes per pixel in plane 0.
     */
    public int bytesPerPixel()
    {
        return bytesPerPixel;
    }

    /**
     * Number of planes: 1 for packed formats, 2 for NV12, 3 for I420.
     *
     * @return the plane count.
     */
    public int planeCount()
    {
        return planeCount;
    }

    /**
     * The tightest stride (bytes per row of plane 0) for a width, as ffmpeg's rawvideo writes it.
     *
     * @param width in pixels.
     * @return {@code width * bytesPerPixel}, rounded up to even for the 4:2:0 formats, whose chroma
     *         rows hold {@code ceil(width / 2)} samples (NV12: U,V pairs, so {@code 2 * ceil(width / 2)}
     *         bytes in a row of plane 0's stride).
     * @throws IllegalArgumentException if the stride does not fit an {@code int}.
     */
    public int minStride(final int width)
    {
        final long stride = minStrideBytes(width);
        if (stride > Integer.MAX_VALUE) // the message only then: this is called per frame
        {
            throw tooLarge(stride, "stride of a " + width + " pixel wide frame");
        }
        return (int)stride;
    }

    /**
     * Total bytes of a frame of this format.
     *
     * @param height in pixels.
     * @param stride bytes per row of plane 0.
     * @return the byte length of the whole frame, every plane included.
     * @throws IllegalArgumentException if the length does not fit an {@code int}.
     */
    public int frameBytes(final int height, final int stride)
    {
        final long bytes = frameBytesLong(height, stride);
        if (bytes > Integer.MAX_VALUE) // the message only then: this is called per frame
        {
            throw tooLarge(bytes, "a frame of " + height + " rows of stride " + stride);
        }
        return (int)bytes;
    }

    long minStrideBytes(final int width)
    {
        final long stride = (long)width * bytesPerPixel;
        return planeCount > 1 ? (stride + 1) & ~1L : stride;
    }

    long frameBytesLong(final int height, final long stride)
    {
        final long chromaRows = ((long)height + 1) >> 1;
        switch (this)
        {
            case NV12:
                return stride * height + stride * chromaRows;
            case I420:
                return stride * height + 2 * (stride >> 1) * chromaRows;
            default:
                return stride * height;
        }
    }

    private IllegalArgumentException tooLarge(final long bytes, final String what)
    {
        return new IllegalArgumentException(this + ": " + what + " is " + bytes + " bytes, more than an int holds");
    }

    /**
     * Byte offset of a plane from the start of the frame.
     *
     * @param plane  0 for packed formats and luma, 1 and 2 for chroma.
     * @param height in pixels.
     * @param stride bytes per row of plane 0.
     * @return the offset of the plane's first byte.
     */
    public int planeOffset(final int plane, final int height, final int stride)
    {
        checkPlane(plane);
        if (plane == 0)
        {
            return 0;
        }
        final int luma = stride * height;
        return plane == 1 ? luma : luma + (stride >> 1) * ((height + 1) >> 1);
    }

    /**
     * Bytes per row of a plane.
     *
     * @param plane  0 for packed formats and luma, 1 and 2 for chroma.
     * @param stride bytes per row of plane 0.
     * @return the plane's row stride.
     */
    public int planeStride(final int plane, final int stride)
    {
        checkPlane(plane);
        return plane == 0 || this == NV12 ? stride : stride >> 1;
    }

    private void checkPlane(final int plane)
    {
        if (plane < 0 || plane >= planeCount)
        {
            throw new IllegalArgumentException(
                "plane " + plane + " does not exist in " + this + ", valid planes are 0.." + (planeCount - 1));
        }
    }
}
