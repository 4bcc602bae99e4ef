package dev.framewire.remote;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static dev.framewire.remote.RemoteTestSupport.await;
import static dev.framewire.remote.RemoteTestSupport.channel;
import static dev.framewire.remote.RemoteTestSupport.publisher;
import static dev.framewire.remote.RemoteTestSupport.streamId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A subscriber that falls behind is visible: while what comes after it takes packets slower than
 * the publisher sends them, its lag behind the publisher (from the driver's own counters) stays
 * over the threshold, and it reports {@code BEHIND} on its STATUS stream (and in the log, the JFR
 * event and the journal); once the consumer keeps up again it reports {@code CAUGHT_UP}. Every
 * packet still arrives, in order: a slow subscriber back-pressures a WAIT publisher, never loses.
 * The graph report shows it on the subscriber's own line while it runs.
 */
class RemoteLagTest
{
    /** 2 ms a packet while {@code slow} is set: a consumer that cannot keep up. */
    static final class Slow implements Calculator
    {
        static final AtomicBoolean SLOW = new AtomicBoolean(true);

        @Override
        public void process(final CalculatorContext ctx)
        {
            if (SLOW.get())
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        }
    }

    @ParameterizedTest
    @EnumSource(RemoteTestSupport.Transport.class)
    @Timeout(120)
    void aSubscriberThatFallsBehindSaysSoAndWhenItCatchesUp(final RemoteTestSupport.Transport transport) throws Exception
    {
        final String channel = channel(transport);
        final int id = streamId();
        final GraphConfig receiving = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .executor("rx", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(4)
            .node("rx", n -> RemoteTestSupport.secure(n.calculator(AeronSubscriberCalculator.NAME).executor("rx")
                .outputStream("remote", "STATUS:status")
                .option("channel", channel).option("stream_id", (long)id)
                .option("behind_bytes", 4096L).option("behind_ms", 300L), channel))
            .node("slow", n -> n.calculator(Slow::new).inputStream("remote").outputStream("out"))
            .outputStream("out", "status")
            .build();
        final Queue<RemoteStatus> statuses = new ConcurrentLinkedQueue<>();
        final Queue<Long> out = new ConcurrentLinkedQueue<>();
        Slow.SLOW.set(true);
        try (Graph receiver = new Graph(receiving);
            Graph sender = new Graph(publisher(channel, id, n -> n.option("term_length", 65536L))))
        {
            receiver.observe("out", p -> out.add(p.getLong()));
            receiver.observe("status", p -> statuses.add(p.get(RemoteStatus.class)));
            receiver.start();
            sender.start();
            final GraphInputHandle in = sender.input("in");
            long ts = 0;
            // the publisher waits once the window is full: the lag stays over 4 KiB while the consumer is slow
            while (statuses.stream().noneMatch(s -> s.kind() == RemoteStatus.Kind.BEHIND))
            {
                in.addPacket(ts, ts);
                ts++;
                assertTrue(ts < 1_000_000, () -> "no BEHIND after a million packets: " + statuses);
            }
            // the report of the running graph says it too, in the subscriber's own line
            final String report = receiver.report();
            final Matcher line = Pattern.compile("\n    remote stream from " + Pattern.quote(channel) + " stream id " + id +
                ": 1 publisher, (\\d+) B behind now, (\\d+) B at most; (BEHIND now, )?([1-9]\\d*) times? behind; " +
                "0 packets never arrived; 0 messages rejected( \\(0 failed authentication, 0 replayed or stale\\))?\n").matcher(report);
            assertTrue(line.find(), report);
            assertTrue(Long.parseLong(line.group(2)) >= 4096, "at most at least the threshold: " + report);
            final String senderReport = sender.report();
            assertTrue(Pattern.compile("\n    remote stream to .* stream id " + id + ", session -?\\d+ \\(policy WAIT\\): " +
                "\\d+ messages? back-pressured, \\d+ with no subscriber connected, 0 dropped\n").matcher(senderReport)
                .find(), senderReport);
            Slow.SLOW.set(false);
            final long sent = ts;
            in.close();
            await("every packet", 60_000, () -> out.size() == sent);
            await("CAUGHT_UP", 10_000, () -> statuses.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.CAUGHT_UP));
            assertTrue(receiver.awaitDone(20, TimeUnit.SECONDS), receiver.report());
            assertTrue(sender.awaitDone(20, TimeUnit.SECONDS), sender.report());
        }
        finally
        {
            Slow.SLOW.set(false);
        }
        final List<RemoteStatus> lag = statuses.stream()
            .filter(s -> s.kind() == RemoteStatus.Kind.BEHIND || s.kind() == RemoteStatus.Kind.CAUGHT_UP)
            .collect(Collectors.toList());
        assertEquals(RemoteStatus.Kind.BEHIND, lag.get(0).kind(), lag::toString);
        assertTrue(lag.get(0).reason().contains("bytes behind the publisher, at least 4096 for"), lag::toString);
        assertTrue(lag.stream().anyMatch(s -> s.kind() == RemoteStatus.Kind.CAUGHT_UP &&
            s.reason().startsWith("caught up after")), lag::toString);
        long expected = 0;
        for (final long v : out)
        {
            assertEquals(expected++, v, "every packet, in order");
        }
    }
}
