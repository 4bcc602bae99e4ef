package dev.framewire.remote;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import dev.framewire.remote.RemoteTestSupport.JoinRecorder;
import dev.framewire.remote.RemoteTestSupport.Transport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.channel;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static dev.framewire.remote.RemoteTestSupport.subscriber;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two graphs in one JVM, one publishing a stream and one subscribing to it, over Aeron IPC and over
 * UDP on 127.0.0.1: packets arrive at their timestamps with their values, bounds arrive (a join of
 * the remote stream and a local one settles the same timestamps as when both are local), and the
 * close arrives (the receiving graph ends). Graph close checks that neither side leaked a payload.
 */
class RemoteStreamTest
{
    @ParameterizedTest
    @EnumSource(Transport.class)
    @Timeout(60)
    void longAndDoublePacketsArriveAtTheirTimestamps(final Transport transport) throws Exception
    {
        final String longChannel = channel(transport);
        final String doubleChannel = channel(transport);
        final int id = streamId();
        final GraphConfig tx = GraphConfig.builder()
            .inputStream("l", "d")
            .node("txl", n -> n.calculator(AeronPublisherCalculator.NAME).inputStream("l")
                .option("channel", longChannel).option("stream_id", (long)id).option("term_length", 1L << 20)
                .option("key_file", RemoteTestSupport.keyFile()))
            .node("txd", n -> n.calculator(AeronPublisherCalculator.NAME).inputStream("d")
                .option("channel", doubleChannel).option("stream_id", (long)id + 1).option("term_length", 1L << 20)
                .option("key_file", RemoteTestSupport.keyFile()))
            .build();
        final GraphConfig rx = GraphConfig.builder()
            .executor("rx", ExecutorConfig.of(1, IdleKind.PARK))
            .node("rxl", n -> n.calculator(AeronSubscriberCalculator.NAME).executor("rx").outputStream("l")
                .option("channel", longChannel).option("stream_id", (long)id).option("key_file", RemoteTestSupport.keyFile()))
            .node("rxd", n -> n.calculator(AeronSubscriberCalculator.NAME).executor("rx").outputStream("d")
                .option("channel", doubleChannel).option("stream_id", (long)id + 1)
                .option("key_file", RemoteTestSupport.keyFile()))
            .outputStream("l", "d")
            .build();
        final List<String> longs = new ArrayList<>();
        final List<String> doubles = new ArrayList<>();
        final List<String> expectedLongs = new ArrayList<>();
        final List<String> expectedDoubles = new ArrayList<>();
        try (Graph receiver = new Graph(rx); Graph sender = new Graph(tx))
        {
            receiver.observe("l", p -> longs.add(p.timestamp() + "=" + p.getLong()));
            receiver.observe("d", p -> doubles.add(p.timestamp() + "=" + p.getDouble()));
            receiver.start();
            sender.start();
            final GraphInputHandle l = sender.input("l");
            final GraphInputHandle d = sender.input("d");
            for (long ts = -500; ts < 1500; ts += 3)
            {
                final long value = ts * 0x9E3779B97F4A7C15L;
                final double dv = ts / 7.0 - 1e-9;
                l.addPacket(value, ts);
                d.addPacket(dv, ts);
                expectedLongs.add(ts + "=" + value);
                expectedDoubles.add(ts + "=" + dv);
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
        }
        assertEquals(expectedLongs, longs);
        assertEquals(expectedDoubles, doubles);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    @Timeout(60)
    void payloadsAndFramesArriveWhole(final Transport transport) throws Exception
    {
        final String channel = channel(transport);
        final int id = streamId();
        final List<String> received = new ArrayList<>();
        final List<String> expected = new ArrayList<>();
        try (Graph receiver = new Graph(subscriber(channel, id));
            Graph sender = new Graph(publisher(channel, id, n -> n.option("mtu", 4096L).option("term_length", 16L << 20))))
        {
            receiver.observe("out", p -> received.add(describe(p.timestamp(), p.payload())));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("in");
            long ts = 0;
            // small (one tryClaim), a few fragments, many fragments (a 640x480 RGBA frame), planar
            for (final int[] shape : new int[][] {{100, 0}, {4000, 0}, {20_000, 0}, {64, 48}, {640, 480}, {33, 17}})
            {
                for (int i = 0; i < 3; i++, ts += 10)
                {
                    final Payload p;
                    if (shape[1] == 0)
                    {
                        p = sender.pool().acquire(shape[0]);
                    }
                    else
                    {
                        final PixelFormat format = shape[0] == 33 ? PixelFormat.I420 : PixelFormat.RGBA32;
                        p = format == PixelFormat.I420 ?
                            sender.pool().acquireFrame(shape[0], shape[1], format, 40) :
                            sender.pool().acquireFrame(shape[0], shape[1], format);
                    }
                    fill(p.mutableBuffer(), p.length(), ts);
                    expected.add(describe(ts, p));
                    in.addPacket(p, ts);
                }
            }
            sender.closeAllInputs();
            sender.waitUntilDone();
            receiver.waitUntilDone();
        }
        assertEquals(expected, received);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    @Timeout(60)
    void boundsCrossSoAJoinSettlesAsWithALocalStream(final Transport transport) throws Exception
    {
        final Queue<String> local = new ConcurrentLinkedQueue<>();
        runJoin(local, null, null, -1);
        final Queue<String> remote = new ConcurrentLinkedQueue<>();
        runJoin(remote, channel(transport), transport, streamId());
        assertEquals(List.copyOf(local), List.copyOf(remote));
        assertTrue(local.contains("25:01"), "the join settled 25 by the remote stream's bound alone: " + local);
    }

    /**
     * A join of stream {@code r} and local input {@code loc}. With a channel, {@code r} comes from
     * another graph over Aeron; otherwise it is a graph input of this one. {@code r} has packets at
     * 10 and 40 and its bound moves to 26 with no packet between; {@code loc} has packets every 5.
     * Before {@code r}'s 40 is sent, the join must have settled 25 (so the bound crossed on its own).
     */
    private static void runJoin(final Queue<String> calls, final String channel, final Transport transport, final int id)
        throws Exception
    {
        final GraphConfig.Builder b = GraphConfig.builder()
            .inputStream("loc")
            .node("join", n -> n.calculator(() -> new JoinRecorder(calls)).inputStream("r", "loc"));
        if (channel == null)
        {
            b.inputStream("r");
        }
        else
        {
            b.executor("rx", ExecutorConfig.of(1, IdleKind.PARK))
                .node("rx", n -> RemoteTestSupport.secure(n.calculator(AeronSubscriberCalculator.NAME).executor("rx")
                    .outputStream("r").option("channel", channel).option("stream_id", (long)id), channel));
        }
        try (Graph joiner = new Graph(b.build());
            Graph sender = channel == null ? null : new Graph(publisher(channel, id, n -> { })))
        {
            joiner.start();
            final GraphInputHandle r;
            if (sender != null)
            {
                sender.start();
                r = sender.input("in");
            }
            else
            {
                r = joiner.input("r");
            }
            final GraphInputHandle loc = joiner.input("loc");
            r.addPacket(1L, 10);
            for (long ts = 5; ts <= 30; ts += 5)
            {
                loc.addPacket(ts, ts);
            }
            r.setBound(26);
            await("the join to settle 25 with r's bound at 26", 20_000, () -> calls.contains("25:01"));
            assertTrue(calls.stream().noneMatch(c -> c.startsWith("30:")), "30 is not settled on r yet: " + calls);
            r.addPacket(4L, 40);
            loc.addPacket(40L, 40);
            r.close();
            if (sender != null)
            {
                sender.closeAllInputs();
                sender.waitUntilDone();
            }
            joiner.closeAllInputs();
            joiner.waitUntilDone();
        }
    }

    private static void fill(final MutableDirectBuffer buffer, final int length, final long seed)
    {
        for (int i = 0; i < length; i++)
        {
            buffer.putByte(i, (byte)(i * 31 + seed * 7 + (i >> 8)));
        }
    }

    static String describe(final long ts, final Payload p)
    {
        final DirectBuffer b = p.buffer();
        long sum = 1;
        for (int i = 0; i < p.length(); i++)
        {
            sum = sum * 31 + b.getByte(i);
        }
        return ts + ":" + p.length() + (p.isFrame() ? " " + p.width() + "x" + p.height() + "/" + p.stride() + " " +
            p.format() : " bytes") + " #" + Long.toHexString(sum);
    }
}
