package dev.framewire.core.calculators.video;

import dev.framewire.core.internal.log.Redaction;
import dev.framewire.offheap.PixelFormat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The ffmpeg command line of a {@link VideoSourceCalculator}, built once per connection attempt;
 * only the seek changes between attempts. ffmpeg reads the url (and records it with
 * {@link Recording}, if asked), decodes the first video stream, has it scaled and converted to
 * the source's pixel format, and writes raw frames with their times in NUT ({@link NutDemuxer})
 * to its stdout.
 *
 * <p>A url with a password never goes on the command line: it goes into an owner-only list file
 * ({@link CameraListFile}) that ffmpeg's concat demuxer opens, with the input options as the
 * list's option lines.
 *
 * <p>Threading: the source's reader thread.
 */
final class SourceCommand
{
    /** Input options of a live source with {@code low_delay}, before the user's. */
    static final List<String> LOW_DELAY = List.of("-fflags", "nobuffer", "-flags", "low_delay",
        "-probesize", "32768", "-analyzeduration", "200000");

    /**
     * The gray detection stream's first filters: the luma plane taken as it is ({@code extractplanes}),
     * from any YUV or gray format (another, such as RGB, is converted to one first), so that
     * the scaler reads and writes one plane and converts nothing else.
     */
    static final String LUMA_PLANE = "format=pix_fmts=yuv420p|yuvj420p|yuv422p|yuvj422p|yuv444p|yuvj444p|" +
        "yuv440p|yuvj440p|yuv411p|yuvj411p|yuv410p|nv12|nv21|gray,extractplanes=y";

    /** The url schemes whose ffmpeg 5.1 input takes {@code -timeout} as a read timeout in microseconds. */
    private static final Set<String> READ_TIMEOUT_SCHEMES = Set.of("udp", "rtp", "tcp", "srt", "rtsp", "rtsps");

    /** What ffmpeg's concat demuxer may open for a list file's url. */
    private static final String LIST_PROTOCOLS =
        "file,rtsp,rtsps,rtp,srtp,udp,tcp,tls,http,https,httpproxy,srt,rtmp,rtmps,crypto";

    final String ffmpeg;
    final int[] version;
    final String url;
    final PixelFormat format;
    final int width;
    final int height;
    final double fps;
    final boolean realtime;
    final boolean loop;
    final String inputOptions;
    final String hwaccel;
    final String scaleFlags;
    final boolean fullRange;
    final boolean lowDelay;
    final Recording recording;
    private final long readTimeoutMillis;
    private final CameraListFile list = new CameraListFile();

    /**
     * A command.
     *
     * @param ffmpeg       the executable.
     * @param version      its version, from {@link Ffmpeg#version}.
     * @param url          what {@code -i} opens, with its password if any.
     * @param format       the frames' pixel format.
     * @param width        the frames' width, 0 for the stream's (or to keep the aspect).
     * @param height       the frames' height, 0 for the stream's (or to keep the aspect).
     * @param fps          the frame rate to resample to, 0 for the stream's.
     * @param realtime     read a file at its own rate ({@code -re}).
     * @param loop         play a file again and again.
     * @param inputOptions more input options, whitespace-separated.
     * @param hwaccel      {@code -hwaccel}'s value, or blank.
     * @param scaleFlags   the scaler's flags ({@code scale}'s {@code flags}: area, bicubic...).
     * @param fullRange    scaled gray frames expanded to 0-255, or the luma as the stream codes it.
     * @param lowDelay     {@link #LOW_DELAY} before the input options.
     * @param recording    the recording beside the decoded stream, or null.
     * @param stallMillis  the source's stall timeout: a recording's input read timeout
     *                     ({@link #readTimeoutMillis()}).
     */
    SourceCommand(final String ffmpeg, final int[] version, final String url, final PixelFormat format,
        final int width, final int height, final double fps, final boolean realtime, final boolean loop,
        final String inputOptions, final String hwaccel, final String scaleFlags, final boolean fullRange,
        final boolean lowDelay, final Recording recording, final long stallMillis)
    {
        this.scaleFlags = scaleFlags;
        this.fullRange = fullRange;
        this.lowDelay = lowDelay;
        this.recording = recording;
        this.ffmpeg = ffmpeg;
        this.version = version;
        this.url = url;
        this.format = format;
        this.width = width;
        this.height = height;
        this.fps = fps;
        this.realtime = realtime;
        this.loop = loop;
        this.inputOptions = inputOptions;
        this.hwaccel = hwaccel;
        this.readTimeoutMillis = recording != null && readTimeoutOption(url) != null ? stallMillis : 0;
    }

    /**
     * How long ffmpeg's input waits in one read before it ends by itself, 0 for no limit. A
     * recording's network input gets the stall timeout: a camera that goes silent then ends ffmpeg
     * as its end of stream does, and ffmpeg finishes the open segment. The only other way out of
     * that read is ffmpeg's interrupt callback (its second SIGTERM), which also fails every write
     * after it, so the segment's last fragment (the frames since the last key frame) would be lost.
     * Without a recording there is nothing to finish, and the stall watch's SIGTERMs end the read.
     */
    long readTimeoutMillis()
    {
        return readTimeoutMillis;
    }

    /**
     * The input option of ffmpeg 5.1 that bounds one read of the url's protocol, in microseconds,
     * or null where there is none to give safely: {@code http} has no such option of its own, and
     * {@code rtmp}'s {@code timeout} makes it listen.
     */
    static String readTimeoutOption(final String url)
    {
        final int colon = url.indexOf("://");
        final String scheme = colon > 0 ? url.substring(0, colon).toLowerCase(Locale.ROOT) : "";
        return READ_TIMEOUT_SCHEMES.contains(scheme) ? "-timeout" : null;
    }

    /**
     * The command line.
     *
     * @param seekMicros where to start in a file, or {@link Long#MIN_VALUE} for its start.
     * @return the arguments.
     * @throws IOException if a url's list file cannot be written.
     */
    List<String> build(final long seekMicros) throws IOException
    {
        final List<String> c = new ArrayList<>();
        c.add(ffmpeg);
        c.add("-hide_banner");
        c.add("-nostdin");
        c.add("-nostats");
        c.add("-loglevel");
        c.add("warning");
        if (!hwaccel.isBlank())
        {
            c.add("-hwaccel");
            c.add(hwaccel.trim());
        }
        input(c, seekMicros);
        if (recording != null)
        {
            c.addAll(recording.outputArgs());
        }
        videoOutput(c);
        return c;
    }

    /** Deletes the last attempt's list file, if any: ffmpeg has read it, or is gone. */
    void forget()
    {
        list.forget();
    }

    /** The input's options and {@code -i}: on the command line, or in a list file for a url with a password. */
    private void input(final List<String> c, final long seekMicros) throws IOException
    {
        final List<String> input = new ArrayList<>();
        if (lowDelay)
        {
            // a live stream's first frame without ffmpeg's default 5 s of probing and its
            // input buffer: 32 KB / 0.2 s still find the codec's parameters a recording's
            // MP4 header needs (less does not: the copy then has no size), and frames are
            // passed on as they come. Measured on 127.0.0.1, H.264 MPEG-TS over UDP: first
            // frame 0.7 s after start, against 1.7 s at 500 KB / 1 s and 5-6 s by default
            input.addAll(LOW_DELAY);
        }
        if (readTimeoutMillis > 0)
        {
            input.add(readTimeoutOption(url));
            input.add(Long.toString(readTimeoutMillis * 1_000L));
        }
        for (final String option : inputOptions.trim().split("\\s+"))
        {
            if (!option.isEmpty())
            {
                input.add(option); // after ours: ffmpeg takes an option's last value
            }
        }
        final boolean hidden = Redaction.hasPassword(url);
        if (lumaPlane() && fullRange)
        {
            // the luma plane keeps the decoder's range: a stream that does not say its range is
            // limited (16-235), as ffmpeg's scaler takes it; a full-range one says so and wins
            c.add("-color_range");
            c.add("tv");
        }
        if (!hidden)
        {
            c.addAll(input);
        }
        if (realtime)
        {
            c.add("-re");
        }
        if (loop)
        {
            c.add("-stream_loop");
            c.add("-1");
        }
        if (seekMicros != Long.MIN_VALUE)
        {
            c.add("-ss");
            c.add(String.format(Locale.ROOT, "%d.%06d", Math.floorDiv(seekMicros, 1_000_000L),
                Math.floorMod(seekMicros, 1_000_000L)));
        }
        c.add("-copyts");
        if (hidden)
        {
            final Path file = list.write(url, input);
            c.add("-f");
            c.add("concat");
            c.add("-safe");
            c.add("0");
            c.add("-protocol_whitelist");
            c.add(LIST_PROTOCOLS);
            c.add("-i");
            c.add(file.toString());
        }
        else
        {
            c.add("-i");
            c.add(url);
        }
    }

    /** The decoded stream's output: the first video stream, filtered, raw, in NUT to stdout. */
    private void videoOutput(final List<String> c)
    {
        c.add("-map");
        c.add("0:v:0");
        c.add("-an");
        c.add("-sn");
        c.add("-dn");
        final String filters = filters();
        if (!filters.isEmpty())
        {
            c.add("-vf");
            c.add(filters);
        }
        if (atLeast(4, 4))
        {
            c.add("-autoscale");
            c.add("0");
        }
        if (atLeast(4, 0))
        {
            // the input's own time base: without it ffmpeg rounds times to 1/frame rate
            c.add("-enc_time_base:v");
            c.add("-1");
        }
        c.add(atLeast(5, 1) ? "-fps_mode" : "-vsync");
        c.add("passthrough");
        c.add("-c:v");
        c.add("rawvideo");
        c.add("-pix_fmt");
        c.add(ffmpegPixelFormat(format));
        c.add("-f");
        c.add("nut");
        c.add("pipe:1");
    }

    /**
     * Whether the frames are the luma plane, scaled: GRAY8 at another size. Measured with ffmpeg
     * 5.1 on 1080p H.264 to 640 wide, per frame: decoding alone 3.4-3.6 ms of CPU; with ffmpeg's
     * YUV-to-gray scaler +1.5 ms (bicubic) or +1.1-1.6 (area); with the luma plane scaled +0.9 (area),
     * of which 0.4 is the range's expansion to 0-255, which {@code gray_range: "coded"} leaves
     * out ({@code docs/results/cameras.md}).
     */
    private boolean lumaPlane()
    {
        return format == PixelFormat.GRAY8 && (width > 0 || height > 0);
    }

    /** The {@code -vf} chain: frame rate, then size (the luma plane, for gray); empty for neither. */
    private String filters()
    {
        final StringBuilder filters = new StringBuilder();
        if (fps > 0)
        {
            filters.append(String.format(Locale.ROOT, "fps=%s", fps));
        }
        if (width > 0 || height > 0)
        {
            final boolean planar = format.planeCount() > 1;
            filters.append(filters.length() > 0 ? "," : "");
            if (lumaPlane())
            {
                filters.append(LUMA_PLANE).append(',');
            }
            filters.append("scale=").append(width > 0 ? width : planar ? -2 : -1).append(':')
                .append(height > 0 ? height : planar ? -2 : -1).append(":flags=").append(scaleFlags);
            if (lumaPlane() && fullRange)
            {
                filters.append(":out_range=pc"); // 0-255, as ffmpeg's YUV-to-gray conversion gives
            }
        }
        return filters.toString();
    }

    private boolean atLeast(final int major, final int minor)
    {
        return Ffmpeg.atLeast(version, major, minor);
    }

    /**
     * ffmpeg's {@code -pix_fmt} name of a format.
     *
     * @param format ours.
     * @return ffmpeg's.
     */
    static String ffmpegPixelFormat(final PixelFormat format)
    {
        switch (format)
        {
            case GRAY8:
                return "gray";
            case RGB24:
                return "rgb24";
            case RGBA32:
                return "rgba";
            case NV12:
                return "nv12";
            default:
                return "yuv420p";
        }
    }
}
