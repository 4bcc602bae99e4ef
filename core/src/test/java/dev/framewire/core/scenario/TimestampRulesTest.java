package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.Timestamp.DONE;
import static dev.framewire.core.Timestamp.MAX;
import static dev.framewire.core.Timestamp.MIN;
import static dev.framewire.core.Timestamp.ONE_OVER_POST_STREAM;
import static dev.framewire.core.Timestamp.POST_STREAM;
import static dev.framewire.core.Timestamp.PRE_STREAM;
import static dev.framewire.core.Timestamp.UNSET;
import static dev.framewire.core.Timestamp.UNSTARTED;
import static dev.framewire.core.scenario.Scenarios.addUnlessEnded;
import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timestamps: MediaPipe's special values, strictly increasing packets per stream, and how a
 * violation is reported, by a node (the run fails) and by a caller of a graph input (the call
 * throws).
 */
class TimestampRulesTest
{
    @Test
    @Timeout(10)
    void specialValuesFollowMediaPipeOrder()
    {
        final long[] ordered = {UNSET, UNSTARTED, PRE_STREAM, MIN, -1, 0, 1, MAX, POST_STREAM, ONE_OVER_POST_STREAM, DONE};
        for (int i = 1; i < ordered.length; i++)
        {
            assertTrue(ordered[i - 1] < ordered[i], Timestamp.toString(ordered[i - 1]) + " < " +
                Timestamp.toString(ordered[i]));
        }
        for (final long valid : new long[]{PRE_STREAM, MIN, 0, MAX, POST_STREAM})
        {
            assertTrue(Timestamp.isValidPacketTimestamp(valid), Timestamp.toString(valid));
        }
        for (final long invalid : new long[]{UNSET, UNSTARTED, ONE_OVER_POST_STREAM, DONE})
        {
            assertFalse(Timestamp.isValidPacketTimestamp(invalid), Timestamp.toString(invalid));
        }
        assertEquals(6, Timestamp.nextAllowedInStream(5));
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(MAX));
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(PRE_STREAM));
        assertEquals(ONE_OVER_POST_STREAM, Timestamp.nextAllowedInStream(POST_STREAM));
        assertEquals(5, Timestamp.previousAllowedInStream(6));
        assertEquals(MIN, Timestamp.nextAllowedInStream(UNSTARTED));
        assertEquals(UNSTARTED, Timestamp.previousAllowedInStream(MIN), "nothing is settled below Min");
        assertEquals(MAX, Timestamp.previousAllowedInStream(DONE));
        assertEquals(8, Timestamp.add(5, 3));
        assertEquals(MAX, Timestamp.add(MAX, 10));
        assertEquals(MAX, Timestamp.add(MAX - 1, Long.MAX_VALUE));
        assertEquals(MIN, Timestamp.add(MIN, -10));
        assertEquals(MIN, Timestamp.add(MIN + 1, Long.MIN_VALUE));
        assertEquals(DONE, Timestamp.add(DONE, -5));
        assertEquals(List.of("Unset", "Unstarted", "PreStream", "Min", "42", "Max", "PostStream", "OneOverPostStream",
            "Done"), List.of(Timestamp.toString(UNSET), Timestamp.toString(UNSTARTED), Timestamp.toString(PRE_STREAM),
            Timestamp.toString(MIN), Timestamp.toString(42), Timestamp.toString(MAX), Timestamp.toString(POST_STREAM),
            Timestamp.toString(ONE_OVER_POST_STREAM), Timestamp.toString(DONE)));
    }

    /** A source that emits the given timestamps on its one output, one per call, then stops. */
    private static Calculator emitting(final long... timestamps)
    {
        return new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(next, timestamps[next]);
                if (++next == timestamps.length)
                {
                    ctx.stop();
                }
            }
        };
    }

    private static GraphConfig sourceInto(final List<String> sets, final long... timestamps)
    {
        return GraphConfig.builder()
            .node("src", n -> n.calculator(() -> emitting(timestamps)).outputStream("s"))
            .node("sink", n -> n.calculator(recorder(sets)).inputStream("s"))
            .build();
    }

    @Test
    @Timeout(10)
    void preStreamAndPostStreamPacketsReachConsumers() throws Exception
    {
        final List<String> pre = syncList();
        try (Graph graph = new Graph(sourceInto(pre, PRE_STREAM)))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(list("PreStream:0"), pre);

        final List<String> post = syncList();
        try (Graph graph = new Graph(sourceInto(post, POST_STREAM)))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(list("PostStream:0"), post);

        final List<String> extremes = syncList();
        try (Graph graph = new Graph(sourceInto(extremes, MIN, 0, MAX)))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(list("Min:0", "0:1", "Max:2"), extremes);
    }

    private static GraphFailure onlyFailure(final GraphConfig config) throws Exception
    {
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertFalse(ex.isCancelled());
            assertEquals(1, ex.failures().size(), ex.getMessage());
            return ex.failures().get(0);
        }
    }

    @Test
    @Timeout(10)
    void packetAfterPreStreamFailsTheRun() throws Exception
    {
        final GraphFailure failure = onlyFailure(sourceInto(syncList(), PRE_STREAM, 0));
        assertEquals("src", failure.node());
        assertTrue(failure.cause() instanceof TimestampException, String.valueOf(failure.cause()));
        final String message = failure.cause().getMessage();
        assertTrue(message.contains("node 'src'") && message.contains("stream 's'") && message.contains("PreStream") &&
            message.contains("timestamp 0"), message);
    }

    @Test
    @Timeout(10)
    void postStreamAfterAPacketFailsTheRun() throws Exception
    {
        final GraphFailure failure = onlyFailure(sourceInto(syncList(), 5, POST_STREAM));
        final String message = failure.cause().getMessage();
        assertTrue(message.contains("node 'src'") && message.contains("stream 's'") && message.contains("PostStream") &&
            message.contains("5") && message.contains("only packet"), message);
    }

    @Test
    @Timeout(10)
    void invalidPacketTimestampFailsTheRun() throws Exception
    {
        final GraphFailure failure = onlyFailure(sourceInto(syncList(), Timestamp.DONE));
        final String message = failure.cause().getMessage();
        assertTrue(message.contains("node 'src'") && message.contains("stream 's'") && message.contains("Done") &&
            message.contains("not a valid packet timestamp") && message.contains("Min..Max"), message);
    }

    @Test
    @Timeout(10)
    void nodeBreakingStrictIncreaseFailsTheRunNamingNodeStreamAndBothTimestamps() throws Exception
    {
        final List<String> downstream = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("skewed", n -> n.calculator(() -> ctx ->
            {
                // 1000 -> 1000, 2000 -> 1500, 3000 -> 1200: the third goes backwards
                final long ts = ctx.inputTimestamp();
                final long out = ts == 1000 ? 1000 : ts == 2000 ? 1500 : 1200;
                ctx.output(0).addLong(ts, out);
            }).inputStream("in").outputStream("out"))
            .node("sink", n -> n.calculator(recorder(downstream)).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (final long ts : new long[]{1000, 2000, 3000, 4000})
            {
                addUnlessEnded(graph, "in", ts, ts);
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final GraphFailure failure = ex.failures().get(0);
            assertEquals("skewed", failure.node());
            assertEquals(3000, failure.timestamp());
            assertTrue(failure.cause() instanceof TimestampException);
            final String message = failure.cause().getMessage();
            assertTrue(message.contains("node 'skewed'") && message.contains("stream 'out'") &&
                message.contains("1200") && message.contains("1500"), message);
            assertTrue(ex.getMessage().contains("'skewed'") && ex.getMessage().contains("3000"), ex.getMessage());
        }
        assertEquals(list("1000:1000", "1500:2000"), downstream, "the bad packet is never delivered");
    }

    @Test
    @Timeout(10)
    void badGraphInputTimestampThrowsToCallerAndReleasesThePayload() throws Exception
    {
        assertRefused(500, 400, "400", "500");
        assertRefused(500, 500, "500", "increase strictly");
        assertRefused(Timestamp.UNSET, Timestamp.UNSTARTED, "Unstarted", "'in'");
        final List<String> seen = syncList();
        try (Graph graph = new Graph(sink(seen)))
        {
            graph.start();
            graph.setInputBound("in", 1000);
            final Payload belowBound = payload(graph, 4);
            final TimestampException ex = assertThrows(TimestampException.class, () -> graph.addPacket("in", belowBound, 900));
            assertTrue(ex.getMessage().contains("'in'") && ex.getMessage().contains("900") &&
                ex.getMessage().contains("bound 1000"), ex.getMessage());
            assertEquals(0, belowBound.refCount());
            assertThrows(GraphException.class, graph::waitUntilDone);
        }
        assertEquals(List.of(), seen);
    }

    /**
     * As MediaPipe's AddPacketToInputStream: a refused add throws to the caller, releases the payload,
     * and puts the run in error: later adds fail and waitUntilDone reports it, first.
     */
    private static void assertRefused(final long first, final long second, final String... words) throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = new Graph(sink(seen)))
        {
            graph.start();
            if (first != Timestamp.UNSET)
            {
                graph.addPacket("in", payload(graph, 1), first);
            }
            final Payload refused = payload(graph, 2);
            final TimestampException ex = assertThrows(TimestampException.class, () -> graph.addPacket("in", refused, second));
            for (final String word : words)
            {
                assertTrue(ex.getMessage().contains(word), ex.getMessage());
            }
            assertEquals(0, refused.refCount(), "the refused packet's payload is released");
            final Payload later = payload(graph, 3);
            final IllegalStateException after = assertThrows(IllegalStateException.class,
                () -> graph.addPacket("in", later, Timestamp.MAX));
            assertTrue(after.getMessage().contains("'in'"), after.getMessage());
            assertEquals(0, later.refCount());
            final GraphException failed = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("graph input 'in'", failed.failures().get(0).node());
            assertSame(ex, failed.failures().get(0).cause());
        }
    }

    private static GraphConfig sink(final List<String> seen)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("sink", n -> n.calculator(() -> ctx -> seen.add(ctx.inputTimestamp() + "=" +
                ctx.input(0).payload().buffer().getLong(0))).inputStream("in"))
            .build();
    }

    private static Payload payload(final Graph graph, final long value)
    {
        final Payload payload = graph.pool().acquire(64);
        payload.mutableBuffer().putLong(0, value);
        return payload;
    }
}
