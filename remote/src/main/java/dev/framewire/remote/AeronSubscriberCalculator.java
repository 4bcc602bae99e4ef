package dev.framewire.remote;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A source that gives back, as its output stream, the stream an {@link AeronPublisherCalculator}
 * publishes to an Aeron channel and stream id: each packet at the sender's timestamp, the sender's
 * timestamp bounds (so a join downstream settles timestamps with nothing on this stream as it
 * would with the stream local), and the stream's close, after which the source stops.
 *
 * <p>Payloads are reassembled from Aeron's fragments straight into one pooled off-heap payload,
 * a frame with the sender's width, height, stride and format, or bytes: one copy, from Aeron's log
 * buffer into the pool, and nothing on the heap. A call emits at most the graph's shipment (its
 * {@code max_shipment_size} packets, {@code max_shipment_bytes}); what is left waits in Aeron's
 * log, and while the queue this source feeds is full the source is not called, so a slow consumer
 * back-pressures the publisher through Aeron's flow control.
 *
 * <p>Bad input never fails the run: a message with another magic, header version or stream id, of
 * an unknown type or kind, truncated or overlong, a frame whose shape does not match its length, a
 * timestamp below the stream's bound (a second or restarted publisher), fragments of a message
 * whose start was missed (joined mid-message): each is dropped, counted
 * ({@link dev.framewire.core.Graph#dropCount(String)}, the graph report) and reported, the first
 * at once and then at most once a second with the count so far, in the log and as a
 * {@link RemoteStatus} on the optional {@code STATUS} output. A publisher that connects or goes
 * away (its image unavailable: closed, or silent past Aeron's liveness timeout, 10 s by default) is
 * reported the same way. Packets that never arrived (dropped by a publisher under {@code DROP}, or
 * sent before this receiver joined or while it was down) are counted by the gaps in the messages'
 * sequence numbers and reported as a {@link RemoteStatus.Kind#GAP}, with the count so far, in the
 * same rhythm. A publisher that stays more than {@code behind_bytes} ahead of this subscriber for
 * {@code behind_ms} (from the driver's counters, read each call) is reported as
 * {@link RemoteStatus.Kind#BEHIND}, and {@link RemoteStatus.Kind#CAUGHT_UP} when it no longer is.
 * Every report is also a JFR event, {@code dev.framewire.RemoteStream}. The graph report
 * ({@link dev.framewire.core.Graph#report()}) has a line under the node with the counts: publishers
 * connected, bytes behind now (read when the report is made, so also while a full queue keeps this
 * source from being called) and at most, whether it is behind now and how many times it was, packets
 * that never arrived, messages rejected.
 * {@code publisher_lost} says what a loss without a CLOSE message does: {@code WAIT} (the default)
 * keeps the stream open for a publisher to come back (its timestamps must then continue above the
 * bound), {@code CLOSE} closes it.
 *
 * <p>Streams: one untagged output (the remote stream) and an optional output tagged
 * {@code STATUS}. Options: {@code channel} ({@code aeron:ipc}; for UDP the receiver's endpoint,
 * e.g. {@code aeron:udp?endpoint=127.0.0.1:40123}), {@code stream_id} (1001), {@code wait_ms} (10:
 * how long a call waits for a message before returning, so give the source an executor of its
 * own, as a camera), {@code idle_strategy} (how it waits: BACKOFF, the default, spins, yields,
 * then parks up to 1 ms, which a message may then wait to be seen; YIELD and BUSY_SPIN for low
 * latency, on a core to spare), {@code publisher_lost} (WAIT), and the
 * driver's ({@code aeron_dir}, {@code driver_threading}, see {@link RemoteCalculators}).
 *
 * <p>The parts, package-private: {@link MessageAssembler} decodes, authenticates (against replays
 * with a {@link ReplayWindow}), reassembles ({@link SubscriberSession}) and delivers;
 * {@link SubscriberReports} counts and reports rejections and gaps; {@link PublisherLags} watches
 * how far each publisher is ahead.
 *
 * <p>Threading: the node's worker, one call at a time, polls and reassembles; Aeron's client
 * conductor thread only queues image events, which the worker takes at its next call. The report
 * line runs on the reporting thread: it reads volatile or opaque counters, and the driver's counters
 * under a lock {@code close} takes (briefly) before it frees them.
 */
public final class AeronSubscriberCalculator implements Calculator, ControlledFragmentHandler
{
    /** Registered name. */
    public static final String NAME = "AeronSubscriberCalculator";
    /**
     * How the journal NOTEs a subscriber writes when a publisher connects or goes begin (their value
     * is the publisher's Aeron session id): {@code remote subscriber: session S connected, stream id
     * N, channel C, from SOURCE} and {@code remote subscriber: session S gone, ...: WHY}; and one per
     * message it rejects, {@code remote subscriber: session S rejected: WHY}, at the message's
     * timestamp when it has one (UNSET otherwise), so that a post-mortem counts per link what was
     * sent, received and rejected.
     */
    public static final String JOURNAL_NOTE = "remote subscriber: ";

    private static final Logger LOG = LoggerFactory.getLogger(AeronSubscriberCalculator.class);
    private static final int FRAGMENT_LIMIT = 16;
    /**
     * Fragments one call takes at most, so that a publisher sending bounds (or fragments of one huge
     * payload) as fast as it can still lets the call return and what it moved flow downstream. A
     * payload's reassembly goes on in the next call; a 720p GRAY8 frame at Aeron's default MTU is
     * about 670 fragments, a 1080p RGBA one about 6,000.
     */
    private static final int MAX_FRAGMENTS_PER_CALL = 4096;

    private IdleStrategy idle;
    /** Image events from Aeron's conductor thread; rare, so a linked queue's allocation is fine. */
    private final Queue<ImageEvent> events = new ConcurrentLinkedQueue<>();
    private final SubscriberReports reports = new SubscriberReports();
    private final MessageAssembler assembler = new MessageAssembler(reports);
    private final PublisherLags lags = new PublisherLags();
    private final PublisherLags.Listener lagListener = this::onLag;
    private String node;
    private String channel;
    private int streamId;
    private long waitNanos;
    private boolean closeOnLoss;
    private RemoteDriver driver;
    private Subscription subscription;
    private Output data;
    private Output status;
    private LinkSecurity security;
    /**
     * Held by the report line while it reads the driver's counters, and by {@code close} to say
     * they are no longer to be read before it frees them: a report never reads a client's mapped
     * memory after it was unmapped, and never waits for a close.
     */
    private final Object reportLock = new Object();
    /** The driver's counters may be read by the report line; guarded by {@link #reportLock}. */
    private boolean countersReadable;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("channel", OptionType.STRING, "aeron:ipc")
            .option("stream_id", OptionType.LONG, 1001L)
            .range("stream_id", Integer.MIN_VALUE, Integer.MAX_VALUE)
            .option("wait_ms", OptionType.LONG, 10L)
            .range("wait_ms", 0, 1000)
            .option("publisher_lost", OptionType.STRING, "WAIT")
            .oneOf("publisher_lost", "WAIT", "CLOSE")
            .option("idle_strategy", OptionType.STRING, "BACKOFF")
            .oneOf("idle_strategy", "BACKOFF", "YIELD", "BUSY_SPIN")
            .option("behind_bytes", OptionType.LONG, 0L)
            .range("behind_bytes", 0, Integer.MAX_VALUE)
            .option("behind_ms", OptionType.LONG, 1000L)
            .range("behind_ms", 1, 3_600_000)
            .option("freshness_ms", OptionType.LONG, 10_000L)
            .range("freshness_ms", 100, 3_600_000);
        RemoteCalculators.driverOptions(contract);
        LinkSecurity.options(contract);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        node = ctx.nodeName();
        status = optionalOutput(ctx, "STATUS");
        final int dataOutputs = ctx.outputCount() - (status == null ? 0 : 1);
        if (ctx.inputCount() != 0 || dataOutputs != 1)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): has " + ctx.inputCount() +
                " inputs and " + ctx.outputCount() + " outputs; valid is no input, one untagged output (the remote " +
                "stream) and optionally one tagged STATUS");
        }
        data = ctx.output(0) == status ? ctx.output(1) : ctx.output(0);
        streamId = (int)ctx.options().getLong("stream_id");
        waitNanos = TimeUnit.MILLISECONDS.toNanos(ctx.options().getLong("wait_ms"));
        closeOnLoss = "CLOSE".equals(ctx.options().getString("publisher_lost"));
        idle = idleStrategy(ctx.options().getString("idle_strategy"));
        lags.reset(ctx.options().getLong("behind_bytes"), TimeUnit.MILLISECONDS.toNanos(ctx.options().getLong("behind_ms")));
        channel = ctx.options().getString("channel");
        security = LinkSecurity.of(ctx, NAME, channel);
        assembler.reset(data, ctx.pool(), streamId, security, ctx.options().getLong("freshness_ms"));
        reports.reset(node, channel, streamId, data, status);
        driver = RemoteCalculators.driver(ctx);
        try
        {
            subscription = driver.aeron().addSubscription(channel, streamId,
                image -> events.offer(new ImageEvent(true, image)), image -> events.offer(new ImageEvent(false, image)));
        }
        catch (final RuntimeException ex)
        {
            driver.release();
            driver = null;
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): cannot subscribe to channel '" +
                channel + "' stream id " + streamId + ": " + ex.getMessage() + "; valid channels are e.g. aeron:ipc " +
                "and aeron:udp?endpoint=127.0.0.1:40123", ex);
        }
        reports.subscription = subscription;
        synchronized (reportLock)
        {
            countersReadable = true;
        }
        ctx.reportLine(this::reportLine);
    }

    /**
     * The report line (see {@link CalculatorContext#reportLine}), on the reporting thread: the
     * publishers connected, how far ahead of this subscriber they are now (read from the driver's
     * counters now, even while this source is not called because the queue it feeds is full) and at
     * most, whether one is behind and how often one was, the packets that never arrived and the
     * messages rejected. Racy figures, for diagnostics.
     */
    private void reportLine(final StringBuilder sb)
    {
        final PublisherLags.Lag[] lags = this.lags.lags();
        long now = 0;
        int behind = 0;
        final boolean open;
        synchronized (reportLock)
        {
            open = countersReadable;
            if (open)
            {
                final CountersReader counters = driver.aeron().countersReader();
                for (final PublisherLags.Lag lag : lags)
                {
                    now = Math.max(now, lag.bytes(counters));
                    behind += lag.behind ? 1 : 0; // racy: diagnostics
                }
            }
        }
        final long peak = Math.max(now, this.lags.peak());
        sb.append("remote stream from ").append(channel).append(" stream id ").append(streamId).append(": ");
        if (open)
        {
            sb.append(lags.length).append(lags.length == 1 ? " publisher" : " publishers").append(", ").append(now)
                .append(" B behind now, ");
        }
        else
        {
            sb.append("closed, ");
        }
        sb.append(peak).append(" B at most; ");
        if (behind > 0)
        {
            sb.append("BEHIND now, ");
        }
        final long episodes = this.lags.behindEpisodes();
        final long lost = reports.lost;
        final long rejected = reports.rejected;
        sb.append(episodes).append(episodes == 1 ? " time" : " times").append(" behind; ").append(lost)
            .append(lost == 1 ? " packet" : " packets").append(" never arrived; ").append(rejected)
            .append(rejected == 1 ? " message" : " messages").append(" rejected");
        if (security != null && security.key != null)
        {
            sb.append(" (").append(reports.forged).append(" failed authentication, ").append(reports.replayed)
                .append(" replayed or stale)");
        }
    }

    private static IdleStrategy idleStrategy(final String name)
    {
        switch (name)
        {
            case "YIELD":
                return new YieldingIdleStrategy();
            case "BUSY_SPIN":
                return new BusySpinIdleStrategy();
            default:
                // parks up to 1 ms once idle: a message then waits that long, at worst, to be seen
                return new BackoffIdleStrategy(10, 20, 1_000, 1_000_000);
        }
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

    @Override
    public void process(final CalculatorContext ctx)
    {
        final MessageAssembler assembler = this.assembler;
        assembler.begin(ctx);
        reports.ctx = ctx;
        final long boundBefore = data.nextTimestampBound();
        final Subscription subscription = this.subscription;
        takeImageEvents();
        long deadline = 0;
        int taken = 0;
        idle.reset();
        while (!assembler.closing)
        {
            final int fragments = subscription.controlledPoll(assembler, FRAGMENT_LIMIT);
            if (assembler.closing || assembler.shipmentFull)
            {
                break;
            }
            if (fragments > 0)
            {
                taken += fragments;
                if (taken >= MAX_FRAGMENTS_PER_CALL)
                {
                    break;
                }
                idle.reset();
                continue;
            }
            takeImageEvents();
            if (assembler.closing || assembler.emitted > 0 || data.nextTimestampBound() != boundBefore || ctx.isCancelled())
            {
                break;
            }
            final long now = ctx.nanoTime();
            if (deadline == 0)
            {
                deadline = now + waitNanos;
            }
            else if (now - deadline >= 0)
            {
                break;
            }
            idle.idle();
        }
        if (lags.lags().length != 0)
        {
            lags.check(ctx.nanoTime(), driver.aeron().countersReader(), lagListener);
        }
        if (status != null)
        {
            status.setNextTimestampBound(data.nextTimestampBound());
        }
        if (assembler.closing)
        {
            ctx.stop();
        }
        assembler.ctx = null;
        reports.ctx = null;
    }

    private void onLag(final RemoteStatus.Kind kind, final PublisherLags.Lag lag, final String why)
    {
        if (kind == RemoteStatus.Kind.BEHIND)
        {
            LOG.warn("node '{}': {} on {} stream id {}: {}", node, lag.source, channel, streamId, why);
        }
        else
        {
            LOG.info("node '{}': {} on {} stream id {}: {}", node, lag.source, channel, streamId, why);
        }
        reports.ctx.journalNote(Timestamp.UNSET, lag.image.sessionId(), JOURNAL_NOTE + "session " + lag.image.sessionId() + " " +
            kind.name().toLowerCase(Locale.ROOT) + ", stream id " + streamId + ", channel " + channel + ": " + why);
        reports.emitStatus(kind, lag.source, why);
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        return assembler.onFragment(buffer, offset, length, header);
    }

    private void takeImageEvents()
    {
        ImageEvent event;
        while ((event = events.poll()) != null)
        {
            final String source = "session " + event.session + " from " + event.source;
            if (event.available)
            {
                LOG.info("node '{}': publisher {} connected to {} stream id {}", node, source, channel, streamId);
                if (reports.ctx != null)
                {
                    reports.ctx.journalNote(Timestamp.UNSET, event.session, JOURNAL_NOTE + "session " + event.session +
                        " connected, stream id " + streamId + ", channel " + channel + ", from " + event.source);
                }
                reports.emitStatus(RemoteStatus.Kind.CONNECTED, source, "publisher connected");
                lags.add(event.image, source, channel, streamId, driver.aeron().countersReader(), node);
                continue;
            }
            lags.remove(event.session);
            final SubscriberSession r = assembler.sessions.remove(event.session);
            if (r != null && r.payload != null)
            {
                reports.reject(event.session, "truncated message: the publisher went away " + r.received + " bytes into the " +
                    r.expected + "-byte payload of its PACKET at " + r.timestamp);
                r.discard();
            }
            if (security.key != null && (r == null || !r.authenticated))
            {
                // a session that never sent an authentic message is no publisher: its going changes nothing
                LOG.info("node '{}': {} on {} stream id {} gone, having sent nothing authentic", node, source, channel,
                    streamId);
                continue;
            }
            final boolean lost = !assembler.closing && !publisherLeft();
            final String why = assembler.closing ? "publisher gone after closing the stream" :
                "publisher gone without closing the stream" + (lost ? (closeOnLoss ?
                "; the stream closes (publisher_lost CLOSE)" : "; the stream stays open for it to come back " +
                "(publisher_lost WAIT)") : "");
            LOG.warn("node '{}': {} on {} stream id {}: {}", node, source, channel, streamId, why);
            if (reports.ctx != null)
            {
                reports.ctx.journalNote(Timestamp.UNSET, event.session, JOURNAL_NOTE + "session " + event.session +
                    " gone, stream id " + streamId + ", channel " + channel + ": " + why);
            }
            reports.emitStatus(RemoteStatus.Kind.DISCONNECTED, source, why);
            if (lost && closeOnLoss)
            {
                assembler.closing = true;
            }
        }
        if (reports.ctx != null)
        {
            reports.reportDue(false);
        }
    }

    /** Whether an image is left of a publisher (on an authenticated link, a session that sent an authentic message). */
    private boolean publisherLeft()
    {
        if (security.key == null)
        {
            return subscription.imageCount() > 0;
        }
        for (final Image image : subscription.images()) // rare: a publisher went
        {
            final SubscriberSession s = assembler.sessions.get(image.sessionId());
            if (s != null && s.authenticated)
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        reports.ctx = ctx;
        assembler.ctx = ctx;
        try
        {
            if (subscription != null)
            {
                takeImageEvents();
                reports.reportDue(true); // the totals, whatever the rhythm held back
            }
        }
        finally
        {
            reports.ctx = null;
            assembler.ctx = null;
            assembler.discardAll();
            synchronized (reportLock)
            {
                countersReadable = false; // before they are freed
            }
            if (subscription != null)
            {
                subscription.close();
                subscription = null;
            }
            if (driver != null)
            {
                driver.release();
                driver = null;
            }
        }
    }

    /** An image's coming or going, from Aeron's conductor thread. */
    private static final class ImageEvent
    {
        final boolean available;
        final int session;
        final String source;
        final Image image;

        ImageEvent(final boolean available, final Image image)
        {
            this.available = available;
            this.session = image.sessionId();
            this.source = image.sourceIdentity();
            this.image = image;
        }
    }
}
