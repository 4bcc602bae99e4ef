package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.GraphStats;
import dev.framewire.core.GraphStats.DropReason;
import dev.framewire.core.GraphStats.NodeStats;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.offheap.PixelFormat;
import org.agrona.concurrent.NanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Graph#stats()}: every figure checked against the engine's own counters
 * ({@link Graph#callCount}, {@link Graph#dropCount}, {@link Graph#memoryDropCount}, the pool's
 * budget) and against what the test itself fed in.
 */
@Timeout(60)
class GraphStatsTest
{
    private static final int PACKETS = 100;
    private static final long MIB = 1024 * 1024;

    /** in, then pass (passes every packet on), then halve (counts odd timestamps as dropped), then sink. */
    private static GraphConfig chain()
    {
        final Calculator pass = ctx -> ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        final Calculator halve = ctx ->
        {
            if (ctx.inputTimestamp() % 2 == 0)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }
            else
            {
                ctx.countDrop();
            }
        };
        return parked(2)
            .inputStream("in")
            .node("pass", n -> n.calculator(() -> pass).inputStream("in").outputStream("passed"))
            .node("halve", n -> n.calculator(() -> halve).inputStream("passed").outputStream("halved"))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("halved"))
            .build();
    }

    @Test
    void packetsCallsAndDropsMatchTheEngineCounters() throws Exception
    {
        try (Graph graph = new Graph(chain()))
        {
            final GraphStats before = graph.stats();
            assertEquals(List.of("pass", "halve", "sink"), before.nodes().stream().map(NodeStats::name).toList());
            assertEquals(0, before.node("pass").packetsIn());
            graph.start();
            final GraphInputHandle in = graph.input("in");
            for (long ts = 0; ts < PACKETS; ts++)
            {
                in.addPacket(ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();

            final GraphStats stats = graph.stats();
            for (final NodeStats node : stats.nodes())
            {
                assertEquals(graph.callCount(node.name()), node.calls(), node.name());
                assertEquals(graph.dropCount(node.name()), node.drops(), node.name());
                long byReason = 0;
                for (final DropReason reason : DropReason.values())
                {
                    byReason += node.drops(reason);
                }
                assertEquals(node.drops(), byReason, node.name() + ": the reasons add up to the drops");
                assertEquals(5, DropReason.values().length, "each reason has its counter");
                assertEquals(0, node.queued(), node.name());
                assertEquals(0, node.callsInFlight(), node.name());
                assertFalse(node.isSource(), node.name());
                assertEquals("default", node.executor());
            }
            final NodeStats pass = stats.node("pass");
            assertEquals(PACKETS, pass.calls());
            assertEquals(PACKETS, pass.packetsIn());
            assertEquals(PACKETS, pass.packetsOut());
            assertEquals(PACKETS, pass.inputs().get(0).arrived());
            assertEquals("in", pass.inputs().get(0).stream());
            final NodeStats halve = stats.node("halve");
            assertEquals(PACKETS, halve.packetsIn());
            assertEquals(PACKETS / 2, halve.packetsOut());
            assertEquals(PACKETS / 2, halve.drops(DropReason.CALCULATOR));
            assertEquals(PACKETS / 2, graph.dropCount("halve"));
            final NodeStats sink = stats.node("sink");
            assertEquals(PACKETS / 2, sink.packetsIn());
            assertEquals(0, sink.packetsOut());
            assertEquals(PACKETS / 2, sink.calls());
            assertFalse(stats.processCallsTimed());
            assertEquals(0, pass.processNanos(), "not timed unless asked");
            assertEquals(0, stats.failures());
            final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> stats.node("nope"));
            assertEquals("no node 'nope' in these stats; nodes are [pass, halve, sink]", unknown.getMessage());
        }
    }

    @Test
    void failureAndMemoryDropsAreCountedByReason() throws Exception
    {
        final Calculator failsAtTwoAndFive = ctx ->
        {
            if (ctx.inputTimestamp() == 2 || ctx.inputTimestamp() == 5)
            {
                throw new IllegalStateException("bad input set at " + ctx.inputTimestamp());
            }
        };
        try (Graph graph = new Graph(join(failsAtTwoAndFive).failurePolicy(FailurePolicy.DROP_TIMESTAMP).build()))
        {
            graph.start();
            feed(graph, 8);
            graph.waitUntilDone();
            final NodeStats join = graph.stats().node("join");
            assertEquals(6, join.drops(DropReason.FAILURE), "two input sets of three packets");
            assertEquals(graph.dropCount("join"), join.drops());
            assertEquals(2, graph.stats().failures());
            assertEquals(24, join.packetsIn());
            assertEquals(List.of(8L, 8L, 8L), join.inputs().stream().map(GraphStats.InputStats::arrived).toList());
        }
        // 1 MiB budget, hard limit 768 KiB: at timestamp 3 the node asks for a 1 MiB frame
        final Calculator bigFrameAtThree = ctx ->
        {
            if (ctx.inputTimestamp() == 3)
            {
                ctx.pool().acquireFrame(512, 512, PixelFormat.RGBA32).release();
            }
        };
        try (Graph graph = new Graph(join(bigFrameAtThree).memoryBudget(MIB)
            .memoryLimitPolicy(MemoryLimitPolicy.DROP_OLDEST).build()))
        {
            graph.start();
            feed(graph, 6);
            graph.waitUntilDone();
            assertNothingHeld(graph);
            final GraphStats stats = graph.stats();
            assertEquals(3, stats.node("join").drops(DropReason.MEMORY));
            assertEquals(graph.memoryDropCount(), stats.memoryDrops());
            assertEquals(graph.dropCount("join"), stats.node("join").drops());
            assertEquals(graph.pool().budget().softLimitBytes(), stats.offHeapSoftLimitBytes());
            assertEquals(graph.pool().budget().hardLimitBytes(), stats.offHeapHardLimitBytes());
            assertEquals(MIB, stats.offHeapMaxBytes());
            assertTrue(stats.offHeapHardLimitBytes() < MIB);
        }
    }

    @Test
    void policyDropsAreCountedByReason() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Calculator blocksFirst = ctx ->
        {
            if (ctx.inputTimestamp() == 0)
            {
                entered.countDown();
                release.await();
            }
        };
        final GraphConfig config = parked(1)
            .inputStream("in")
            .node("live", n -> n.calculator(() -> blocksFirst).inputStream("in")
                .inputPolicy(InputPolicy.fixedSize(4, 2, false)))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphInputHandle in = graph.input("in");
            in.addPacket(0L, 0);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            for (long ts = 1; ts <= 10; ts++)
            {
                in.addPacket(ts, ts);
            }
            release.countDown();
            graph.closeAllInputs();
            graph.waitUntilDone();
            final NodeStats live = graph.stats().node("live");
            assertTrue(live.drops(DropReason.POLICY) > 0, "a fixed-size queue past its trigger drops its oldest");
            assertEquals(graph.dropCount("live"), live.drops(DropReason.POLICY));
            assertEquals(11, live.packetsIn());
            assertEquals(11, live.calls() + live.drops(), "every packet is either processed or dropped");
        }
    }

    @Test
    void queueDepthAndCallsInFlightShowABlockedNode() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Calculator blocksFirst = ctx ->
        {
            if (ctx.inputTimestamp() == 0)
            {
                entered.countDown();
                release.await();
            }
        };
        final GraphConfig config = parked(1)
            .inputStream("in")
            .node("slow", n -> n.calculator(() -> blocksFirst).inputStream("in"))
            .maxQueueSize(16)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphInputHandle in = graph.input("in");
            in.addPacket(0L, 0);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            for (long ts = 1; ts <= 5; ts++)
            {
                in.addPacket(ts, ts);
            }
            final GraphStats during = graph.stats();
            final NodeStats slow = during.node("slow");
            assertEquals(1, slow.callsInFlight());
            assertEquals(5, slow.inputs().get(0).queued());
            assertEquals(16, slow.inputs().get(0).limit());
            assertEquals(6, slow.packetsIn());
            assertEquals(1, slow.calls());
            release.countDown();
            graph.closeAllInputs();
            graph.waitUntilDone();
            final GraphStats after = graph.stats(during);
            assertSame(during, after, "refilled in place");
            assertSame(slow, after.node("slow"));
            assertEquals(0, slow.callsInFlight());
            assertEquals(0, slow.queued());
            assertEquals(6, slow.calls());
        }
    }

    @Test
    void aMaxInFlightNodeShowsEachCallInFlightAndCountsItsCalls() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(2);
        final CountDownLatch release = new CountDownLatch(1);
        final Calculator blocksFirstTwo = ctx ->
        {
            if (ctx.inputTimestamp() < 2)
            {
                entered.countDown();
                release.await();
            }
        };
        final GraphConfig config = parked(2)
            .inputStream("in")
            .node("wide", n -> n.calculator(() -> blocksFirstTwo).inputStream("in").maxInFlight(2))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphInputHandle in = graph.input("in");
            in.addPacket(0L, 0);
            in.addPacket(1L, 1);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            assertEquals(2, graph.stats().node("wide").callsInFlight());
            release.countDown();
            for (long ts = 2; ts < 10; ts++)
            {
                in.addPacket(ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final NodeStats wide = graph.stats().node("wide");
            assertEquals(10, wide.calls());
            assertEquals(graph.callCount("wide"), wide.calls());
            assertEquals(0, wide.callsInFlight());
        }
    }

    @Test
    void processCallsAreTimedWithTheGraphClockWhenAsked() throws Exception
    {
        final AtomicLong now = new AtomicLong(1_000_000);
        final NanoClock clock = now::get;
        final Calculator takesAMicrosecond = ctx -> now.addAndGet(1_000);
        final Calculator failsAtThree = ctx ->
        {
            now.addAndGet(500);
            if (ctx.inputTimestamp() == 3)
            {
                throw new IllegalStateException("bad at 3");
            }
        };
        final GraphConfig config = parked(1)
            .clock(clock)
            .failurePolicy(FailurePolicy.DROP_TIMESTAMP)
            .inputStream("in")
            .node("work", n -> n.calculator(() -> takesAMicrosecond).inputStream("in").outputStream("out"))
            .node("flaky", n -> n.calculator(() -> failsAtThree).inputStream("in"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.timeProcessCalls();
            graph.start();
            assertThrows(IllegalStateException.class, graph::timeProcessCalls, "only before start");
            final GraphInputHandle in = graph.input("in");
            for (long ts = 0; ts < 10; ts++)
            {
                in.addPacket(ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final GraphStats stats = graph.stats();
            assertTrue(stats.processCallsTimed());
            assertEquals(10, stats.node("work").calls());
            assertEquals(10 * 1_000, stats.node("work").processNanos(), "one worker: each call saw only its own time");
            assertEquals(10 * 500, stats.node("flaky").processNanos(), "the failed call is timed too");
        }
    }

    @Test
    void memoryFiguresAreThePoolBudgets() throws Exception
    {
        try (Graph graph = new Graph(parked(1).inputStream("in")
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("in")).build()))
        {
            final var frame = graph.pool().acquireFrame(64, 64, PixelFormat.RGBA32);
            final GraphStats held = graph.stats();
            assertEquals(graph.pool().budget().bytesInUse(), held.offHeapBytesInUse());
            assertTrue(held.offHeapBytesInUse() >= 64 * 64 * 4);
            assertEquals(graph.pool().budget().peakBytesInUse(), held.offHeapPeakBytes());
            assertEquals(graph.pool().budget().bytesReserved(), held.offHeapReservedBytes());
            frame.release();
            final GraphStats released = graph.stats(held);
            assertEquals(0, released.offHeapBytesInUse());
            assertTrue(released.offHeapPeakBytes() >= 64 * 64 * 4, "the peak stays");
        }
    }

    @Test
    void aSnapshotOfAnotherGraphIsNotReused()
    {
        try (Graph one = new Graph(chain()); Graph two = new Graph(chain()))
        {
            final GraphStats ofOne = one.stats();
            assertSame(ofOne, one.stats(ofOne));
            assertNotSame(ofOne, two.stats(ofOne));
            assertNotSame(ofOne, one.stats(null));
        }
    }

    @Test
    void refillingAllocatesNothing() throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long self = Thread.currentThread().getId();
        try (Graph graph = new Graph(chain()))
        {
            graph.start();
            GraphStats stats = graph.stats();
            for (int i = 0; i < 20_000; i++)
            {
                stats = graph.stats(stats);
            }
            // the least of a few windows, as JournalAllocationTest: one allocation per fill would be 160 KB
            long allocated = Long.MAX_VALUE;
            for (int window = 0; window < 5 && allocated > 0; window++)
            {
                final long before = threads.getThreadAllocatedBytes(self);
                for (int i = 0; i < 10_000; i++)
                {
                    stats = graph.stats(stats);
                }
                allocated = Math.min(allocated, threads.getThreadAllocatedBytes(self) - before);
            }
            assertTrue(allocated < 1024, allocated + " bytes allocated by 10,000 refills");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    void theMetricsPagesExampleRuns() throws Exception
    {
        try (Graph graph = new Graph(chain()))
        {
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            final StringBuilder out = new StringBuilder();
            // docs/METRICS.md, "Without Micrometer", with out.append for System.out.println
            GraphStats stats = graph.stats();                  // a new snapshot
            stats = graph.stats(stats);                        // refilled in place: allocates nothing
            for (final GraphStats.NodeStats node : stats.nodes()) {
                out.append(node.name() + " in " + node.packetsIn() + " out " + node.packetsOut() +
                    " dropped " + node.drops() + " (memory " + node.drops(GraphStats.DropReason.MEMORY) + ")" +
                    " queued " + node.queued() + " in flight " + node.callsInFlight()).append('\n');
            }
            out.append(stats.offHeapBytesInUse() + " of " + stats.offHeapHardLimitBytes() + " B").append('\n');
            assertTrue(out.toString().startsWith("pass in 10 out 10 dropped 0 (memory 0) queued 0 in flight 0\n" +
                "halve in 10 out 5 dropped 5 (memory 0) queued 0 in flight 0\n" +
                "sink in 5 out 0 dropped 0 (memory 0) queued 0 in flight 0\n0 of "), out.toString());
        }
    }

    /** Three graph inputs joined by one node (default policy: one input set per timestamp, three packets). */
    private static GraphConfig.Builder join(final Calculator calculator)
    {
        return GraphConfig.builder().executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .inputStream("a").inputStream("b").inputStream("c")
            .node("join", n -> n.calculator(() -> calculator).inputStream("a").inputStream("b").inputStream("c"));
    }

    private static void feed(final Graph graph, final int timestamps) throws InterruptedException
    {
        for (long ts = 0; ts < timestamps; ts++)
        {
            for (final String stream : List.of("a", "b", "c"))
            {
                graph.addPacket(stream, ts * 10, ts);
            }
        }
        graph.closeAllInputs();
    }
}
