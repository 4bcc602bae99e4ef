package dev.framewire.core.calculators.video;

import dev.framewire.core.internal.log.RateLimitedLog;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * A video source's reader thread ({@code framewire-video-NODE}): runs ffmpeg, reads its frames
 * into pooled payloads and publishes them, with connection events, into the {@link SourceRing}
 * the node's worker drains. Owns the child process; reconnects a live source with
 * {@link Reconnect}'s backoff. See {@link VideoSourceCalculator} for what the events mean.
 *
 * <p>Threading: {@link #run} on the reader thread; {@link #checkStall} and {@link #sweep} on the
 * {@link StallWatch} thread; {@link #stop} from the worker (or any thread); the test queries from
 * any thread (racy snapshots). The fields other threads read are volatile.
 */
final class SourceReader implements Runnable
{
    private static final Logger LOG = LoggerFactory.getLogger(VideoSourceCalculator.class);
    private static final String NAME = "VideoSourceCalculator";
    /** At most one line per this about failed connection attempts in a row. */
    private static final long ATTEMPT_LOG_NANOS = 30_000_000_000L;

    private final String node;
    private final String url;
    private final boolean live;
    private final SourceCommand command;
    private final PixelFormat format;
    private final PayloadPool pool;
    private final Reconnect reconnect;
    private final boolean failOnResize;
    private final long stallNanos;
    private final long connectNanos;
    private final NutDemuxer demuxer = new NutDemuxer();
    private final RateLimitedLog attemptLog = new RateLimitedLog(ATTEMPT_LOG_NANOS);
    /** What the worker drains. */
    final SourceRing ring;
    /** What the operator's metrics read. */
    final CameraHealth health;
    private ByteBuffer drain;
    private long nextSweepMillis;

    private volatile boolean stopping;
    private volatile FfmpegProcess current;
    private volatile FfmpegProcess stallKilled;
    private volatile long attemptStartNanos;
    private volatile boolean streaming;
    private volatile Thread thread;
    private long lastTicks;
    private long regularStepTicks;
    private int attempts;
    /** Whether the last attempt got a stream (the next dropout is reported), and whether the source was reported down. */
    private boolean connected;
    private boolean reportedDown;

    /**
     * A reader.
     *
     * @param node         the node's name, for messages.
     * @param url          the url, its password masked, for messages.
     * @param live         whether the url is live (reconnected) rather than a file (ended).
     * @param command      ffmpeg's command.
     * @param pool         the graph's pool, for frames.
     * @param queueFrames  frames read ahead of the graph.
     * @param reconnect    the backoff.
     * @param failOnResize whether a size change fails the node rather than reopening.
     * @param stallNanos   a streaming ffmpeg silent this long is killed.
     * @param connectNanos an ffmpeg without a stream header this long after it started is killed.
     */
    SourceReader(final String node, final String url, final boolean live, final SourceCommand command,
        final PayloadPool pool, final int queueFrames, final Reconnect reconnect, final boolean failOnResize,
        final long stallNanos, final long connectNanos)
    {
        this.node = node;
        this.url = url;
        this.live = live;
        this.command = command;
        this.format = command.format;
        this.pool = pool;
        this.reconnect = reconnect;
        this.failOnResize = failOnResize;
        this.stallNanos = stallNanos;
        this.connectNanos = connectNanos;
        this.health = new CameraHealth(node, url);
        // connection events need slots besides the frames
        this.ring = new SourceRing(queueFrames);
    }

    String node()
    {
        return node;
    }

    // ------------------------------------------------------------ other threads

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
            terminate(child);
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

    /** Stops the reader: no more attempts; ffmpeg asked to finish (killed after the grace time). */
    void stop()
    {
        stopping = true;
        ring.stop();
        final FfmpegProcess child = current;
        if (child != null)
        {
            terminate(child);
        }
        final Thread t = thread;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    /** Any thread, for tests: entries published and not yet consumed (a racy snapshot). */
    int queued()
    {
        return ring.queued();
    }

    /** Any thread, for tests: entries the ring holds. */
    int capacity()
    {
        return ring.capacity();
    }

    /** Any thread, for tests: whether the reader is parked on a full ring. */
    boolean waitingForRoom()
    {
        return ring.waitingForRoom();
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

    /**
     * How long a stop gives ffmpeg before it is killed: {@link VideoSourceCalculator#STOP_GRACE_MS},
     * and for a recording also its input's read timeout, since a silent camera's read ends only then.
     */
    long stopGraceMillis()
    {
        return VideoSourceCalculator.STOP_GRACE_MS + command.readTimeoutMillis();
    }

    /**
     * Asks ffmpeg to finish, killed after {@link #stopGraceMillis()}. One that records gets one
     * SIGTERM only: a second would trip ffmpeg's interrupt callback, which also fails the writes
     * that finish the open segment; its read of a silent camera ends by its read timeout instead
     * ({@link SourceCommand#readTimeoutMillis()}). One that does not record gets its second after
     * a second, which ends such a read at once.
     */
    private void terminate(final FfmpegProcess child)
    {
        child.terminate(stopGraceMillis(), command.recording != null ? 0 : 1_000);
    }

    // ------------------------------------------------------------ the reader thread

    @Override
    public void run()
    {
        thread = Thread.currentThread();
        long seekMicros = Long.MIN_VALUE;
        while (!stopping)
        {
            final Attempt attempt = new Attempt();
            final FfmpegProcess child = attempt(attempt, seekMicros);
            if (stopping)
            {
                break;
            }
            if (attempt.resized && !failOnResize)
            {
                seekMicros = live ? Long.MIN_VALUE : attempt.lastPtsMicros + 1;
                reconnect.reset();
                continue; // reopen at once; the new size is reported by the next CONNECTED
            }
            seekMicros = Long.MIN_VALUE;
            if (!afterAttempt(child, attempt))
            {
                return;
            }
            final long until = System.nanoTime() + reconnect.delayNanos();
            long left;
            while (!stopping && (left = until - System.nanoTime()) > 0)
            {
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /**
     * One connection attempt: starts ffmpeg, reads its stream, ends it.
     *
     * @return the ffmpeg it ran, or null if none started.
     */
    private FfmpegProcess attempt(final Attempt attempt, final long seekMicros)
    {
        attempts++;
        health.onAttempt(attempts);
        FfmpegProcess child = null;
        streaming = false;
        attemptStartNanos = System.nanoTime();
        try
        {
            child = FfmpegProcess.startReading(command.build(seekMicros), "ffmpeg-" + node);
            current = child;
            if (!stopping)
            {
                read(child, attempt);
            }
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
        return child;
    }

    /**
     * What follows an attempt that ended: the end of a file, a failure, or a dropout of a live
     * source, reported once (repeated failures rate-limited).
     *
     * @return true to try again after the backoff, false when the reader is done.
     */
    private boolean afterAttempt(final FfmpegProcess child, final Attempt attempt)
    {
        final String why = describe(child, attempt, true);
        if (attempt.fatal != null || attempt.resized)
        {
            ring.publishInfo(SourceRing.FAILED, attempt.fatal != null ? attempt.fatal : why);
            return false;
        }
        if (!live)
        {
            if (attempt.clean && attempt.exitCode == 0)
            {
                ring.publishInfo(SourceRing.END, null);
            }
            else
            {
                ring.publishInfo(SourceRing.FAILED, "node '" + node + "' (" + NAME + "): reading file " + url +
                    " failed: " + why);
            }
            return false;
        }
        reconnect.attemptEnded(attempt.frames);
        if (attempt.frames > 0 || attempt.connected)
        {
            connected = true;
        }
        reportDropout(child, attempt, why);
        if (reconnect.givesUp())
        {
            ring.publishInfo(SourceRing.FAILED, "node '" + node + "' (" + NAME + "): gave up on " + url + " after " +
                reconnect.failures() + " attempts in a row without a frame (reconnect_give_up " +
                reconnect.giveUpAfter() + "); last: " + why);
            return false;
        }
        return true;
    }

    /** One DISCONNECTED per dropout (from connected, or the first failure at start); repeats rate-limited. */
    private void reportDropout(final FfmpegProcess child, final Attempt attempt, final String why)
    {
        if (connected || !reportedDown)
        {
            health.onDisconnected();
            ring.publishInfo(SourceRing.DISCONNECTED,
                new VideoStatus(VideoStatus.Kind.DISCONNECTED, url, 0, 0, why, attempts));
            reportedDown = true;
            connected = false;
            return;
        }
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
        ring.publishInfo(SourceRing.CONNECTED, new VideoStatus(VideoStatus.Kind.CONNECTED, url, width, height,
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
                resized(attempt, width, height, frameBytes, size);
                return;
            }
            if (!readFrame(attempt, width, height, (int)frameBytes))
            {
                return;
            }
        }
    }

    /** A frame of another size than the stream header's: never emitted; the attempt ends. */
    private void resized(final Attempt attempt, final int width, final int height, final long frameBytes,
        final long size) throws IOException
    {
        attempt.resized = true;
        attempt.reason = "node '" + node + "' (" + NAME + ") " + url + ": the frame size changed " +
            "mid-stream from " + width + "x" + height + " " + format + " (" + frameBytes + " B a frame) to " +
            "a frame of " + size + " B at stream time " + demuxer.ptsMicros() + " us; " +
            (failOnResize ? "failing (on_resize: fail)" : "reopening (on_resize: reopen)");
        LOG.warn(attempt.reason);
        demuxer.skip(size);
    }

    /**
     * Reads one frame's data into a pooled frame and publishes it.
     *
     * @return false if the attempt ends: the stream ended inside the frame, or the source stops.
     */
    private boolean readFrame(final Attempt attempt, final int width, final int height, final int frameBytes)
        throws IOException
    {
        final Payload frame = pool.acquireFrame(width, height, format);
        final boolean complete;
        try
        {
            complete = demuxer.readData(frame.mutableBuffer(), frame.mutableByteBuffer(), frameBytes);
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
            return false;
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
        if (!ring.publishFrame(frame, attempt.lastPtsMicros, held))
        {
            frame.release();
            return false;
        }
        return true;
    }

    /**
     * Ends an attempt's ffmpeg: one that ended its stream is waited for; any other is asked
     * to finish (SIGTERM, so a recording's segment gets its end) while what it still writes
     * is read and dropped (it would block on a full pipe otherwise), and killed if it has not
     * finished within {@link #stopGraceMillis()}.
     */
    private int finish(final FfmpegProcess child, final boolean clean)
    {
        if (clean)
        {
            return child.awaitExitOrKill(VideoSourceCalculator.STOP_GRACE_MS);
        }
        terminate(child);
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
        final int code = child.awaitExitOrKill(VideoSourceCalculator.STOP_GRACE_MS);
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
