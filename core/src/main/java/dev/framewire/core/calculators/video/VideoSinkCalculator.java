package dev.framewire.core.calculators.video;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.log.Redaction;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Encodes frames to a video file, fixed-length clip files, or a stream, through an ffmpeg child
 * process. Frames go to ffmpeg's stdin as NUT (see {@link NutMuxer}), so each keeps its graph
 * timestamp (a variable frame rate and dropped frames are recorded as they were), with a
 * gathering write from the pooled slot's memory: no heap copy.
 *
 * <p>Streams: one input of frames (any of our pixel formats; the first frame fixes the size and
 * format, and ffmpeg starts then). Options:
 * <ul>
 *   <li>{@code url} (required): a file ({@code /rec/cam1.mp4}), a stream
 *       ({@code udp://127.0.0.1:5000}, {@code rtsp://...} with a server, {@code srt://...}); with
 *       {@code segment_seconds}, a pattern with a {@code %d}-style counter
 *       ({@code /rec/cam1-%05d.mp4}), or a plain name that gets {@code -%05d} before its
 *       extension;</li>
 *   <li>{@code codec} (""): ffmpeg's encoder; empty picks {@code libx264} when this ffmpeg has it,
 *       else {@code mpeg4};</li>
 *   <li>{@code crf} (0 = the encoder's default), {@code bitrate} ("", e.g. "2M"): quality or rate;</li>
 *   <li>{@code preset} ("veryfast"): for libx264/libx265, ignored by other encoders;</li>
 *   <li>{@code container} (""): ffmpeg's {@code -f}; empty guesses from the url, and is
 *       {@code mpegts} for {@code udp://}, {@code tcp://} and {@code srt://}, {@code flv} for
 *       {@code rtmp://} (whose stream key ffmpeg gets in a private preset file, not its command line);</li>
 *   <li>{@code segment_seconds} (0): cut into clip files of about this length (at key frames,
 *       one forced every segment), each a complete file;</li>
 *   <li>{@code output_pixel_format} ("yuv420p"): what the encoder gets, what players take;</li>
 *   <li>{@code output_options} (""): more ffmpeg output options, whitespace-separated;</li>
 *   <li>{@code ffmpeg_path} ("ffmpeg");</li>
 *   <li>{@code password_on_command_line} (false): accept a url whose {@code user:password@} ffmpeg
 *       can only take on its command line (rtmp, http), which every local user can read; without it
 *       such a url is refused at validation, naming where the credentials can go instead.</li>
 * </ul>
 *
 * <p>Backpressure: {@code process} writes each frame before it returns. When the encoder is
 * slower than the graph, ffmpeg's pipe fills, the write blocks, and the node's input queue
 * fills: the graph holds back its sources as for any slow node (nothing is buffered here
 * beyond the pipe's 64 KiB). To drop frames instead, give the node a fixed-size input policy;
 * the drops are counted as the engine counts them ({@code Graph.dropCount}). The policy decides
 * between calls: a slow encoder drops as it goes, but one stuck inside a write (ffmpeg reading
 * nothing) holds the graph back at {@code max_queue_size} until the write returns, when the
 * queue's surplus is dropped at once.
 *
 * <p>Timestamps: the first frame is at 0 in the file if its timestamp is negative, else at its
 * timestamp; the file keeps them in microseconds. Reading the file back with the video source
 * gives the same timestamps.
 *
 * <p>{@code close} closes ffmpeg's stdin and waits (up to 30 s, or 10 s when the run was
 * cancelled or failed) for it to finish the file: every frame written is in it, whatever ended the
 * run; only an ffmpeg that does not finish in that time is killed. ffmpeg exiting early (a full
 * disk, a refused url) fails the node with ffmpeg's last stderr lines.
 *
 * <p>This sink re-encodes what the graph hands it (for the demo, the annotated motion view). To
 * record a camera, record its own stream with the video source's {@code record_dir} instead:
 * copied, not re-encoded, in fragmented segments that a kill -9 does not make unplayable. The
 * sink's MP4 is a plain one (its index written at the end, so that a stream with B-frames reads
 * back at the same timestamps), so the JVM killed outright leaves it unplayable; any stop of the
 * run finishes it. A {@code url} with strftime fields ({@code /rec/cam1-%Y%m%dT%H%M%S.mp4}) names segments by their start (UTC).
 *
 * <p>Urls are shown with their password masked ({@link Redaction}) in logs and errors.
 *
 * <p>Threading: called on the node's worker only. Per-slot {@code ByteBuffer} views of the
 * frames (a view has its own position, so a frame shared with other readers is safe) are kept
 * in an identity map the size of the pool's slot count: the steady state allocates nothing.
 */
public final class VideoSinkCalculator implements Calculator
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSinkCalculator.class);
    private static final String NAME = "VideoSinkCalculator";
    private static final ConcurrentHashMap<String, Boolean> HAS_X264 = new ConcurrentHashMap<>();

    private String node;
    private String url;
    private String shownUrl;
    private String ffmpeg;
    private String codec;
    private long crf;
    private String bitrate;
    private String preset;
    private String container;
    private double segmentSeconds;
    private String outputPixelFormat;
    private String outputOptions;
    private int[] version;

    private final NutMuxer muxer = new NutMuxer();
    private final PublishSecrets secrets = new PublishSecrets();
    private final IdentityHashMap<Payload, ByteBuffer> views = new IdentityHashMap<>();
    private FfmpegProcess child;
    private int width;
    private int height;
    private PixelFormat format;
    private long origin = Long.MIN_VALUE;
    private long frames;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("url", OptionType.STRING, null)
            .option("codec", OptionType.STRING, "")
            .option("crf", OptionType.LONG, 0L)
            .option("bitrate", OptionType.STRING, "")
            .option("preset", OptionType.STRING, "veryfast")
            .option("container", OptionType.STRING, "")
            .option("segment_seconds", OptionType.DOUBLE, 0.0)
            .option("output_pixel_format", OptionType.STRING, "yuv420p")
            .option("output_options", OptionType.STRING, "")
            .option("ffmpeg_path", OptionType.STRING, Ffmpeg.DEFAULT)
            .option("password_on_command_line", OptionType.BOOLEAN, Boolean.FALSE)
            .check((node, options) -> passwordProblem(options.getString("url"),
                options.getBoolean("password_on_command_line")))
            .range("crf", 0, 63)
            .range("segment_seconds", 0.0, true, 86_400.0);
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        node = ctx.nodeName();
        url = ctx.options().getString("url");
        shownUrl = Redaction.redact(url);
        if (url.isBlank())
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'url' is empty; give a " +
                "file such as /rec/cam1.mp4 or a stream such as udp://127.0.0.1:5000");
        }
        ffmpeg = ctx.options().getString("ffmpeg_path");
        version = Ffmpeg.version(ffmpeg, NAME, node);
        codec = ctx.options().getString("codec");
        if (codec.isBlank())
        {
            codec = hasX264(ffmpeg) ? "libx264" : "mpeg4";
        }
        crf = ctx.options().getLong("crf");
        bitrate = ctx.options().getString("bitrate");
        preset = ctx.options().getString("preset");
        container = ctx.options().getString("container");
        segmentSeconds = ctx.options().getDouble("segment_seconds");
        outputPixelFormat = ctx.options().getString("output_pixel_format");
        outputOptions = ctx.options().getString("output_options");
        if (segmentSeconds > 0 && url.contains("://"))
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): segment_seconds " +
                segmentSeconds + " cuts files; url '" + shownUrl + "' is a stream. Give a file pattern such as " +
                "/rec/cam1-%05d.mp4, or segment_seconds 0");
        }
        final Path parent = url.contains("://") ? null : Path.of(url).toAbsolutePath().getParent();
        if (parent != null)
        {
            Files.createDirectories(parent);
        }
    }

    /**
     * Refuses a url whose {@code user:password@} would go on ffmpeg's command line, which every local
     * user can read: every scheme but {@code rtsp://} (a relay in the JVM answers its challenge), since
     * ffmpeg 5.1 takes an RTMP or HTTP output's user info from the url only. The operator may accept
     * the exposure with {@code password_on_command_line: true}; the sink then warns when it starts.
     */
    static String passwordProblem(final String url, final boolean accepted)
    {
        if (accepted || !Redaction.hasPassword(url) || RtspPublishRelay.applies(url))
        {
            return null;
        }
        return "option 'url' (" + Redaction.redact(url) + ") has a password that ffmpeg 5.1 would take on its " +
            "command line, which every local user can read (it has no option for an rtmp or http output's " +
            "user:password). Keep it private: give the credentials in the stream key or its query " +
            "(rtmp://host/app/KEY?user=NAME&pass=SECRET, which ffmpeg reads from a private file), or publish " +
            "over rtsp://user:password@ (a relay in the JVM answers the server) or srt://...?passphrase=; or set " +
            "password_on_command_line: true to accept that local users can read it";
    }

    private static boolean hasX264(final String ffmpeg)
    {
        return HAS_X264.computeIfAbsent(ffmpeg, path ->
        {
            try
            {
                final Process p = new ProcessBuilder(path, "-hide_banner", "-encoders").redirectErrorStream(true).start();
                final String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                p.waitFor(20, TimeUnit.SECONDS);
                return out.contains(" libx264 ");
            }
            catch (final IOException ex)
            {
                return false;
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }

    @Override
    public void process(final CalculatorContext ctx) throws IOException
    {
        final Input input = ctx.input(0);
        if (input.isEmpty())
        {
            return;
        }
        final Object value = input.value();
        if (!(value instanceof Payload) || !((Payload)value).isFrame())
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the packet on input stream '" +
                input.streamName() + "' at timestamp " + Timestamp.toString(input.timestamp()) + " is " +
                (value instanceof Payload ? "a blob payload" : "a " + value.getClass().getName()) + ", not a frame");
        }
        final Payload frame = (Payload)value;
        if (child == null)
        {
            start(frame, input.timestamp());
        }
        else if (frame.width() != width || frame.height() != height || frame.format() != format)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the frame at timestamp " +
                Timestamp.toString(input.timestamp()) + " is " + frame.width() + "x" + frame.height() + " " +
                frame.format() + ", but this recording to " + url + " started at " + width + "x" + height + " " +
                format + "; put a ResizeCalculator/ColorConvertCalculator before the sink");
        }
        if (frame.stride() != format.minStride(width))
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the frame at timestamp " +
                Timestamp.toString(input.timestamp()) + " has stride " + frame.stride() + ", not the tight " +
                format.minStride(width) + " ffmpeg's raw video takes");
        }
        ByteBuffer view = views.get(frame);
        if (view == null)
        {
            view = frame.newReadOnlyByteBuffer(); // once per slot
            views.put(frame, view);
        }
        view.limit(frame.length()).position(0);
        final long pts = input.timestamp() - origin;
        try
        {
            muxer.writeFrame(child.channel(), pts, view);
        }
        catch (final IOException ex)
        {
            throw failed("writing the frame at timestamp " + input.timestamp(), ex);
        }
        frames++;
    }

    private void start(final Payload frame, final long timestamp) throws IOException
    {
        width = frame.width();
        height = frame.height();
        format = frame.format();
        origin = Math.min(0, timestamp);
        final List<String> command = new ArrayList<>(command());
        if (segmentSeconds <= 0)
        {
            command.remove(command.size() - 1);
            command.addAll(secrets.output(url, node)); // SRT: a private -fpre file; RTSP: a relay in the JVM
        }
        if (Redaction.hasPassword(url) && !RtspPublishRelay.applies(url))
        {
            LOG.warn("node '{}' ({}): the password of {} is on ffmpeg's command line, which local users can read " +
                "(password_on_command_line: true; ffmpeg 5.1 takes an rtmp output's user:password from the url " +
                "only, see docs/CAMERAS.md)",
                node, NAME, shownUrl);
        }
        LOG.info("node '{}' ({}): recording {}x{} {} to {}: {}", node, NAME, width, height, format, shownUrl,
            Redaction.redact(String.join(" ", command)));
        child = FfmpegProcess.startWriting(command, "ffmpeg-" + node);
        try
        {
            muxer.writeHeaders(child.channel(), format, width, height);
        }
        catch (final IOException ex)
        {
            throw failed("writing the stream header", ex);
        }
    }

    private IOException failed(final String what, final IOException ex)
    {
        final FfmpegProcess c = child;
        final int code = c.awaitExitOrKill(2_000);
        return new IOException("node '" + node + "' (" + NAME + "): " + what + " to ffmpeg for " + shownUrl + " failed (" +
            ex.getMessage() + "); ffmpeg " + (code >= 0 ? "exited with code " + code : "was killed") +
            "; its last stderr lines:\n" + c.stderrTail(), ex);
    }

    List<String> command()
    {
        final List<String> c = new ArrayList<>();
        c.add(ffmpeg);
        c.add("-hide_banner");
        c.add("-nostats");
        c.add("-loglevel");
        c.add("warning");
        c.add("-y");
        c.add("-f");
        c.add("nut");
        c.add("-i");
        c.add("pipe:0");
        c.add("-map");
        c.add("0:v:0");
        c.add("-c:v");
        c.add(codec);
        if (codec.startsWith("libx26") && !preset.isBlank())
        {
            c.add("-preset");
            c.add(preset);
        }
        if (crf > 0)
        {
            c.add("-crf");
            c.add(String.valueOf(crf));
        }
        if (!bitrate.isBlank())
        {
            c.add("-b:v");
            c.add(bitrate);
        }
        if (!outputPixelFormat.isBlank())
        {
            c.add("-pix_fmt");
            c.add(outputPixelFormat);
        }
        c.add(Ffmpeg.atLeast(version, 5, 1) ? "-fps_mode" : "-vsync");
        c.add("passthrough");
        if (Ffmpeg.atLeast(version, 4, 0))
        {
            c.add("-enc_time_base:v");
            c.add("-1");
        }
        for (final String option : outputOptions.trim().split("\\s+"))
        {
            if (!option.isEmpty())
            {
                c.add(option);
            }
        }
        final String guessed = !container.isBlank() ? container :
            url.toLowerCase(Locale.ROOT).startsWith("rtmp") ? "flv" : isStream(url) ? "mpegts" : "";
        if (segmentSeconds > 0)
        {
            final String seconds = String.format(Locale.ROOT, "%s", segmentSeconds);
            c.add("-force_key_frames");
            c.add("expr:gte(t,n_forced*" + seconds + ")");
            c.add("-f");
            c.add("segment");
            c.add("-segment_time");
            c.add(seconds);
            if (!guessed.isBlank())
            {
                c.add("-segment_format");
                c.add(guessed);
            }
            c.add("-reset_timestamps");
            c.add("0");
            if (hasStrftime(url))
            {
                c.add("-strftime");
                c.add("1");
            }
            c.add(hasStrftime(url) ? url : segmentPattern(url));
        }
        else
        {
            if (!guessed.isBlank())
            {
                c.add("-f");
                c.add(guessed);
            }
            c.add(url);
        }
        return c;
    }

    /** Whether a file pattern names segments by time ({@code %Y}, {@code %m}, {@code %H} ...). */
    static boolean hasStrftime(final String url)
    {
        return url.matches(".*%[YmdHMSFTs].*");
    }

    private static boolean isStream(final String url)
    {
        final String u = url.toLowerCase(Locale.ROOT);
        return u.startsWith("udp://") || u.startsWith("tcp://") || u.startsWith("srt://") || u.startsWith("rtp://");
    }

    /**
     * The file pattern of a segmented recording: the url if it has a {@code %} counter, else
     * {@code -%05d} before its extension.
     *
     * @param url as given.
     * @return the pattern.
     */
    static String segmentPattern(final String url)
    {
        if (url.contains("%"))
        {
            return url;
        }
        final int slash = url.lastIndexOf('/');
        final int dot = url.lastIndexOf('.');
        return dot > slash + 1 ? url.substring(0, dot) + "-%05d" + url.substring(dot) : url + "-%05d";
    }

    @Override
    public void close(final CalculatorContext ctx) throws IOException
    {
        final FfmpegProcess c = child;
        child = null;
        views.clear();
        if (c == null)
        {
            secrets.forget();
            return;
        }
        final boolean cancelled = ctx.isCancelled();
        final long waitMillis = cancelled ? 10_000 : 30_000;
        try
        {
            c.channel().close(); // end of input: ffmpeg finishes the file
        }
        catch (final IOException ignored)
        {
            // it is being closed; the exit code tells
        }
        final int code = c.awaitExitOrKill(waitMillis);
        secrets.forget(); // the preset file; the RTSP relay once ffmpeg has sent its TEARDOWN
        final String target = segmentSeconds > 0 ? "the segments " + (hasStrftime(url) ? url : segmentPattern(url)) :
            shownUrl;
        if (code != 0)
        {
            final String what = "node '" + node + "' (" + NAME + "): ffmpeg " + (code < 0 ? "did not finish " + target +
                " within " + waitMillis / 1000 + " s and was killed (the last fragment may be lost)" :
                "exited with code " + code + " finishing " + target) + " after " + frames + " frames; its last " +
                "stderr lines:\n" + c.stderrTail();
            if (cancelled)
            {
                LOG.warn("{} (the run was cancelled or failed)", what);
                return;
            }
            throw new IOException(what);
        }
        LOG.info("node '{}' ({}): {} frames written to {}{}", node, NAME, frames, target,
            cancelled ? " (the run was cancelled: every frame received was written)" : "");
    }

    /** Frames written, for tests. */
    long frames()
    {
        return frames;
    }
}
