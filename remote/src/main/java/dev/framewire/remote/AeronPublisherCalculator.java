package dev.framewire.remote;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Input;
import dev.framewire.core.OptionType;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.log.RateLimitedLog;
import dev.framewire.offheap.Payload;
import io.aeron.ChannelUri;
import io.aeron.CommonContext;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

import static dev.framewire.remote.RemoteDescriptor.BOUND;
import static dev.framewire.remote.RemoteDescriptor.CLOSE;
import static dev.framewire.remote.RemoteDescriptor.FLAG_CANCELLED;
import static dev.framewire.remote.RemoteDescriptor.HEADER_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.KIND_BYTES;
import static dev.framewire.remote.RemoteDescriptor.KIND_DOUBLE;
import static dev.framewire.remote.RemoteDescriptor.KIND_FRAME;
import static dev.framewire.remote.RemoteDescriptor.KIND_LONG;
import static dev.framewire.remote.RemoteDescriptor.KIND_NONE;
import static dev.framewire.remote.RemoteDescriptor.PACKET;

/**
 * Publishes its one input stream to an Aeron channel and stream id: every packet at its timestamp,
 * every move of the stream's timestamp bound that no packet made, and the stream's close, for an
 * {@link AeronSubscriberCalculator} in another graph, process or host to give back as the same
 * stream (the layout is {@code RemoteDescriptor}'s, drawn in docs/REMOTE.md).
 *
 * <p>What it carries: {@code long} and {@code double} packets, and off-heap payloads, bytes or
 * frames (with their width, height, stride and pixel format). Any other Java object fails the call,
 * naming the node and the type. A message that fits one Aeron frame ({@code mtu} less headers) is
 * written in place into the log buffer ({@code tryClaim}); a larger one is offered straight from its
 * off-heap slot ({@code offer(header, payload)}), so the only copy is Aeron's into its term.
 *
 * <p>When the publication is back-pressured or has no subscriber, {@code policy} decides:
 * <ul>
 *   <li>{@code WAIT} (the default): the call retries, idling with a backoff strategy (spin, yield,
 *       then park up to 1 ms), until the message goes or the run is cancelled; the input queue fills
 *       meanwhile, and the graph's backpressure holds back what feeds it, as for any slow node;</li>
 *   <li>{@code DROP}: the message is dropped (the newest: nothing is buffered, so the one in hand)
 *       and counted in {@link dev.framewire.core.Graph#dropCount(String)} and the graph report; a
 *       dropped bound is carried by the next message that goes, a later packet or bound.</li>
 * </ul>
 * Drops are logged, and are JFR events ({@code dev.framewire.RemoteStream}), at the 1st, 2nd, 4th,
 * 8th... The graph report ({@link dev.framewire.core.Graph#report()}) has a line under the node
 * with the messages that met back pressure, found no subscriber connected, and were dropped.
 * Nothing is ever buffered beyond Aeron's own term. The close message waits at most
 * {@code linger_ms} under either policy, so a graph whose receiver is gone still ends.
 *
 * <p>Streams: one input, no outputs. Policy: the default, with bound-only calls
 * ({@link Contract#processTimestampBounds}), which is how a bound that moves without a packet
 * reaches it. Options: {@code channel} (an Aeron URI, {@code aeron:ipc} by default, e.g.
 * {@code aeron:udp?endpoint=127.0.0.1:40123}), {@code stream_id} (1001), {@code policy} (WAIT),
 * {@code term_length} (64 MiB, a power of two: its eighth is the largest message, here a 1080p RGBA
 * frame; terms are sparse files, taking memory as they fill), {@code mtu} (0: Aeron's default,
 * 1408 bytes), {@code linger_ms} (5000), and the driver's ({@code aeron_dir}, {@code driver_threading},
 * see {@link RemoteCalculators}). A channel that names its own {@code term-length} or {@code mtu}
 * keeps it.
 *
 * <p>Threading: the node's worker, one call at a time; the publication is exclusive to the node.
 * The report line runs on the reporting thread and reads only volatile counters.
 */
public final class AeronPublisherCalculator implements Calculator
{
    /** Registered name. */
    public static final String NAME = "AeronPublisherCalculator";
    /**
     * How the journal NOTE a publisher writes when it opens begins (its value is the Aeron session id):
     * {@code remote publisher: session S, stream id N, channel C}. {@code framewire journal postmortem}
     * of several journals pairs it with the subscribers' notes to follow packets across the hop.
     */
    public static final String JOURNAL_NOTE = "remote publisher: ";

    private static final Logger LOG = LoggerFactory.getLogger(AeronPublisherCalculator.class);
    private static final long DEFAULT_TERM_LENGTH = 64L * 1024 * 1024;

    private final BufferClaim claim = new BufferClaim();
    private final UnsafeBuffer header = new UnsafeBuffer(ByteBuffer.allocateDirect(HEADER_LENGTH));
    private final IdleStrategy idle = new BackoffIdleStrategy(10, 20, 1_000, 1_000_000);
    private final UnsafeBuffer sealed = new UnsafeBuffer(0, 0);

    private LinkSecurity security;
    /** Null on an unauthenticated link. */
    private LinkAuth auth;
    /** This run's random epoch and the number of its last message (see RemoteDescriptor). */
    private long epoch;
    private long messageNumber;
    /** Where an encrypted payload is put together: direct, grown to the largest payload and its tag. */
    private ByteBuffer scratch;
    private ByteBuffer scratchSource;

    private String node;
    private RemoteDriver driver;
    private ExclusivePublication publication;
    private int streamId;
    private boolean drop;
    private long lingerNanos;
    private String channel;
    /** The bound the receiver has been told (by a packet or a bound message). */
    private long sentBound = Timestamp.UNSTARTED;
    /** Messages given up, packets and control; volatile (written on the rare path) for the report line. */
    private volatile long dropped;
    /** Drop warnings: one line per 10 s, with how many it stands for. */
    private final RateLimitedLog dropLog = new RateLimitedLog(10_000_000_000L);
    /** Messages refused at least once as back-pressured; volatile for the report line. */
    private volatile long backPressured;
    /** Messages refused at least once for want of a subscriber; volatile for the report line. */
    private volatile long notConnected;
    /** The message in hand was refused already (it counts once in the two above). */
    private boolean refused;
    private int sessionId;
    /** Packets handled so far, sent or dropped: the next packet's sequence number. */
    private long sequence;
    private boolean warnedNotConnected;
    /** The message being sent was sealed while no subscriber was connected: seal it again once one is. */
    private boolean sealedUnconnected;

    @Override
    public void contract(final Contract contract)
    {
        contract.option("channel", OptionType.STRING, "aeron:ipc")
            .option("stream_id", OptionType.LONG, 1001L)
            .range("stream_id", Integer.MIN_VALUE, Integer.MAX_VALUE)
            .option("policy", OptionType.STRING, "WAIT")
            .oneOf("policy", "WAIT", "DROP")
            .option("term_length", OptionType.LONG, DEFAULT_TERM_LENGTH)
            .range("term_length", 64 * 1024, 1024 * 1024 * 1024)
            .option("mtu", OptionType.LONG, 0L)
            .range("mtu", 0, 65504)
            .option("linger_ms", OptionType.LONG, 5000L)
            .range("linger_ms", 0, Long.MAX_VALUE / 1_000_000)
            .processTimestampBounds(true);
        RemoteCalculators.driverOptions(contract);
        LinkSecurity.options(contract);
    }

    @Override
    public void open(final CalculatorContext ctx)
    {
        node = ctx.nodeName();
        if (ctx.inputCount() != 1 || ctx.outputCount() != 0)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): has " + ctx.inputCount() +
                " inputs and " + ctx.outputCount() + " outputs; valid is one input (the stream to publish) and no outputs");
        }
        streamId = (int)ctx.options().getLong("stream_id");
        drop = "DROP".equals(ctx.options().getString("policy"));
        lingerNanos = TimeUnit.MILLISECONDS.toNanos(ctx.options().getLong("linger_ms"));
        final long termLength = ctx.options().getLong("term_length");
        if (Long.bitCount(termLength) != 1)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'term_length' is " +
                termLength + "; valid is a power of two from 65536 to 1073741824");
        }
        final long mtu = ctx.options().getLong("mtu");
        if (mtu != 0 && (mtu < 128 || (mtu & 31) != 0))
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'mtu' is " + mtu +
                "; valid is 0 (Aeron's default) or a multiple of 32 from 128 to 65504");
        }
        channel = channel(ctx.options().getString("channel"), termLength, (int)mtu);
        security = LinkSecurity.of(ctx, NAME, channel);
        auth = security.key == null ? null : new LinkAuth(security.key);
        epoch = new SecureRandom().nextLong();
        messageNumber = 0;
        if (auth != null)
        {
            auth.epoch(epoch, streamId);
        }
        sentBound = Timestamp.UNSTARTED;
        dropped = 0;
        backPressured = 0;
        notConnected = 0;
        sequence = 0;
        driver = RemoteCalculators.driver(ctx);
        try
        {
            publication = driver.aeron().addExclusivePublication(channel, streamId);
        }
        catch (final RuntimeException ex)
        {
            driver.release();
            driver = null;
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): cannot publish to channel " +
                channel + " stream id " + streamId + ": " + ex.getMessage(), ex);
        }
        sessionId = publication.sessionId();
        ctx.reportLine(this::reportLine);
        // once per run: a journal of this run names the session its packets cross under (a rare-event note)
        ctx.journalNote(Timestamp.UNSET, publication.sessionId(), JOURNAL_NOTE + "session " + publication.sessionId() +
            ", stream id " + streamId + ", channel " + channel);
    }

    private String channel(final String given, final long termLength, final int mtu)
    {
        final ChannelUri uri;
        try
        {
            uri = ChannelUri.parse(given);
        }
        catch (final RuntimeException ex)
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): option 'channel' is '" + given +
                "', not an Aeron channel: " + ex.getMessage() + "; valid are e.g. aeron:ipc and " +
                "aeron:udp?endpoint=127.0.0.1:40123", ex);
        }
        if (uri.get(CommonContext.TERM_LENGTH_PARAM_NAME) == null)
        {
            uri.put(CommonContext.TERM_LENGTH_PARAM_NAME, Long.toString(termLength));
        }
        if (mtu != 0 && uri.get(CommonContext.MTU_LENGTH_PARAM_NAME) == null)
        {
            uri.put(CommonContext.MTU_LENGTH_PARAM_NAME, Integer.toString(mtu));
        }
        return uri.toString();
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        final Input input = ctx.input(0);
        if (input.isEmpty())
        {
            // a bound-only call: the timestamps up to input.timestamp() are settled with no packet
            final long bound = Timestamp.nextAllowedInStream(input.timestamp());
            if (bound > sentBound && input.timestamp() != Timestamp.UNSTARTED)
            {
                sendControl(ctx, BOUND, 0, bound);
            }
            return;
        }
        final long ts = input.timestamp();
        send(ctx, input, ts);
        sequence++; // sent or dropped: a receiver counts the packets it never got by the gaps
    }

    private void send(final CalculatorContext ctx, final Input input, final long ts)
    {
        if (input.isLong())
        {
            sendValue(ctx, KIND_LONG, input.getLong(), ts);
        }
        else if (input.isDouble())
        {
            sendValue(ctx, KIND_DOUBLE, Double.doubleToRawLongBits(input.getDouble()), ts);
        }
        else if (input.value() instanceof Payload)
        {
            sendPayload(ctx, input.payload(), ts);
        }
        else
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the packet at " + ts + " on '" +
                input.streamName() + "' is a " + input.value().getClass().getName() + "; valid are long and double " +
                "packets and off-heap payloads (bytes or frames)");
        }
    }

    private void sendControl(final CalculatorContext ctx, final int type, final int flags, final long timestamp)
    {
        final long deadline = type == CLOSE ? ctx.nanoTime() + lingerNanos : Long.MAX_VALUE;
        final int length = HEADER_LENGTH;
        final ExclusivePublication publication = this.publication;
        RemoteDescriptor.putHeader(header, 0, type, KIND_NONE, flags | security.flags(false), streamId, 0, timestamp,
            sequence);
        seal(null, 0);
        beginSend();
        while (true)
        {
            if (resealWhenConnected(publication))
            {
                seal(null, 0);
            }
            final long result = publication.tryClaim(length, claim);
            if (result > 0)
            {
                claim.buffer().putBytes(claim.offset(), header, 0, HEADER_LENGTH);
                claim.commit();
                if (type == BOUND)
                {
                    sentBound = timestamp;
                }
                return;
            }
            if (!retry(ctx, result, deadline, type, timestamp))
            {
                return;
            }
        }
    }

    private void sendValue(final CalculatorContext ctx, final int kind, final long value, final long ts)
    {
        final ExclusivePublication publication = this.publication;
        RemoteDescriptor.putHeader(header, 0, PACKET, kind, security.flags(false), streamId, 0, ts, sequence);
        RemoteDescriptor.putValue(header, 0, value);
        seal(null, 0);
        beginSend();
        while (true)
        {
            if (resealWhenConnected(publication))
            {
                seal(null, 0);
            }
            final long result = publication.tryClaim(HEADER_LENGTH, claim);
            if (result > 0)
            {
                claim.buffer().putBytes(claim.offset(), header, 0, HEADER_LENGTH);
                claim.commit();
                sentBound = Timestamp.nextAllowedInStream(ts);
                return;
            }
            if (!retry(ctx, result, Long.MAX_VALUE, PACKET, ts))
            {
                return;
            }
        }
    }

    private void sendPayload(final CalculatorContext ctx, final Payload payload, final long ts)
    {
        final int length = payload.length();
        final int messageLength = HEADER_LENGTH + length;
        final ExclusivePublication publication = this.publication;
        if (messageLength > publication.maxMessageLength())
        {
            throw new IllegalArgumentException("node '" + node + "' (" + NAME + "): the payload at " + ts + " is " +
                length + " bytes, more than the largest message of channel " + channel + " (" +
                publication.maxMessageLength() + " bytes with its header, an eighth of its term length " +
                publication.termBufferLength() + "); valid is a term_length of at least 8 x " + messageLength +
                ", rounded up to a power of two");
        }
        final int kind = payload.isFrame() ? KIND_FRAME : KIND_BYTES;
        RemoteDescriptor.putHeader(header, 0, PACKET, kind, security.flags(true), streamId, length, ts, sequence);
        if (kind == KIND_FRAME)
        {
            RemoteDescriptor.putFrame(header, 0, payload.width(), payload.height(), payload.stride(), payload.format());
        }
        DirectBuffer bytes = seal(payload.buffer(), length);
        beginSend();
        while (true)
        {
            if (resealWhenConnected(publication))
            {
                bytes = seal(payload.buffer(), length);
            }
            final long result;
            if (messageLength <= publication.maxPayloadLength())
            {
                result = publication.tryClaim(messageLength, claim);
                if (result > 0)
                {
                    final MutableDirectBuffer buffer = claim.buffer();
                    final int offset = claim.offset();
                    buffer.putBytes(offset, header, 0, HEADER_LENGTH);
                    buffer.putBytes(offset + HEADER_LENGTH, bytes, 0, length);
                    claim.commit();
                }
            }
            else
            {
                // header and payload gathered by Aeron into its term, the payload straight from its slot
                result = publication.offer(header, 0, HEADER_LENGTH, bytes, 0, length, null);
            }
            if (result > 0)
            {
                sentBound = Timestamp.nextAllowedInStream(ts);
                return;
            }
            if (!retry(ctx, result, Long.MAX_VALUE, PACKET, ts))
            {
                return;
            }
        }
    }

    /**
     * Whether the message being sent waited for a subscriber and one is connected now: it is sealed
     * again (a new number, the wall clock now), since a receiver takes the first message of a run
     * only if it was sent after the receiver started, and this one was sealed before.
     */
    private boolean resealWhenConnected(final ExclusivePublication publication)
    {
        return sealedUnconnected && auth != null && publication.isConnected();
    }

    /**
     * Gives the message whose header is in {@link #header} its origin (epoch, number, wall clock)
     * and, on an authenticated link, its tag; encrypts its payload when the link says so.
     *
     * @param payload the payload's bytes, or null for a message without.
     * @return the bytes to send after the header: {@code payload}, or its ciphertext.
     */
    private DirectBuffer seal(final DirectBuffer payload, final int length)
    {
        sealedUnconnected = false;
        final UnsafeBuffer header = this.header;
        final long message = ++messageNumber; // a dropped message's number is not used again
        final LinkAuth auth = this.auth;
        RemoteDescriptor.putOrigin(header, 0, epoch, message, auth == null ? 0 : System.currentTimeMillis());
        if (auth == null)
        {
            return payload;
        }
        auth.begin(header, 0);
        if (payload != null && security.encrypted)
        {
            ensureScratch(length);
            sealed.wrap(scratch, 0, length);
            sealed.putBytes(0, payload, 0, length);
            auth.encrypt(scratchSource, scratch, length, message, header, 0);
            return sealed;
        }
        if (payload != null && security.payloadAuthenticated)
        {
            auth.update(payload, 0, length);
        }
        auth.finish();
        auth.putTag(header, 0);
        return payload;
    }

    private void ensureScratch(final int length)
    {
        final int needed = length + RemoteDescriptor.TAG_LENGTH;
        if (scratch == null || scratch.capacity() < needed)
        {
            scratch = ByteBuffer.allocateDirect(needed); // grows to the largest payload, then stays
            scratchSource = scratch.duplicate();
        }
    }

    private void beginSend()
    {
        idle.reset();
        refused = false;
    }

    /**
     * The report line (see {@link CalculatorContext#reportLine}), on the reporting thread: the
     * messages that met back pressure or found no subscriber, and those given up. Racy figures.
     */
    private void reportLine(final StringBuilder sb)
    {
        final long backPressured = this.backPressured;
        final long notConnected = this.notConnected;
        final long dropped = this.dropped;
        sb.append("remote stream to ").append(channel).append(" stream id ").append(streamId).append(", session ")
            .append(sessionId).append(" (policy ").append(drop ? "DROP" : "WAIT").append("): ").append(backPressured)
            .append(backPressured == 1 ? " message" : " messages").append(" back-pressured, ").append(notConnected)
            .append(" with no subscriber connected, ").append(dropped).append(" dropped");
    }

    /**
     * A send was refused: whether to try again (after idling) or give the message up (counted).
     *
     * @throws IllegalStateException if the publication can never take a message again.
     */
    private boolean retry(
        final CalculatorContext ctx,
        final long result,
        final long deadline,
        final int type,
        final long timestamp)
    {
        if (result == Publication.ADMIN_ACTION)
        {
            return true; // the log rotated under the claim: try again at once
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
        {
            throw new IllegalStateException("node '" + node + "' (" + NAME + "): the publication to " + channel +
                " stream id " + streamId + " is " + (result == Publication.CLOSED ? "closed" :
                "at its maximum position (term_length x 2^31): start a new one") + "; the " +
                RemoteDescriptor.typeName(type) + " at " + Timestamp.toString(timestamp) + " cannot go");
        }
        // NOT_CONNECTED or BACK_PRESSURED
        if (!refused)
        {
            refused = true;
            if (result == Publication.NOT_CONNECTED)
            {
                notConnected++; // the only writer
            }
            else
            {
                backPressured++;
            }
        }
        if ((!drop || type == CLOSE) && !ctx.isCancelled() && ctx.nanoTime() < deadline)
        {
            sealedUnconnected |= result == Publication.NOT_CONNECTED;
            if (result == Publication.NOT_CONNECTED && !warnedNotConnected)
            {
                warnedNotConnected = true;
                LOG.info("node '{}': no subscriber on {} stream id {} yet; waiting (policy WAIT)", node, channel, streamId);
            }
            idle.idle();
            return true;
        }
        if (type == PACKET)
        {
            ctx.countDrop();
        }
        dropped++;
        final long now = System.nanoTime();
        if (dropLog.record(now)) // the first at once, then one line per 10 s with the count
        {
            final long count = dropLog.takeCount();
            final long window = dropLog.windowMillis(now);
            RemoteStreamEvent.emit(node, channel, streamId, "dropped", "", RemoteDescriptor.typeName(type) +
                (type == CLOSE ? "" : " at " + Timestamp.toString(timestamp)) + ": " +
                (result == Publication.NOT_CONNECTED ? "no subscriber connected" : "back-pressured"), dropped, 0);
            LOG.warn("node '{}': dropped {} packet{}{}, the last the {}{}, for {} stream id {}: {} ({} dropped so far; {})",
                node, count, count == 1 ? "" : "s", window == 0 ? "" : " in the last " + window / 1000 + " s",
                RemoteDescriptor.typeName(type), type == CLOSE ? "" : " at " + Timestamp.toString(timestamp), channel,
                streamId, result == Publication.NOT_CONNECTED ? "no subscriber connected" : "back-pressured", dropped,
                ctx.isCancelled() ? "the run is cancelled" : type == CLOSE ? "linger_ms is over" : "policy DROP");
        }
        return false;
    }

    @Override
    public void close(final CalculatorContext ctx)
    {
        if (publication == null)
        {
            return;
        }
        try
        {
            sendControl(ctx, CLOSE, ctx.isCancelled() ? FLAG_CANCELLED : 0, sentBound);
        }
        finally
        {
            publication.close();
            publication = null;
            driver.release();
            driver = null;
        }
    }
}
