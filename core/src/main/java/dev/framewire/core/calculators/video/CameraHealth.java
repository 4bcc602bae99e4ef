package dev.framewire.core.calculators.video;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What an operator watches of one camera ({@link VideoSourceCalculator} node) while it runs: its
 * state, frames and bytes read, reconnections, and the age of its last frame. A metrics binder
 * (the CLI's {@code --metrics-port}) reads it; the source writes it.
 *
 * <p>Every open video source of the JVM is listed in {@link #open()} from its {@code open} to its
 * {@code close}; a process running several graphs tells them apart by {@link #node()}.
 *
 * <p>Threading: written by the source's reader thread only (single writer, volatile fields);
 * read from any thread.
 */
public final class CameraHealth
{
    /** Where a camera is. */
    public enum State
    {
        /** ffmpeg started, no frame yet. */
        CONNECTING,
        /** Frames flow. */
        STREAMING,
        /** The stream dropped; the source is reconnecting with backoff. */
        DISCONNECTED,
        /** The source ended (a file's end, a failure, or the run's end). */
        STOPPED
    }

    private static final CopyOnWriteArrayList<CameraHealth> OPEN = new CopyOnWriteArrayList<>();

    private final String node;
    private final String url;
    private volatile State state = State.CONNECTING;
    private volatile long frames;
    private volatile long bytes;
    private volatile long reconnects;
    private volatile long lastFrameNanos;

    CameraHealth(final String node, final String url)
    {
        this.node = node;
        this.url = url;
    }

    /**
     * The video sources open now in this JVM.
     *
     * @return a snapshot.
     */
    public static List<CameraHealth> open()
    {
        return List.copyOf(OPEN);
    }

    void register()
    {
        OPEN.add(this);
    }

    void unregister()
    {
        state = State.STOPPED;
        OPEN.remove(this);
    }

    /** @return the source's node name. */
    public String node()
    {
        return node;
    }

    /** @return its url, password masked. */
    public String url()
    {
        return url;
    }

    /** @return where it is. */
    public State state()
    {
        return state;
    }

    /** @return frames read since the run started. */
    public long frames()
    {
        return frames;
    }

    /** @return bytes of frames read since the run started (decoded, as the pipe carries them). */
    public long bytes()
    {
        return bytes;
    }

    /** @return connection attempts after the first. */
    public long reconnects()
    {
        return reconnects;
    }

    /**
     * How old the last frame is.
     *
     * @param nowNanos {@link System#nanoTime()}.
     * @return seconds since the last frame was read, or NaN before the first.
     */
    public double frameAgeSeconds(final long nowNanos)
    {
        final long last = lastFrameNanos;
        return last == 0 ? Double.NaN : (nowNanos - last) / 1e9;
    }

    // ------------------------------------------------------------ the reader thread

    void onAttempt(final int attempt)
    {
        reconnects = Math.max(0, attempt - 1);
        if (state != State.DISCONNECTED)
        {
            state = State.CONNECTING;
        }
    }

    void onFrame(final long frameBytes, final long nowNanos)
    {
        frames = frames + 1; // the only writer
        bytes = bytes + frameBytes;
        lastFrameNanos = nowNanos;
        if (state != State.STREAMING)
        {
            state = State.STREAMING;
        }
    }

    void onDisconnected()
    {
        state = State.DISCONNECTED;
    }

    void onStopped()
    {
        state = State.STOPPED;
    }
}
