package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import io.aeron.Publication;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static dev.framewire.remote.RemoteDescriptor.FLAG_AUTHENTICATED;
import static dev.framewire.remote.RemoteDescriptor.FLAG_PAYLOAD_AUTHENTICATED;
import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.channel;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static dev.framewire.remote.RemoteTestSupport.subscriber;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The attacks of issue 41 on a live receiver over UDP on 127.0.0.1, sent by a plain Aeron
 * publication of another session (its own SETUP and DATA frames, as a stranger's would be): a
 * forged CLOSE, a number on a frame stream, a forged bound of 2^62, replayed and stale authentic
 * messages, a truncated and a tampered payload. Each is rejected and counted; the genuine
 * publisher's frames all arrive afterwards, and the stream ends only at its own CLOSE.
 */
class RemoteAuthTest
{
    private static final int H = RemoteDescriptor.HEADER_LENGTH;

    @Test
    @Timeout(90)
    void forgedReplayedAndTruncatedMessagesAreRejectedAndTheRealStreamGoesOn() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final byte[] key = RemoteKey.load(Paths.get(RemoteTestSupport.keyFile()), "test");
        final Queue<String> out = new ConcurrentLinkedQueue<>();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "test");
        try (Graph receiver = new Graph(subscriber(channel, id));
            Publication attacker = driver.aeron().addPublication(channel + "|mtu=1408|term-length=1048576", id))
        {
            receiver.observe("out", p -> out.add(p.timestamp() + (p.isLong() ? "=" + p.getLong() : " frame")));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            final long started = System.currentTimeMillis();
            receiver.start();
            await("the attacker's session to be heard", 10_000, attacker::isConnected);
            final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(8192));
            final long now = System.currentTimeMillis();

            // forged, unauthenticated: a CLOSE, a number on the frame stream, a bound of 2^62
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.CLOSE, RemoteDescriptor.KIND_NONE, 0, id, 0, 0, 0);
            send(attacker, b, H);
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_LONG, 0, id, 0, 5, 0);
            RemoteDescriptor.putValue(b, 0, 666);
            send(attacker, b, H);
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.BOUND, RemoteDescriptor.KIND_NONE, 0, id, 0, 1L << 62, 0);
            send(attacker, b, H);
            // forged, claiming authentication with a tag made without the key
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.CLOSE, RemoteDescriptor.KIND_NONE, FLAG_AUTHENTICATED, id, 0, 0, 0);
            RemoteDescriptor.putOrigin(b, 0, 42, 1, now);
            b.putLong(RemoteDescriptor.TAG_OFFSET, 0x0123456789ABCDEFL);
            send(attacker, b, H);
            // signed with another key
            signed(b, new byte[32], id, RemoteDescriptor.BOUND, 1L << 62, 43, 1, now, 0);
            send(attacker, b, H);

            // authentic messages of a publisher run (as if captured), then replayed
            final long epoch = 0x5EED;
            signed(b, key, id, RemoteDescriptor.PACKET, 1, epoch, 1, now, 0);
            RemoteDescriptor.putValue(b, 0, 11);
            resign(b, key, id, 0);
            send(attacker, b, H);                                              // taken: 1=11
            send(attacker, b, H);                                              // replayed
            signed(b, key, id, RemoteDescriptor.BOUND, 3, epoch, 2, now, 0);
            send(attacker, b, H);                                              // taken: bound 3
            signed(b, key, id, RemoteDescriptor.PACKET, 1, epoch, 1, now, 0);
            RemoteDescriptor.putValue(b, 0, 11);
            resign(b, key, id, 0);
            send(attacker, b, H);                                              // replayed (number 1 again)
            // a publisher run not seen before whose first message was sent a minute ago: stale
            signed(b, key, id, RemoteDescriptor.CLOSE, 3, 0xBAD, 1, now - 60_000, 0);
            send(attacker, b, H);
            // a CLOSE of a run this receiver never saw, sent 5 s ago (within freshness_ms) before it
            // started: as if a receiver restarted and the CLOSE its predecessor took were replayed
            signed(b, key, id, RemoteDescriptor.CLOSE, 3, 0xC105E, 1, started - 5_000, 0);
            send(attacker, b, H);
            // a restarted publisher: a new epoch, fresh, its packets above the bound
            signed(b, key, id, RemoteDescriptor.PACKET, 4, 0xA11, 1, now, 0);
            RemoteDescriptor.putValue(b, 0, 44);
            resign(b, key, id, 0);
            send(attacker, b, H);                                              // taken: 4=44
            // an authentic payload, tampered with; then one cut short
            final int length = 3000;
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES,
                FLAG_AUTHENTICATED | FLAG_PAYLOAD_AUTHENTICATED, id, length, 6, 0);
            RemoteDescriptor.putOrigin(b, 0, 0xA11, 2, now);
            b.setMemory(H, length, (byte)7);
            resign(b, key, id, length);
            b.putByte(H + 2500, (byte)8);
            send(attacker, b, H + length);                                     // fails authentication
            b.putByte(H + 2500, (byte)7);
            RemoteDescriptor.putOrigin(b, 0, 0xA11, 3, now);
            resign(b, key, id, length);
            send(attacker, b, H + 1000);                                       // truncated
            await("the attacks to be taken in", 10_000, () -> receiver.dropCount("rx") >= 11);
            await("the authentic packets to be observed", 10_000, () -> out.size() >= 2);
            assertEquals(List.of("1=11", "4=44"), List.copyOf(out), "only the authentic, fresh, new messages");

            // the genuine publisher, a run of its own: its frames go above the bound the attacks left
            sendGenuineFrames(channel, id);
            assertTrue(receiver.awaitDone(20, TimeUnit.SECONDS), "ended at the genuine CLOSE: " + receiver.report());
            receiver.waitUntilDone();
            final List<String> expected = new ArrayList<>(List.of("1=11", "4=44"));
            for (long ts = 10; ts < 20; ts++)
            {
                expected.add(ts + " frame");
            }
            assertEquals(expected, List.copyOf(out));
            assertEquals(11, receiver.dropCount("rx"), receiver.report());
            final String report = receiver.report();
            assertTrue(report.contains("; 11 messages rejected (6 failed authentication, 4 replayed or stale)"), report);
            assertTrue(statuses.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.REJECTED &&
                s.reason().startsWith("an unauthenticated message, and this receiver has a key_file")), statuses.toString());
        }
        finally
        {
            driver.release();
        }
    }

    /**
     * A publisher that started first and waited for its subscriber: the message it sealed while
     * waiting is sealed again once the subscriber is there, so that a receiver, which takes the first
     * message of a run only if it was sent after the receiver started, takes it (none is stale).
     */
    @Test
    @Timeout(60)
    void aMessageThatWaitedForTheSubscriberIsSealedAgainAndTaken() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final Queue<Long> received = new ConcurrentLinkedQueue<>();
        try (Graph sender = new Graph(publisher(channel, id, n -> { }));
            Graph receiver = new Graph(subscriber(channel, id)))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            in.addPacket(7L, 1);
            await("the publisher to wait for a subscriber", 10_000,
                () -> sender.report().contains("in a call for input timestamp 1"));
            // the condition under test is time itself: the waiting message was sealed over a
            // second (ReplayWindow.START_SKEW_MILLIS) before the receiver starts
            Thread.sleep(ReplayWindow.START_SKEW_MILLIS + 500);
            receiver.observe("out", p -> received.add(p.getLong()));
            receiver.start();
            in.addPacket(8L, 2);
            sender.closeAllInputs();
            sender.waitUntilDone();
            assertTrue(receiver.awaitDone(20, TimeUnit.SECONDS), receiver.report());
            receiver.waitUntilDone();
            assertEquals(List.of(7L, 8L), List.copyOf(received), receiver.report());
            assertEquals(0, receiver.dropCount("rx"), receiver.report());
        }
    }

    /** The genuine publisher, a run of its own: ten small frames at timestamps 10 to 19, then its CLOSE. */
    private static void sendGenuineFrames(final String channel, final int id) throws Exception
    {
        try (Graph sender = new Graph(publisher(channel, id, n -> n.option("mtu", 4096L))))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            for (long ts = 10; ts < 20; ts++)
            {
                final Payload frame = sender.pool().acquireFrame(64, 48, PixelFormat.GRAY8);
                frame.mutableBuffer().setMemory(0, frame.length(), (byte)ts);
                in.addPacket(frame, ts);
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"PAYLOAD", "HEADER", "AES_GCM"})
    @Timeout(60)
    void framesCrossUnderEachProtection(final String protection) throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final List<String> received = new ArrayList<>();
        final List<String> expected = new ArrayList<>();
        final boolean gcm = "AES_GCM".equals(protection);
        final GraphConfig rx = subscriber(channel, id, n -> n.option("authentication", gcm ? "PAYLOAD" : protection)
            .option("encryption", gcm ? "AES_GCM" : "NONE"));
        try (Graph receiver = new Graph(rx);
            Graph sender = new Graph(publisher(channel, id, n -> n.option("mtu", 4096L).option("term_length", 16L << 20)
                .option("authentication", gcm ? "PAYLOAD" : protection).option("encryption", gcm ? "AES_GCM" : "NONE"))))
        {
            receiver.observe("out", p -> received.add(p.timestamp() + ":" + (p.isLong() ? "long" : checksum(p.payload()))));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("in");
            long ts = 0;
            for (final int size : new int[] {100, 4000, 640 * 480})
            {
                for (int i = 0; i < 3; i++, ts++)
                {
                    final Payload p = size == 640 * 480 ? sender.pool().acquireFrame(640, 480, PixelFormat.GRAY8) :
                        sender.pool().acquire(size);
                    for (int j = 0; j < p.length(); j++)
                    {
                        p.mutableBuffer().putByte(j, (byte)(j * 31 + ts));
                    }
                    expected.add(ts + ":" + checksum(p));
                    in.addPacket(p, ts);
                }
            }
            in.addPacket(77L, ts);
            expected.add(ts + ":long");
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
            assertEquals(0, receiver.dropCount("rx"), receiver.report());
        }
        assertEquals(expected, received);
    }

    @Test
    @Timeout(60)
    void aReceiverThatWantsEncryptionRejectsPlainPayloads() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        final int id = streamId();
        final List<Long> received = new ArrayList<>();
        final GraphConfig rx = subscriber(channel, id, n -> n.option("encryption", "AES_GCM"));
        try (Graph receiver = new Graph(rx); Graph sender = new Graph(publisher(channel, id, n -> { })))
        {
            receiver.observe("out", p -> received.add(p.timestamp()));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("in");
            in.addPacket(sender.pool().acquire(100), 1);
            in.addPacket(5L, 2); // no payload to hide: authenticated is enough
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
            assertEquals(List.of(2L), received);
            assertEquals(1, receiver.dropCount("rx"));
            assertTrue(receiver.report().contains("(1 failed authentication, 0 replayed or stale)"), receiver.report());
        }
    }

    @Test
    void aNetworkChannelWithoutAKeyIsRefusedAtStart() throws Exception
    {
        final String channel = channel(RemoteTestSupport.Transport.UDP);
        try (Graph receiver = new Graph(GraphConfig.builder()
            .node("rx", n -> n.calculator(AeronSubscriberCalculator.NAME).outputStream("out")
                .option("channel", channel).option("stream_id", 5L))
            .outputStream("out")
            .build()))
        {
            receiver.start();
            final Exception ex = assertThrows(Exception.class, receiver::waitUntilDone);
            assertTrue(ex.getMessage().contains("node 'rx' (AeronSubscriberCalculator): channel " + channel + " is " +
                "reachable over the network and no 'key_file' is given"), ex.getMessage());
        }
    }

    private static String checksum(final Payload p)
    {
        if (p == null)
        {
            return "long";
        }
        long sum = 0;
        for (int j = 0; j < p.length(); j++)
        {
            sum = sum * 31 + p.buffer().getByte(j);
        }
        return p.length() + "/" + sum;
    }

    /** A header-only message of {@code type} signed with {@code key}, as the publisher of {@code epoch} sends it. */
    private static void signed(final UnsafeBuffer b, final byte[] key, final int id, final int type, final long ts,
        final long epoch, final long message, final long sent, final long sequence)
    {
        RemoteDescriptor.putHeader(b, 0, type, type == RemoteDescriptor.PACKET ? RemoteDescriptor.KIND_LONG :
            RemoteDescriptor.KIND_NONE, FLAG_AUTHENTICATED | FLAG_PAYLOAD_AUTHENTICATED, id, 0, ts, sequence);
        RemoteDescriptor.putOrigin(b, 0, epoch, message, sent);
        resign(b, key, id, 0);
    }

    /** Puts the tag of the message in {@code b} (header and {@code length} payload bytes) under {@code key}. */
    private static void resign(final MutableDirectBuffer b, final byte[] key, final int id, final int length)
    {
        b.putLong(RemoteDescriptor.TAG_OFFSET, 0);
        b.putLong(RemoteDescriptor.TAG_OFFSET + 8, 0);
        final LinkAuth auth = new LinkAuth(key);
        auth.epoch(RemoteDescriptor.epoch(b, 0), id);
        auth.begin(b, 0);
        auth.update(b, H, length);
        auth.finish();
        auth.putTag(b, 0);
    }

    private static void send(final Publication raw, final UnsafeBuffer b, final int length) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (raw.offer(b, 0, length) < 0)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("could not offer " + length + " bytes");
            }
            Thread.sleep(1);
        }
    }
}
