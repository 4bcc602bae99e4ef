package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end: a source on its own worker, held back by a small queue in front of a slower node on
 * another, must be woken every time the consumer makes room, and all of its packets arrive. A
 * lost wake-up would leave the source parked: no packet would arrive for good. The tests fail when
 * none has arrived for {@link #STALL_MILLIS}, not on a total time: on a machine whose cores other
 * processes hold, each hand-off waits for a time slice and the same packets take many times longer
 * (slow is not stalled). The race it guards against is rare at this length (it took about a million packets to
 * show without the fence), so the handshake itself is tested directly by
 * {@code InputQueueHandshakeTest}, which does fail without the fix; this test keeps the whole
 * path honest.
 */
class ThrottleWakeupTest
{
    /** No packet for this long, the run not done: a stall. */
    private static final long STALL_MILLIS = 10_000;

    @Test
    @Timeout(600)
    void aHeldBackSourceIsAlwaysWokenWhenRoomIsMade() throws Exception
    {
        final long count = 200_000;
        final GraphConfig config = GraphConfig.builder()
            .executor("src", ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(4)
            .timeoutGuardMillis(2_000)
            .node("source", n -> n.calculator("CountingSourceCalculator").option("count", count)
                .outputStream("s0").executor("src"))
            .node("slow", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void process(final CalculatorContext ctx)
                {
                    final long end = System.nanoTime() + 1_000;
                    while (System.nanoTime() < end)
                    {
                        Thread.onSpinWait();
                    }
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }).inputStream("s0").outputStream("s1"))
            .outputStream("s1")
            .build();
        final AtomicLong seen = new AtomicLong();
        try (Graph graph = new Graph(config))
        {
            graph.observe("s1", p -> seen.incrementAndGet());
            graph.start();
            awaitDoneWhilePackets(graph, seen, count, "");
            graph.waitUntilDone();
        }
        assertEquals(count, seen.get());
    }

    /**
     * A source and a fast pass-through on two parked workers, a queue of 8 between them: the source
     * goes idle held back and is woken by the consumer's room hand-out many thousand times a
     * second. The room count was stored with a release and the wake-up then found the source
     * marked dirty with one load; that load could pass the store, and a source going idle at that
     * moment read the old count, took the queue for full and slept for good (no watchdog sees it:
     * nothing is queued). Without the fence this stalled in every run, within 30,000 to 800,000
     * packets.
     */
    @Test
    @Timeout(900)
    void aSourceFeedingAFastConsumerIsNeverLeftAsleep() throws Exception
    {
        final long count = 300_000;
        for (int round = 0; round < 3; round++)
        {
            final int r = round;
            final GraphConfig config = GraphConfig.builder()
                .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
                .maxQueueSize(8)
                .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", count))
                .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("n").outputStream("out"))
                .outputStream("out")
                .build();
            final AtomicLong seen = new AtomicLong();
            try (Graph graph = new Graph(config))
            {
                graph.observe("out", p -> seen.incrementAndGet());
                graph.start();
                awaitDoneWhilePackets(graph, seen, count, "round " + r + ": ");
                graph.waitUntilDone();
            }
            assertEquals(count, seen.get());
        }
    }

    /**
     * Waits until the run is done, failing if no packet arrives for {@link #STALL_MILLIS} before
     * then (a source left asleep), with the graph's report.
     */
    private static void awaitDoneWhilePackets(final Graph graph, final AtomicLong seen, final long count,
        final String what) throws InterruptedException
    {
        long last = -1;
        long lastChangeNanos = System.nanoTime();
        while (!graph.awaitDone(100, TimeUnit.MILLISECONDS))
        {
            final long now = seen.get();
            if (now != last)
            {
                last = now;
                lastChangeNanos = System.nanoTime();
            }
            final long quietMillis = (System.nanoTime() - lastChangeNanos) / 1_000_000;
            assertTrue(quietMillis < STALL_MILLIS, () -> what + "stalled: no packet for " + quietMillis + " ms after " +
                seen.get() + " of " + count + "\n" + graph.report());
        }
    }
}
