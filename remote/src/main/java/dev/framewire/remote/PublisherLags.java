package dev.framewire.remote;

import io.aeron.AeronCounters;
import io.aeron.Image;
import io.aeron.driver.status.StreamCounter;
import org.agrona.concurrent.status.CountersReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * How far each publisher connected to an {@link AeronSubscriberCalculator} is ahead of it, from
 * the driver's own counters, and whether one is {@code BEHIND}: the subscriber looks once a call
 * ({@link #check}), the report line reads racily ({@link #lags()}, {@link #peak()},
 * {@link #behindEpisodes()}).
 *
 * <p>Threading: the subscriber's worker adds, removes and checks; the reporting thread reads the
 * volatile array and counters.
 */
final class PublisherLags
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronSubscriberCalculator.class);
    private static final VarHandle LAG_PEAK;

    static
    {
        try
        {
            LAG_PEAK = MethodHandles.lookup().findVarHandle(PublisherLags.class, "lagPeak", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** What a look finds: a publisher that became {@code BEHIND} or {@code CAUGHT_UP}. */
    interface Listener
    {
        /**
         * A publisher's lag changed state.
         *
         * @param kind BEHIND or CAUGHT_UP.
         * @param lag  the publisher's lag.
         * @param why  the figures, in words.
         */
        void onLag(RemoteStatus.Kind kind, Lag lag, String why);
    }

    /** {@code behind_bytes}, 0 for the default by transport (see {@link Lag}). */
    private long behindBytes;
    private long behindNanos;
    /**
     * Each connected publisher's lag; replaced (never changed in place) only when an image comes or
     * goes, volatile so that the report line sees a whole array.
     */
    private volatile Lag[] lags = new Lag[0];
    /** The most bytes any publisher was seen ahead of this subscriber, in the worker's looks; opaque. */
    private long lagPeak;
    /** Times a publisher became {@code BEHIND}; volatile (a rare write) for the report line. */
    private volatile long behindEpisodes;

    /** Forgets every publisher and figure; a new run's {@code behind_bytes} and {@code behind_ms}. */
    void reset(final long behindBytes, final long behindNanos)
    {
        this.behindBytes = behindBytes;
        this.behindNanos = behindNanos;
        lags = new Lag[0];
        LAG_PEAK.setOpaque(this, 0L);
        behindEpisodes = 0;
    }

    /** The publishers' lags now: a whole array, any thread. */
    Lag[] lags()
    {
        return lags;
    }

    /** The most bytes a publisher was seen ahead, any thread (opaque). */
    long peak()
    {
        return (long)LAG_PEAK.getOpaque(this);
    }

    /** Times a publisher became {@code BEHIND}, any thread. */
    long behindEpisodes()
    {
        return behindEpisodes;
    }

    /**
     * Once a call: how far each publisher is ahead of this subscriber, from the driver's own
     * counters (two volatile loads an image, nothing allocated). A lag that stays at or above the
     * threshold in every look for {@code behind_ms} is reported once as {@link RemoteStatus.Kind#BEHIND};
     * the first look below it then reports {@link RemoteStatus.Kind#CAUGHT_UP}. A subscriber that is
     * not called (the queue it feeds is full) is not looked at: the look after counts from the first.
     */
    void check(final long now, final CountersReader counters, final Listener listener)
    {
        for (final Lag lag : lags)
        {
            if (lag.counterId < 0)
            {
                continue;
            }
            final long bytes = lag.bytes(counters);
            if (bytes > lagPeak)
            {
                LAG_PEAK.setOpaque(this, bytes);
            }
            if (bytes >= lag.threshold)
            {
                if (lag.since < 0)
                {
                    lag.since = now;
                    lag.max = bytes;
                }
                else
                {
                    lag.max = Math.max(lag.max, bytes);
                    if (!lag.behind && now - lag.since >= behindNanos)
                    {
                        lag.behind = true;
                        behindEpisodes++; // the only writer
                        listener.onLag(RemoteStatus.Kind.BEHIND, lag, bytes + " bytes behind the publisher, at least " +
                            lag.threshold + " for " + TimeUnit.NANOSECONDS.toMillis(now - lag.since) + " ms (at most " +
                            lag.max + "); downstream does not take the stream as fast as it comes");
                    }
                }
            }
            else if (lag.since >= 0)
            {
                if (lag.behind)
                {
                    listener.onLag(RemoteStatus.Kind.CAUGHT_UP, lag, "caught up after " +
                        TimeUnit.NANOSECONDS.toMillis(now - lag.since) + " ms behind, at most " + lag.max + " bytes");
                }
                lag.since = -1;
                lag.behind = false;
            }
        }
    }

    /**
     * An image that came: finds the driver's counter of how far its publisher got, the receiver's
     * high-water mark over UDP ({@code rcv-hwm}) or the publication's position over IPC
     * ({@code pub-pos}), keyed by session and stream id as the driver labels them. Rare: allocates.
     */
    void add(
        final Image image, final String source, final String channel, final int streamId,
        final CountersReader counters, final String node)
    {
        final boolean ipc = channel.startsWith("aeron:ipc");
        final int type = ipc ? AeronCounters.DRIVER_PUBLISHER_POS_TYPE_ID : AeronCounters.DRIVER_RECEIVER_HWM_TYPE_ID;
        final int[] found = {-1, -1};
        counters.forEach((counterId, typeId, key, label) ->
        {
            if (typeId == type && key.getInt(StreamCounter.SESSION_ID_OFFSET) == image.sessionId() &&
                key.getInt(StreamCounter.STREAM_ID_OFFSET) == streamId)
            {
                found[key.getLong(StreamCounter.REGISTRATION_ID_OFFSET) == image.correlationId() ? 0 : 1] = counterId;
            }
        });
        // the receiver's counters carry the image's registration; a publication's (IPC) its own
        final int counterId = found[0] >= 0 ? found[0] : found[1];
        // half of what a publisher may get ahead by default before flow control stops it: Aeron's
        // receiver window over UDP (128 KiB), half the term over IPC
        final long threshold = behindBytes != 0 ? behindBytes : ipc ? image.termBufferLength() / 4 : 64 * 1024;
        final Lag[] more = Arrays.copyOf(lags, lags.length + 1);
        more[lags.length] = new Lag(image, source, counterId, threshold);
        lags = more;
        if (counterId < 0)
        {
            LOG.info("node '{}': no driver counter found for {}: its lag is not watched", node, source);
        }
    }

    void remove(final int session)
    {
        lags = Arrays.stream(lags).filter(l -> l.image.sessionId() != session).toArray(Lag[]::new);
    }

    /**
     * How far one publisher is ahead of this subscriber (see {@link #check}). Threshold by
     * default: half of what flow control lets a publisher get ahead by default, 64 KiB over UDP (of
     * Aeron's 128 KiB receiver window) and a quarter of the term over IPC (of its half-term window).
     */
    static final class Lag
    {
        final Image image;
        final String source;
        final int counterId;
        final long threshold;
        /** When the lag was first seen at or above the threshold in this run of looks; -1 when below. */
        long since = -1;
        long max;
        /** Written by the worker, read racily by the report line. */
        volatile boolean behind;

        Lag(final Image image, final String source, final int counterId, final long threshold)
        {
            this.image = image;
            this.source = source;
            this.counterId = counterId;
            this.threshold = threshold;
        }

        /** How far the publisher is ahead now: two volatile loads, any thread while the client is open. */
        long bytes(final CountersReader counters)
        {
            return counterId < 0 ? 0 : counters.getCounterValue(counterId) - image.position();
        }
    }
}
