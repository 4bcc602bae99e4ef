package dev.framewire.remote;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import io.aeron.Image;
import io.aeron.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static dev.framewire.remote.AeronSubscriberCalculator.JOURNAL_NOTE;

/**
 * What an {@link AeronSubscriberCalculator} tells of its stream's troubles: the messages it
 * rejects and the packets that never arrived (by the gaps in the sequence numbers), counted, each
 * kind reported at once and then at most once a second with the count so far, in the log, the
 * journal, a JFR event and a {@link RemoteStatus} on the optional {@code STATUS} output.
 *
 * <p>Threading: the subscriber's worker, while it is called ({@link #ctx} set); the counters are
 * volatile (written on the rare path) for the report line.
 */
final class SubscriberReports
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronSubscriberCalculator.class);
    static final long REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    String node;
    String channel;
    int streamId;
    Output data;
    Output status;
    Subscription subscription;
    /** The call's context, null between calls. */
    CalculatorContext ctx;
    /** Messages that failed authentication; volatile (written on the rare path) for the report line. */
    volatile long forged;
    /** Authentic messages replayed, or too old for a publisher run not seen before; volatile. */
    volatile long replayed;
    /** Messages rejected so far; volatile (written on the rare path) for the report line. */
    volatile long rejected;
    long reportedRejected;
    private long lastReportNanos;
    private String lastRejection;
    private String lastRejectionSource;
    /** Packets that never arrived so far, by the sequence gaps; volatile for the report line. */
    volatile long lost;
    long reportedLost;
    private long lastGapReportNanos;
    private String lastGap;
    private String lastGapSource;

    /** A new run's stream and outputs, every count at 0. */
    void reset(final String node, final String channel, final int streamId, final Output data, final Output status)
    {
        this.node = node;
        this.channel = channel;
        this.streamId = streamId;
        this.data = data;
        this.status = status;
        forged = 0;
        replayed = 0;
        rejected = 0;
        reportedRejected = 0;
        lost = 0;
        reportedLost = 0;
    }

    /** Reports what the rhythm held back, once its second is over ({@code all}: whatever the rhythm). */
    void reportDue(final boolean all)
    {
        if (rejected > reportedRejected && (all || ctx.nanoTime() - lastReportNanos >= REPORT_INTERVAL_NANOS))
        {
            reportRejections(ctx.nanoTime());
        }
        if (lost > reportedLost && (all || ctx.nanoTime() - lastGapReportNanos >= REPORT_INTERVAL_NANOS))
        {
            reportGaps(ctx.nanoTime());
        }
    }

    /** Counts and reports the packets a message's sequence number says never arrived. */
    void checkSequence(final int session, final SubscriberSession state, final long sequence, final boolean packet)
    {
        final long expected = state.nextSequence;
        if (expected < 0 ? sequence > 0 : sequence > expected)
        {
            final long missing = expected < 0 ? sequence : sequence - expected;
            lost += missing;
            lastGap = expected < 0 ?
                "joined mid-stream: the publisher's first " + missing + " packets (or those it dropped) never reached " +
                    "this receiver" :
                missing + " packets (sequence " + expected + " to " + (sequence - 1) + ") never arrived: dropped by " +
                    "the publisher (policy DROP), or lost with a receiver restart";
            lastGapSource = sourceOf(session);
            final long now = ctx.nanoTime();
            if (reportedLost == 0 || now - lastGapReportNanos >= REPORT_INTERVAL_NANOS)
            {
                reportGaps(now);
            }
        }
        state.nextSequence = packet ? sequence + 1 : sequence;
    }

    void reportGaps(final long now)
    {
        final long since = lost - reportedLost;
        reportedLost = lost;
        lastGapReportNanos = now;
        LOG.warn("node '{}': {} packet{} from {} on {} stream id {} never arrived ({} in all), the last gap: {}", node,
            since, since == 1 ? "" : "s", lastGapSource, channel, streamId, lost, lastGap);
        emitStatus(RemoteStatus.Kind.GAP, lastGapSource, lastGap);
    }

    void reject(final int session, final String why)
    {
        reject(session, Timestamp.UNSET, why);
    }

    void reject(final int session, final long timestamp, final String why)
    {
        // a rejection already allocates its text; its note lets a post-mortem count it against the session
        ctx.journalNote(timestamp, session, JOURNAL_NOTE + "session " + session + " rejected: " + why);
        ctx.countDrop();
        rejected++;
        lastRejection = why;
        lastRejectionSource = sourceOf(session);
        final long now = ctx.nanoTime();
        if (reportedRejected == 0 || now - lastReportNanos >= REPORT_INTERVAL_NANOS)
        {
            reportRejections(now);
        }
    }

    void reportRejections(final long now)
    {
        final long since = rejected - reportedRejected;
        reportedRejected = rejected;
        lastReportNanos = now;
        LOG.warn("node '{}': rejected {} message{} from {} on {} stream id {} ({} in all), the last: {}", node, since,
            since == 1 ? "" : "s", lastRejectionSource, channel, streamId, rejected, lastRejection);
        emitStatus(RemoteStatus.Kind.REJECTED, lastRejectionSource, lastRejection);
    }

    String sourceOf(final int session)
    {
        final Image image = subscription.imageBySessionId(session);
        return "session " + session + (image == null ? "" : " from " + image.sourceIdentity());
    }

    void emitStatus(final RemoteStatus.Kind kind, final String source, final String reason)
    {
        RemoteStreamEvent.emit(node, channel, streamId, kind.name().toLowerCase(Locale.ROOT), source, reason,
            rejected, lost);
        final Output status = this.status;
        if (status == null)
        {
            return;
        }
        final long ts = Math.max(status.nextTimestampBound(),
            Math.max(0, Timestamp.previousAllowedInStream(data.nextTimestampBound())));
        if (ts <= Timestamp.MAX)
        {
            status.add(new RemoteStatus(kind, source, reason, rejected, lost), ts);
        }
    }
}
