package dev.framewire.core.calculators.video;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.core.Options;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.log.Redaction;
import dev.framewire.core.jfr.VideoSourceEvent;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A source of frames from anything ffmpeg opens: a network camera ({@code rtsp://},
 * {@code udp://}, {@code tcp://}, {@code srt://}), a video file, a V4L2 device. ffmpeg runs as a
 * child process and writes raw frames in a NUT container into a pipe; a reader thread of this
 * calculator reads each frame straight from the pipe into a frame from the graph's pool (one
 * {@code read(2)} into the slot's memory: no heap {@code byte[]}, no copy but the few header bytes
 * read ahead) and hands it to the node through a small ring. No JNI.
 *
 * <p>Streams: output 0 ({@code VIDEO}, or the first) carries the frames; an optional output
 * tagged {@code STATUS} carries a {@link VideoStatus} at each connect and disconnect.
 *
 * <p>Options:
 * <ul>
 *   <li>{@code url} (required): what ffmpeg's {@code -i} takes;</li>
 *   <li>{@code pixel_format} ("RGB24"): GRAY8, RGB24, RGBA32, NV12 or I420 (planar formats need
 *       an even width);</li>
 *   <li>{@code width}, {@code height} (0 = the stream's): have ffmpeg scale; one of them 0 keeps
 *       the aspect ratio. GRAY8 at another size is the luma plane scaled, as it is the cheapest
 *       (no chroma touched; full range 0-255, as ffmpeg's own conversion gives);</li>
 *   <li>{@code scale_flags} ("area"): the scaler's filter (ffmpeg's {@code flags}: area,
 *       fast_bilinear, bilinear, bicubic, neighbor, lanczos...). Area averages, which suits
 *       downscaling a detection stream and costs less than ffmpeg's default, bicubic;</li>
 *   <li>{@code gray_range} ("full"): GRAY8 frames at another size span 0-255 ("full": a stream
 *       coded in the limited range 16-235, as most are, is expanded); "coded" hands over the luma
 *       as the stream codes it, which costs less (no expansion: about 0.4 ms a 1080p frame) and is
 *       what motion detection needs (Frigate's reads the luma plane so);</li>
 *   <li>{@code fps} (0 = the stream's): have ffmpeg resample the frame rate ({@code fps} filter);</li>
 *   <li>{@code realtime} (false): read a file at its own rate, as a camera would deliver it
 *       ({@code -re}); otherwise a file is read as fast as the graph takes its frames;</li>
 *   <li>{@code loop} (false): play a file again and again ({@code -stream_loop -1});</li>
 *   <li>{@code reconnect_initial_ms} (500), {@code reconnect_max_ms} (10000),
 *       {@code reconnect_give_up} (0 = never): the backoff of a live source, see below;</li>
 *   <li>{@code stall_timeout_ms} (5000): no byte from ffmpeg for this long, once frames flow, is a
 *       dropout (a read the reader waits in, not a wait for room in a full ring; see
 *       below); with a recording it is also ffmpeg's read timeout on the camera (see
 *       Processes);</li>
 *   <li>{@code connect_timeout_ms} (15000): no stream header from ffmpeg this long after it started
 *       is a failed attempt (ffmpeg probes a live stream for up to 5 s by default before its first
 *       frame; {@code -analyzeduration} and {@code -probesize} in {@code input_options} shorten that);</li>
 *   <li>{@code input_options} (""): more ffmpeg input options, whitespace-separated, placed
 *       before {@code -i} (e.g. {@code "-rtsp_transport tcp"});</li>
 *   <li>{@code hwaccel} (""): passed as {@code -hwaccel} (e.g. {@code vaapi}, {@code cuda},
 *       {@code auto});</li>
 *   <li>{@code on_resize} ("reopen"): what a mid-stream frame size change does, see below;</li>
 *   <li>{@code queue_frames} (4): frames read ahead of the graph, 1..64;</li>
 *   <li>{@code ffmpeg_path} ("ffmpeg"): the executable;</li>
 *   <li>{@code low_delay} (true): for a live url, {@link SourceCommand#LOW_DELAY} before the input options: the
 *       first frame within about a second instead of ffmpeg's 5 s of probing;</li>
 *   <li>{@code record_dir} (""): record the camera's own stream, copied, beside the decoded one
 *       ({@link Recording}): {@code record_segment_seconds} (60), {@code record_format} ("mp4",
 *       fragmented, or "ts"), {@code record_keep_hours} and {@code record_keep_mb} (0: no limit).</li>
 * </ul>
 *
 * <p><b>Passwords</b>: the url is shown masked ({@link Redaction}) in every log line, error,
 * status, journal note and JFR event; ffmpeg gets a url with a password through an owner-only
 * list file, never its command line ({@link SourceCommand}, {@link CameraListFile}). {@link CameraHealth} is what metrics read.
 *
 * <p><b>Timestamps</b> are the stream's own presentation times in microseconds (rounded down),
 * as ffmpeg passes them with {@code -copyts} and {@code -fps_mode passthrough}: the same times
 * ffprobe shows for the stream's frames. They come in the NUT container around each raw frame
 * (see {@link NutDemuxer} for why NUT). A stream's times may go back (a camera reboots, a
 * reconnect restarts them, a file loops without offsetting them); the graph's must increase.
 * The rule: the source keeps a shift, 0 at the start, and gives each frame {@code pts + shift};
 * when that is below the output's bound (the last timestamp + 1, or further after a dropout, see
 * below), the shift is reset so that the frame lands at the later of the bound and the last
 * timestamp plus the last frame interval, and the following frames keep that shift. Each reset
 * is logged, recorded as a {@link VideoSourceEvent} ({@code timestamp_jump}) and, in a journaled
 * run, as a journal note (timestamp: the frame's new timestamp; value: its stream time), once
 * per run of frames that need it; connects, dropouts and failures are noted the same way. Forward jumps are kept as they are: they are the stream's own gaps.
 * ffmpeg's muxer does not pass a time that goes back: it writes such a frame at the last time it
 * wrote plus one tick of the time base ("Non-monotonous DTS" on its stderr), and so on until the
 * stream's times pass it again. A step of exactly one tick after larger steps is taken for that
 * (no camera sends 90000 frames a second) and treated as a time that went back: those frames
 * are spaced by the last regular frame interval, so they keep their rhythm.
 *
 * <p><b>Dropouts</b> of a live source (anything but a plain file path or {@code file:} url):
 * ffmpeg exits, fails to open, or writes nothing for {@code stall_timeout_ms} (then it is
 * killed). The source logs it with ffmpeg's last stderr lines, emits {@code DISCONNECTED} on
 * {@code STATUS} and a {@code VideoSourceEvent}, and while disconnected keeps moving its outputs'
 * bound forward with the wall clock (the bound at the dropout plus the time since), so that
 * downstream nodes joining this stream with others are not held up. It reconnects after
 * {@code reconnect_initial_ms}, doubling the wait after each attempt that gets no frame, up to
 * {@code reconnect_max_ms}; an attempt that gets a frame resets the wait. After
 * {@code reconnect_give_up} attempts in a row without a frame (if not 0) the node fails. A file
 * source ends at the file's end (unless it loops) and fails on an error, with ffmpeg's stderr.
 *
 * <p><b>Frame size</b> comes from the NUT stream header ffmpeg writes once it has decoded the
 * first frame, so it is exactly what the frames are, with no second connection to probe the
 * camera. ffmpeg runs with {@code -autoscale 0}, so a stream whose size changes mid-stream
 * hands us a frame of another byte size: it is never emitted (no torn frame). With
 * {@code on_resize: "fail"} the node fails, naming the node, the url, the old size and the new
 * frame's byte size; with {@code "reopen"} ffmpeg is restarted (for a file, from the next
 * frame's time, {@code -ss}) and the new size is reported on {@code STATUS}.
 *
 * <p><b>Processes</b>: {@code close} (which the graph calls on close, cancellation and failure)
 * stops ffmpeg with SIGTERM, reads and drops what it still writes, waits for it and joins the
 * reader thread: none is left behind. Without a recording a second SIGTERM follows after 1 s (it
 * ends a read of a silent camera at once) and SIGKILL after {@value #STOP_GRACE_MS} ms. A
 * recording's ffmpeg gets one SIGTERM only, so that it finishes the open segment (a second would
 * make it abandon the segment's last fragment), and its network input a read timeout of
 * {@code stall_timeout_ms} ({@code -timeout} for udp, rtp, tcp, srt and rtsp), so that a camera
 * silent at the stop ends its read; it is killed only after that timeout plus
 * {@value #STOP_GRACE_MS} ms. ffmpeg dies with the JVM, kill -9 included ({@link FfmpegProcess},
 * "No orphans"). ffmpeg missing is an error at {@code open} naming the node and how to install it.
 *
 * <p>Threading: {@code open}, {@code process}, {@code close} on the node's worker; one reader
 * thread per node ({@code framewire-video-NODE}) does the blocking I/O. {@code process} waits
 * for frames by parking (at most 10 ms at a time, so cancellation is seen): give the source an
 * executor of its own, as for a camera. The ring between them is single-producer,
 * single-consumer ({@link SourceRing}); the reader ({@link SourceReader}) runs ffmpeg and
 * reconnects ({@link Reconnect}); the bound move runs on the worker. The stall and connect checks run on one
 * JVM-wide thread, {@code framewire-video-stall} ({@link StallWatch}, every 50 ms), not on the
 * worker.
 *
 * <p><b>Stalls while the worker does not call {@code process}</b> (the graph paused, the source
 * held back by a full queue downstream): the stall thread still sees them, as long as the reader
 * is reading. Once the ring is full ({@code queue_frames} frames read ahead and not taken) the
 * reader stops reading and ffmpeg blocks on the pipe; from then on a silent camera cannot be told
 * from a full pipe, nothing is killed, and the stall timeout counts again from the reader's next
 * read, after the worker takes frames again. The {@code DISCONNECTED} status of a stall seen
 * during a pause, and the bound's move, reach the graph when the worker runs the node again (the
 * log line and the JFR event come at once).
 */
public final class VideoSourceCalculator implements Calculator
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSourceCalculator.class);
    private static final String NAME = "VideoSourceCalculator";
    private static final long MAX_WAIT_NANOS = SourceRing.MAX_WAIT_NANOS;
    /** How long ffmpeg has to finish its outputs after SIGTERM before it is killed. */
    static final long STOP_GRACE_MS = 5_000;
    private static final long NONE = Long.MIN_VALUE;

    private String node;
    private String url;
    private PixelFormat format;
    private Output video;
    private Output status;
    private SourceReader reader;
    private Thread readerThread;

    // timestamps, worker only
    private long shift;
    private long lastTs = NONE;
    private long lastStep;
    private boolean disconnected;
    private long disconnectedAtNanos;
    private long boundAtDisconnect;
    private long resets;
    private long resetRun;
    private long lastStatusTs = NONE;
    /** The node's context, for journal notes. */
    private CalculatorContext ctx;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("url", OptionType.STRING, null)
            .option("pixel_format", OptionType.STRING, "RGB24")
            .option("width", OptionType.LONG, 0L)
            .option("height", OptionType.LONG, 0L)
            .option("fps", OptionType.DOUBLE, 0.0)
            .option("realtime", OptionType.BOOLEAN, false)
            .option("loop", OptionType.BOOLEAN, false)
            .option("reconnect_initial_ms", OptionType.LONG, 500L)
            .option("reconnect_max_ms", OptionType.LONG, 10_000L)
            .option("reconnect_give_up", OptionType.LONG, 0L)
            .option("stall_timeout_ms", OptionType.LONG, 5_000L)
            .option("connect_timeout_ms", OptionType.LONG, 15_000L)
            .option("input_options", OptionType.STRING, "")
            .option("hwaccel", OptionType.STRING, "")
            .option("scale_flags", OptionType.STRING, "area")
            .option("gray_range", OptionType.STRING, "full")
            .oneOf("gray_range", "full", "coded")
            .option("on_resize", OptionType.STRING, "reopen")
            .option("queue_frames", OptionType.LONG, 4L)
            .option("ffmpeg_path", OptionType.STRING, Ffmpeg.DEFAULT)
            .option("low_delay", OptionType.BOOLEAN, true)
            .option("record_dir", OptionType.STRING, "")
            .option("record_segment_seconds", OptionType.DOUBLE, 60.0)
            .option("record_format", OptionType.STRING, "mp4")
            .option("record_keep_hours", OptionType.DOUBLE, 0.0)
            .option("record_keep_mb", OptionType.LONG, 0L)
            .oneOf("record_format", "mp4", "ts")
            .range("record_segment_seconds", 2.0, true, 86_400.0) // names: one second, a coarse clock
            .range("record_keep_hours", 0.0, true, 1_000_000.0)
            .range("record_keep_mb", 0, Long.MAX_VALUE / 1_000_000L)
            .oneOf("pixel_format", "GRAY8", "RGB24", "RGBA32", "NV12", "I420")
            .range("width", 0, 16384)
            .range("height", 0, 16384)
            .range("fps", 0.0, true, 1000.0)
            .range("reconnect_initial_ms", 1, 3_600_000)
            .range("reconnect_max_ms", 1, 3_600_000)
            .range("reconnect_give_up", 0, Integer.MAX_VALUE)
            .range("stall_timeout_ms", 10, 3_600_000)
            .range("connect_timeout_ms", 10, 3_600_000)
            .oneOf("on_resize", "reopen", "fail")
            .oneOf("scale_flags", "area", "fast_bilinear", "bilinear", "bicubic", "neighbor", "gauss", "sinc", "lanczos",
                "spline")
            .range("queue_frames", 1, 64)
            .check((node, options) -> options.getString("url").isBlank() ? "option 'url' is empty; " +
                "give a file path or a stream url such as rtsp://camera/stream" : null)
            .outputFrame((node, options, input) -> scaledFrame(options));
    }

    /** The frames' shape when the options fix it (ffmpeg scales to width x height), else null: the stream's. */
    private static Contract.FrameShape scaledFrame(final Options options)
    {
        final int width = (int)options.getLong("width");
        final int height = (int)options.getLong("height");
        final PixelFormat format = PixelFormat.valueOf(options.getString("pixel_format"));
        final boolean oddPlanar = format.planeCount() > 1 && (width & 1) != 0;
        return width > 0 && height > 0 && !oddPlanar ? new Contract.FrameShape(width, height, format) : null;
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        this.ctx = ctx;
        node = ctx.nodeName();
        final Options options = ctx.options();
        final String secretUrl = options.getString("url");
        url = Redaction.redact(secretUrl); // what every message, status and note shows
        if (secretUrl.isBlank())
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'url' is empty; give " +
                "a file path or a stream url such as rtsp://camera/stream");
        }
        format = PixelFormat.valueOf(options.getString("pixel_format"));
        video = ctx.output(0);
        status = optionalOutput(ctx, "STATUS");
        if (status == video)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the STATUS output must not be " +
                "output 0, which carries the frames; list the VIDEO output first");
        }
        final boolean live = isLive(secretUrl);
        final String ffmpeg = options.getString("ffmpeg_path");
        final int[] version = Ffmpeg.version(ffmpeg, NAME, node); // fails, naming the node, if ffmpeg is missing
        final SourceCommand command = command(options, ffmpeg, version, secretUrl, live, recording(options));
        final long initial = options.getLong("reconnect_initial_ms");
        final Reconnect reconnect = new Reconnect(initial, Math.max(initial, options.getLong("reconnect_max_ms")),
            options.getLong("reconnect_give_up"));
        reader = new SourceReader(node, url, live, command, ctx.pool(), (int)options.getLong("queue_frames"),
            reconnect, "fail".equals(options.getString("on_resize")), options.getLong("stall_timeout_ms") * 1_000_000L,
            options.getLong("connect_timeout_ms") * 1_000_000L);
        final Thread thread = new Thread(reader, "framewire-video-" + node);
        thread.setDaemon(true);
        readerThread = thread;
        thread.start();
        reader.health.register();
        StallWatch.add(reader);
    }

    /** The recording the options ask for, its directory made; null without {@code record_dir}. */
    private Recording recording(final Options options) throws IOException
    {
        final String recordDir = options.getString("record_dir");
        if (recordDir.isBlank())
        {
            return null;
        }
        final Recording recording = new Recording(node, Path.of(recordDir), options.getDouble("record_segment_seconds"),
            options.getString("record_format"), options.getDouble("record_keep_hours"),
            options.getLong("record_keep_mb"));
        try
        {
            recording.prepare();
        }
        catch (final IOException ex)
        {
            throw new IOException("node '" + node + "' (" + NAME + "): option 'record_dir': cannot make " +
                recording.dir() + " (" + ex + "); give a directory this process can write", ex);
        }
        LOG.info("node '{}' ({}): recording {} into {}", node, NAME, url, recording);
        return recording;
    }

    /** ffmpeg's command for the options. */
    private SourceCommand command(final Options options, final String ffmpeg, final int[] version,
        final String secretUrl, final boolean live, final Recording recording)
    {
        return new SourceCommand(ffmpeg, version, secretUrl, format, (int)options.getLong("width"),
            (int)options.getLong("height"), options.getDouble("fps"), options.getBoolean("realtime") && !live,
            options.getBoolean("loop") && !live, options.getString("input_options"), options.getString("hwaccel"),
            options.getString("scale_flags"), "full".equals(options.getString("gray_range")),
            live && options.getBoolean("low_delay"), recording, options.getLong("stall_timeout_ms"));
    }

    private static Output optionalOutput(final CalculatorContext ctx, final String tag)
    {
        try
        {
            return ctx.output(tag);
        }
        catch (final IllegalArgumentException ex)
        {
            return null;
        }
    }

    /**
     * Whether a url is a live stream (reconnected on a dropout) rather than a file (ended at its
     * end): anything with a scheme other than {@code file:}, or a device under {@code /dev/}.
     *
     * @param url as given.
     * @return true for live.
     */
    static boolean isLive(final String url)
    {
        final int colon = url.indexOf("://");
        if (colon > 0)
        {
            return !url.regionMatches(true, 0, "file", 0, colon) || colon != 4;
        }
        return url.startsWith("/dev/");
    }

    @Override
    public void process(final CalculatorContext ctx) throws Exception
    {
        final SourceRing ring = reader.ring;
        if (ctx.isCancelled())
        {
            ctx.stop();
            return;
        }
        final int max = ctx.maxShipmentSize();
        int frames = 0;
        while (frames < max)
        {
            final int kind = ring.peekKind();
            if (kind < 0)
            {
                break;
            }
            switch (kind)
            {
                case SourceRing.FRAME:
                case SourceRing.HELD_FRAME:
                    emitFrame(ring.peekFrame(), ring.peekPts(), kind == SourceRing.HELD_FRAME);
                    ring.consume();
                    frames++;
                    break;
                case SourceRing.CONNECTED:
                    onConnected(ring.peekInfo());
                    ring.consume();
                    break;
                case SourceRing.DISCONNECTED:
                    onDisconnected(ring.peekInfo());
                    ring.consume();
                    break;
                case SourceRing.END:
                    ring.consume();
                    ctx.stop();
                    return;
                default:
                    final String why = String.valueOf(ring.peekInfo());
                    ring.consume();
                    event("failed", why, lastTs, video.nextTimestampBound());
                    throw new IOException(why);
            }
        }
        if (frames > 0)
        {
            return;
        }
        if (disconnected)
        {
            advanceBound();
        }
        ring.awaitEvent(MAX_WAIT_NANOS);
    }

    private void emitFrame(final Payload frame, final long ptsMicros, final boolean held)
    {
        final Output video = this.video;
        long ts = ptsMicros + shift;
        final long bound = video.nextTimestampBound();
        if (held || ts < bound || ts > Timestamp.MAX)
        {
            final long target = lastTs == NONE ? Math.max(bound, 0) :
                Math.max(bound, lastTs + Math.max(1, lastStep));
            if (resetRun++ == 0)
            {
                onJump(ptsMicros, ts, target);
            }
            resets++;
            shift = target - ptsMicros;
            ts = target;
        }
        else if (resetRun > 0)
        {
            if (resetRun > 1)
            {
                LOG.warn("node '{}' ({}) {}: the stream's times increase again after {} frames in a row at or " +
                    "before the last one (ffmpeg holds a time that went back at the last one); those frames were " +
                    "spaced {} us apart", node, NAME, url, resetRun, Math.max(1, lastStep));
            }
            resetRun = 0;
        }
        video.add(frame, ts);
        if (lastTs != NONE && !held)
        {
            lastStep = ts - lastTs;
        }
        lastTs = ts;
        final Output status = this.status;
        if (status != null)
        {
            status.setNextTimestampBound(ts + 1);
        }
    }

    private void onJump(final long ptsMicros, final long wouldBe, final long target)
    {
        final String detail = "stream time " + ptsMicros + " us would be timestamp " + wouldBe +
            ", below the output's bound " + video.nextTimestampBound() + " (last timestamp " +
            (lastTs == NONE ? "none" : String.valueOf(lastTs)) + (disconnected ? ", bound moved on during a dropout" : "") +
            "); shifted to " + target + " (shift " + (target - ptsMicros) + " us, was " + shift + ")";
        LOG.warn("node '{}' ({}) {}: timestamp shifted: {}", node, NAME, url, detail);
        event("timestamp_jump", detail, ptsMicros, target);
    }

    private void onConnected(final Object info)
    {
        final VideoStatus connected = (VideoStatus)info;
        if (disconnected)
        {
            advanceBound();
        }
        disconnected = false;
        LOG.info("node '{}' ({}): connected to {}: {}", node, NAME, url, connected.reason());
        event("connected", connected.reason(), lastTs, video.nextTimestampBound());
        emitStatus(connected);
    }

    private void onDisconnected(final Object info)
    {
        final VideoStatus lost = (VideoStatus)info;
        if (!disconnected)
        {
            disconnected = true;
            disconnectedAtNanos = System.nanoTime();
            boundAtDisconnect = lastTs == NONE ? Math.max(video.nextTimestampBound(), 0) : lastTs + 1;
        }
        LOG.warn("node '{}' ({}): disconnected from {}: {}", node, NAME, url, lost.reason());
        event("disconnected", lost.reason(), lastTs, video.nextTimestampBound());
        emitStatus(lost);
    }

    /** While disconnected: the bound follows the wall clock from where it was at the dropout. */
    private void advanceBound()
    {
        final long bound = boundAtDisconnect + (System.nanoTime() - disconnectedAtNanos) / 1000;
        if (bound > video.nextTimestampBound() && bound < Timestamp.MAX)
        {
            video.setNextTimestampBound(bound);
            if (status != null)
            {
                status.setNextTimestampBound(bound);
            }
        }
    }

    private void emitStatus(final VideoStatus value)
    {
        final Output status = this.status;
        if (status == null)
        {
            return;
        }
        final long ts = Math.max(status.nextTimestampBound(), lastStatusTs == NONE ? 0 : lastStatusTs + 1);
        status.add(value, ts);
        lastStatusTs = ts;
    }

    private void event(final String kind, final String detail, final long streamTime, final long timestamp)
    {
        ctx.journalNote(timestamp, streamTime == NONE ? 0 : streamTime, NAME + " " + kind + ": " + url + ": " + detail);
        final VideoSourceEvent event = new VideoSourceEvent();
        if (event.isEnabled())
        {
            event.node = node;
            event.url = url;
            event.kind = kind;
            event.detail = detail;
            event.streamTime = streamTime;
            event.timestamp = timestamp;
            event.commit();
        }
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        final SourceReader reader = this.reader;
        this.reader = null;
        if (reader == null)
        {
            return;
        }
        StallWatch.remove(reader);
        reader.health.unregister();
        reader.stop();
        final Thread thread = readerThread;
        readerThread = null;
        boolean interrupted = false;
        final long joinMillis = reader.stopGraceMillis() + 25_000; // ffmpeg killed by then, the pipe closed
        while (thread.isAlive())
        {
            try
            {
                thread.join(joinMillis);
                if (thread.isAlive())
                {
                    LOG.error("node '{}' ({}): the reader thread has not stopped after {} ms; {}", node, NAME,
                        joinMillis, reader.describe());
                    break;
                }
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        reader.ring.releaseQueued();
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Frames whose timestamp the shift rule moved, for tests. */
    long timestampResets()
    {
        return resets;
    }

    /** Any thread, for tests: the reader, null before open and after close. */
    SourceReader reader()
    {
        return reader;
    }
}
