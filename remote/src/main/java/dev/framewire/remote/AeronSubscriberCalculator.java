package dev.framewire.remote;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import io.aeron.AeronCounters;
import io.aeron.Image;
import io.aeron.driver.status.StreamCounter;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static dev.framewire.remote.RemoteDescriptor.BOUND;
import static dev.framewire.remote.RemoteDescriptor.CLOSE;
import static dev.framewire.remote.RemoteDescriptor.FLAG_AUTHENTICATED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_CANCELLED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_ENCRYPTED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_PAYLOAD_AUTHENTICATED;
import static dev.framewire.remote.RemoteDescriptor.HEADER_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.KIND_DOUBLE;
import static dev.framewire.remote.RemoteDescriptor.KIND_FRAME;
import static dev.framewire.remote.RemoteDescriptor.KIND_LONG;
import static dev.framewire.remote.RemoteDescriptor.PACKET;

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
    private static final long REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final VarHandle LAG_PEAK;
    /** Publisher epochs remembered for replay protection, at most. */
    private static final int MAX_EPOCHS = 64;

    static
    {
        try
        {
            LAG_PEAK = MethodHandles.lookup().findVarHandle(AeronSubscriberCalculator.class, "lagPeak", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private IdleStrategy idle;
    /** Each publisher session's state: the message being reassembled, the next packet's sequence. */
    private final Int2ObjectHashMap<Session> sessions = new Int2ObjectHashMap<>();
    /** Image events from Aeron's conductor thread; rare, so a linked queue's allocation is fine. */
    private final Queue<ImageEvent> events = new ConcurrentLinkedQueue<>();

    private String node;
    private String channel;
    private int streamId;
    private long waitNanos;
    private boolean closeOnLoss;
    private RemoteDriver driver;
    private Subscription subscription;
    private Output data;
    private Output status;
    private PayloadPool pool;

    // per call
    private CalculatorContext ctx;
    private int emitted;
    private int maxShipment;
    private boolean shipmentFull;

    private boolean closing;
    private LinkSecurity security;
    private long freshnessMillis;
    /**
     * The wall clock when this receiver opened, less {@link #START_SKEW_MILLIS}: the first message
     * of a publisher run it has not seen must have been sent after it. A receiver restarted within
     * {@code freshness_ms} of a publisher's CLOSE could be closed by that CLOSE replayed (its run
     * was unseen, its send time fresh); a message sent before the receiver existed is no live one.
     */
    private long openedMillis;
    /** How far the publisher's clock may be behind the receiver's at a restart without its messages being held stale. */
    static final long START_SKEW_MILLIS = 1_000;
    /**
     * Replay protection: per publisher epoch seen (authenticated), the number of its last message
     * taken, and its wall-clock time when sent; at most {@link #MAX_EPOCHS}, those long stale first.
     */
    private final Long2LongHashMap epochMessages = new Long2LongHashMap(-1);
    private final Long2LongHashMap epochSent = new Long2LongHashMap(-1);
    /** Messages that failed authentication; volatile (written on the rare path) for the report line. */
    private volatile long forged;
    /** Authentic messages replayed, or too old for a publisher run not seen before; volatile. */
    private volatile long replayed;
    /** Messages rejected so far; volatile (written on the rare path) for the report line. */
    private volatile long rejected;
    private long reportedRejected;
    private long lastReportNanos;
    private String lastRejection;
    private String lastRejectionSource;
    /** Packets that never arrived so far, by the sequence gaps; volatile for the report line. */
    private volatile long lost;
    private long reportedLost;
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
    /**
     * Held by the report line while it reads the driver's counters, and by {@code close} to say
     * they are no longer to be read before it frees them: a report never reads a client's mapped
     * memory after it was unmapped, and never waits for a close.
     */
    private final Object reportLock = new Object();
    /** The driver's counters may be read by the report line; guarded by {@link #reportLock}. */
    private boolean countersReadable;
    private long lastGapReportNanos;
    private String lastGap;
    private String lastGapSource;

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
        pool = ctx.pool();
        streamId = (int)ctx.options().getLong("stream_id");
        waitNanos = TimeUnit.MILLISECONDS.toNanos(ctx.options().getLong("wait_ms"));
        closeOnLoss = "CLOSE".equals(ctx.options().getString("publisher_lost"));
        idle = idleStrategy(ctx.options().getString("idle_strategy"));
        behindBytes = ctx.options().getLong("behind_bytes");
        behindNanos = TimeUnit.MILLISECONDS.toNanos(ctx.options().getLong("behind_ms"));
        lags = new Lag[0];
        channel = ctx.options().getString("channel");
        security = LinkSecurity.of(ctx, NAME, channel);
        freshnessMillis = ctx.options().getLong("freshness_ms");
        openedMillis = System.currentTimeMillis() - Math.min(START_SKEW_MILLIS, freshnessMillis);
        epochMessages.clear();
        epochSent.clear();
        forged = 0;
        replayed = 0;
        closing = false;
        rejected = 0;
        reportedRejected = 0;
        lost = 0;
        reportedLost = 0;
        LAG_PEAK.setOpaque(this, 0L);
        behindEpisodes = 0;
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
        final Lag[] lags = this.lags;
        long now = 0;
        int behind = 0;
        final boolean open;
        synchronized (reportLock)
        {
            open = countersReadable;
            if (open)
            {
                final CountersReader counters = driver.aeron().countersReader();
                for (final Lag lag : lags)
                {
                    now = Math.max(now, lag.bytes(counters));
                    behind += lag.behind ? 1 : 0; // racy: diagnostics
                }
            }
        }
        final long peak = Math.max(now, (long)LAG_PEAK.getOpaque(this));
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
        final long episodes = behindEpisodes;
        final long lost = this.lost;
        final long rejected = this.rejected;
        sb.append(episodes).append(episodes == 1 ? " time" : " times").append(" behind; ").append(lost)
            .append(lost == 1 ? " packet" : " packets").append(" never arrived; ").append(rejected)
            .append(rejected == 1 ? " message" : " messages").append(" rejected");
        if (security != null && security.key != null)
        {
            sb.append(" (").append(forged).append(" failed authentication, ").append(replayed)
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
        this.ctx = ctx;
        emitted = 0;
        shipmentFull = false;
        maxShipment = ctx.maxShipmentSize();
        final long boundBefore = data.nextTimestampBound();
        final Subscription subscription = this.subscription;
        takeImageEvents();
        long deadline = 0;
        int taken = 0;
        idle.reset();
        while (!closing)
        {
            final int fragments = subscription.controlledPoll(this, FRAGMENT_LIMIT);
            if (closing || shipmentFull)
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
            if (closing || emitted > 0 || data.nextTimestampBound() != boundBefore || ctx.isCancelled())
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
        if (lags.length != 0)
        {
            checkLags(ctx.nanoTime());
        }
        if (status != null)
        {
            status.setNextTimestampBound(data.nextTimestampBound());
        }
        if (closing)
        {
            ctx.stop();
        }
        this.ctx = null;
    }

    /**
     * Once a call: how far each publisher is ahead of this subscriber, from the driver's own
     * counters (two volatile loads an image, nothing allocated). A lag that stays at or above the
     * threshold in every look for {@code behind_ms} is reported once as {@link RemoteStatus.Kind#BEHIND};
     * the first look below it then reports {@link RemoteStatus.Kind#CAUGHT_UP}. A subscriber that is
     * not called (the queue it feeds is full) is not looked at: the look after counts from the first.
     */
    private void checkLags(final long now)
    {
        final CountersReader counters = driver.aeron().countersReader();
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
                        onLag(RemoteStatus.Kind.BEHIND, lag, bytes + " bytes behind the publisher, at least " +
                            lag.threshold + " for " + TimeUnit.NANOSECONDS.toMillis(now - lag.since) + " ms (at most " +
                            lag.max + "); downstream does not take the stream as fast as it comes");
                    }
                }
            }
            else if (lag.since >= 0)
            {
                if (lag.behind)
                {
                    onLag(RemoteStatus.Kind.CAUGHT_UP, lag, "caught up after " +
                        TimeUnit.NANOSECONDS.toMillis(now - lag.since) + " ms behind, at most " + lag.max + " bytes");
                }
                lag.since = -1;
                lag.behind = false;
            }
        }
    }

    private void onLag(final RemoteStatus.Kind kind, final Lag lag, final String why)
    {
        if (kind == RemoteStatus.Kind.BEHIND)
        {
            LOG.warn("node '{}': {} on {} stream id {}: {}", node, lag.source, channel, streamId, why);
        }
        else
        {
            LOG.info("node '{}': {} on {} stream id {}: {}", node, lag.source, channel, streamId, why);
        }
        ctx.journalNote(Timestamp.UNSET, lag.image.sessionId(), JOURNAL_NOTE + "session " + lag.image.sessionId() + " " +
            kind.name().toLowerCase(Locale.ROOT) + ", stream id " + streamId + ", channel " + channel + ": " + why);
        emitStatus(kind, lag.source, why);
    }

    /**
     * An image that came: finds the driver's counter of how far its publisher got, the receiver's
     * high-water mark over UDP ({@code rcv-hwm}) or the publication's position over IPC
     * ({@code pub-pos}), keyed by session and stream id as the driver labels them. Rare: allocates.
     */
    private void addLag(final Image image, final String source)
    {
        final boolean ipc = channel.startsWith("aeron:ipc");
        final int type = ipc ? AeronCounters.DRIVER_PUBLISHER_POS_TYPE_ID : AeronCounters.DRIVER_RECEIVER_HWM_TYPE_ID;
        final int[] found = {-1, -1};
        driver.aeron().countersReader().forEach((counterId, typeId, key, label) ->
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
        final Lag[] more = java.util.Arrays.copyOf(lags, lags.length + 1);
        more[lags.length] = new Lag(image, source, counterId, threshold);
        lags = more;
        if (counterId < 0)
        {
            LOG.info("node '{}': no driver counter found for {}: its lag is not watched", node, source);
        }
    }

    private void removeLag(final int session)
    {
        lags = java.util.Arrays.stream(lags).filter(l -> l.image.sessionId() != session).toArray(Lag[]::new);
    }

    @Override
    public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (closing)
        {
            return Action.ABORT; // the stream closed: what follows is not this stream's
        }
        final byte flags = header.flags();
        final int session = header.sessionId();
        if ((flags & FrameDescriptor.BEGIN_FRAG_FLAG) != 0)
        {
            final Session open = sessions.get(session);
            if (open != null && open.payload != null)
            {
                reject(session, "truncated message: the PACKET at " + open.timestamp + " got " + open.received +
                    " of its " + open.expected + " payload bytes before the next message began");
                open.discard();
            }
            if (emitted >= maxShipment)
            {
                shipmentFull = true;
                return Action.ABORT;
            }
            return onMessageStart(buffer, offset, length, session, (flags & FrameDescriptor.END_FRAG_FLAG) != 0);
        }
        final Session r = session(session);
        final boolean end = (flags & FrameDescriptor.END_FRAG_FLAG) != 0;
        if (r.payload == null)
        {
            if (r.skipping)
            {
                r.skipping = !end; // the rest of a message already rejected at its start
            }
            // else the rest of a message whose start this receiver did not see (it joined mid-message):
            // the next message's sequence counts that packet among those it never got
            return Action.CONTINUE;
        }
        if (r.received + length > r.expected)
        {
            reject(session, "overlong message: the PACKET at " + r.timestamp + " has more than the " + r.expected +
                " payload bytes its header says");
            r.discard();
            r.skipping = !end;
            return Action.CONTINUE;
        }
        take(r, buffer, offset, length);
        if (end)
        {
            final Payload payload = r.payload;
            r.payload = null;
            if (r.received != r.expected)
            {
                payload.release();
                reject(session, "truncated message: the PACKET at " + r.timestamp + " has " + r.received + " of the " +
                    r.expected + " payload bytes its header says");
            }
            else
            {
                complete(session, r, payload);
            }
        }
        return Action.CONTINUE;
    }

    private Session session(final int session)
    {
        Session state = sessions.get(session);
        if (state == null)
        {
            state = new Session(); // once per publisher session
            sessions.put(session, state);
        }
        return state;
    }

    /** Counts and reports the packets a message's sequence number says never arrived. */
    private void checkSequence(final int session, final Session state, final long sequence, final boolean packet)
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

    private void reportGaps(final long now)
    {
        final long since = lost - reportedLost;
        reportedLost = lost;
        lastGapReportNanos = now;
        LOG.warn("node '{}': {} packet{} from {} on {} stream id {} never arrived ({} in all), the last gap: {}", node,
            since, since == 1 ? "" : "s", lastGapSource, channel, streamId, lost, lastGap);
        emitStatus(RemoteStatus.Kind.GAP, lastGapSource, lastGap);
    }

    private Action onMessageStart(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int session,
        final boolean whole)
    {
        final String invalid = RemoteDescriptor.invalid(buffer, offset, length, whole ? length : -1, streamId);
        if (invalid != null)
        {
            reject(session, invalid);
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        final int type = RemoteDescriptor.type(buffer, offset);
        final long timestamp = RemoteDescriptor.timestamp(buffer, offset);
        final Output data = this.data;
        final Session state = session(session);
        final int flags = RemoteDescriptor.flags(buffer, offset);
        final boolean hasPayload = RemoteDescriptor.length(buffer, offset) > 0;
        final String refused = security.refused(flags, hasPayload);
        if (refused != null)
        {
            forged++; // the only writer
            reject(session, refused);
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        if (!headerAuthentic(buffer, offset, session, state, type, timestamp, flags, hasPayload))
        {
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        if (!state.deferred)
        {
            checkSequence(session, state, RemoteDescriptor.sequence(buffer, offset), type == PACKET);
        }
        if (type == CLOSE)
        {
            closing = true;
            if ((RemoteDescriptor.flags(buffer, offset) & FLAG_CANCELLED) != 0)
            {
                LOG.warn("node '{}': the publisher ({}) closed {} stream id {} because its run was cancelled or failed",
                    node, sourceOf(session), channel, streamId);
            }
            return Action.BREAK;
        }
        if (type == BOUND)
        {
            if (timestamp == Timestamp.DONE || timestamp < Timestamp.MIN)
            {
                reject(session, "BOUND to " + Timestamp.toString(timestamp) + ", valid is MIN to ONE_OVER_POST_STREAM " +
                    "(a stream is closed by a CLOSE message)");
            }
            else if (timestamp > data.nextTimestampBound())
            {
                data.setNextTimestampBound(timestamp);
            }
            return Action.CONTINUE;
        }
        final String late = late(timestamp);
        if (late != null)
        {
            reject(session, timestamp, late);
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        final int kind = RemoteDescriptor.kind(buffer, offset);
        if (kind == KIND_LONG)
        {
            data.addLong(RemoteDescriptor.value(buffer, offset), timestamp);
            emitted++;
            return Action.CONTINUE;
        }
        if (kind == KIND_DOUBLE)
        {
            data.addDouble(Double.longBitsToDouble(RemoteDescriptor.value(buffer, offset)), timestamp);
            emitted++;
            return Action.CONTINUE;
        }
        return onPayloadStart(buffer, offset, length, session, whole, state, timestamp, kind);
    }

    /**
     * Checks a message's header against its link's key, when the link has one: a header-only tag is
     * verified here, before anything in the header is believed; a tag that also covers the payload
     * is verified once the payload is in ({@code state.deferred}).
     *
     * @return false when the message was rejected (and counted).
     */
    private boolean headerAuthentic(
        final DirectBuffer buffer,
        final int offset,
        final int session,
        final Session state,
        final int type,
        final long timestamp,
        final int flags,
        final boolean hasPayload)
    {
        state.deferred = false;
        state.encrypted = false;
        if (security.key != null)
        {
            final LinkAuth auth = state.auth(security.key);
            auth.epoch(RemoteDescriptor.epoch(buffer, offset), streamId);
            auth.begin(buffer, offset);
            state.type = type;
            state.timestamp = timestamp;
            state.epoch = RemoteDescriptor.epoch(buffer, offset);
            state.message = RemoteDescriptor.message(buffer, offset);
            state.sent = RemoteDescriptor.sentMillis(buffer, offset);
            state.sequence = RemoteDescriptor.sequence(buffer, offset);
            state.deferred = hasPayload && (flags & (FLAG_PAYLOAD_AUTHENTICATED | FLAG_ENCRYPTED)) != 0;
            state.encrypted = hasPayload && (flags & FLAG_ENCRYPTED) != 0;
            if (!state.deferred)
            {
                // the header is all the tag covers: check it before anything in it is believed
                auth.finish();
                return authentic(session, state, auth.verify());
            }
        }
        return true;
    }

    /** Starts taking a PACKET's payload (its header taken and checked): the first fragment's bytes, or all of them. */
    private Action onPayloadStart(
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int session,
        final boolean whole,
        final Session state,
        final long timestamp,
        final int kind)
    {
        final int payloadLength = RemoteDescriptor.length(buffer, offset);
        final int inFragment = length - HEADER_LENGTH;
        if (!whole && inFragment >= payloadLength)
        {
            reject(session, "overlong message: the PACKET at " + timestamp + " has more than the " + payloadLength +
                " payload bytes its header says");
            skipRest(session, false);
            return Action.CONTINUE;
        }
        final int slotBytes;
        try
        {
            slotBytes = pool.slotBytesFor(payloadLength);
        }
        catch (final IllegalArgumentException ex)
        {
            reject(session, "the PACKET at " + timestamp + " has a payload of " + payloadLength + " bytes, which this " +
                "graph's pool cannot hold: " + ex.getMessage());
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        if (emitted > 0 && slotBytes > ctx.shipmentBytesLeft())
        {
            shipmentFull = true;
            return Action.ABORT; // the next call takes it
        }
        final Payload payload = kind == KIND_FRAME ?
            pool.acquireFrame(RemoteDescriptor.width(buffer, offset), RemoteDescriptor.height(buffer, offset),
                frameFormat(buffer, offset), RemoteDescriptor.stride(buffer, offset)) :
            pool.acquire(payloadLength);
        final Session r = state;
        r.payload = payload;
        r.timestamp = timestamp;
        r.expected = payloadLength;
        r.received = 0;
        r.skipping = false;
        if (r.encrypted)
        {
            r.ensureScratch(payloadLength);
        }
        take(r, buffer, offset + HEADER_LENGTH, inFragment);
        if (whole)
        {
            r.payload = null;
            complete(session, r, payload);
        }
        return Action.CONTINUE;
    }

    /** Takes payload bytes of the message being put together: into the payload, or (encrypted) the scratch. */
    private static void take(final Session r, final DirectBuffer buffer, final int offset, final int length)
    {
        if (r.encrypted)
        {
            r.scratchBuffer.putBytes(r.received, buffer, offset, length);
        }
        else
        {
            r.payload.mutableBuffer().putBytes(r.received, buffer, offset, length);
            if (r.deferred)
            {
                r.auth.update(buffer, offset, length);
            }
        }
        r.received += length;
    }

    /** A payload message whole: authenticated (and decrypted) if its check was deferred, then emitted. */
    private void complete(final int session, final Session r, final Payload payload)
    {
        if (r.deferred)
        {
            final boolean tagOk;
            if (r.encrypted)
            {
                tagOk = r.auth.decrypt(r.scratch, r.expected, r.message, payload.mutableByteBuffer());
            }
            else
            {
                r.auth.finish();
                tagOk = r.auth.verify();
            }
            if (!authentic(session, r, tagOk))
            {
                payload.release();
                return;
            }
            checkSequence(session, r, r.sequence, true);
        }
        emit(session, payload, r.timestamp);
    }

    /**
     * Whether a message whose tag was checked ({@code tagOk}) is to be taken: authentic, and not a
     * replay (a message number at or below the last taken of its publisher's epoch, or a first
     * message of an epoch not seen before sent more than {@code freshness_ms} ago). Counts and
     * rejects it if not.
     */
    private boolean authentic(final int session, final Session state, final boolean tagOk)
    {
        if (!tagOk)
        {
            forged++; // the only writer
            reject(session, "failed authentication: the tag of the " + RemoteDescriptor.typeName(state.type) + " at " +
                Timestamp.toString(state.timestamp) + " does not match its bytes under this link's key (forged or " +
                "corrupted, or the two ends' key files differ)");
            return false;
        }
        final long last = epochMessages.get(state.epoch);
        if (last >= 0)
        {
            if (state.message <= last)
            {
                replayed++; // the only writer
                reject(session, "replayed message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " is number " + state.message + " of publisher epoch " +
                    Long.toHexString(state.epoch) + ", which got to " + last + " already");
                return false;
            }
        }
        else
        {
            final long now = System.currentTimeMillis(); // once per publisher run
            if (Math.abs(now - state.sent) > freshnessMillis)
            {
                replayed++;
                reject(session, "stale message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " opens publisher epoch " + Long.toHexString(state.epoch) +
                    " for this receiver but was sent " + (now - state.sent) + " ms from now, more than freshness_ms " +
                    freshnessMillis + ": a replay of an earlier run, or the two hosts' clocks are that far apart (NTP)");
                return false;
            }
            if (state.sent < openedMillis)
            {
                replayed++;
                reject(session, "stale message: the " + RemoteDescriptor.typeName(state.type) + " at " +
                    Timestamp.toString(state.timestamp) + " opens publisher epoch " + Long.toHexString(state.epoch) +
                    " for this receiver but was sent " + (now - state.sent) + " ms ago, before this receiver started " +
                    "(a replay of what an earlier receiver took, or the publisher's clock is more than " +
                    START_SKEW_MILLIS + " ms behind: NTP)");
                return false;
            }
            forgetStaleEpochs(now);
        }
        epochMessages.put(state.epoch, state.message);
        epochSent.put(state.epoch, state.sent);
        state.authenticated = true;
        return true;
    }

    /**
     * Room for one more epoch: those whose last message is older than {@code freshness_ms} go (a
     * replay of theirs is stale then anyway), then, if still full, the oldest.
     */
    private void forgetStaleEpochs(final long now)
    {
        if (epochMessages.size() < MAX_EPOCHS)
        {
            return;
        }
        long oldest = 0;
        long oldestSent = Long.MAX_VALUE;
        final Long2LongHashMap.KeyIterator keys = epochSent.keySet().iterator();
        while (keys.hasNext())
        {
            final long epoch = keys.nextValue();
            final long sent = epochSent.get(epoch);
            if (now - sent > freshnessMillis)
            {
                keys.remove();
                epochMessages.remove(epoch);
            }
            else if (sent < oldestSent)
            {
                oldestSent = sent;
                oldest = epoch;
            }
        }
        if (epochMessages.size() >= MAX_EPOCHS)
        {
            epochSent.remove(oldest);
            epochMessages.remove(oldest);
        }
    }

    private static PixelFormat frameFormat(final DirectBuffer buffer, final int offset)
    {
        return RemoteDescriptor.format(RemoteDescriptor.formatCode(buffer, offset)); // checked by invalid()
    }

    /** Why a packet at {@code timestamp} cannot go on the output now, or null if it can. */
    private String late(final long timestamp)
    {
        final long bound = data.nextTimestampBound();
        if (!Timestamp.isValidPacketTimestamp(timestamp))
        {
            return "PACKET at " + Timestamp.toString(timestamp) + ", not a packet timestamp";
        }
        if (timestamp < bound)
        {
            return "PACKET at " + timestamp + ", below the stream's bound " + Timestamp.toString(bound) +
                " (a second publisher on the channel and stream id, or one restarted from an earlier time?)";
        }
        return null;
    }

    private void emit(final int session, final Payload payload, final long timestamp)
    {
        final String late = late(timestamp); // another session's packet may have moved the bound meanwhile
        if (late != null)
        {
            payload.release();
            reject(session, timestamp, late);
            return;
        }
        data.add(payload, timestamp);
        emitted++;
    }

    private void skipRest(final int session, final boolean whole)
    {
        if (!whole)
        {
            session(session).skipping = true;
        }
    }

    private void reject(final int session, final String why)
    {
        reject(session, Timestamp.UNSET, why);
    }

    private void reject(final int session, final long timestamp, final String why)
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

    private void reportRejections(final long now)
    {
        final long since = rejected - reportedRejected;
        reportedRejected = rejected;
        lastReportNanos = now;
        LOG.warn("node '{}': rejected {} message{} from {} on {} stream id {} ({} in all), the last: {}", node, since,
            since == 1 ? "" : "s", lastRejectionSource, channel, streamId, rejected, lastRejection);
        emitStatus(RemoteStatus.Kind.REJECTED, lastRejectionSource, lastRejection);
    }

    private String sourceOf(final int session)
    {
        final Image image = subscription.imageBySessionId(session);
        return "session " + session + (image == null ? "" : " from " + image.sourceIdentity());
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
                if (ctx != null)
                {
                    ctx.journalNote(Timestamp.UNSET, event.session, JOURNAL_NOTE + "session " + event.session +
                        " connected, stream id " + streamId + ", channel " + channel + ", from " + event.source);
                }
                emitStatus(RemoteStatus.Kind.CONNECTED, source, "publisher connected");
                addLag(event.image, source);
                continue;
            }
            removeLag(event.session);
            final Session r = sessions.remove(event.session);
            if (r != null && r.payload != null)
            {
                reject(event.session, "truncated message: the publisher went away " + r.received + " bytes into the " +
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
            final boolean lost = !closing && !publisherLeft();
            final String why = closing ? "publisher gone after closing the stream" :
                "publisher gone without closing the stream" + (lost ? (closeOnLoss ?
                "; the stream closes (publisher_lost CLOSE)" : "; the stream stays open for it to come back " +
                "(publisher_lost WAIT)") : "");
            LOG.warn("node '{}': {} on {} stream id {}: {}", node, source, channel, streamId, why);
            if (ctx != null)
            {
                ctx.journalNote(Timestamp.UNSET, event.session, JOURNAL_NOTE + "session " + event.session +
                    " gone, stream id " + streamId + ", channel " + channel + ": " + why);
            }
            emitStatus(RemoteStatus.Kind.DISCONNECTED, source, why);
            if (lost && closeOnLoss)
            {
                closing = true;
            }
        }
        if (rejected > reportedRejected && ctx != null && ctx.nanoTime() - lastReportNanos >= REPORT_INTERVAL_NANOS)
        {
            reportRejections(ctx.nanoTime());
        }
        if (lost > reportedLost && ctx != null && ctx.nanoTime() - lastGapReportNanos >= REPORT_INTERVAL_NANOS)
        {
            reportGaps(ctx.nanoTime());
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
            final Session s = sessions.get(image.sessionId());
            if (s != null && s.authenticated)
            {
                return true;
            }
        }
        return false;
    }

    private void emitStatus(final RemoteStatus.Kind kind, final String source, final String reason)
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

    @Override
    public void close(final CalculatorContext ctx)
    {
        this.ctx = ctx;
        try
        {
            if (subscription != null)
            {
                takeImageEvents();
                // the totals, whatever the rhythm held back
                if (rejected > reportedRejected)
                {
                    reportRejections(ctx.nanoTime());
                }
                if (lost > reportedLost)
                {
                    reportGaps(ctx.nanoTime());
                }
            }
        }
        finally
        {
            this.ctx = null;
            for (final Session r : sessions.values())
            {
                r.discard();
            }
            sessions.clear();
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

    /** One publisher session: the fragmented message being put together, the sequence expected next. */
    private static final class Session
    {
        /** The next packet's sequence number, or -1 before the session's first message. */
        long nextSequence = -1;
        Payload payload;
        long timestamp;
        int expected;
        int received;
        /** The rest of a rejected message's fragments are to be skipped. */
        boolean skipping;
        /** Null until the session's first message on an authenticated link. */
        LinkAuth auth;
        /** The message's authentication waits for its payload (and decryption, when encrypted). */
        boolean deferred;
        boolean encrypted;
        /** The session sent an authentic message: it is a publisher, not only an Aeron session. */
        boolean authenticated;
        int type;
        long epoch;
        long message;
        long sent;
        long sequence;
        /** An encrypted payload's ciphertext, with room for its tag; grown to the largest, then kept. */
        ByteBuffer scratch;
        final UnsafeBuffer scratchBuffer = new UnsafeBuffer(0, 0);

        LinkAuth auth(final byte[] key)
        {
            if (auth == null)
            {
                auth = new LinkAuth(key); // once per session
            }
            return auth;
        }

        void ensureScratch(final int length)
        {
            final int needed = length + RemoteDescriptor.TAG_LENGTH;
            if (scratch == null || scratch.capacity() < needed)
            {
                scratch = ByteBuffer.allocateDirect(needed);
                scratchBuffer.wrap(scratch);
            }
        }

        void discard()
        {
            if (payload != null)
            {
                payload.release();
                payload = null;
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

    /**
     * How far one publisher is ahead of this subscriber (see {@link #checkLags}). Threshold by
     * default: half of what flow control lets a publisher get ahead by default, 64 KiB over UDP (of
     * Aeron's 128 KiB receiver window) and a quarter of the term over IPC (of its half-term window).
     */
    private static final class Lag
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
