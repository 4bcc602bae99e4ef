package dev.framewire.core.calculators.image;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.nio.ByteOrder;

/**
 * A frame copied into a heap {@link BufferedImage} for ImageIO's PNG encoder, the one copy the PNG
 * sinks ({@link ImageFolderSinkCalculator}, {@link SnapshotSinkCalculator}) own up to; the image is
 * reused while the frames' size and format stay the same. GRAY8, RGB24 (as 3-byte BGR) and RGBA32
 * (as 4-byte ABGR).
 *
 * <p>Threading: one node's calls, one at a time.
 */
final class HeapImage
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private BufferedImage image;
    private PixelFormat imageFormat;

    /**
     * The frame copied into the heap image, made anew only when the size or format changes.
     *
     * @param frame a GRAY8, RGB24 or RGBA32 frame.
     * @return the image, valid until the next call.
     */
    BufferedImage copyOf(final Payload frame)
    {
        final int width = frame.width();
        final int height = frame.height();
        final PixelFormat format = frame.format();
        if (image == null || image.getWidth() != width || image.getHeight() != height || imageFormat != format)
        {
            final int type = format == PixelFormat.GRAY8 ? BufferedImage.TYPE_BYTE_GRAY :
                (format == PixelFormat.RGB24 ? BufferedImage.TYPE_3BYTE_BGR : BufferedImage.TYPE_4BYTE_ABGR);
            image = new BufferedImage(width, height, type);
            imageFormat = format;
        }
        final byte[] data = ((DataBufferByte)image.getRaster().getDataBuffer()).getData();
        final DirectBuffer buffer = frame.buffer();
        final int stride = frame.stride();
        if (format == PixelFormat.GRAY8)
        {
            for (int y = 0; y < height; y++)
            {
                buffer.getBytes(y * stride, data, y * width, width);
            }
        }
        else if (format == PixelFormat.RGB24)
        {
            for (int y = 0; y < height; y++)
            {
                final int row = y * stride;
                for (int x = 0, d = 3 * y * width; x < width; x++, d += 3)
                {
                    data[d] = buffer.getByte(row + 3 * x + 2);
                    data[d + 1] = buffer.getByte(row + 3 * x + 1);
                    data[d + 2] = buffer.getByte(row + 3 * x);
                }
            }
        }
        else
        {
            for (int y = 0; y < height; y++)
            {
                final int row = y * stride;
                for (int x = 0, d = 4 * y * width; x < width; x++, d += 4)
                {
                    // memory R, G, B, A is the little-endian int 0xAABBGGRR; TYPE_4BYTE_ABGR wants A, B, G, R
                    final int p = buffer.getInt(row + 4 * x, LE);
                    data[d] = (byte)(p >>> 24);
                    data[d + 1] = (byte)(p >>> 16);
                    data[d + 2] = (byte)(p >>> 8);
                    data[d + 3] = (byte)p;
                }
            }
        }
        return image;
    }
}
