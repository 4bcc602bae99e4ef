package dev.framewire.remote;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static dev.framewire.remote.RemoteDescriptor.BOUND;
import static dev.framewire.remote.RemoteDescriptor.CLOSE;
import static dev.framewire.remote.RemoteDescriptor.FLAG_CANCELLED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_ENCRYPTED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_PAYLOAD_AUTHENTICATED;
import static dev.framewire.remote.RemoteDescriptor.HEADER_LENGTH;
import static dev.framewire.remote.RemoteDescriptor.KIND_DOUBLE;
import static dev.framewire.remote.RemoteDescriptor.KIND_FRAME;
import static dev.framewire.remote.RemoteDescriptor.KIND_LONG;
import static dev.framewire.remote.RemoteDescriptor.PACKET;

/**
 * An {@link AeronSubscriberCalculator}'s fragment handler: decodes each message's header (checked by
 * {@link RemoteDescriptor#invalid}, then authenticated on a link with a key, against replays by a
 * {@link ReplayWindow}), reassembles a payload's fragments straight into one pooled payload per
 * publisher session ({@link SubscriberSession}), and delivers: packets and bounds on the data
 * output, within the call's shipment, a CLOSE as {@link #closing}. What it rejects goes to
 * {@link SubscriberReports}.
 *
 * <p>Threading: the subscriber's worker, inside {@code Subscription.controlledPoll}.
 */
final class MessageAssembler implements ControlledFragmentHandler
{
    private static final Logger LOG = LoggerFactory.getLogger(AeronSubscriberCalculator.class);

    /** Each publisher session's state: the message being reassembled, the next packet's sequence. */
    final Int2ObjectHashMap<SubscriberSession> sessions = new Int2ObjectHashMap<>();
    private final SubscriberReports reports;
    private final ReplayWindow window = new ReplayWindow();
    private Output data;
    private PayloadPool pool;
    private int streamId;
    private LinkSecurity security;
    /** The call's context, null between calls. */
    CalculatorContext ctx;
    /** Packets emitted in this call. */
    int emitted;
    int maxShipment;
    /** The call's shipment is full: the next call goes on. */
    boolean shipmentFull;
    /** The stream closed (a CLOSE, or a lost publisher under {@code publisher_lost CLOSE}). */
    boolean closing;

    MessageAssembler(final SubscriberReports reports)
    {
        this.reports = reports;
    }

    /** A new run's stream. */
    void reset(
        final Output data, final PayloadPool pool, final int streamId, final LinkSecurity security,
        final long freshnessMillis)
    {
        this.data = data;
        this.pool = pool;
        this.streamId = streamId;
        this.security = security;
        window.reset(freshnessMillis);
        closing = false;
    }

    /** A call begins: its shipment is empty. */
    void begin(final CalculatorContext ctx)
    {
        this.ctx = ctx;
        emitted = 0;
        shipmentFull = false;
        maxShipment = ctx.maxShipmentSize();
    }

    /** Releases what every session was putting together, and forgets them. */
    void discardAll()
    {
        for (final SubscriberSession r : sessions.values())
        {
            r.discard();
        }
        sessions.clear();
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
            final SubscriberSession open = sessions.get(session);
            if (open != null && open.payload != null)
            {
                reports.reject(session, "truncated message: the PACKET at " + open.timestamp + " got " + open.received +
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
        final SubscriberSession r = session(session);
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
            reports.reject(session, "overlong message: the PACKET at " + r.timestamp + " has more than the " + r.expected +
                " payload bytes its header says");
            r.discard();
            r.skipping = !end;
            return Action.CONTINUE;
        }
        r.take(buffer, offset, length);
        if (end)
        {
            final Payload payload = r.payload;
            r.payload = null;
            if (r.received != r.expected)
            {
                payload.release();
                reports.reject(session, "truncated message: the PACKET at " + r.timestamp + " has " + r.received + " of the " +
                    r.expected + " payload bytes its header says");
            }
            else
            {
                complete(session, r, payload);
            }
        }
        return Action.CONTINUE;
    }

    SubscriberSession session(final int session)
    {
        SubscriberSession state = sessions.get(session);
        if (state == null)
        {
            state = new SubscriberSession(); // once per publisher session
            sessions.put(session, state);
        }
        return state;
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
            reports.reject(session, invalid);
            skipRest(session, whole);
            return Action.CONTINUE;
        }
        final int type = RemoteDescriptor.type(buffer, offset);
        final long timestamp = RemoteDescriptor.timestamp(buffer, offset);
        final Output data = this.data;
        final SubscriberSession state = session(session);
        final int flags = RemoteDescriptor.flags(buffer, offset);
        final boolean hasPayload = RemoteDescriptor.length(buffer, offset) > 0;
        final String refused = security.refused(flags, hasPayload);
        if (refused != null)
        {
            reports.forged++; // the only writer
            reports.reject(session, refused);
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
            reports.checkSequence(session, state, RemoteDescriptor.sequence(buffer, offset), type == PACKET);
        }
        if (type == CLOSE)
        {
            closing = true;
            if ((RemoteDescriptor.flags(buffer, offset) & FLAG_CANCELLED) != 0)
            {
                LOG.warn("node '{}': the publisher ({}) closed {} stream id {} because its run was cancelled or failed",
                    reports.node, reports.sourceOf(session), reports.channel, streamId);
            }
            return Action.BREAK;
        }
        if (type == BOUND)
        {
            if (timestamp == Timestamp.DONE || timestamp < Timestamp.MIN)
            {
                reports.reject(session, "BOUND to " + Timestamp.toString(timestamp) + ", valid is MIN to ONE_OVER_POST_STREAM " +
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
            reports.reject(session, timestamp, late);
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
        final SubscriberSession state,
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
        final SubscriberSession state,
        final long timestamp,
        final int kind)
    {
        final int payloadLength = RemoteDescriptor.length(buffer, offset);
        final int inFragment = length - HEADER_LENGTH;
        if (!whole && inFragment >= payloadLength)
        {
            reports.reject(session, "overlong message: the PACKET at " + timestamp + " has more than the " + payloadLength +
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
            reports.reject(session, "the PACKET at " + timestamp + " has a payload of " + payloadLength + " bytes, which this " +
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
        final SubscriberSession r = state;
        r.payload = payload;
        r.timestamp = timestamp;
        r.expected = payloadLength;
        r.received = 0;
        r.skipping = false;
        if (r.encrypted)
        {
            r.ensureScratch(payloadLength);
        }
        r.take(buffer, offset + HEADER_LENGTH, inFragment);
        if (whole)
        {
            r.payload = null;
            complete(session, r, payload);
        }
        return Action.CONTINUE;
    }

    /** A payload message whole: authenticated (and decrypted) if its check was deferred, then emitted. */
    private void complete(final int session, final SubscriberSession r, final Payload payload)
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
            reports.checkSequence(session, r, r.sequence, true);
        }
        emit(session, payload, r.timestamp);
    }

    /**
     * Whether a message whose tag was checked ({@code tagOk}) is to be taken: authentic, and not a
     * replay (a message number at or below the last taken of its publisher's epoch, or a first
     * message of an epoch not seen before sent more than {@code freshness_ms} ago). Counts and
     * rejects it if not.
     */
    private boolean authentic(final int session, final SubscriberSession state, final boolean tagOk)
    {
        if (!tagOk)
        {
            reports.forged++; // the only writer
            reports.reject(session, "failed authentication: the tag of the " + RemoteDescriptor.typeName(state.type) + " at " +
                Timestamp.toString(state.timestamp) + " does not match its bytes under this link's key (forged or " +
                "corrupted, or the two ends' key files differ)");
            return false;
        }
        final String refusal = window.refusal(state);
        if (refusal != null)
        {
            reports.replayed++; // the only writer
            reports.reject(session, refusal);
            return false;
        }
        state.authenticated = true;
        return true;
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
            reports.reject(session, timestamp, late);
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
}
