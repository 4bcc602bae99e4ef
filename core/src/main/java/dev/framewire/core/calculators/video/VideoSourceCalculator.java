package dev.framewire.core.calculators.video;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.log.RateLimitedLog;
import dev.framewire.core.internal.log.Redaction;
import dev.framewire.core.jfr.VideoSourceEvent;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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
 *       the aspect ratio;</li>
 *   <li>{@code fps} (0 = the stream's): have ffmpeg resample the frame rate ({@code fps} filter);</li>
 *   <li>{@code realtime} (false): read a file at its own rate, as a camera would deliver it
 *       ({@code -re}); otherwise a file is read as fast as the graph takes its frames;</li>
 *   <li>{@code loop} (false): play a file again and again ({@code -stream_loop -1});</li>
 *   <li>{@code reconnect_initial_ms} (500), {@code reconnect_max_ms} (10000),
 *       {@code reconnect_give_up} (0 = never): the backoff of a live source, see below;</li>
 *   <li>{@code stall_timeout_ms} (5000): no byte from ffmpeg for this long, once frames flow, is a
 *       dropout (a read the reader waits in, not a wait for room in a full ring; see
 *       below);</li>
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
 *   <li>{@code low_delay} (true): for a live url, {@link #LOW_DELAY} before the input options: the
 *       first frame within about a second instead of ffmpeg's 5 s of probing;</li>
 *   <li>{@code record_dir} (""): record the camera's own stream, copied, beside the decoded one
 *       ({@link Recording}): {@code record_segment_seconds} (60), {@code record_format} ("mp4",
 *       fragmented, or "ts"), {@code record_keep_hours} and {@code record_keep_mb} (0: no limit).</li>
 * </ul>
 *
 * <p><b>Passwords</b>: the url is shown masked ({@link Redaction}) in every log line, error,
 * status, journal note and JFR event; ffmpeg gets a url with a password through an owner-only
 * list file, never its command line ({@link Command}). {@link CameraHealth} is what metrics read.
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
 * stops ffmpeg with one SIGTERM, so that a recording's open segment is finished (a second one
 * after 1 s, or half the grace when recording, SIGKILL after {@value #STOP_GRACE_MS} ms), reads and drops what it still writes,
 * waits for it and joins the reader thread: none is left behind. ffmpeg dies with the JVM, kill -9
 * included ({@link FfmpegProcess}, "No orphans"). ffmpeg missing is an error at {@code open} naming the node and how to
 * install it.
 *
 * <p>Threading: {@code open}, {@code process}, {@code close} on the node's worker; one reader
 * thread per node ({@code framewire-video-NODE}) does the blocking I/O. {@code process} waits
 * for frames by parking (at most 10 ms at a time, so cancellation is seen): give the source an
 * executor of its own, as for a camera. The ring between them is single-producer,
 * single-consumer; the bound move runs on the worker. The stall and connect checks run on one
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
    private static final long MAX_WAIT_NANOS = 10_000_000L;
    /** How long ffmpeg has to finish its outputs after SIGTERM before it is killed. */
    static final long STOP_GRACE_MS = 5_000;
    /** At most one line per this about failed connection attempts in a row. */
    private static final long ATTEMPT_LOG_NANOS = 30_000_000_000L;
    private static final long NONE = Long.MIN_VALUE;

    static final int FRAME = 0;
    static final int HELD_FRAME = 5;
    static final int CONNECTED = 1;
    static final int DISCONNECTED = 2;
    static final int END = 3;
    static final int FAILED = 4;

    private String node;
    private String url;
    private PixelFormat format;
    private Output video;
    private Output status;
    private Reader reader;
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
            .range("record_segment_seconds", 0.0, false, 86_400.0)
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
            .range("queue_frames", 1, 64)
            .check((node, options) -> options.getString("url").isBlank() ? "option 'url' is empty; " +
                "give a file path or a stream url such as rtsp://camera/stream" : null);
    }

    @Override
    public void open(final CalculatorContext ctx) throws IOException
    {
        this.ctx = ctx;
        node = ctx.nodeName();
        final String secretUrl = ctx.options().getString("url");
        url = Redaction.redact(secretUrl); // what every message, status and note shows
        if (secretUrl.isBlank())
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'url' is empty; give " +
                "a file path or a stream url such as rtsp://camera/stream");
        }
        format = PixelFormat.valueOf(ctx.options().getString("pixel_format"));
        video = ctx.output(0);
        status = optionalOutput(ctx, "STATUS");
        if (status == video)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the STATUS output must not be " +
                "output 0, which carries the frames; list the VIDEO output first");
        }
        final String ffmpeg = ctx.options().getString("ffmpeg_path");
        final int[] version = Ffmpeg.version(ffmpeg, NAME, node);
        final long initial = ctx.options().getLong("reconnect_initial_ms");
        final long max = Math.max(initial, ctx.options().getLong("reconnect_max_ms"));
        final long stallTimeoutNanos = ctx.options().getLong("stall_timeout_ms") * 1_000_000L;
        final long connectTimeoutNanos = ctx.options().getLong("connect_timeout_ms") * 1_000_000L;
        final boolean live = isLive(secretUrl);
        final String recordDir = ctx.options().getString("record_dir");
        Recording recording = null;
        if (!recordDir.isBlank())
        {
            recording = new Recording(node, Path.of(recordDir), ctx.options().getDouble("record_segment_seconds"),
                ctx.options().getString("record_format"), ctx.options().getDouble("record_keep_hours"),
                ctx.options().getLong("record_keep_mb"));
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
        }
        final Command command = new Command(ffmpeg, version, secretUrl, format,
            (int)ctx.options().getLong("width"), (int)ctx.options().getLong("height"),
            ctx.options().getDouble("fps"), ctx.options().getBoolean("realtime") && !live,
            ctx.options().getBoolean("loop") && !live, ctx.options().getString("input_options"),
            ctx.options().getString("hwaccel"), live && ctx.options().getBoolean("low_delay"), recording);
        reader = new Reader(node, url, live, command, format, ctx.pool(),
            (int)ctx.options().getLong("queue_frames"), initial, max, ctx.options().getLong("reconnect_give_up"),
            "fail".equals(ctx.options().getString("on_resize")), stallTimeoutNanos, connectTimeoutNanos);
        final Thread thread = new Thread(reader, "framewire-video-" + node);
        thread.setDaemon(true);
        readerThread = thread;
        thread.start();
        reader.health.register();
        StallWatch.add(reader);
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
        final Reader reader = this.reader;
        if (ctx.isCancelled())
        {
            ctx.stop();
            return;
        }
        final int max = ctx.maxShipmentSize();
        int frames = 0;
        while (frames < max)
        {
            final int kind = reader.peekKind();
            if (kind < 0)
            {
                break;
            }
            switch (kind)
            {
                case FRAME:
                case HELD_FRAME:
                    emitFrame(reader.peekFrame(), reader.peekPts(), kind == HELD_FRAME);
                    reader.consume();
                    frames++;
                    break;
                case CONNECTED:
                    onConnected(reader.peekInfo());
                    reader.consume();
                    break;
                case DISCONNECTED:
                    onDisconnected(reader.peekInfo());
                    reader.consume();
                    break;
                case END:
                    reader.consume();
                    ctx.stop();
                    return;
                default:
                    final String why = String.valueOf(reader.peekInfo());
                    reader.consume();
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
        reader.awaitEvent(MAX_WAIT_NANOS);
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
        final Reader reader = this.reader;
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
        while (thread.isAlive())
        {
            try
            {
                thread.join(30_000);
                if (thread.isAlive())
                {
                    LOG.error("node '{}' ({}): the reader thread has not stopped after 30 s; {}", node, NAME,
                        reader.describe());
                    break;
                }
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        reader.releaseQueued();
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
    Reader reader()
    {
        return reader;
    }

    // ====================================================================== the ffmpeg command

    /**
     * The ffmpeg command line of a source, built once per attempt; only the seek changes.
     *
     * <p>A url with a password ({@code rtsp://user:secret@camera/}) never goes on the command
     * line, which every local user can read ({@code /proc/PID/cmdline}, {@code ps}). It goes into
     * an ffconcat list file, readable by the owner only, in a private temporary directory, and
     * ffmpeg opens that list with its concat demuxer ({@code -f concat -safe 0}), which opens the
     * url with the options given in the list's {@code option} lines. The list lives only while
     * ffmpeg opens it ({@link #forget}).
     */
    static final class Command
    {
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
        final boolean lowDelay;
        final Recording recording;
        /** The list file of the attempt running, when the url has a password; the reader's. */
        private Path list;

        Command(final String ffmpeg, final int[] version, final String url, final PixelFormat format, final int width,
            final int height, final double fps, final boolean realtime, final boolean loop, final String inputOptions,
            final String hwaccel, final boolean lowDelay, final Recording recording)
        {
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
        }

        /**
         * The command line.
         *
         * @param seekMicros where to start in a file, or {@link Long#MIN_VALUE} for its start.
         * @return the arguments.
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
            for (final String option : inputOptions.trim().split("\\s+"))
            {
                if (!option.isEmpty())
                {
                    input.add(option); // after ours: ffmpeg takes an option's last value
                }
            }
            final boolean hidden = Redaction.hasPassword(url);
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
                list = writeList(input);
                c.add("-f");
                c.add("concat");
                c.add("-safe");
                c.add("0");
                c.add("-protocol_whitelist");
                c.add("file,rtsp,rtsps,rtp,srtp,udp,tcp,tls,http,https,httpproxy,srt,rtmp,rtmps,crypto");
                c.add("-i");
                c.add(list.toString());
            }
            else
            {
                c.add("-i");
                c.add(url);
            }
            if (recording != null)
            {
                c.addAll(recording.outputArgs());
            }
            c.add("-map");
            c.add("0:v:0");
            c.add("-an");
            c.add("-sn");
            c.add("-dn");
            final StringBuilder filters = new StringBuilder();
            if (fps > 0)
            {
                filters.append(String.format(Locale.ROOT, "fps=%s", fps));
            }
            if (width > 0 || height > 0)
            {
                final boolean planar = format.planeCount() > 1;
                filters.append(filters.length() > 0 ? "," : "").append("scale=")
                    .append(width > 0 ? width : planar ? -2 : -1).append(':')
                    .append(height > 0 ? height : planar ? -2 : -1);
            }
            if (filters.length() > 0)
            {
                c.add("-vf");
                c.add(filters.toString());
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
            return c;
        }

        private boolean atLeast(final int major, final int minor)
        {
            return Ffmpeg.atLeast(version, major, minor);
        }

        /**
         * The ffconcat list of a url with a password: the url, then the input options as the
         * list's {@code option NAME VALUE} lines (an option without a value gets "1"), in a file
         * only its owner reads.
         */
        private Path writeList(final List<String> input) throws IOException
        {
            forget();
            final Path dir = Files.createTempDirectory("framewire-camera-"); // 0700 on POSIX
            final Path file = dir.resolve("input.ffconcat");
            final StringBuilder text = new StringBuilder("ffconcat version 1.0\nfile '")
                .append(url.replace("'", "'\\''")).append("'\n");
            for (int i = 0; i < input.size(); i++)
            {
                final String name = input.get(i);
                if (!name.startsWith("-") || name.length() < 2)
                {
                    throw new IOException("input_options: '" + name + "' is not an option name (-name); with a " +
                        "password in the url the options go into ffmpeg's concat list as NAME VALUE pairs");
                }
                final boolean valued = i + 1 < input.size() && !input.get(i + 1).startsWith("-");
                text.append("option ").append(name.substring(1)).append(' ')
                    .append(valued ? input.get(++i) : "1").append('\n');
            }
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
            {
                w.write(text.toString());
            }
            return file;
        }

        /** Deletes the list file of the last attempt, if any: ffmpeg has read it, or is gone. */
        void forget()
        {
            final Path file = list;
            list = null;
            if (file != null)
            {
                try
                {
                    Files.deleteIfExists(file);
                    Files.deleteIfExists(file.getParent());
                }
                catch (final IOException ex)
                {
                    LOG.warn("{}: cannot delete the camera list file {}: {}", NAME, file, ex.toString());
                }
            }
        }
    }

    /** Input options of a live source with {@code low_delay}, before the user's. */
    static final List<String> LOW_DELAY = List.of("-fflags", "nobuffer", "-flags", "low_delay",
        "-probesize", "32768", "-analyzeduration", "200000");

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

    // ====================================================================== the reader thread

    /**
     * Runs ffmpeg, reads its frames into pooled payloads and publishes them, with connection
     * events, into a single-producer single-consumer ring the worker drains. Owns the child
     * process; reconnects with backoff.
     */
    static final class Reader implements Runnable
    {
        private final String node;
        private final String url;
        private final boolean live;
        private final Command command;
        private final PixelFormat format;
        private final PayloadPool pool;
        private final long initialDelayNanos;
        private final long maxDelayNanos;
        private final long giveUp;
        private final boolean failOnResize;
        private final long stallNanos;
        private final long connectNanos;
        private final NutDemuxer demuxer = new NutDemuxer();
        private final RateLimitedLog attemptLog = new RateLimitedLog(ATTEMPT_LOG_NANOS);
        /** What the operator's metrics read. */
        final CameraHealth health;
        private ByteBuffer drain;
        private long nextSweepMillis;

        // the ring: slots written by the reader, read by the worker
        private final int mask;
        private final int[] kinds;
        private final Payload[] frames;
        private final long[] pts;
        private final Object[] infos;
        private final AtomicLong head = new AtomicLong(); // next to consume, written by the worker
        private final AtomicLong tail = new AtomicLong(); // next to publish, written by the reader
        private volatile Thread consumerWaiting;
        private volatile Thread producerWaiting;

        private volatile boolean stopping;
        private volatile FfmpegProcess current;
        private volatile FfmpegProcess stallKilled;
        private volatile long attemptStartNanos;
        private long lastTicks;
        private long regularStepTicks;
        private volatile boolean streaming;
        private volatile Thread thread;
        private int attempts;

        Reader(final String node, final String url, final boolean live, final Command command,
            final PixelFormat format, final PayloadPool pool, final int queueFrames, final long initialDelayMillis,
            final long maxDelayMillis, final long giveUp, final boolean failOnResize, final long stallNanos,
            final long connectNanos)
        {
            this.stallNanos = stallNanos;
            this.connectNanos = connectNanos;
            this.health = new CameraHealth(node, url);
            this.node = node;
            this.url = url;
            this.live = live;
            this.command = command;
            this.format = format;
            this.pool = pool;
            this.initialDelayNanos = initialDelayMillis * 1_000_000L;
            this.maxDelayNanos = maxDelayMillis * 1_000_000L;
            this.giveUp = giveUp;
            this.failOnResize = failOnResize;
            // connection events need slots besides the frames
            final int capacity = Integer.highestOneBit(Math.max(2, queueFrames + 2) * 2 - 1);
            mask = capacity - 1;
            kinds = new int[capacity];
            frames = new Payload[capacity];
            pts = new long[capacity];
            infos = new Object[capacity];
        }

        // ------------------------------------------------------------ worker side

        int peekKind()
        {
            final long h = head.get();
            return h == tail.get() ? -1 : kinds[(int)h & mask];
        }

        Payload peekFrame()
        {
            return frames[(int)head.get() & mask];
        }

        long peekPts()
        {
            return pts[(int)head.get() & mask];
        }

        Object peekInfo()
        {
            return infos[(int)head.get() & mask];
        }

        /** Frees the head slot; the frame in it, if any, was handed to the graph. */
        void consume()
        {
            final long h = head.get();
            final int i = (int)h & mask;
            frames[i] = null;
            infos[i] = null;
            head.set(h + 1);
            final Thread producer = producerWaiting;
            if (producer != null)
            {
                LockSupport.unpark(producer);
            }
        }

        /** Parks the worker until the reader publishes, at most {@code nanos}. */
        void awaitEvent(final long nanos)
        {
            consumerWaiting = Thread.currentThread();
            if (head.get() == tail.get())
            {
                LockSupport.parkNanos(this, nanos);
            }
            consumerWaiting = null;
        }

        /**
         * The {@link StallWatch} thread only: kills ffmpeg if the reader has been blocked in a
         * read for longer than the stall timeout, or ffmpeg has not delivered the stream's header
         * within the connect timeout (opening and probing a live stream takes ffmpeg seconds).
         *
         * @param now {@link System#nanoTime()} of this round.
         */
        void checkStall(final long now)
        {
            final FfmpegProcess child = current;
            if (child == null || stallKilled == child)
            {
                return;
            }
            final long since = demuxer.blockedSinceNanos();
            final boolean streaming = this.streaming;
            if (streaming ? since != 0 && now - since > stallNanos : now - attemptStartNanos > connectNanos)
            {
                stallKilled = child;
                LOG.warn("node '{}' ({}): {} from {} for {} ms: stopping {}", node, NAME,
                    streaming ? "no data" : "no video header", url, (streaming ? stallNanos : connectNanos) / 1_000_000,
                    child);
                child.terminate(STOP_GRACE_MS);
            }
        }

        /**
         * The {@link StallWatch} thread only: applies the recording's retention, every 10 s.
         *
         * @param nowMillis the wall clock.
         */
        void sweep(final long nowMillis)
        {
            final Recording recording = command.recording;
            if (recording != null && nowMillis >= nextSweepMillis)
            {
                nextSweepMillis = nowMillis + 10_000;
                final int deleted = recording.sweep(nowMillis);
                if (deleted > 0)
                {
                    LOG.info("node '{}' ({}): deleted {} recording segment(s) of {} (retention: {})", node, NAME,
                        deleted, recording.dir(), recording.describe());
                }
            }
        }

        /** When a stop's second SIGTERM goes: later for a recording, whose open segment is being finished. */
        private long secondSignalMillis()
        {
            return command.recording != null ? STOP_GRACE_MS / 2 : 1_000;
        }

        /** Stops the reader: no more attempts; ffmpeg asked to finish (killed after the grace time). */
        void stop()
        {
            stopping = true;
            final FfmpegProcess child = current;
            if (child != null)
            {
                child.terminate(STOP_GRACE_MS, secondSignalMillis());
            }
            final Thread t = thread;
            if (t != null)
            {
                LockSupport.unpark(t);
            }
        }

        /** After the reader thread ended: releases frames it published that were never taken. */
        void releaseQueued()
        {
            for (long h = head.get(), t = tail.get(); h < t; h++)
            {
                final Payload frame = frames[(int)h & mask];
                frames[(int)h & mask] = null;
                if (frame != null)
                {
                    frame.release();
                }
            }
            head.set(tail.get());
        }

        /** Any thread, for tests: entries published and not yet consumed (a racy snapshot). */
        int queued()
        {
            return (int)(tail.get() - head.get());
        }

        /** Any thread, for tests: entries the ring holds. */
        int capacity()
        {
            return mask + 1;
        }

        /** Any thread, for tests: whether the reader is parked on a full ring. */
        boolean waitingForRoom()
        {
            return producerWaiting != null;
        }

        /** Any thread, for tests: the ffmpeg running now, if any. */
        ProcessHandle ffmpeg()
        {
            final FfmpegProcess child = current;
            return child == null ? null : child.handle();
        }

        String describe()
        {
            final FfmpegProcess child = current;
            return child == null ? "no ffmpeg running" : child + ", last stderr: " + child.stderrTail();
        }

        // ------------------------------------------------------------ reader side

        @Override
        public void run()
        {
            thread = Thread.currentThread();
            int failures = 0;
            long seekMicros = Long.MIN_VALUE;
            boolean connected = false;
            boolean reportedDown = false;
            while (!stopping)
            {
                attempts++;
                health.onAttempt(attempts);
                final Attempt attempt = new Attempt();
                FfmpegProcess child = null;
                streaming = false;
                attemptStartNanos = System.nanoTime();
                try
                {
                    child = FfmpegProcess.startReading(command.build(seekMicros), "ffmpeg-" + node);
                    current = child;
                    if (stopping)
                    {
                        break;
                    }
                    seekMicros = Long.MIN_VALUE;
                    read(child, attempt);
                }
                catch (final IOException ex)
                {
                    attempt.reason = ex.getMessage();
                }
                catch (final RuntimeException | Error ex)
                {
                    // the pool refused a frame (memory budget) or a bug: the node fails with it
                    attempt.fatal = "node '" + node + "' (" + NAME + ") " + url + ": " + ex;
                }
                finally
                {
                    if (child != null)
                    {
                        attempt.exitCode = finish(child, attempt.clean);
                    }
                    command.forget();
                    current = null;
                }
                if (stopping)
                {
                    break;
                }
                if (attempt.resized && !failOnResize)
                {
                    seekMicros = live ? Long.MIN_VALUE : attempt.lastPtsMicros + 1;
                    failures = 0;
                    continue; // reopen at once; the new size is reported by the next CONNECTED
                }
                final String why = describe(child, attempt, true);
                if (attempt.fatal != null || attempt.resized)
                {
                    publishInfo(FAILED, attempt.fatal != null ? attempt.fatal : why);
                    return;
                }
                if (!live)
                {
                    if (attempt.clean && attempt.exitCode == 0)
                    {
                        publishInfo(END, null);
                    }
                    else
                    {
                        publishInfo(FAILED, "node '" + node + "' (" + NAME + "): reading file " + url + " failed: " +
                            why);
                    }
                    return;
                }
                failures = attempt.frames > 0 ? 0 : failures + 1;
                if (attempt.frames > 0 || attempt.connected)
                {
                    connected = true;
                }
                if (connected || !reportedDown)
                {
                    // one DISCONNECTED per dropout: from connected, or the first failure at start
                    health.onDisconnected();
                    publishInfo(DISCONNECTED, new VideoStatus(VideoStatus.Kind.DISCONNECTED, url, 0, 0, why, attempts));
                    reportedDown = true;
                    connected = false;
                }
                else
                {
                    // ffmpeg's stderr was shown with the dropout; repeats say how many, and the last line
                    final long now = System.nanoTime();
                    if (attemptLog.record(now))
                    {
                        final long count = attemptLog.takeCount();
                        final long window = attemptLog.windowMillis(now);
                        LOG.warn("node '{}' ({}): {} attempt{} to connect to {} failed{} (attempt {}); the last: {}",
                            node, NAME, count, count == 1 ? "" : "s", url, window == 0 ? "" : " in the last " +
                            window / 1000 + " s", attempts, describe(child, attempt, false));
                    }
                }
                if (giveUp > 0 && failures >= giveUp)
                {
                    publishInfo(FAILED, "node '" + node + "' (" + NAME + "): gave up on " + url + " after " + failures +
                        " attempts in a row without a frame (reconnect_give_up " + giveUp + "); last: " + why);
                    return;
                }
                final long delay = Math.min(maxDelayNanos, initialDelayNanos << Math.min(Math.max(failures - 1, 0), 20));
                final long until = System.nanoTime() + Math.max(delay, 0);
                long left;
                while (!stopping && (left = until - System.nanoTime()) > 0)
                {
                    LockSupport.parkNanos(this, left);
                }
            }
        }

        /** One connection: the headers, then frames until the end, an error or a size change. */
        private void read(final FfmpegProcess child, final Attempt attempt) throws IOException
        {
            final NutDemuxer demuxer = this.demuxer;
            demuxer.reset(child.channel());
            if (!demuxer.readHeaders())
            {
                attempt.reason = "ffmpeg wrote no video";
                return;
            }
            final int width = demuxer.width();
            final int height = demuxer.height();
            if (format.planeCount() > 1 && (width & 1) != 0)
            {
                attempt.fatal = "node '" + node + "' (" + NAME + ") " + url + ": the stream is " + width + "x" +
                    height + ", an odd width, which " + format + " frames cannot hold; give an even 'width' " +
                    "option to scale, or use a packed pixel_format";
                return;
            }
            final long frameBytes = format.frameBytes(height, format.minStride(width));
            attempt.connected = true;
            command.forget(); // ffmpeg has read the list: the password leaves the disk
            streaming = true;
            publishInfo(CONNECTED, new VideoStatus(VideoStatus.Kind.CONNECTED, url, width, height,
                width + "x" + height + " " + format + " (ffmpeg time base " + demuxer.timeBase() + ")", attempts));
            while (!stopping)
            {
                final long size = demuxer.nextFrame();
                if (size < 0)
                {
                    attempt.clean = true;
                    attempt.reason = "end of stream";
                    return;
                }
                if (size != frameBytes)
                {
                    attempt.resized = true;
                    attempt.reason = "node '" + node + "' (" + NAME + ") " + url + ": the frame size changed " +
                        "mid-stream from " + width + "x" + height + " " + format + " (" + frameBytes + " B a frame) to " +
                        "a frame of " + size + " B at stream time " + demuxer.ptsMicros() + " us; " +
                        (failOnResize ? "failing (on_resize: fail)" : "reopening (on_resize: reopen)");
                    LOG.warn(attempt.reason);
                    demuxer.skip(size);
                    return;
                }
                final Payload frame = pool.acquireFrame(width, height, format);
                final boolean complete;
                try
                {
                    complete = demuxer.readData(frame.mutableBuffer(), frame.mutableByteBuffer(), (int)frameBytes);
                }
                catch (final IOException | RuntimeException ex)
                {
                    frame.release();
                    throw ex;
                }
                if (!complete)
                {
                    frame.release();
                    attempt.reason = "the stream ended inside a frame";
                    return;
                }
                attempt.frames++;
                health.onFrame(frameBytes, System.nanoTime());
                attempt.lastPtsMicros = demuxer.ptsMicros();
                // ffmpeg's muxer writes a time that went back as the last time + 1 tick: a step
                // no real stream makes (11 us at 90 kHz) unless one tick is its frame interval
                final long ticks = demuxer.pts();
                final long step = ticks - lastTicks;
                final boolean held = attempt.frames > 1 && step == 1 && regularStepTicks > 1;
                if (!held && attempt.frames > 1)
                {
                    regularStepTicks = step;
                }
                lastTicks = ticks;
                if (!publishFrame(frame, attempt.lastPtsMicros, held))
                {
                    frame.release();
                    return;
                }
            }
        }

        /**
         * Ends an attempt's ffmpeg: one that ended its stream is waited for; any other is asked
         * to finish (SIGTERM, so a recording's segment gets its end) while what it still writes
         * is read and dropped (it would block on a full pipe otherwise), and killed if it has not
         * finished within {@link #STOP_GRACE_MS}.
         */
        private int finish(final FfmpegProcess child, final boolean clean)
        {
            if (clean)
            {
                return child.awaitExitOrKill(STOP_GRACE_MS);
            }
            child.terminate(STOP_GRACE_MS, secondSignalMillis());
            ByteBuffer scratch = drain;
            if (scratch == null)
            {
                scratch = ByteBuffer.allocateDirect(64 * 1024); // once per source, on a stop
                drain = scratch;
            }
            try
            {
                while (child.channel().read(scratch.clear()) >= 0)
                {
                    // dropped: the graph is not taking frames any more
                }
            }
            catch (final IOException ex)
            {
                // killed after the grace time (its channel closed): nothing more to read
            }
            final int code = child.awaitExitOrKill(STOP_GRACE_MS);
            if (command.recording != null)
            {
                command.recording.dropEmptyLast();
            }
            return code;
        }

        private String describe(final FfmpegProcess child, final Attempt attempt, final boolean stderrTail)
        {
            final StringBuilder why = new StringBuilder();
            if (child != null && stallKilled == child)
            {
                why.append(attempt.connected ? "stalled: no data for the stall timeout, ffmpeg killed" :
                    "no video within the connect timeout, ffmpeg killed");
            }
            else
            {
                why.append(attempt.reason == null ? "ffmpeg stopped" : attempt.reason);
                if (child != null && attempt.exitCode != 0)
                {
                    why.append(attempt.exitCode > 128 ? "; ffmpeg killed by signal " + (attempt.exitCode - 128) :
                        "; ffmpeg exited with code " + attempt.exitCode);
                }
            }
            if (child != null && stderrTail)
            {
                why.append("; ffmpeg's last stderr lines:\n").append(child.stderrTail());
            }
            else if (child != null && !child.lastStderrLine().isEmpty())
            {
                why.append("; ffmpeg: ").append(child.lastStderrLine());
            }
            return why.toString();
        }

        private boolean publishFrame(final Payload frame, final long ptsMicros, final boolean held)
        {
            final long t = tail.get();
            if (!awaitRoom(t))
            {
                return false;
            }
            final int i = (int)t & mask;
            kinds[i] = held ? HELD_FRAME : FRAME;
            frames[i] = frame;
            pts[i] = ptsMicros;
            infos[i] = null;
            publish(t);
            return true;
        }

        private void publishInfo(final int kind, final Object info)
        {
            final long t = tail.get();
            if (!awaitRoom(t))
            {
                return;
            }
            final int i = (int)t & mask;
            kinds[i] = kind;
            frames[i] = null;
            infos[i] = info;
            publish(t);
        }

        private void publish(final long t)
        {
            tail.set(t + 1); // a volatile write: ordered before the read of consumerWaiting (no lost wake-up)
            final Thread consumer = consumerWaiting;
            if (consumer != null)
            {
                LockSupport.unpark(consumer);
            }
        }

        private boolean awaitRoom(final long t)
        {
            final int capacity = mask + 1;
            while (t - head.get() >= capacity)
            {
                if (stopping)
                {
                    return false;
                }
                producerWaiting = Thread.currentThread();
                if (t - head.get() >= capacity && !stopping)
                {
                    LockSupport.parkNanos(this, MAX_WAIT_NANOS);
                }
                producerWaiting = null;
            }
            return !stopping;
        }
    }

    /**
     * One daemon thread for all the video sources of the JVM ({@code framewire-video-stall}) that
     * looks at each source's reader every {@value #TICK_MILLIS} ms and kills an ffmpeg that has
     * stalled. It is not the node's worker, so a stall is seen while the worker does not call
     * {@code process}: the graph paused, the source held back by a full queue downstream, or a
     * worker busy with other nodes. It runs while a source is open and ends with the last one.
     *
     * <p>Threading: {@link #add} and {@link #remove} from any thread, under the lock; the set is a
     * copied array the watch thread reads under the lock once a round (to end with the last
     * source) and iterates without it, so a round allocates nothing.
     */
    static final class StallWatch
    {
        static final long TICK_MILLIS = 50;
        private static final Object LOCK = new Object();
        private static volatile Reader[] readers = new Reader[0];
        private static Thread thread; // guarded by LOCK

        private StallWatch()
        {
        }

        static void add(final Reader reader)
        {
            synchronized (LOCK)
            {
                final Reader[] old = readers;
                final Reader[] grown = java.util.Arrays.copyOf(old, old.length + 1);
                grown[old.length] = reader;
                readers = grown;
                if (thread == null)
                {
                    final Thread t = new Thread(StallWatch::run, "framewire-video-stall");
                    t.setDaemon(true);
                    thread = t;
                    t.start();
                }
            }
        }

        static void remove(final Reader reader)
        {
            synchronized (LOCK)
            {
                final Reader[] old = readers;
                int n = 0;
                final Reader[] kept = new Reader[old.length];
                for (final Reader r : old)
                {
                    if (r != reader)
                    {
                        kept[n++] = r;
                    }
                }
                readers = java.util.Arrays.copyOf(kept, n);
            }
        }

        private static void run()
        {
            while (true)
            {
                final Reader[] watched;
                synchronized (LOCK)
                {
                    watched = readers;
                    if (watched.length == 0)
                    {
                        thread = null; // the next add starts another
                        return;
                    }
                }
                final long now = System.nanoTime();
                for (final Reader reader : watched)
                {
                    try
                    {
                        reader.checkStall(now);
                        reader.sweep(System.currentTimeMillis());
                    }
                    catch (final RuntimeException ex)
                    {
                        LOG.error("{}: stall check of node '{}' failed", NAME, reader.node, ex);
                    }
                }
                LockSupport.parkNanos(TICK_MILLIS * 1_000_000L);
            }
        }
    }

    /** What one connection attempt did: the reader thread's own. */
    static final class Attempt
    {
        String reason;
        String fatal;
        boolean resized;
        boolean connected;
        boolean clean;
        int exitCode;
        long frames;
        long lastPtsMicros = Long.MIN_VALUE;
    }
}
