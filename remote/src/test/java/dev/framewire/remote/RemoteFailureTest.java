package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.PixelFormat;
import io.aeron.Publication;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static dev.framewire.remote.RemoteTestSupport.subscriber;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What goes wrong between two graphs: no subscriber (DROP counts, WAIT waits and still ends on
 * cancel), bad messages from a plain Aeron publication (reported, counted, dropped, the receiver
 * runs on), and a publisher that goes away without closing its stream (reported). Graph close checks
 * both sides for leaked payloads after each.
 */
class RemoteFailureTest
{
    private static final String IPC = "aeron:ipc";
    private static final int H = RemoteDescriptor.HEADER_LENGTH;

    @Test
    @Timeout(60)
    void dropPolicyCountsWhatNoSubscriberTook() throws Exception
    {
        final int id = streamId();
        final GraphConfig config = publisher(IPC, id, n -> n.option("policy", "DROP").option("linger_ms", 50L));
        try (Graph sender = new Graph(config))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            for (long ts = 0; ts < 5; ts++)
            {
                in.addPacket(ts, ts);
            }
            final var frame = sender.pool().acquireFrame(32, 32, PixelFormat.GRAY8);
            in.addPacket(frame, 10);
            in.setBound(20); // a bound no one hears is dropped too, but it is no packet: not in dropCount
            sender.closeAllInputs();
            sender.waitUntilDone();
            assertEquals(6, sender.dropCount("tx"));
            final String report = sender.report();
            assertTrue(report.contains("6 dropped"), report);
            // the publisher's own line: every message (6 packets, the close, and the bound unless it
            // went with the close) found no one and was dropped
            final Matcher line = Pattern.compile("\n    remote stream to aeron:ipc\\?\\S* stream id " + id +
                ", session -?\\d+ \\(policy DROP\\): 0 messages back-pressured, ([78]) with no subscriber " +
                "connected, \\1 dropped\n").matcher(report);
            assertTrue(line.find(), report);
        }
    }

    @Test
    @Timeout(60)
    void waitPolicyWaitsForASubscriberAndEndsOnCancel() throws Exception
    {
        try (Graph sender = new Graph(publisher(IPC, streamId(), n -> { })))
        {
            sender.start();
            sender.input("in").addPacket(1L, 1);
            await("the publisher to be in its call, waiting", 10_000,
                () -> sender.report().contains("in a call for input timestamp 1"));
            sender.cancel();
            assertTrue(sender.awaitDone(10, TimeUnit.SECONDS), "the waiting publisher saw the cancel: " + sender.report());
        }
    }

    @Test
    @Timeout(60)
    void badMessagesAreReportedAndDroppedAndTheReceiverRunsOn() throws Exception
    {
        final int id = streamId();
        final Queue<String> out = new ConcurrentLinkedQueue<>();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "test");
        try (Graph receiver = new Graph(subscriber(IPC, id));
            Publication raw = driver.aeron().addPublication(IPC + "?term-length=65536|mtu=1408", id))
        {
            receiver.observe("out", p -> out.add(p.timestamp() + "=" + (p.isLong() ? p.getLong() : p.payload().length() + " bytes")));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            receiver.start();
            await("the receiver to connect", 10_000, raw::isConnected);
            final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(8192));

            longPacket(b, id, 5, 50);
            b.putByte(RemoteDescriptor.VERSION_OFFSET, (byte)1);
            send(raw, b, H);                                         // a header version this receiver does not read
            longPacket(b, id, 5, 50);
            b.putInt(RemoteDescriptor.MAGIC_OFFSET, 0xCAFEBABE);
            send(raw, b, H);                                         // not ours
            longPacket(b, id + 1, 5, 50);
            send(raw, b, H);                                         // another stream id
            longPacket(b, id, 5, 50);
            send(raw, b, 20);                                         // truncated inside the header
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES, 0, id, 100, 6, 0L);
            send(raw, b, H + 10);                                    // truncated payload, one fragment
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES, 0, id, 6000, 7, 0L);
            send(raw, b, H + 3000);                                  // truncated payload, fragmented: nothing leaks
            RemoteDescriptor.putHeader(b, 0, 9, RemoteDescriptor.KIND_NONE, 0, id, 0, 8, 0L);
            send(raw, b, H);                                         // an unknown type
            longPacket(b, id, 10, 100);
            send(raw, b, H);                                         // good
            longPacket(b, id, 9, 90);
            send(raw, b, H);                                         // below the bound 11
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_BYTES, 0, id, 5000, 12, 0L);
            send(raw, b, H + 5000);                                  // good, fragmented
            longPacket(b, id, 20, 200);
            send(raw, b, H);                                         // good
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.CLOSE, RemoteDescriptor.KIND_NONE, 0, id, 0, 21, 0L);
            send(raw, b, H);
            receiver.waitUntilDone();
            assertEquals(List.of("10=100", "12=5000 bytes", "20=200"), List.copyOf(out));
            assertEquals(8, receiver.dropCount("rx"), receiver.report());
            assertTrue(receiver.report().contains("\n    remote stream from aeron:ipc stream id " + id + ": closed, 0 B at " +
                "most; 0 times behind; 0 packets never arrived; 8 messages rejected\n"), receiver.report());
            final RemoteStatus first = statuses.stream().filter(s -> s.kind() == RemoteStatus.Kind.REJECTED)
                .findFirst().orElseThrow(() -> new AssertionError("no REJECTED status: " + statuses));
            assertEquals("header version 1, this receiver reads version 2", first.reason());
            assertTrue(first.source().startsWith("session " + raw.sessionId()), first.source());
        }
        finally
        {
            driver.release();
        }
    }

    @Test
    @Timeout(60)
    void packetsThatNeverArrivedAreCountedByTheGapsInTheirSequenceAndAreJfrEvents() throws Exception
    {
        final int id = streamId();
        final Queue<Long> out = new ConcurrentLinkedQueue<>();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "test");
        final Path jfr = Files.createTempFile("remote-", ".jfr");
        try (Recording recording = new Recording();
            Graph receiver = new Graph(subscriber(IPC, id));
            Publication raw = driver.aeron().addPublication(IPC + "?term-length=65536", id))
        {
            recording.enable("dev.framewire.RemoteStream");
            recording.start();
            receiver.observe("out", p -> out.add(p.getLong()));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            receiver.start();
            await("the receiver to connect", 10_000, raw::isConnected);
            final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
            longPacket(b, id, 1, 10, 3);
            send(raw, b, H);                                          // joined after packets 0, 1, 2
            longPacket(b, id, 2, 20, 4);
            send(raw, b, H);
            longPacket(b, id, 3, 30, 9);
            send(raw, b, H);                                          // 5 to 8 dropped by the publisher: 3 + 4 lost
            RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.CLOSE, RemoteDescriptor.KIND_NONE, 0, id, 0, 4, 10L);
            send(raw, b, H);
            receiver.waitUntilDone();
            assertEquals(List.of(10L, 20L, 30L), List.copyOf(out), "the packets that came, every one");
            assertEquals(0, receiver.dropCount("rx"), "nothing the receiver itself dropped");
            final List<RemoteStatus> gaps = statuses.stream().filter(s -> s.kind() == RemoteStatus.Kind.GAP)
                .collect(Collectors.toList());
            assertTrue(gaps.get(0).reason().startsWith("joined mid-stream: the publisher's first 3 packets"), gaps.toString());
            assertEquals(3, gaps.get(0).lost());
            assertEquals(7, gaps.get(gaps.size() - 1).lost(), "the total, reported at close at the latest: " + gaps);
            assertTrue(receiver.report().contains("; 7 packets never arrived; 0 messages rejected\n"), receiver.report());
            recording.stop();
            recording.dump(jfr);
            final List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
            assertTrue(events.stream().anyMatch(e -> "gap".equals(e.getString("kind")) && e.getLong("lost") == 7 &&
                "rx".equals(e.getString("node")) && e.getInt("streamId") == id), "a JFR event for the gap: " + events);
            assertTrue(events.stream().anyMatch(e -> "connected".equals(e.getString("kind"))), events.toString());
        }
        finally
        {
            driver.release();
            Files.deleteIfExists(jfr);
        }
    }

    @Test
    @Timeout(60)
    void aPublisherGoneWithoutClosingIsReported() throws Exception
    {
        final int id = streamId();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        final Queue<Long> out = new ConcurrentLinkedQueue<>();
        final GraphConfig closing = GraphConfig.builder()
            .node("rx", n -> n.calculator(AeronSubscriberCalculator.NAME)
                .outputStream("out", "STATUS:status")
                .option("channel", IPC).option("stream_id", (long)id).option("publisher_lost", "CLOSE"))
            .outputStream("out", "status")
            .build();
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "test");
        try (Graph receiver = new Graph(closing))
        {
            receiver.observe("out", p -> out.add(p.getLong()));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            receiver.start();
            try (Publication raw = driver.aeron().addPublication(IPC + "?term-length=65536", id))
            {
                await("the receiver to connect", 10_000, raw::isConnected);
                final UnsafeBuffer b = new UnsafeBuffer(ByteBuffer.allocateDirect(128));
                longPacket(b, id, 3, 33);
                send(raw, b, H);
                await("the packet", 10_000, () -> out.contains(33L));
            } // gone, no CLOSE
            assertTrue(receiver.awaitDone(20, TimeUnit.SECONDS), "publisher_lost CLOSE closed the stream: " + receiver.report());
            receiver.waitUntilDone();
            assertTrue(statuses.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.CONNECTED), statuses.toString());
            assertTrue(statuses.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.DISCONNECTED &&
                s.reason().startsWith("publisher gone without closing the stream")), statuses.toString());
        }
        finally
        {
            driver.release();
        }
    }

    private static void longPacket(final UnsafeBuffer b, final int id, final long ts, final long value)
    {
        longPacket(b, id, ts, value, 0);
    }

    private static void longPacket(final UnsafeBuffer b, final int id, final long ts, final long value, final long sequence)
    {
        RemoteDescriptor.putHeader(b, 0, RemoteDescriptor.PACKET, RemoteDescriptor.KIND_LONG, 0, id, 0, ts, sequence);
        RemoteDescriptor.putValue(b, 0, value);
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
