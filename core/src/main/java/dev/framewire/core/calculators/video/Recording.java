package dev.framewire.core.calculators.video;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A camera's recording as its video source's ffmpeg writes it: the camera's own stream copied
 * without re-encoding ({@code -c copy}) into segments of about {@code segmentSeconds}, cut at key
 * frames by ffmpeg's segment muxer, each named by the camera and its wall-clock start in UTC
 * and the start of the ffmpeg that wrote it ({@code DIR/cam0/cam0-20261128T134041Z-1795873241123.mp4}: the
 * segment's start to the second, then the ffmpeg's start in epoch milliseconds, so that two ffmpegs
 * of one camera, a reconnect apart, never name a segment alike when both start one in the same
 * second), and the camera's retention: segments older than
 * the age limit, or beyond the size limit (oldest first), are deleted. The segment being written
 * (the newest) is never deleted.
 *
 * <p>Why fragmented MP4: a plain MP4's index ({@code moov}) is written at the end, so an ffmpeg
 * killed before it leaves a file nothing can play. With {@code empty_moov} and a fragment at each
 * key frame ({@code frag_keyframe}, at most every second with {@code frag_duration}), every
 * fragment is playable once written: a kill -9 loses at most the fragment being written.
 * {@code flush_packets=1} writes each fragment to the file as it is done: without it the segment
 * muxer's output buffer holds 256 KB, a second or more of a camera's stream, which a kill -9
 * loses (measured: a segment of 28 bytes after 2.5 s of a 320x240 stream). MPEG-TS
 * ({@code format "ts"}) has no index at all. {@code negative_cts_offsets}: a stream with B-frames
 * keeps its first frame at time 0 without the edit list a fragmented file cannot have.
 *
 * <p>Threading: {@link #outputArgs} on the reader thread; {@link #sweep} on the stall-watch
 * thread; they share nothing mutable.
 */
final class Recording
{
    private static final Logger LOG = LoggerFactory.getLogger(Recording.class);
    /** The fragmented MP4 options: playable up to the last fragment written. */
    static final String MP4_FLAGS = "movflags=+frag_keyframe+empty_moov+default_base_moof+negative_cts_offsets:" +
        "frag_duration=1000000:flush_packets=1";

    private final String node;
    private final Path dir;
    private final double segmentSeconds;
    private final boolean ts;
    private final long keepMillis;
    private final long keepBytes;
    /** The epoch milliseconds in the last ffmpeg's segment names; each ffmpeg gets a later one. */
    private long lastStart;

    /**
     * @param node           the camera's node: its directory and the segments' prefix.
     * @param root           where cameras' directories are.
     * @param segmentSeconds length of a segment.
     * @param format         "mp4" (fragmented) or "ts".
     * @param keepHours      delete segments older than this; 0 keeps them.
     * @param keepMegabytes  keep at most this many MB of the camera's segments; 0 for no limit.
     */
    Recording(final String node, final Path root, final double segmentSeconds, final String format,
        final double keepHours, final long keepMegabytes)
    {
        this.node = node;
        this.dir = root.resolve(node).toAbsolutePath();
        this.segmentSeconds = segmentSeconds;
        this.ts = "ts".equals(format);
        this.keepMillis = (long)(keepHours * 3_600_000L);
        this.keepBytes = keepMegabytes * 1_000_000L;
    }

    /** The camera's directory. */
    Path dir()
    {
        return dir;
    }

    /** The file name extension of a segment, with its dot. */
    String extension()
    {
        return ts ? ".ts" : ".mp4";
    }

    /**
     * Makes the camera's directory.
     *
     * @throws IOException naming it, if it cannot be made.
     */
    void prepare() throws IOException
    {
        Files.createDirectories(dir);
    }

    /**
     * The ffmpeg output that writes the segments: placed after the input, before the source's
     * own output. Called once per ffmpeg started: its segments' names carry the time of this call
     * (later than the last call's), so a restarted ffmpeg never overwrites a segment of the last
     * one, and names still sort by start.
     *
     * @return the arguments.
     */
    List<String> outputArgs()
    {
        final long start = Math.max(System.currentTimeMillis(), lastStart + 1);
        lastStart = start;
        final List<String> c = new ArrayList<>();
        c.add("-map");
        c.add("0:v:0");
        c.add("-c:v");
        c.add("copy");
        c.add("-f");
        c.add("segment");
        c.add("-segment_time");
        c.add(String.format(Locale.ROOT, "%s", segmentSeconds));
        // cut when the wall clock passes a multiple of the length: segments line up with the
        // clock (:00, :10, ...). Each is named by time() at its open, the kernel's coarse clock,
        // a tick behind the one that decides the cut: a key frame a few ms after the second may
        // be named the second before. With segments of 2 s or more that name is still unique
        // (1 s segments then took the last one's name and overwrote it: 47 of 75 frames kept)
        c.add("-segment_atclocktime");
        c.add("1");
        c.add("-reset_timestamps");
        c.add("1");
        c.add("-strftime");
        c.add("1");
        c.add("-segment_format");
        c.add(ts ? "mpegts" : "mp4");
        c.add("-segment_format_options");
        c.add(ts ? "flush_packets=1" : MP4_FLAGS);
        c.add(dir.resolve(node + "-%Y%m%dT%H%M%SZ-" + String.format(Locale.ROOT, "%013d", start) + extension())
            .toString());
        return c;
    }

    /**
     * Deletes what the retention says to; never the newest segment.
     *
     * @param nowMillis the wall clock.
     * @return how many segments were deleted.
     */
    int sweep(final long nowMillis)
    {
        if (keepMillis <= 0 && keepBytes <= 0)
        {
            return 0;
        }
        final List<Path> segments = segments();
        final int n = segments.size();
        final long[] sizes = new long[n];
        final long[] times = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++)
        {
            try
            {
                sizes[i] = Files.size(segments.get(i));
                times[i] = Files.getLastModifiedTime(segments.get(i)).toMillis();
            }
            catch (final IOException ex)
            {
                sizes[i] = 0; // gone meanwhile
                times[i] = nowMillis;
            }
            total += sizes[i];
        }
        int deleted = 0;
        for (int i = 0; i < n - 1; i++) // the newest is being written
        {
            final boolean old = keepMillis > 0 && nowMillis - times[i] > keepMillis;
            final boolean over = keepBytes > 0 && total > keepBytes;
            if (!old && !over)
            {
                break; // names sort by start: the rest are newer
            }
            try
            {
                Files.deleteIfExists(segments.get(i));
                total -= sizes[i];
                deleted++;
            }
            catch (final IOException ex)
            {
                LOG.warn("node '{}': cannot delete the recording segment {} ({}); retention {}", node,
                    segments.get(i), ex.toString(), describe());
            }
        }
        return deleted;
    }

    /**
     * The camera's segments, oldest first (their names sort by their start).
     *
     * @return the paths.
     */
    List<Path> segments()
    {
        final List<Path> found = new ArrayList<>();
        final String ext = extension();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, node + "-*" + ext))
        {
            for (final Path p : stream)
            {
                found.add(p);
            }
        }
        catch (final NoSuchFileException ex)
        {
            return found;
        }
        catch (final IOException ex)
        {
            LOG.warn("node '{}': cannot list the recording directory {}: {}", node, dir, ex.toString());
        }
        found.sort(null);
        return found;
    }

    /**
     * After ffmpeg ended: deletes the newest segment if it holds no frame. ffmpeg stopped by a
     * signal just after it opened a segment leaves one with the file type box alone (28 bytes),
     * which no player opens; it recorded nothing, so nothing is lost.
     *
     * @return whether one was deleted.
     */
    boolean dropEmptyLast()
    {
        final List<Path> segments = segments();
        if (segments.isEmpty() || ts)
        {
            return false;
        }
        final Path last = segments.get(segments.size() - 1);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(last))
        {
            final java.nio.ByteBuffer box = java.nio.ByteBuffer.allocate(8);
            long at = 0;
            final long size = ch.size();
            while (at + 8 <= size)
            {
                box.clear();
                ch.read(box, at);
                final long length = Integer.toUnsignedLong(box.getInt(0));
                final String type = new String(box.array(), 4, 4, java.nio.charset.StandardCharsets.ISO_8859_1);
                if (type.equals("mdat") || type.equals("moof") || type.equals("moov"))
                {
                    return false;
                }
                if (length < 8)
                {
                    break; // a 64-bit or to-the-end box: not the lone header this looks for
                }
                at += length;
            }
            Files.delete(last);
            LOG.info("node '{}': deleted {}, a segment ffmpeg opened as it stopped and wrote no frame to", node, last);
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    String describe()
    {
        return (keepMillis > 0 ? String.format(Locale.ROOT, "%.3g h", keepMillis / 3_600_000.0) : "no age limit") +
            ", " + (keepBytes > 0 ? keepBytes / 1_000_000 + " MB" : "no size limit");
    }

    @Override
    public String toString()
    {
        return dir + "/" + node + "-<UTC start>-<ffmpeg start ms>" + extension() + " (" + segmentSeconds + " s segments, copied; " +
            "keep: " + describe() + ")";
    }
}
