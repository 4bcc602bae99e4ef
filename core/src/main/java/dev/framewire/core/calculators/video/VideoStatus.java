package dev.framewire.core.calculators.video;

/**
 * A packet on a video source's {@code STATUS} stream: the camera connected (with the frame size
 * ffmpeg delivers) or disconnected (with why, including ffmpeg's last stderr line). Emitted only
 * when the state changes, so a consumer sees one {@code DISCONNECTED} per dropout however many
 * reconnection attempts it takes.
 */
public final class VideoStatus
{
    /** What happened. */
    public enum Kind
    {
        /** Frames flow: ffmpeg opened the stream and wrote its header. */
        CONNECTED,
        /** The stream dropped, stalled, failed to open, or ffmpeg died; the source reconnects. */
        DISCONNECTED
    }

    private final Kind kind;
    private final String url;
    private final int width;
    private final int height;
    private final String reason;
    private final int attempt;

    VideoStatus(final Kind kind, final String url, final int width, final int height, final String reason,
        final int attempt)
    {
        this.kind = kind;
        this.url = url;
        this.width = width;
        this.height = height;
        this.reason = reason;
        this.attempt = attempt;
    }

    /** @return connected or disconnected. */
    public Kind kind()
    {
        return kind;
    }

    /** @return the source's url. */
    public String url()
    {
        return url;
    }

    /** @return frame width delivered, for CONNECTED; 0 otherwise. */
    public int width()
    {
        return width;
    }

    /** @return frame height delivered, for CONNECTED; 0 otherwise. */
    public int height()
    {
        return height;
    }

    /** @return why, for DISCONNECTED; the size and format in words for CONNECTED. */
    public String reason()
    {
        return reason;
    }

    /** @return the connection attempt, counted from 1 at the start of the run. */
    public int attempt()
    {
        return attempt;
    }

    @Override
    public String toString()
    {
        return kind + " " + url + " (attempt " + attempt + "): " + reason;
    }
}
