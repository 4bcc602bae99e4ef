package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import javax.imageio.ImageIO;
import java.util.EnumSet;
import java.util.Set;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every frame of a stream as a PNG file into a folder: the sink that pairs with
 * {@link ImageFolderSourceCalculator}, so that a folder of images can be run through a graph into
 * another folder.
 *
 * <p>Streams: one input of RGBA32 or GRAY8 frames; no output. Options:
 * <ul>
 *   <li>{@code directory} (required): where the files go, created with its parents if missing;</li>
 *   <li>{@code prefix} ("frame_"): the start of each file name.</li>
 * </ul>
 * A frame at timestamp {@code t} goes to {@code <prefix><t>.png}, {@code t} in microseconds
 * zero-padded to 12 digits so that names sort by time; an existing file of that name is replaced.
 * RGBA32 frames become 8-bit RGBA PNGs, GRAY8 frames 8-bit gray PNGs, so reading a file back gives
 * the frame's exact pixels. Each file is owner-only ({@code rw-------}) from the moment it exists,
 * written under a temporary name and then moved into place, so a reader never sees half a file
 * ({@link PngFiles}).
 *
 * <p>As in {@link SnapshotSinkCalculator}, {@link ImageIO}'s PNG encoder takes a
 * {@link BufferedImage}, so each frame is copied into one on the heap (reused while size and format
 * stay the same), and encoding allocates.
 */
public final class ImageFolderSinkCalculator implements Calculator
{
    private static final String NAME = "ImageFolderSinkCalculator";
    private static final Set<PixelFormat> FORMATS = EnumSet.of(PixelFormat.RGBA32, PixelFormat.GRAY8);

    private Path directory;
    private String prefix;
    private long written;
    private final HeapImage heapImage = new HeapImage();

    @Override
    public void contract(final Contract contract)
    {
        contract.option("directory", OptionType.STRING, null)
            .option("prefix", OptionType.STRING, "frame_")
            .check((node, options) -> prefixProblem(options.getString("prefix")));
    }

    /** What is wrong with option 'prefix', or null. */
    static String prefixProblem(final String prefix)
    {
        return prefix.indexOf('/') < 0 && prefix.indexOf('\\') < 0 ? null : "option 'prefix' is '" + prefix +
            "'; it must not contain a path separator (put folders in option 'directory')";
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        prefix = ctx.options().getString("prefix");
        final String problem = prefixProblem(prefix);
        if (problem != null)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "' (" + NAME + "): " + problem);
        }
        directory = Path.of(ctx.options().getString("directory"));
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot create directory '" +
                directory + "': " + ex, ex);
        }
    }

    @Override
    public void process(final CalculatorContext ctx) throws IOException
    {
        final Input input = ctx.input(0);
        final Payload frame = ImageFrames.frameIn(ctx, input, NAME, FORMATS, "needs RGBA32 or GRAY8 frames");
        if (frame == null)
        {
            return;
        }
        final BufferedImage target = heapImage.copyOf(frame);
        final String name = fileName(prefix, input.timestamp());
        final Path file = directory.resolve(name);
        try
        {
            PngFiles.write(target, file);
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "' (" + NAME + "): cannot write image file '" + file +
                "': " + ex, ex);
        }
        written++;
    }

    /**
     * Files written so far (for tests and reports; read it after the run).
     *
     * @return the count.
     */
    public long written()
    {
        return written;
    }

    static String fileName(final String prefix, final long timestamp)
    {
        return prefix + String.format("%012d", timestamp) + ".png";
    }
}
