package dev.framewire.journal;

import dev.framewire.offheap.Payload;

/**
 * What a captured payload needs, besides its bytes, to be made again as its consumers had it: a
 * frame's width, height, stride (bytes per row of plane 0) and pixel format (the name of a
 * {@code dev.framewire.offheap.PixelFormat}), or none of these for a blob. Journaled with every
 * payload captured at emit ({@link JournalRecord.Kind#CAPTURED}).
 *
 * <p>Threading: immutable.
 */
public final class PayloadShape
{
    /** A payload without a frame's shape: bytes only. */
    public static final PayloadShape BLOB = new PayloadShape(0, 0, 0, null);

    private final int width;
    private final int height;
    private final int stride;
    private final String format;

    PayloadShape(final int width, final int height, final int stride, final String format)
    {
        this.width = width;
        this.height = height;
        this.stride = stride;
        this.format = format == null || format.isEmpty() ? null : format;
    }

    /**
     * The shape of a payload.
     *
     * @param payload a live payload.
     * @return its shape, {@link #BLOB} when it is not a frame.
     */
    static PayloadShape of(final Payload payload)
    {
        return payload.isFrame() ? new PayloadShape(payload.width(), payload.height(), payload.stride(),
            payload.format().name()) : BLOB;
    }

    /**
     * Whether the payload was a frame.
     *
     * @return true when it had a pixel format.
     */
    public boolean isFrame()
    {
        return format != null;
    }

    /**
     * Frame width in pixels, 0 for a blob.
     *
     * @return the width.
     */
    public int width()
    {
        return width;
    }

    /**
     * Frame height in pixels, 0 for a blob.
     *
     * @return the height.
     */
    public int height()
    {
        return height;
    }

    /**
     * Bytes per row of plane 0, 0 for a blob.
     *
     * @return the stride.
     */
    public int stride()
    {
        return stride;
    }

    /**
     * The pixel format's name ({@code GRAY8}, {@code RGBA32}...), null for a blob.
     *
     * @return the name.
     */
    public String format()
    {
        return format;
    }

    @Override
    public String toString()
    {
        return format == null ? "blob" : "frame " + width + "x" + height + " " + format + " stride " + stride;
    }
}
