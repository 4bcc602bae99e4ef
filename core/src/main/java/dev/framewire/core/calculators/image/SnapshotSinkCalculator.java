package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes every Nth frame of a stream as a PNG file: a sink for looking at what a pipeline makes.
 *
 * <p>Streams: one input of GRAY8, RGB24 or RGBA32 frames; no output. Options:
 * <ul>
 *   <li>{@code every} (30): writes frames 0, N, 2N, ... of the stream, counted from its first;</li>
 *   <li>{@code directory} ("snapshots"): where the files go, created with its parents if missing.</li>
 * </ul>
 * Files are named {@code <stream>_<timestamp>.png}, the stream's name with characters other than
 * letters, digits, '.', '_' and '-' replaced by '_', and the timestamp in microseconds, zero-padded
 * to 12 digits so that names sort by time. Each is owner-only ({@code rw-------}) from the moment
 * it exists, written under a temporary name and then moved into place, so a reader never sees half
 * a file ({@link PngFiles}).
 *
 * <p>The one place a frame is copied to the Java heap: {@link ImageIO}'s PNG encoder takes a
 * {@link BufferedImage}, so each frame that is written is first copied into one (reused while the
 * size and format stay the same). Frames that are skipped cost a counter increment. Encoding a
 * PNG takes milliseconds and allocates: give this node an executor of its own in a live graph, so
 * that it does not hold up the frames behind it.
 */
public final class SnapshotSinkCalculator implements Calculator
{
    private static final String NAME = "SnapshotSinkCalculator";

    private long every;
    private Path directory;
    private long seen;
    private long written;
    private final HeapImage heapImage = new HeapImage();

    @Override
    public void contract(final Contract contract)
    {
        contract.option("every", OptionType.LONG, 30L)
            .option("directory", OptionType.STRING, "snapshots")
            .range("every", 1, Long.MAX_VALUE);
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        every = ctx.options().getLong("every");
        if (every < 1)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'every' is " + every +
                "; it must be 1 or more");
        }
        directory = Path.of(ctx.options().getString("directory"));
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "': cannot create snapshot directory '" + directory +
                "': " + ex, ex);
        }
    }

    @Override
    public void process(final CalculatorContext ctx) throws IOException
    {
        final Input input = ctx.input(0);
        if (input.isEmpty())
        {
            return;
        }
        final long n = seen++;
        if (n % every != 0)
        {
            return;
        }
        final Payload frame = ImageFrames.frame(ctx, input, NAME);
        final PixelFormat format = frame.format();
        if (format != PixelFormat.GRAY8 && format != PixelFormat.RGB24 && format != PixelFormat.RGBA32)
        {
            throw ImageFrames.wrongFormat(ctx, NAME, input, frame, "needs GRAY8, RGB24 or RGBA32 frames");
        }
        final BufferedImage target = heapImage.copyOf(frame);
        final String name = fileName(input.streamName(), input.timestamp());
        final Path file = directory.resolve(name);
        try
        {
            PngFiles.write(target, file);
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + ctx.nodeName() + "': cannot write snapshot '" + file + "': " + ex, ex);
        }
        written++;
    }

    /**
     * Snapshots written so far (for tests and reports; read it after the run).
     *
     * @return the count.
     */
    public long written()
    {
        return written;
    }

    static String fileName(final String stream, final long timestamp)
    {
        final StringBuilder sb = new StringBuilder(stream.length() + 20);
        for (int i = 0; i < stream.length(); i++)
        {
            final char c = stream.charAt(i);
            final boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '.' || c == '_' || c == '-';
            sb.append(plain ? c : '_');
        }
        return sb.append('_').append(String.format("%012d", timestamp)).append(".png").toString();
    }
}
