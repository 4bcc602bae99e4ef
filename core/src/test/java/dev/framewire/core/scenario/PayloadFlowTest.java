package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Input;
import dev.framewire.core.OutputPoller;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Off-heap payloads through graphs: one reference per consumer, released after {@code process}
 * unless passed on, passed on without a copy, copied on write only when shared; and primitive
 * packets that are never boxed.
 *
 * <p>Every graph is closed by try-with-resources: closing the graph's own pool throws if any
 * payload is still held, so each test here is also a leak check.
 */
class PayloadFlowTest
{
    /** Keeps the allocation probe reachable, so it is not optimized away. */
    static volatile Object allocationProbe;

    private static Payload payload(final PayloadPool pool, final long value)
    {
        final Payload payload = pool.acquire(64);
        payload.mutableBuffer().putLong(0, value);
        return payload;
    }

    private static long totalSlotsInUse(final PayloadPool pool)
    {
        long inUse = 0;
        for (int c = 0; c < pool.sizeClassCount(); c++)
        {
            inUse += pool.slotsInUse(c);
        }
        return inUse;
    }

    @Test
    @Timeout(10)
    void offHeapPayloadsFlowThroughTheGraph() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("double", n -> n.calculator(() -> ctx ->
            {
                final long value = ctx.input(0).payload().buffer().getLong(0);
                final Payload out = ctx.pool().acquire(128);
                out.mutableBuffer().putLong(0, value * 2);
                ctx.output(0).addPayload(out, ctx.inputTimestamp());
            }).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        final int count = 50;
        final List<Long> values = new ArrayList<>();
        final List<Integer> generations = new ArrayList<>();
        try (Graph graph = new Graph(config))
        {
            final PayloadPool pool = graph.pool();
            final OutputPoller poller = graph.poller("out");
            graph.start();
            for (long ts = 0; ts < count; ts++)
            {
                // one at a time: each graph input payload reuses the slot the previous one freed
                final Payload in = payload(pool, ts);
                generations.add(in.generation());
                graph.addPacket("in", in, ts);
                assertTrue(poller.next(5, TimeUnit.SECONDS));
                values.add(poller.packet().payload().buffer().getLong(0));
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertTrue(!poller.next(1, TimeUnit.SECONDS) && poller.isDone());
            assertEquals(2L * count, pool.acquires());
            assertEquals(pool.acquires(), pool.releases());
            assertEquals(0, totalSlotsInUse(pool));
        }
        for (int i = 0; i < count; i++)
        {
            assertEquals(2L * i, values.get(i));
        }
        assertTrue(generations.get(count - 1) > 0, "slots were reused: " + generations);
    }

    @Test
    @Timeout(10)
    void fanOutGivesEachConsumerAReference() throws Exception
    {
        // one worker: the consumers of a packet run one after another, each releasing after process
        final List<Integer> refCounts = syncList();
        final Fan fan = new Fan();
        for (int c = 0; c < 3; c++)
        {
            fan.builder.node("consumer" + c, n -> n.calculator(() -> ctx -> refCounts.add(ctx.input(0).payload().refCount()))
                .inputStream("in"));
        }
        final int count = 20;
        try (Graph graph = new Graph(fan.builder.build()))
        {
            graph.start();
            for (long ts = 0; ts < count; ts++)
            {
                graph.addPacket("in", payload(graph.pool(), ts), ts);
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(count, graph.pool().acquires());
            assertEquals(count, graph.pool().releases());
        }
        assertEquals(3 * count, refCounts.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals(List.of(3, 2, 1), refCounts.subList(3 * i, 3 * i + 3), "packet " + i);
        }
    }

    /** A builder holder, so lambdas can add nodes in a loop. */
    private static final class Fan
    {
        final GraphConfig.Builder builder = GraphConfig.builder().inputStream("in");
    }

    @Test
    @Timeout(10)
    void consumerReleasesAfterProcessUnlessItPassesThePayloadOn() throws Exception
    {
        final AtomicReference<Payload> consumed = new AtomicReference<>();
        final List<String> checks = syncList();
        final GraphConfig reads = GraphConfig.builder()
            .inputStream("in")
            .node("reader", n -> n.calculator(() -> ctx ->
            {
                final Payload held = ctx.input(0).payload();
                checks.add("reader sees " + held.refCount());
                consumed.set(held);
                ctx.output(0).addLong(held.buffer().getLong(0), ctx.inputTimestamp());
            }).inputStream("in").outputStream("read"))
            // gets the reader's output, delivered once the reader's call has returned
            .node("checker", n -> n.calculator(() -> ctx -> checks.add("after reader " + consumed.get().refCount()))
                .inputStream("read"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(reads))
        {
            graph.start();
            // distinct slots: nothing acquires while the run goes on, so a freed slot stays freed
            final List<Payload> payloads = new ArrayList<>();
            for (long ts = 0; ts < 10; ts++)
            {
                payloads.add(payload(graph.pool(), ts));
            }
            for (int ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", payloads.get(ts), ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final List<String> expected = new ArrayList<>();
        for (int ts = 0; ts < 10; ts++)
        {
            expected.add("reader sees 1");
        }
        for (int ts = 0; ts < 10; ts++)
        {
            expected.add("after reader 0");
        }
        final List<String> sorted = new ArrayList<>(checks);
        sorted.sort((x, y) -> x.startsWith("reader") == y.startsWith("reader") ? 0 : x.startsWith("reader") ? -1 : 1);
        assertEquals(expected, sorted);

        checks.clear();
        final GraphConfig passes = GraphConfig.builder()
            .inputStream("in")
            .node("passer", n -> n.calculator(() -> ctx ->
            {
                consumed.set(ctx.input(0).payload());
                ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
            }).inputStream("in").outputStream("passed"))
            .node("receiver", n -> n.calculator(() -> ctx ->
            {
                final Payload received = ctx.input(0).payload();
                checks.add((received == consumed.get() ? "same " : "other ") + received.refCount());
            }).inputStream("passed"))
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .build();
        try (Graph graph = new Graph(passes))
        {
            graph.start();
            for (int ts = 0; ts < 10; ts++)
            {
                graph.addPacket("in", payload(graph.pool(), ts), ts);
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(10, graph.pool().acquires());
            assertEquals(10, graph.pool().releases(), "the receiver released what the passer passed on");
        }
        assertEquals(java.util.Collections.nCopies(10, "same 1"), checks, "passed on, not released nor retained");
    }

    @Test
    @Timeout(10)
    void passThroughKeepsTheSamePayloadWithoutACopy() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("first", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("second", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller poller = graph.poller("out");
            graph.start();
            for (long ts = 0; ts < 20; ts++)
            {
                final Payload sent = payload(graph.pool(), ts * 3);
                final int generation = sent.generation();
                graph.addPacket("in", sent, ts);
                assertTrue(poller.next(5, TimeUnit.SECONDS));
                final Payload received = poller.packet().payload();
                assertSame(sent, received, "the same payload, not a copy");
                assertEquals(generation, received.generation());
                assertEquals(1, received.refCount(), "one reference, now the poller's");
                assertEquals(ts * 3, received.buffer().getLong(0));
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(20, graph.pool().acquires());
            assertEquals(0, graph.pool().copies());
        }
    }

    @Test
    @Timeout(10)
    void writablePayloadCopiesOnlyWhenShared() throws Exception
    {
        final List<String> events = syncList();
        final AtomicReference<Payload> original = new AtomicReference<>();
        final Calculator writer = ctx ->
        {
            final Input input = ctx.input(0);
            final long before = input.payload().buffer().getLong(0);
            final Payload writable = input.writablePayload();
            writable.mutableBuffer().putLong(0, -1);
            events.add((writable == original.get() ? "own " : "copy ") + before);
        };
        final GraphConfig shared = GraphConfig.builder()
            .inputStream("in")
            .node("w1", n -> n.calculator(() -> writer).inputStream("in"))
            .node("w2", n -> n.calculator(() -> writer).inputStream("in"))
            .build();
        try (Graph graph = new Graph(shared))
        {
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                final Payload sent = payload(graph.pool(), 100 + ts);
                original.set(sent);
                graph.addPacket("in", sent, ts);
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            // one worker: the first consumer holds one of two references and gets a copy; the
            // second then holds the only one and writes in place; neither sees the other's write
            assertEquals(10, graph.pool().copies());
        }
        for (int ts = 0; ts < 10; ts++)
        {
            assertEquals(List.of("copy " + (100 + ts), "own " + (100 + ts)), events.subList(2 * ts, 2 * ts + 2));
        }

        events.clear();
        final GraphConfig alone = GraphConfig.builder()
            .inputStream("in")
            .node("w", n -> n.calculator(() -> writer).inputStream("in"))
            .build();
        try (Graph graph = new Graph(alone))
        {
            graph.start();
            final Payload sent = payload(graph.pool(), 5);
            original.set(sent);
            graph.addPacket("in", sent, 0);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(0, graph.pool().copies(), "the only holder writes in place");
        }
        assertEquals(List.of("own 5"), events);
    }

    @Test
    @Timeout(10)
    void writingAPayloadAlreadyPassedOnIsRefused() throws Exception
    {
        final List<String> errors = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("passer", n -> n.calculator(() -> ctx ->
            {
                ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
                final IllegalStateException ex = assertThrows(IllegalStateException.class,
                    () -> ctx.input(0).writablePayload());
                errors.add(ex.getMessage());
            }).inputStream("in").outputStream("out"))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", payload(graph.pool(), 1), 0);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).contains("'in'") && errors.get(0).contains("'passer'") &&
            errors.get(0).contains("passed"), errors.get(0));
    }

    @Test
    @Timeout(30)
    void longAndDoublePacketsTravelWithoutBoxing() throws Exception
    {
        final AtomicReference<Thread> worker = new AtomicReference<>();
        final long[] sums = new long[2];
        final double[] doubleSum = new double[1];
        final GraphConfig config = GraphConfig.builder()
            .inputStream("l", "d")
            .node("math", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void open(final CalculatorContext ctx)
                {
                    worker.set(Thread.currentThread());
                }

                @Override
                public void process(final CalculatorContext ctx)
                {
                    final long l = ctx.input(0).getLong();
                    final double d = ctx.input(1).getDouble();
                    ctx.output(0).addLong(l + 1, ctx.inputTimestamp());
                    ctx.output(1).addDouble(d * 2, ctx.inputTimestamp());
                }
            }).inputStream("l", "d").outputStream("lo", "do"))
            .outputStream("lo", "do")
            .maxQueueSize(-1)
            .queueHardCap(1 << 16)
            .build();
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final int warmUp = 20_000;
        final int measured = 10_000;
        final long workerBytes;
        final long callerBytes;
        try (Graph graph = new Graph(config))
        {
            graph.observe("lo", p -> sums[0] += p.getLong());
            graph.observe("do", p -> doubleSum[0] += p.getDouble());
            graph.observe("l", p -> sums[1] += p.getLong());
            graph.start();
            for (long ts = 0; ts < warmUp; ts++)
            {
                graph.addPacket("l", ts, ts);
                graph.addPacket("d", ts * 0.5, ts);
            }
            graph.waitUntilIdle();
            final long workerId = worker.get().getId();
            final long workerBefore = threads.getThreadAllocatedBytes(workerId);
            final long callerBefore = threads.getCurrentThreadAllocatedBytes();
            for (long ts = warmUp; ts < warmUp + measured; ts++)
            {
                graph.addPacket("l", ts, ts);
                graph.addPacket("d", ts * 0.5, ts);
            }
            graph.waitUntilIdle();
            callerBytes = threads.getCurrentThreadAllocatedBytes() - callerBefore;
            workerBytes = threads.getThreadAllocatedBytes(workerId) - workerBefore;
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        // the measurement itself works: a known allocation shows
        final long probeBefore = threads.getCurrentThreadAllocatedBytes();
        allocationProbe = new long[4096];
        assertTrue(threads.getCurrentThreadAllocatedBytes() - probeBefore >= 32 * 1024, "allocation is measured");
        final long n = warmUp + measured;
        assertEquals(n * (n - 1) / 2 + n, sums[0]);
        assertEquals(n * (n - 1) / 2, sums[1]);
        assertEquals(n * (n - 1) / 2.0, doubleSum[0], 1e-3);
        // a boxed Long or Double is 16 bytes: 2 packets in, 2 out per timestamp would be 640 kB;
        // allow a little for the idle strategy and the JIT's first runs of rare paths
        assertTrue(workerBytes < 64 * 1024, "the worker allocated " + workerBytes + " B for " + measured + " input sets");
        assertTrue(callerBytes < 64 * 1024, "the caller allocated " + callerBytes + " B for " + 2 * measured + " adds");
    }

    @Test
    @Timeout(10)
    void primitivePacketsReadAsTheWrongTypeFailWithAClearError() throws Exception
    {
        final List<String> errors = syncList();
        final AtomicLong boxed = new AtomicLong();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("reader", n -> n.calculator(() -> ctx ->
            {
                boxed.set((Long)ctx.input(0).value());
                errors.add(assertThrows(IllegalStateException.class, () -> ctx.input(0).getDouble()).getMessage());
                errors.add(assertThrows(IllegalStateException.class, () -> ctx.input(0).payload()).getMessage());
                errors.add(assertThrows(IllegalStateException.class, () -> ctx.input(0).get(String.class)).getMessage());
            }).inputStream("in"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 12L, 3);
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(12, boxed.get());
        assertEquals(3, errors.size());
        for (final String error : errors)
        {
            assertTrue(error.contains("'in'") && error.contains("long") && error.contains("3"), error);
        }
    }
}
