package dev.framewire.core.calculators.image;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The layout of a list of bounding boxes in an off-heap blob payload, as
 * {@link MotionDetectorCalculator} emits it on {@code BOXES} and {@link AnnotateCalculator} reads
 * it. Every field is a little-endian {@code int}; boxes are in pixels of the frame they were found
 * in, {@code x, y} the top-left corner, covering {@code x .. x + width - 1} and
 * {@code y .. y + height - 1}.
 *
 * <pre>
 *   0        4                8
 *   +--------+----------------+
 *   | count  | changed pixels |                               header, 8 bytes
 *   +--------+--------+-------+--+----------+--------------+
 *   | x      | y      | width    | height   | pixels       |  box 0 at 8
 *   +--------+--------+----------+----------+--------------+
 *   | ...                                                  |  box i at 8 + 20 * i
 * </pre>
 * {@code changed pixels} counts every pixel over the threshold in the frame; a box's
 * {@code pixels} counts those inside it.
 *
 * <p>A fresh payload per packet: a box list, once emitted, is never written again, so consumers
 * read it without racing its producer.
 */
public final class BoxListDescriptor
{
    /** Offset of the box count. */
    public static final int COUNT_OFFSET = 0;
    /** Offset of the frame's count of changed pixels. */
    public static final int CHANGED_PIXELS_OFFSET = 4;
    /** Bytes before the first box. */
    public static final int HEADER_LENGTH = 8;
    /** Offset of a box's x within the box. */
    public static final int X_OFFSET = 0;
    /** Offset of a box's y within the box. */
    public static final int Y_OFFSET = 4;
    /** Offset of a box's width within the box. */
    public static final int WIDTH_OFFSET = 8;
    /** Offset of a box's height within the box. */
    public static final int HEIGHT_OFFSET = 12;
    /** Offset of a box's count of changed pixels within the box. */
    public static final int PIXELS_OFFSET = 16;
    /** Bytes per box. */
    public static final int BOX_LENGTH = 20;

    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private BoxListDescriptor()
    {
    }

    /**
     * Bytes needed for a list of {@code count} boxes.
     *
     * @param count boxes, 0 or more.
     * @return the payload length.
     */
    public static int length(final int count)
    {
        return HEADER_LENGTH + count * BOX_LENGTH;
    }

    /**
     * Number of boxes in the list.
     *
     * @param buffer the payload's buffer.
     * @return the count.
     */
    public static int count(final DirectBuffer buffer)
    {
        return buffer.getInt(COUNT_OFFSET, ORDER);
    }

    /**
     * Pixels over the threshold in the whole frame.
     *
     * @param buffer the payload's buffer.
     * @return the count.
     */
    public static int changedPixels(final DirectBuffer buffer)
    {
        return buffer.getInt(CHANGED_PIXELS_OFFSET, ORDER);
    }

    /**
     * Left edge of box {@code i}.
     *
     * @param buffer the payload's buffer.
     * @param i      0 up to {@code count - 1}.
     * @return x in pixels.
     */
    public static int x(final DirectBuffer buffer, final int i)
    {
        return buffer.getInt(HEADER_LENGTH + i * BOX_LENGTH + X_OFFSET, ORDER);
    }

    /**
     * Top edge of box {@code i}.
     *
     * @param buffer the payload's buffer.
     * @param i      0 up to {@code count - 1}.
     * @return y in pixels.
     */
    public static int y(final DirectBuffer buffer, final int i)
    {
        return buffer.getInt(HEADER_LENGTH + i * BOX_LENGTH + Y_OFFSET, ORDER);
    }

    /**
     * Width of box {@code i}.
     *
     * @param buffer the payload's buffer.
     * @param i      0 up to {@code count - 1}.
     * @return width in pixels, at least 1.
     */
    public static int width(final DirectBuffer buffer, final int i)
    {
        return buffer.getInt(HEADER_LENGTH + i * BOX_LENGTH + WIDTH_OFFSET, ORDER);
    }

    /**
     * Height of box {@code i}.
     *
     * @param buffer the payload's buffer.
     * @param i      0 up to {@code count - 1}.
     * @return height in pixels, at least 1.
     */
    public static int height(final DirectBuffer buffer, final int i)
    {
        return buffer.getInt(HEADER_LENGTH + i * BOX_LENGTH + HEIGHT_OFFSET, ORDER);
    }

    /**
     * Changed pixels inside box {@code i}.
     *
     * @param buffer the payload's buffer.
     * @param i      0 up to {@code count - 1}.
     * @return the count.
     */
    public static int pixels(final DirectBuffer buffer, final int i)
    {
        return buffer.getInt(HEADER_LENGTH + i * BOX_LENGTH + PIXELS_OFFSET, ORDER);
    }

    /**
     * Writes the header.
     *
     * @param buffer        a buffer of at least {@link #length(int) length(count)} bytes.
     * @param count         boxes that follow.
     * @param changedPixels pixels over the threshold in the frame.
     */
    public static void putHeader(final MutableDirectBuffer buffer, final int count, final int changedPixels)
    {
        buffer.putInt(COUNT_OFFSET, count, ORDER);
        buffer.putInt(CHANGED_PIXELS_OFFSET, changedPixels, ORDER);
    }

    /**
     * Writes box {@code i}.
     *
     * @param buffer a buffer of at least {@link #length(int) length(i + 1)} bytes.
     * @param i      the box's position.
     * @param x      left edge.
     * @param y      top edge.
     * @param width  width in pixels.
     * @param height height in pixels.
     * @param pixels changed pixels inside.
     */
    public static void putBox(
        final MutableDirectBuffer buffer,
        final int i,
        final int x,
        final int y,
        final int width,
        final int height,
        final int pixels)
    {
        final int at = HEADER_LENGTH + i * BOX_LENGTH;
        buffer.putInt(at + X_OFFSET, x, ORDER);
        buffer.putInt(at + Y_OFFSET, y, ORDER);
        buffer.putInt(at + WIDTH_OFFSET, width, ORDER);
        buffer.putInt(at + HEIGHT_OFFSET, height, ORDER);
        buffer.putInt(at + PIXELS_OFFSET, pixels, ORDER);
    }
}
