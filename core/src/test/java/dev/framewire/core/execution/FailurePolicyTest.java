package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §7.1 on a diamond, with node {@code a} failing at one timestamp, under each failure
 * policy:
 * <pre>
 *   src --frames--> a --a_out--> join --joined--> sink
 *       --frames--> b --b_out-->
 * </pre>
 * The source emits 40 small frames in shipments of 4, so the failure comes in the middle of the
 * run and branch {@code b} still has shipments to go. Every run ends with nothing held: checked
 * after {@code waitUntilDone} and again by closing the graph's own pool.
 */
@Timeout(30)
class FailurePolicyTest
{
    private static final int FRAMES = 40;
    private static final long FAIL_AT = 17;

    /** Passes its frame on, except at {@link #FAIL_AT}. */
    private static Calculator failingAtFailAt()
    {
        return ctx ->
        {
            if (ctx.inputTimestamp() == FAIL_AT)
            {
                throw new IllegalStateException("bad frame at " + FAIL_AT);
            }
            ctx.output(0).add(ctx.input(0).payload(), ctx.inputTimestamp());
        };
    }

    /** Records each input set as {@code "ts:ab"}, a '-' for an empty input, and emits the timestamp. */
    private static Calculator join(final List<String> seen)
    {
        return ctx ->
        {
            seen.add(ctx.inputTimestamp() + ":" + (ctx.input(0).isEmpty() ? "-" : "a") +
                (ctx.input(1).isEmpty() ? "-" : "b"));
            ctx.output(0).addLong(ctx.inputTimestamp(), ctx.inputTimestamp());
        };
    }

    /**
     * The diamond; with {@code oneSocket} the join's inputs share the tag FRAME, so they are one
     * socket, alive while either producer is.
     */
    private static GraphConfig diamond(
        final FailurePolicy policy,
        final boolean oneSocket,
        final List<String> joined,
        final List<Long> sunk)
    {
        return parked(1).failurePolicy(policy).maxShipmentSize(4)
            .node("src", n -> n.calculator(() -> frameSource(FRAMES, 8, 8)).outputStream("frames"))
            .node("a", n -> n.calculator(FailurePolicyTest::failingAtFailAt).inputStream("frames").outputStream("a_out"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("frames").outputStream("b_out"))
            .node("join", n -> n.calculator(() -> join(joined))
                .inputStream(oneSocket ? "FRAME:0:a_out" : "a_out", oneSocket ? "FRAME:1:b_out" : "b_out")
                .outputStream("joined"))
            .node("sink", n -> n.calculator(() -> ctx -> sunk.add(ctx.input(0).getLong())).inputStream("joined"))
            .build();
    }

    private static void assertTheFailureOfA(final GraphFailure failure)
    {
        assertEquals("a", failure.node());
        assertEquals(FAIL_AT, failure.timestamp());
        assertTrue(failure.cause() instanceof IllegalStateException, String.valueOf(failure.cause()));
        assertEquals("bad frame at " + FAIL_AT, failure.cause().getMessage());
    }

    private static List<String> bothUpTo(final long end)
    {
        final List<String> sets = new ArrayList<>();
        for (long ts = 0; ts < end; ts++)
        {
            sets.add(ts + ":ab");
        }
        return sets;
    }

    @Test
    void failRunStopsEverythingAndThrowsNamingNodeTimestampAndCause() throws Exception
    {
        final List<String> joined = Collections.synchronizedList(new ArrayList<>());
        final List<Long> sunk = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(diamond(FailurePolicy.FAIL_RUN, false, joined, sunk)))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertFalse(failure.isCancelled());
            assertEquals(1, failure.failures().size(), failure.getMessage());
            assertTheFailureOfA(failure.failures().get(0));
            assertTrue(failure.getMessage().contains("node 'a' at input timestamp " + FAIL_AT) &&
                failure.getMessage().contains("bad frame at " + FAIL_AT), failure.getMessage());
            assertTrue(failure.blockedNodes().isEmpty());
            assertEquals(bothUpTo(FAIL_AT), joined, "one worker: the join keeps up until a fails");
        }
    }

    @Test
    void isolateBlocksTheJoinAndSinkWhileBranchBRunsToCompletion() throws Exception
    {
        final List<String> joined = Collections.synchronizedList(new ArrayList<>());
        final List<Long> sunk = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(diamond(FailurePolicy.ISOLATE, false, joined, sunk)))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertFalse(failure.isCancelled());
            assertEquals(1, failure.failures().size(), failure.getMessage());
            assertTheFailureOfA(failure.failures().get(0));
            assertEquals(List.of("join", "sink"), failure.blockedNodes(),
                "the join's own socket for a_out lost its only producer; the sink follows");
            assertEquals(FRAMES, graph.callCount("b"), "branch b is independent of a and runs every frame");
            assertEquals(FRAMES / 4, graph.callCount("src"), "the source ran all its shipments");
            assertEquals(FAIL_AT + 1, graph.callCount("a"), "a never runs again after its failing call");
            assertEquals(bothUpTo(FAIL_AT), joined, "a blocked join never runs again");
            assertEquals(FAIL_AT, sunk.size());
        }
    }

    @Test
    void isolateDoesNotBlockANodeWhoseInputsShareATagWhileOneProducerLives() throws Exception
    {
        final List<String> joined = Collections.synchronizedList(new ArrayList<>());
        final List<Long> sunk = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(diamond(FailurePolicy.ISOLATE, true, joined, sunk)))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertEquals(1, failure.failures().size(), failure.getMessage());
            assertTheFailureOfA(failure.failures().get(0));
            assertTrue(failure.blockedNodes().isEmpty(), "FRAME:0 and FRAME:1 are one socket, fed by b still");
            final List<String> expected = bothUpTo(FAIL_AT);
            for (long ts = FAIL_AT; ts < FRAMES; ts++)
            {
                expected.add(ts + ":-b");
            }
            assertEquals(expected, joined);
            assertEquals(FRAMES, sunk.size());
            assertEquals(FRAMES, graph.callCount("b"));
        }
    }

    @Test
    void dropTimestampDropsTheFailedSetAndTheRunCompletes() throws Exception
    {
        final List<String> joined = Collections.synchronizedList(new ArrayList<>());
        final List<Long> sunk = Collections.synchronizedList(new ArrayList<>());
        try (Graph graph = new Graph(diamond(FailurePolicy.DROP_TIMESTAMP, false, joined, sunk)))
        {
            graph.start();
            graph.waitUntilDone(); // does not throw: the run goes on past the failure
            assertNothingHeld(graph);

            assertEquals(1, graph.failures().size());
            assertTheFailureOfA(graph.failures().get(0));
            assertEquals(1, graph.dropCount("a"));
            // a's bound moved past 17, so the join settled 17 with b's packet alone instead of
            // waiting for a packet that will never come, and saw every other timestamp whole
            final List<String> expected = new ArrayList<>();
            for (long ts = 0; ts < FRAMES; ts++)
            {
                expected.add(ts + (ts == FAIL_AT ? ":-b" : ":ab"));
            }
            assertEquals(expected, joined);
            assertEquals(FRAMES, sunk.size());
            assertEquals(FRAMES, graph.callCount("b"));
        }
    }
}
