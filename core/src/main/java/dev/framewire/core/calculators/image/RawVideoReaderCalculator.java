package dev.framewire.core.calculators.image;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A source of frames read from a file in ffmpeg's {@code rawvideo} layout: frames back to back,
 * rows back to back, no header, as {@code ffmpeg -i in.mp4 -f rawvideo -pix_fmt rgb24 out.raw}
 * writes them. It stops at the end of the file; a file that ends inside a frame is an error
 * naming the file, the frame and the byte offsets.
 *
 * <p>Streams: one output of frames. Options:
 * <ul>
 *   <li>{@code path} (required): the file, or {@code "-"} for standard input;</li>
 *   <li>{@code pix_fmt} ("rgb24"): {@code rgb24} (RGB24 frames), {@code rgba} (RGBA32) or
 *       {@code gray} (GRAY8), as ffmpeg names them;</li>
 *   <li>{@code width}, {@code height} (required): frame size in pixels;</li>
 *   <li>{@code fps} (30.0): for timestamps only, frame {@code i} is at {@code floor(i * 1e6 / fps)}
 *       microseconds; the file is read as fast as the graph takes its frames.</li>
 * </ul>
 *
 * <p>Each frame is read by the file's channel into a direct staging buffer the calculator owns,
 * then copied into a pooled frame with one off-heap memory copy (a pooled payload's memory has no
 * {@code ByteBuffer} view for a channel to fill). Standard input is read through its file
 * descriptor's channel, so it is never copied through the heap either. Nothing is allocated per
 * frame.
 */
public final class RawVideoReaderCalculator implements Calculator
{
    private String path;
    private PixelFormat format;
    private int width;
    private int height;
    private int frameBytes;
    private double fps;
    private FileChannel channel;
    private ByteBuffer staging;
    private long index;
    private long offset;

    @Override
    public void contract(final Contract contract)
    {
        contract.outputType("*", Payload.class);
        contract.option("path", OptionType.STRING, null)
            .option("pix_fmt", OptionType.STRING, "rgb24")
            .option("width", OptionType.LONG, null)
            .option("height", OptionType.LONG, null)
            .option("fps", OptionType.DOUBLE, 30.0)
            .oneOf("pix_fmt", "rgb24", "rgba", "gray")
            .range("width", 1, 16384)
            .range("height", 1, 16384)
            .range("fps", 0.0, false, Double.MAX_VALUE)
            .outputFrame((node, options, input) -> new Contract.FrameShape((int)options.getLong("width"),
                (int)options.getLong("height"), ImageFrames.formatByName(options.getString("pix_fmt"))));
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        path = ctx.options().getString("path");
        final String pixFmt = ctx.options().getString("pix_fmt");
        format = ImageFrames.formatByName(pixFmt);
        if (format == null)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'pix_fmt' is '" + pixFmt +
                "'; valid are rgb24, rgba and gray");
        }
        final long w = ctx.options().getLong("width");
        final long h = ctx.options().getLong("height");
        if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': frame size " + w + "x" + h +
                " invalid; width and height must be 1..16384");
        }
        fps = ctx.options().getDouble("fps");
        if (!(fps > 0) || Double.isInfinite(fps))
        {
            throw new IllegalArgumentException("node '" + ctx.nodeName() + "': option 'fps' is " + fps +
                "; it must be a positive number");
        }
        width = (int)w;
        height = (int)h;
        frameBytes = format.frameBytes(height, format.minStride(width));
        staging = ByteBuffer.allocateDirect(frameBytes);
        if ("-".equals(path))
        {
            channel = new FileInputStream(FileDescriptor.in).getChannel();
        }
        else
        {
            try
            {
                channel = FileChannel.open(Path.of(path), StandardOpenOption.READ);
            }
            catch (final IOException ex)
            {
                throw new IOException("node '" + ctx.nodeName() + "': cannot open raw video file '" + path + "': " + ex,
                    ex);
            }
        }
    }

    @Override
    public void process(final CalculatorContext ctx) throws IOException
    {
        if (ctx.isCancelled())
        {
            ctx.stop();
            return;
        }
        final ByteBuffer staging = this.staging;
        staging.clear();
        while (staging.hasRemaining())
        {
            if (channel.read(staging) < 0)
            {
                break;
            }
        }
        final int got = staging.position();
        if (got == 0)
        {
            ctx.stop();
            return;
        }
        if (got < frameBytes)
        {
            throw new IOException("node '" + ctx.nodeName() + "': raw video " + describePath() +
                " ends inside frame " + index + ": the frame starts at byte offset " + offset + " and needs " +
                frameBytes + " bytes (" + width + "x" + height + " " + format + "), but it ends at byte offset " +
                (offset + got) + " after " + got + " of them");
        }
        final Payload frame = ctx.pool().acquireFrame(width, height, format);
        frame.mutableBuffer().putBytes(0, staging, 0, frameBytes);
        ctx.output(0).add(frame, (long)(index * 1e6 / fps));
        index++;
        offset += frameBytes;
    }

    @Override
    public void close(final CalculatorContext ctx) throws IOException
    {
        final FileChannel held = channel;
        channel = null;
        staging = null;
        if (held != null && !"-".equals(path))
        {
            held.close();
        }
    }

    private String describePath()
    {
        return "-".equals(path) ? "from standard input" : "file '" + path + "'";
    }
}
