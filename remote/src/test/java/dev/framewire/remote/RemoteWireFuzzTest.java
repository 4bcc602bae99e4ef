package dev.framewire.remote;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Output;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import io.aeron.AvailableImageHandler;
import io.aeron.Subscription;
import io.aeron.UnavailableImageHandler;
import io.aeron.logbuffer.ControlledFragmentHandler.Action;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.logbuffer.Header;
import io.aeron.protocol.DataHeaderFlyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzes what a remote subscriber decodes off the wire: Aeron fragments of one or more publisher
 * sessions, each fragment a part of a message (a {@link RemoteDescriptor} header, then a payload),
 * handed to the subscriber's {@link MessageAssembler} as {@code Subscription.controlledPoll} would,
 * on a link without a key, with header authentication, with payload authentication, or encrypted.
 * Nothing is allowed to escape the assembler: a bad message is rejected and counted, never
 * thrown; a payload is either delivered or released (the pool's acquires and releases balance
 * once the delivered ones are released); an ABORT (shipment full) makes progress on the next call.
 *
 * <p>The input: byte 0 picks the link's security ({@link #MODES}); then fragments, each a flags
 * byte (bit 0 Aeron's BEGIN, bit 1 END, bits 2-3 the publisher session), a little-endian 16-bit
 * length and that many bytes. Seeds under {@code RemoteWireFuzzTestInputs/fragments/} are what
 * the publisher writes ({@link RemoteWireSeeds}).
 */
class RemoteWireFuzzTest
{
    static final int STREAM_ID = 1001;
    /** Security modes by byte 0: no key, header authenticated, payload authenticated, encrypted. */
    static final int MODES = 4;
    static final byte[] KEY = new byte[32];
    /** Freshness wide enough that a seed recorded at a fixed time stays fresh; replays are still refused. */
    static final long FRESHNESS_MS = 10_000_000_000_000L;
    private static final int MAX_SHIPMENT = 4;
    private static final PayloadPool POOL = new PayloadPool();
    /** A subscription with no images, for the reports' "session N from ..." (no client: never polled). */
    private static final Subscription SUBSCRIPTION = subscription();

    static
    {
        for (int i = 0; i < KEY.length; i++)
        {
            KEY[i] = (byte)(i * 7 + 1);
        }
    }

    @FuzzTest
    void fragments(final byte[] data)
    {
        final long acquiresBefore = POOL.acquires();
        final long releasesBefore = POOL.releases();
        final Delivered delivered = deliver(data);
        delivered.release();
        assertEquals(POOL.acquires() - acquiresBefore, POOL.releases() - releasesBefore,
            "every payload the assembler took from the pool is delivered or released");
    }

    /** The delivered packets of one input's fragments (payloads still held: {@link Delivered#release()}). */
    static Delivered deliver(final byte[] data)
    {
        final Delivered out = new Delivered();
        if (data.length == 0)
        {
            return out;
        }
        final SubscriberReports reports = new SubscriberReports();
        final CalculatorContext ctx = context();
        final FakeOutput status = new FakeOutput();
        reports.reset("subscriber", "aeron:udp?endpoint=127.0.0.1:0", STREAM_ID, out.data, status);
        reports.ctx = ctx;
        reports.subscription = SUBSCRIPTION;
        final MessageAssembler assembler = new MessageAssembler(reports);
        assembler.reset(out.data, POOL, STREAM_ID, security((data[0] & 0xFF) % MODES), FRESHNESS_MS);
        assembler.begin(ctx);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[DataHeaderFlyweight.HEADER_LENGTH]);
        final DataHeaderFlyweight flyweight = new DataHeaderFlyweight(frame);
        final Header header = new Header(0, 16);
        header.buffer(frame);
        header.offset(0);
        final UnsafeBuffer buffer = new UnsafeBuffer(data);
        int pos = 1;
        try
        {
            while (pos + 3 <= data.length && !assembler.closing)
            {
                final int control = data[pos] & 0xFF;
                final int length = Math.min((data[pos + 1] & 0xFF) | (data[pos + 2] & 0xFF) << 8, data.length - pos - 3);
                final short flags = (short)(((control & 1) != 0 ? FrameDescriptor.BEGIN_FRAG_FLAG : 0) |
                    ((control & 2) != 0 ? FrameDescriptor.END_FRAG_FLAG : 0));
                flyweight.flags(flags);
                flyweight.sessionId((control >> 2) & 3);
                Action action = assembler.onFragment(buffer, pos + 3, length, header);
                if (action == Action.ABORT && !assembler.closing)
                {
                    assertTrue(assembler.shipmentFull, "an ABORT is a full shipment, or a closed stream");
                    out.endCall();
                    assembler.begin(ctx); // the next call: Aeron hands the same fragment again
                    action = assembler.onFragment(buffer, pos + 3, length, header);
                    assertFalse(action == Action.ABORT && !assembler.closing, "a fragment aborted twice in a row " +
                        "never gets in");
                }
                pos += 3 + length;
            }
        }
        finally
        {
            assembler.discardAll();
        }
        assertTrue(reports.rejected >= reports.forged + reports.replayed, "forged and replayed are rejected too");
        status.release();
        return out;
    }

    private static Subscription subscription()
    {
        try
        {
            final Constructor<Subscription> c = Subscription.class.getDeclaredConstructor(
                Class.forName("io.aeron.ClientConductor"), String.class, int.class, long.class,
                AvailableImageHandler.class, UnavailableImageHandler.class);
            c.setAccessible(true);
            return c.newInstance(null, "aeron:udp?endpoint=127.0.0.1:0", STREAM_ID, 1L, null, null);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    static LinkSecurity security(final int mode)
    {
        try
        {
            final Constructor<LinkSecurity> c = LinkSecurity.class.getDeclaredConstructor(byte[].class, boolean.class,
                boolean.class);
            c.setAccessible(true);
            return c.newInstance(mode == 0 ? null : KEY, mode == 2, mode == 3);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** The calls' context: shipments of at most {@link #MAX_SHIPMENT} packets; notes and drops ignored. */
    private static CalculatorContext context()
    {
        return (CalculatorContext)Proxy.newProxyInstance(CalculatorContext.class.getClassLoader(),
            new Class<?>[]{CalculatorContext.class}, (proxy, method, args) ->
            {
                switch (method.getName())
                {
                    case "maxShipmentSize":
                        return MAX_SHIPMENT;
                    case "shipmentBytesLeft":
                        return 1L << 20;
                    case "nanoTime":
                        return System.nanoTime();
                    case "toString":
                        return "fuzz context";
                    default:
                        return zero(method.getReturnType());
                }
            });
    }

    /** The zero of a return type, null for a reference (the ternary form would unbox a null). */
    private static Object zero(final Class<?> type)
    {
        if (type == boolean.class)
        {
            return Boolean.FALSE;
        }
        if (type == int.class)
        {
            return 0;
        }
        if (type == long.class)
        {
            return 0L;
        }
        if (type == double.class)
        {
            return 0.0;
        }
        return null;
    }

    /** What one input delivered: values, payloads and bounds, in order. */
    static final class Delivered
    {
        final FakeOutput data = new FakeOutput();
        final List<Object> values = new ArrayList<>();

        void endCall()
        {
            values.addAll(data.values);
            data.values.clear();
        }

        void release()
        {
            endCall();
            for (final Object value : values)
            {
                if (value instanceof Payload)
                {
                    ((Payload)value).release();
                }
            }
        }
    }

    /** An output stream: keeps what is added, checks timestamps increase, keeps the bound. */
    static final class FakeOutput implements Output
    {
        final List<Object> values = new ArrayList<>();
        long bound = Timestamp.MIN;

        @Override
        public int index()
        {
            return 0;
        }

        @Override
        public String streamName()
        {
            return "data";
        }

        @Override
        public void add(final Object value, final long timestamp)
        {
            assertTrue(Timestamp.isValidPacketTimestamp(timestamp) && timestamp >= bound,
                "a packet at " + timestamp + " on a stream bounded at " + bound);
            values.add(value);
            bound = Timestamp.nextAllowedInStream(timestamp);
        }

        @Override
        public void addLong(final long value, final long timestamp)
        {
            add(value, timestamp);
        }

        @Override
        public void addDouble(final double value, final long timestamp)
        {
            add(value, timestamp);
        }

        @Override
        public void setNextTimestampBound(final long next)
        {
            assertTrue(next >= bound, "a bound never goes back: " + next + " after " + bound);
            bound = next;
        }

        @Override
        public long nextTimestampBound()
        {
            return bound;
        }

        @Override
        public void close()
        {
            bound = Timestamp.DONE;
        }

        void release()
        {
            for (final Object value : values)
            {
                if (value instanceof Payload)
                {
                    ((Payload)value).release();
                }
            }
            values.clear();
        }
    }
}
