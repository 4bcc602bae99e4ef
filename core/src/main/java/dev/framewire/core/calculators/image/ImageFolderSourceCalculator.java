package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.agrona.MutableDirectBuffer;

import javax.imageio.ImageIO;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ColorModel;
import java.awt.image.IndexColorModel;
import java.awt.image.Raster;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A source of RGBA32 frames read from the image files of a folder, in file name order: a bounded
 * shipment source (docs/DESIGN-NOTES.md, "Shipments"). {@code open} lists the file paths only, never an image; each call
 * reads at most {@link CalculatorContext#maxShipmentSize()} images, and ends its shipment before a
 * frame whose slot is more than {@link CalculatorContext#shipmentBytesLeft()} (that image waits,
 * decoded, for the next call), so the frames a run holds are bounded by a shipment, in packets and
 * in bytes, not by the size of the folder. It stops after the last file.
 *
 * <p>Streams: one output of RGBA32 frames, file {@code i} (0-based, in sorted order) at timestamp
 * {@code i} microseconds. Options:
 * <ul>
 *   <li>{@code directory} (required): the folder; its subfolders are not read;</li>
 *   <li>{@code pattern} ("*.{png,jpg,jpeg}"): a {@link java.nio.file.FileSystem#getPathMatcher glob}
 *       on file names, case-sensitive where the file system is.</li>
 * </ul>
 * A file {@link ImageIO} cannot read (no reader for its format, or broken) is an error naming the
 * node and the file. The shipment before it is cut short and goes out, so that the failing call
 * holds the bad file alone: under {@link dev.framewire.core.FailurePolicy#DROP_TIMESTAMP} the run
 * goes on past it (its timestamp stays unused, counted as a drop), and no good frame is dropped
 * with it. So does a file whose frame is too large for the pool (over its largest slot, or a slot
 * over the memory budget's hard limit): under DROP_TIMESTAMP the frames before it go out, its
 * timestamp is dropped and counted, and the files after it are read.
 *
 * <p>Decoding goes through {@link ImageIO}, whose output is a {@link BufferedImage} on the heap: one
 * per file, the allocation this source owns up to. Its pixels are converted row by row through an
 * {@code int[]} row buffer (reused while the width stays the same) into a pooled frame's Agrona
 * buffer, as little-endian ints {@code 0xAABBGGRR} (see the package javadoc). Gray images (one
 * gray band, optionally with alpha) are copied sample by sample, because
 * {@link BufferedImage#getRGB} would pass them through the linear gray color space and change
 * their values; every other image goes through {@code getRGB}, which yields sRGB with alpha.
 */
public final class ImageFolderSourceCalculator implements Calculator
{
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final String NAME = "ImageFolderSourceCalculator";

    private Path[] files;
    private int cursor;
    /** The image at {@link #cursor}, read by a call whose shipment had no room left for its frame. */
    private BufferedImage pending;
    private int[] row = new int[0];
    private int[] alphaRow = new int[0];

    @Override
    public void contract(final Contract contract)
    {
        contract.outputType("*", Payload.class);
        contract.option("directory", OptionType.STRING, null)
            .option("pattern", OptionType.STRING, "*.{png,jpg,jpeg}")
            .check((node, options) -> patternProblem(options.getString("pattern")));
    }

    /** What is wrong with option 'pattern', or null: a glob the default file system cannot compile. */
    static String patternProblem(final String pattern)
    {
        try
        {
            FileSystems.getDefault().getPathMatcher("glob:" + pattern);
            return null;
        }
        catch (final IllegalArgumentException ex)
        {
            return "option 'pattern' is '" + pattern + "', not a valid glob: " + ex.getMessage();
        }
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        final Path directory = Path.of(ctx.options().getString("directory"));
        final String pattern = ctx.options().getString("pattern");
        if (!Files.isDirectory(directory))
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): option 'directory' is '" +
                directory + "', which is not a directory");
        }
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, pattern))
        {
            for (final Path file : stream)
            {
                if (Files.isRegularFile(file))
                {
                    found.add(file);
                }
            }
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "' (" + NAME + "): option 'pattern' is '" +
                pattern + "', not a valid glob: " + ex.getMessage(), ex);
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot list directory '" +
                directory + "': " + ex, ex);
        }
        found.sort((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        files = found.toArray(new Path[0]);
        cursor = 0;
    }

    @Override
    public void process(final CalculatorContext ctx) throws IOException
    {
        final Path[] files = this.files;
        final int first = cursor;
        final int end = (int)Math.min(files.length, (long)first + ctx.maxShipmentSize());
        while (cursor < end && !ctx.isCancelled())
        {
            final int index = cursor;
            BufferedImage image = pending;
            pending = null;
            if (image == null)
            {
                try
                {
                    image = read(ctx, files[index], index);
                }
                catch (final IOException ex)
                {
                    if (index > first)
                    {
                        // the shipment ends before the bad file, so that its frames go out: a failure
                        // drops what its call emitted, and the next call fails on this file alone
                        return;
                    }
                    cursor = index + 1; // a failure policy that goes on (DROP_TIMESTAMP) goes on past the file
                    throw ex;
                }
            }
            if (index > first && slotOf(ctx.pool(), image) > ctx.shipmentBytesLeft())
            {
                pending = image; // the shipment is full in bytes (max_shipment_bytes): this one goes next call
                return;
            }
            final Payload frame = acquire(ctx, image, index);
            try
            {
                copyPixels(image, frame);
            }
            catch (final RuntimeException ex)
            {
                frame.release();
                cursor = index + 1;
                throw new IllegalStateException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot convert image " +
                    "file '" + files[index] + "' (timestamp " + index + ") to RGBA32: " + ex, ex);
            }
            ctx.output(0).add(frame, index);
            cursor = index + 1;
        }
        if (cursor >= files.length || ctx.isCancelled())
        {
            ctx.stop();
        }
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        files = null;
        pending = null;
    }

    /**
     * A pooled frame for the image at {@code index}. A pool over its hard limit is not the file's
     * fault: the cursor stays and the file is tried again. A frame the pool can never hold (over
     * its largest slot, or a slot over its hard limit) is: the cursor moves past the file, and the
     * failure names the file and its timestamp, with the pool's refusal as its cause.
     */
    private Payload acquire(final CalculatorContext ctx, final BufferedImage image, final int index)
    {
        try
        {
            return ctx.pool().acquireFrame(image.getWidth(), image.getHeight(), PixelFormat.RGBA32);
        }
        catch (final RuntimeException ex)
        {
            if (!neverFits(ctx.pool(), image))
            {
                throw ex;
            }
            cursor = index + 1;
            throw new IllegalStateException("node '" + ctx.nodeName() + "' (" + NAME + "): image file '" +
                files[index] + "' (timestamp " + index + ") is a " + image.getWidth() + "x" + image.getHeight() +
                " frame of " + 4L * image.getWidth() * image.getHeight() + " B, more than this pool can ever hold; " +
                "the file is skipped: " + ex.getMessage(), ex);
        }
    }

    /** Whether an image's RGBA32 frame is over the pool's largest slot, or its slot over the budget's hard limit. */
    private static boolean neverFits(final PayloadPool pool, final BufferedImage image)
    {
        final long slot = slotOf(pool, image);
        return slot == 0 || slot > pool.budget().hardLimitBytes() || slot > pool.budget().maxBytes();
    }

    /** The slot an image's RGBA32 frame takes; 0 when over the largest, which acquireFrame refuses naming its size. */
    private static long slotOf(final PayloadPool pool, final BufferedImage image)
    {
        final long bytes = 4L * image.getWidth() * image.getHeight();
        return bytes > pool.slotBytes(pool.sizeClassCount() - 1) ? 0 : pool.slotBytesFor((int)bytes);
    }

    private static BufferedImage read(final CalculatorContext ctx, final Path file, final int index) throws IOException
    {
        final BufferedImage image;
        try
        {
            image = ImageIO.read(file.toFile());
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot read image file '" + file +
                "' (timestamp " + index + "): " + ex, ex);
        }
        if (image == null)
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot read image file '" + file +
                "' (timestamp " + index + "): no ImageIO reader recognizes its format");
        }
        return image;
    }

    /** Writes the image into the frame, one row at a time through the reused row buffer. */
    private void copyPixels(final BufferedImage image, final Payload frame)
    {
        final int width = frame.width();
        final int height = frame.height();
        final int stride = frame.stride();
        final MutableDirectBuffer buffer = frame.mutableBuffer();
        if (row.length < width)
        {
            row = new int[width];
        }
        final int[] row = this.row;
        final ColorModel model = image.getColorModel();
        final Raster raster = image.getRaster();
        final int bands = raster.getNumBands();
        if (model.getColorSpace().getType() == ColorSpace.TYPE_GRAY && !(model instanceof IndexColorModel) &&
            (bands == 1 || (bands == 2 && model.hasAlpha())))
        {
            if (bands == 2 && alphaRow.length < width)
            {
                alphaRow = new int[width];
            }
            final int[] alphaRow = this.alphaRow;
            final int grayShift = Math.max(0, raster.getSampleModel().getSampleSize(0) - 8);
            final int alphaShift = bands == 2 ? Math.max(0, raster.getSampleModel().getSampleSize(1) - 8) : 0;
            for (int y = 0; y < height; y++)
            {
                raster.getSamples(0, y, width, 1, 0, row);
                if (bands == 2)
                {
                    raster.getSamples(0, y, width, 1, 1, alphaRow);
                }
                final int at = y * stride;
                for (int x = 0; x < width; x++)
                {
                    final int g = (row[x] >>> grayShift) & 0xFF;
                    final int a = bands == 2 ? (alphaRow[x] >>> alphaShift) & 0xFF : 0xFF;
                    buffer.putInt(at + 4 * x, a << 24 | g << 16 | g << 8 | g, LE);
                }
            }
            return;
        }
        for (int y = 0; y < height; y++)
        {
            image.getRGB(0, y, width, 1, row, 0, width);
            final int at = y * stride;
            for (int x = 0; x < width; x++)
            {
                // getRGB gives 0xAARRGGBB; memory wants bytes R, G, B, A: swap red and blue
                final int argb = row[x];
                buffer.putInt(at + 4 * x, (argb & 0xFF00_FF00) | (argb >>> 16) & 0xFF | (argb & 0xFF) << 16, LE);
            }
        }
    }
}
