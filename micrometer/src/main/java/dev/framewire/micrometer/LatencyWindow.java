package dev.framewire.micrometer;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The percentiles of a {@link Recorder} (a {@code LatencyStampCalculator}'s) over a window: when a
 * meter is read and the window began at least the window interval ago, the packets recorded since the
 * last pull become the window ({@link Recorder#getIntervalHistogram(Histogram)}, which recycles the
 * previous window's histogram: nothing is allocated once both exist). Every percentile of one
 * scrape comes from the same window; an empty window reads as NaN, as a Prometheus summary with no
 * observations does.
 *
 * <p>The recorder's intervals are taken here: nothing else may read the same recorder's intervals,
 * or each would see only part of the packets.
 *
 * <p>Threading: recorded into by the graph's workers (wait-free, the Recorder's own contract);
 * read by any thread, one at a time (this object's monitor, never taken by a worker).
 */
final class LatencyWindow
{
    private final Recorder recorder;
    private final long refreshNanos;
    private Histogram window;
    private long pulledAtNanos;
    private long packets;

    LatencyWindow(final Recorder recorder, final long refreshNanos)
    {
        this.recorder = recorder;
        this.refreshNanos = refreshNanos;
        this.pulledAtNanos = System.nanoTime() - refreshNanos; // the first read pulls
    }

    private void refresh()
    {
        final long now = System.nanoTime();
        if (window == null || now - pulledAtNanos >= refreshNanos)
        {
            window = recorder.getIntervalHistogram(window);
            pulledAtNanos = now;
            packets += window.getTotalCount();
        }
    }

    /** The value at a percentile (0 to 100) of the current window, in nanoseconds, or NaN if it is empty. */
    synchronized double percentileNanos(final double percentile)
    {
        refresh();
        return window.getTotalCount() == 0 ? Double.NaN : window.getValueAtPercentile(percentile);
    }

    /** The largest value of the current window, in nanoseconds, or NaN if it is empty. */
    synchronized double maxNanos()
    {
        refresh();
        return window.getTotalCount() == 0 ? Double.NaN : window.getMaxValue();
    }

    /** Packets recorded so far, up to the current window. */
    synchronized double packets()
    {
        refresh();
        return packets;
    }
}
