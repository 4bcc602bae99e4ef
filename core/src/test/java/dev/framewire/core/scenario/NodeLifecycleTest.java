package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.snapshot;
import static dev.framewire.core.scenario.Scenarios.startThread;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's life: open, process, close, with the input timestamps each sees; sources; when
 * emitted packets become visible; and that a node never runs concurrently with itself.
 */
class NodeLifecycleTest
{
    /** Records "open@ts", "process@ts" and "close@ts"; as a source emits {@code count} packets then stops. */
    private static final class Lifecycle implements Calculator
    {
        private final List<String> calls;
        private final int count;
        private int emitted;

        Lifecycle(final List<String> calls, final int count)
        {
            this.calls = calls;
            this.count = count;
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            calls.add("open@" + Timestamp.toString(ctx.inputTimestamp()));
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            calls.add("process@" + Timestamp.toString(ctx.inputTimestamp()));
            if (ctx.inputCount() == 0)
            {
                ctx.output(0).addLong(emitted, 100 + emitted);
                if (++emitted == count)
                {
                    ctx.stop();
                }
            }
        }

        @Override
        public void close(final CalculatorContext ctx)
        {
            calls.add("close@" + Timestamp.toString(ctx.inputTimestamp()));
        }
    }

    @Test
    @Timeout(10)
    void sourceRunsUntilStopWithInputTimestampZeroAndOpenCloseTimestamps() throws Exception
    {
        final List<String> source = syncList();
        final List<String> sink = syncList();
        final GraphConfig config = GraphConfig.builder()
            .node("src", n -> n.calculator(() -> new Lifecycle(source, 3)).outputStream("s"))
            .node("sink", n -> n.calculator(() -> new Lifecycle(sink, 0)).inputStream("s"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(list("open@Unstarted", "process@0", "process@0", "process@0", "close@Done"), source);
        assertEquals(list("open@Unstarted", "process@100", "process@101", "process@102", "close@Done"), sink);
    }

    @Test
    @Timeout(10)
    void sourceThatStopsAtOnceClosesItsOutputs() throws Exception
    {
        final List<String> sink = syncList();
        final GraphConfig config = GraphConfig.builder()
            .node("src", n -> n.calculator(() -> CalculatorContext::stop).outputStream("s"))
            .node("sink", n -> n.calculator(() -> new Lifecycle(sink, 0)).inputStream("s"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(list("open@Unstarted", "close@Done"), sink);
    }

    @Test
    @Timeout(10)
    void higherSourceLayerStartsOnceLowerLayersAreDone() throws Exception
    {
        final List<String> order = syncList();
        final GraphConfig config = GraphConfig.builder()
            .node("late", n -> n.calculator(() -> new Lifecycle(order, 3)).outputStream("l").sourceLayer(1))
            .node("early", n -> n.calculator(() -> new Lifecycle(order, 3)).outputStream("e"))
            .outputStream("l", "e")
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        // both open first (either order), then layer 0 runs to its close before layer 1 starts
        assertEquals(list("process@0", "process@0", "process@0", "close@Done", "process@0", "process@0", "process@0",
            "close@Done"), order.subList(2, order.size()));
    }

    @Test
    @Timeout(10)
    void packetEmittedInProcessBecomesVisibleDownstreamWhenProcessReturns() throws Exception
    {
        final AtomicInteger observed = new AtomicInteger();
        final List<String> violations = syncList();
        final CountDownLatch downstreamRan = new CountDownLatch(1);
        final CountDownLatch observedAfterReturn = new CountDownLatch(1);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("producer", n -> n.calculator(() -> ctx ->
            {
                ctx.output(0).addLong(1, ctx.inputTimestamp());
                if (observed.get() != 0)
                {
                    violations.add("observer called before process returned");
                }
                // the consumer runs on the other worker; it must not get the packet yet
                if (downstreamRan.await(100, TimeUnit.MILLISECONDS))
                {
                    violations.add("consumer ran before process returned");
                }
            }).inputStream("in").outputStream("out"))
            .node("consumer", n -> n.calculator(() -> ctx -> downstreamRan.countDown()).inputStream("out"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p ->
            {
                observed.incrementAndGet();
                observedAfterReturn.countDown();
            });
            graph.start();
            graph.addPacket("in", 0L, 0);
            assertTrue(observedAfterReturn.await(5, TimeUnit.SECONDS));
            assertTrue(downstreamRan.await(5, TimeUnit.SECONDS));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of(), violations);
        assertEquals(1, observed.get());
    }

    @Test
    @Timeout(10)
    void packetsEmittedInOpenReachTheConsumers() throws Exception
    {
        // as MediaPipe's Open may emit (its UnitDelayCalculator primes a loop so)
        final List<String> sets = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("eager", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void open(final CalculatorContext ctx)
                {
                    ctx.output(0).addLong(1, 0);
                }

                @Override
                public void process(final CalculatorContext ctx)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }).inputStream("in").outputStream("out"))
            .node("sink", n -> n.calculator(recorder(sets)).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 2L, 1);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of("0:1", "1:2"), snapshot(sets));
    }

    /** Counts how many threads are inside process at once, keeping the maximum. */
    private static final class ConcurrencyProbe implements Calculator
    {
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger maxInside;
        private final AtomicLong calls;

        ConcurrencyProbe(final AtomicInteger maxInside, final AtomicLong calls)
        {
            this.maxInside = maxInside;
            this.calls = calls;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final int now = inside.incrementAndGet();
            maxInside.accumulateAndGet(now, Math::max);
            LockSupport.parkNanos(20_000);
            calls.incrementAndGet();
            for (int i = 0; i < ctx.outputCount(); i++)
            {
                ctx.output(i).addLong(ctx.inputTimestamp(), ctx.inputTimestamp());
            }
            inside.decrementAndGet();
        }
    }

    @Test
    @Timeout(30)
    void aNodeNeverRunsConcurrentlyWithItself() throws Exception
    {
        final int nodes = 4;
        final List<AtomicInteger> maxInside = new ArrayList<>();
        final List<AtomicLong> calls = new ArrayList<>();
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("a", "b")
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .outputStream("n1", "n2", "n3")
            .maxQueueSize(8);
        for (int i = 0; i < nodes; i++)
        {
            final AtomicInteger max = new AtomicInteger();
            final AtomicLong count = new AtomicLong();
            maxInside.add(max);
            calls.add(count);
            // a fan of 2-input nodes, each fed by both threads, plus a chain behind the first
            final String in = i == 3 ? "n0" : "a";
            final String name = "n" + i;
            builder.node(name, n -> n.calculator(() -> new ConcurrencyProbe(max, count)).inputStream(in, "b")
                .outputStream(name));
        }
        final GraphConfig config = builder.build();
        final List<Throwable> errors = syncList();
        final int packets = 2000;
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final Thread a = startThread("feed-a", () ->
            {
                for (long ts = 0; ts < packets; ts++)
                {
                    graph.addPacket("a", ts, ts);
                }
                graph.closeInput("a");
            }, errors);
            final Thread b = startThread("feed-b", () ->
            {
                for (long ts = 0; ts < packets; ts++)
                {
                    graph.addPacket("b", ts, ts);
                }
                graph.closeInput("b");
            }, errors);
            a.join();
            b.join();
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors);
        for (int i = 0; i < nodes; i++)
        {
            assertEquals(packets, calls.get(i).get(), "node n" + i);
            assertEquals(1, maxInside.get(i).get(), "node n" + i + " ran concurrently with itself");
        }
        assertFalse(maxInside.isEmpty());
    }
}
