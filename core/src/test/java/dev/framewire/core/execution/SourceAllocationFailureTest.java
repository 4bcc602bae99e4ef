package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.MemoryLimitException;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source whose calls fail to allocate, under the policies that go on after a failure and call
 * the source again (DROP_TIMESTAMP; DROP_OLDEST after an acquire past the hard limit). Each used
 * to be called again at once, forever, at 100 % of a core. Now a failure calling again cannot fix
 * ends the run at once, and any other is retried with growing waits at most ten times in a row:
 * the run fails promptly, naming the node and the cause, with nothing left held (the leak check
 * at close is on in tests).
 */
@Timeout(60)
class SourceAllocationFailureTest
{
    private static final long MIB = 1024 * 1024;
    /** The waits before calls 3 to 10 of a source failing on every call: 1, 2, 4, ... 64, 100 ms. */
    private static final long WAITS_BEFORE_GIVING_UP_MILLIS = 1 + 2 + 4 + 8 + 16 + 32 + 64 + 100;

    /** A source that acquires a {@code width x height} RGBA32 frame on every call and emits it. */
    private static Calculator frameEveryCall(final int width, final int height)
    {
        return ctx ->
        {
            final Payload frame = ctx.pool().acquireFrame(width, height, PixelFormat.RGBA32);
            ctx.output(0).add(frame, ctx.nanoTime() / 1000);
        };
    }

    private static GraphConfig.Builder sourceAndSink(final Calculator source, final FailurePolicy policy)
    {
        return parked(1)
            .failurePolicy(policy)
            .node("src", n -> n.calculator(() -> source).outputStream("frames"))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("frames"));
    }

    /** A source and a sink under DROP_TIMESTAMP, on one parked worker. */
    private static GraphConfig underDropTimestamp(final Calculator source, final Calculator sink)
    {
        return parked(1)
            .failurePolicy(FailurePolicy.DROP_TIMESTAMP)
            .node("src", n -> n.calculator(() -> source).outputStream("frames"))
            .node("sink", n -> n.calculator(() -> sink).inputStream("frames"))
            .build();
    }

    /** Runs a run that goes on after its failures to its end; nothing may be held then. */
    private static void runToItsEnd(final Graph graph) throws Exception
    {
        graph.start();
        graph.waitUntilDone();
        assertNothingHeld(graph);
    }

    /** Runs to its end, which must come within 10 s; returns what waitUntilDone threw. */
    private static GraphException failedRun(final Graph graph) throws Exception
    {
        graph.start();
        assertTrue(graph.awaitDone(10, TimeUnit.SECONDS), () -> "the run did not end: " + graph.report());
        final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
        assertNothingHeld(graph);
        return failure;
    }

    private static Throwable causeOfType(final Throwable top, final Class<? extends Throwable> type)
    {
        for (Throwable t = top; t != null; t = t.getCause())
        {
            if (type.isInstance(t))
            {
                return t;
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " under " + top);
    }

    @Test
    void aFrameOverTheLargestSlotFailsTheRunAtItsFirstCall() throws Exception
    {
        final FailurePolicy policy = FailurePolicy.FAIL_RUN;
        // 8192 x 4096 RGBA32 is 128 MiB; the pool's largest slot is 64 MiB
        try (Graph graph = new Graph(sourceAndSink(frameEveryCall(8192, 4096), policy).build()))
        {
            final GraphException failure = failedRun(graph);

            assertEquals(1, failure.failureCount(), failure.getMessage());
            final GraphFailure first = failure.failures().get(0);
            assertEquals("src", first.node());
            final String message = first.cause().getMessage();
            assertTrue(message.contains("frame 8192x4096 RGBA32 needs 134217728 bytes, more than the largest slot of " +
                "67108864 bytes; give the graph a pool with larger slots"), message);
            assertEquals(1, graph.callCount("src"), "not called again");
            assertEquals(0, graph.callCount("sink"));
        }
    }

    @Test
    void underDropTimestampAFrameOverTheLargestSlotIsDroppedAndASourceThatMakesItAgainGivesUpAfterTenCalls()
        throws Exception
    {
        // the frame is the failure, not the source: it is dropped and the source called again (a
        // folder moves on to its next file); one that makes the same frame every time gives up
        try (Graph graph = new Graph(sourceAndSink(frameEveryCall(8192, 4096), FailurePolicy.DROP_TIMESTAMP).build()))
        {
            final GraphException failure = failedRun(graph);

            assertEquals(10, graph.callCount("src"));
            assertEquals(10, failure.failureCount(), failure.getMessage());
            assertEquals(9, graph.dropCount("src"), "the frame of each call before it gave up");
            final String last = failure.failures().get(failure.failures().size() - 1).cause().getMessage();
            assertTrue(last.startsWith("source node 'src' gave up after 10 calls: its last 10 calls failed in a row"),
                last);
            assertTrue(last.contains("frame 8192x4096 RGBA32 needs 134217728 bytes, more than the largest slot of " +
                "67108864 bytes"), last);
        }
    }

    @Test
    void underDropTimestampTheFramesOfAShipmentBeforeOneTooLargeGoOutAndTheSourceGoesOn() throws Exception
    {
        // each call makes three 16 x 16 frames; the second call's second frame is over the largest slot
        final List<Long> timestamps = new ArrayList<>();
        final Calculator source = new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                for (int k = 0; k < 3; k++)
                {
                    final int side = next == 4 ? 8192 : 16;
                    final int at = next++;
                    ctx.output(0).add(ctx.pool().acquireFrame(side, side, PixelFormat.RGBA32), at);
                }
                if (next >= 9)
                {
                    ctx.stop();
                }
            }
        };
        try (Graph graph = new Graph(underDropTimestamp(source, ctx -> timestamps.add(ctx.inputTimestamp()))))
        {
            runToItsEnd(graph);

            assertEquals(List.of(0L, 1L, 2L, 3L, 5L, 6L, 7L, 8L, 9L, 10L), timestamps, "only timestamp 4 is lost");
            assertEquals(1, graph.failureCount());
            assertEquals(4, graph.failures().get(0).timestamp(), "the timestamp the failed call was making");
            assertEquals(1, graph.dropCount("src"));
        }
    }

    @Test
    void aSlotOverTheHardLimitFailsTheRunAtOnceUnderDropOldest() throws Exception
    {
        // 16 MiB budget: hard limit 12 MiB; a 2048 x 2048 RGBA32 frame takes a 16 MiB slot, which
        // no shedding can make room for. DROP_OLDEST called this source again at once, forever.
        final GraphConfig config = sourceAndSink(frameEveryCall(2048, 2048), FailurePolicy.FAIL_RUN)
            .memoryBudget(16 * MIB)
            .memoryLimitPolicy(MemoryLimitPolicy.DROP_OLDEST)
            .build();
        try (Graph graph = new Graph(config))
        {
            final GraphException failure = failedRun(graph);

            assertEquals(1, failure.failureCount(), failure.getMessage());
            final String message = failure.failures().get(0).cause().getMessage();
            assertTrue(message.startsWith("source node 'src' gave up after 1 call: calling it again cannot help: a " +
                "16777216 B slot is more than the pool's hard limit of 12582912 B: it cannot fit even in an empty " +
                "pool; the last failure: dev.framewire.core.MemoryLimitException: source node 'src' on stream " +
                "'frames' cannot take a 16777216 B slot: 0 B in use + 16777216 B would pass the pool's hard limit of " +
                "12582912 B"), message);
            final MemoryLimitException limit = (MemoryLimitException)causeOfType(failure.failures().get(0).cause(),
                MemoryLimitException.class);
            assertEquals(MemoryLimitException.HARD_LIMIT, limit.limit());
            assertEquals(16 * MIB, limit.requestedBytes());
            assertTrue(limit.getMessage().contains("the slot alone is more than the hard limit\nfix: raise " +
                "memory_budget_bytes"), limit.getMessage());
            assertEquals(1, graph.callCount("src"));
            assertEquals(1, graph.pool().failedAcquires());
        }
    }

    @Test
    void aShipmentOverTheHardLimitIsCalledAgainTenTimesWithGrowingWaitsThenFailsTheRun() throws Exception
    {
        // 16 MiB budget, hard limit 12 MiB, no byte cap on shipments: each call makes 48 frames of
        // 256 KiB (12 MiB) and fails on the 49th; DROP_TIMESTAMP drops the call's frames and goes on
        final GraphConfig config = sourceAndSink(frameSource(1_000, 256, 256), FailurePolicy.DROP_TIMESTAMP)
            .memoryBudget(16 * MIB)
            .maxShipmentBytes(-1)
            .build();
        try (Graph graph = new Graph(config))
        {
            final long started = System.nanoTime();
            final GraphException failure = failedRun(graph);
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertEquals(10, graph.callCount("src"), "ten calls, then it gave up");
            assertEquals(10, graph.pool().failedAcquires());
            assertTrue(millis >= WAITS_BEFORE_GIVING_UP_MILLIS, "waited between calls, no spinning: " + millis + " ms");
            assertEquals(10, failure.failureCount(), failure.getMessage());
            for (final GraphFailure each : failure.failures())
            {
                assertEquals("src", each.node());
                // the same failure every time: a call's discarded frames took the stream's bound
                // back, so its next call could emit timestamps 0, 1, ... again
                causeOfType(each.cause(), MemoryLimitException.class);
            }
            final String last = failure.failures().get(failure.failures().size() - 1).cause().getMessage();
            assertTrue(last.startsWith("source node 'src' gave up after 10 calls: its last 10 calls failed in a " +
                "row, over "), last);
            assertTrue(last.contains("ms (a source whose call fails is called again, at most 10 times in a row, " +
                "waiting up to 100 ms between calls); the last failure: dev.framewire.core.MemoryLimitException: " +
                "source node 'src' on stream 'frames' cannot take a 262144 B slot: 12582912 B in use + 262144 B would " +
                "pass the pool's hard limit of 12582912 B"), last);
            assertEquals(9 * 48, graph.dropCount("src"), "the frames of the nine calls dropped before it gave up");
            assertEquals(0, graph.callCount("sink"));
        }
    }

    @ParameterizedTest
    @EnumSource(value = FailurePolicy.class, names = {"DROP_TIMESTAMP", "FAIL_RUN"})
    void aClassThatFailedToInitializeAsWithoutAJvmFlagFailsTheRunAtOnceSayingSo(final FailurePolicy policy)
        throws Exception
    {
        // what Agrona's buffers throw on every call when --add-exports=java.base/jdk.internal.misc is
        // missing (Graph.start checks the flags, so this is simulated); a frame is staged first
        final Calculator source = ctx ->
        {
            ctx.output(0).add(ctx.pool().acquireFrame(64, 64, PixelFormat.RGBA32), 0);
            final NoClassDefFoundError error = new NoClassDefFoundError("Could not initialize class org.agrona.BufferUtil");
            error.initCause(new ExceptionInInitializerError("Exception java.lang.IllegalAccessError: class " +
                "org.agrona.UnsafeApi cannot access class jdk.internal.misc.Unsafe"));
            throw error;
        };
        try (Graph graph = new Graph(sourceAndSink(source, policy).build()))
        {
            final GraphException failure = failedRun(graph);

            assertEquals(1, failure.failureCount(), failure.getMessage());
            final Throwable cause = failure.failures().get(0).cause();
            final String message = cause.getMessage();
            assertTrue(message.contains("node 'src' could not load or initialize a class it needs: " +
                "java.lang.NoClassDefFoundError: Could not initialize class org.agrona.BufferUtil; this JVM has the " +
                "flags the graph needs (checked at start), so the cause is elsewhere"), message);
            if (policy == FailurePolicy.DROP_TIMESTAMP)
            {
                assertTrue(message.startsWith("source node 'src' gave up after 1 call: calling it again cannot help: " +
                    "a class failed to load or initialize (java.lang.NoClassDefFoundError: Could not initialize " +
                    "class org.agrona.BufferUtil), and stays so for the JVM's life"), message);
            }
            assertInstanceOf(NoClassDefFoundError.class, causeOfType(cause, NoClassDefFoundError.class));
            assertEquals(1, graph.callCount("src"));
            assertEquals(0, graph.callCount("sink"), "the staged frame was released, not delivered");
        }
    }

    @Test
    void aSourceFailingForAWhileIsCalledAgainAfterGrowingWaitsAndGoesOnOnceItWorks() throws Exception
    {
        final List<Long> callNanos = new ArrayList<>();
        final AtomicInteger received = new AtomicInteger();
        final Calculator source = new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                callNanos.add(System.nanoTime());
                if (callNanos.size() <= 5)
                {
                    ctx.output(0).add(ctx.pool().acquireFrame(16, 16, PixelFormat.RGBA32), next); // discarded
                    throw new IllegalStateException("camera not ready");
                }
                ctx.output(0).add(ctx.pool().acquireFrame(16, 16, PixelFormat.RGBA32), next++);
                if (next == 10)
                {
                    ctx.stop();
                }
            }
        };
        final Calculator sink = ctx -> assertEquals(received.getAndIncrement(), ctx.inputTimestamp(), "from 0, in order");
        try (Graph graph = new Graph(underDropTimestamp(source, sink)))
        {
            runToItsEnd(graph);

            assertEquals(10, received.get(), "timestamps 0 to 9: the failed calls' frames left no gap");
            assertEquals(5, graph.failureCount());
            assertEquals(5, graph.dropCount("src"), "one frame discarded per failed call");
            assertEquals(15, graph.callCount("src"));
            // at once after the first failed call, then 1, 2, 4, 8 ms (lower bounds: a parked
            // worker may wake a little later)
            final long[] waitsMillis = {0, 1, 2, 4, 8};
            for (int k = 0; k < waitsMillis.length; k++)
            {
                final long gap = callNanos.get(k + 1) - callNanos.get(k);
                assertTrue(gap >= TimeUnit.MILLISECONDS.toNanos(waitsMillis[k]),
                    "call " + (k + 2) + " came " + gap + " ns after call " + (k + 1));
            }
        }
    }

    @Test
    void aSourceThatAlwaysFailsGivesUpAfterTenCallsAndAQuarterOfASecond() throws Exception
    {
        final Calculator source = ctx ->
        {
            throw new IllegalStateException("camera unplugged");
        };
        try (Graph graph = new Graph(sourceAndSink(source, FailurePolicy.DROP_TIMESTAMP).build()))
        {
            final long started = System.nanoTime();
            final GraphException failure = failedRun(graph);
            final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertEquals(10, graph.callCount("src"));
            assertEquals(10, failure.failureCount());
            assertTrue(millis >= WAITS_BEFORE_GIVING_UP_MILLIS, millis + " ms");
            assertTrue(failure.getMessage().contains("node 'src' at input timestamp 0: java.lang.IllegalStateException: " +
                "source node 'src' gave up after 10 calls: its last 10 calls failed in a row"), failure.getMessage());
            assertTrue(failure.getMessage().endsWith("the last failure: java.lang.IllegalStateException: camera " +
                "unplugged"), failure.getMessage());
            assertTrue(graph.report().contains(", its last 10 calls failed (called again)"), graph.report());
        }
    }
}
