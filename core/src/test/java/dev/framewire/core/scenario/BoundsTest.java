package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.OutputPoller;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.awaitPaused;
import static dev.framewire.core.scenario.Scenarios.list;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.recordingJoin;
import static dev.framewire.core.scenario.Scenarios.snapshot;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Timestamp bounds: how producers move them (a tighter bound, an offset, closing), and how a
 * default-policy consumer settles timestamps on them without waiting for a packet.
 *
 * <p>Graphs here have no source nodes, so {@link Graph#waitUntilIdle()} tells when the graph has
 * done everything it can with what it was given: "nothing happened" is checked without sleeping.
 */
class BoundsTest
{
    /** Passes even timestamps of input 0 on; for odd ones emits nothing, optionally promising a tighter bound. */
    private static Calculator evenOnly(final boolean promiseBound)
    {
        return ctx ->
        {
            final long ts = ctx.inputTimestamp();
            if (ts % 2 == 0)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ts);
            }
            else if (promiseBound)
            {
                ctx.output(0).setNextTimestampBound(ts + 1);
            }
        };
    }

    private static GraphConfig joinAfter(final List<String> sets, final Calculator filter)
    {
        return GraphConfig.builder()
            .inputStream("a", "b")
            .node("filter", n -> n.calculator(() -> filter).inputStream("b").outputStream("f"))
            .node("join", n -> n.calculator(recordingJoin(sets)).inputStream("a", "f").outputStream("joined"))
            .outputStream("joined")
            .build();
    }

    @Test
    @Timeout(10)
    void setNextTimestampBoundSettlesADefaultJoinWithoutAPacket() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(joinAfter(sets, evenOnly(true))))
        {
            final OutputPoller joined = graph.poller("joined");
            graph.start();
            graph.addPacket("a", 10L, 0);
            graph.addPacket("b", 20L, 0);
            graph.addPacket("a", 11L, 1);
            graph.addPacket("b", 21L, 1);
            // the filter emits nothing at 1 but promises bound 2: the join settles 1 with 'f' empty
            assertTrue(joined.next(5, TimeUnit.SECONDS));
            assertEquals(0, joined.packet().timestamp());
            assertTrue(joined.next(5, TimeUnit.SECONDS), "timestamp 1 settled before any input closed");
            assertEquals(1, joined.packet().timestamp());
            assertEquals(list("0:10,20", "1:11,-"), snapshot(sets));
            graph.closeAllInputs();
            assertFalse(joined.next(5, TimeUnit.SECONDS));
            assertTrue(joined.isDone());
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void withoutATighterBoundTheJoinWaitsUntilTheStreamCloses() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(joinAfter(sets, evenOnly(false))))
        {
            graph.start();
            graph.addPacket("a", 10L, 0);
            graph.addPacket("b", 20L, 0);
            graph.addPacket("a", 11L, 1);
            graph.addPacket("b", 21L, 1);
            graph.waitUntilIdle();
            assertEquals(list("0:10,20"), snapshot(sets), "1 is not settled on 'f': its bound stays at 1");
            graph.closeInput("b");
            graph.waitUntilIdle();
            assertEquals(list("0:10,20", "1:11,-"), snapshot(sets));
            graph.closeInput("a");
            graph.waitUntilDone();
        }
    }

    /** Offset 0, passes even timestamps on and drops odd ones: emits nothing for them. */
    private static Calculator evenOnlyWithOffset()
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (ctx.inputTimestamp() % 2 == 0)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }
        };
    }

    @Test
    @Timeout(10)
    void offsetZeroPropagatesBoundsWhenEmittingNothing() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(joinAfter(sets, evenOnlyWithOffset())))
        {
            graph.start();
            graph.addPacket("a", 11L, 1);
            graph.addPacket("b", 21L, 1);
            graph.waitUntilIdle();
            assertEquals(list("1:11,-"), snapshot(sets), "after input set 1 the offset moves 'f' to 2");

            // a bound alone, no packet: the filter has no input set, yet its output bound follows
            graph.addPacket("a", 12L, 2);
            graph.addPacket("a", 13L, 3);
            graph.addPacket("a", 14L, 4);
            graph.setInputBound("b", 5);
            graph.waitUntilIdle();
            assertEquals(list("1:11,-", "2:12,-", "3:13,-", "4:14,-"), snapshot(sets));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void offsetBoundFollowsABoundThatMovedWhileTheNodeWasQueued() throws Exception
    {
        final List<String> sets = syncList();
        try (Graph graph = new Graph(joinAfter(sets, evenOnlyWithOffset())))
        {
            graph.start();
            graph.waitUntilIdle();
            graph.pause();
            awaitPaused(graph);
            // while paused the filter is queued for its input set at 1; 'b' then moves on to 10
            graph.addPacket("b", 21L, 1);
            graph.setInputBound("b", 10);
            for (long ts = 1; ts < 10; ts++)
            {
                graph.addPacket("a", 10 + ts, ts);
            }
            graph.resume();
            graph.waitUntilIdle();
            // 'b' cannot bring anything below 10, so neither can 'f' (offset 0): 1..9 are settled
            assertEquals(List.of("1:11,-", "2:12,-", "3:13,-", "4:14,-", "5:15,-", "6:16,-", "7:17,-", "8:18,-",
                "9:19,-"), snapshot(sets));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void closingAStreamMovesItsBoundToDone() throws Exception
    {
        final List<String> sets = syncList();
        final AtomicLong boundAfterClose = new AtomicLong();
        final Calculator once = ctx ->
        {
            // passes the first packet on, then closes its output for good
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            ctx.output(0).close();
            boundAfterClose.set(ctx.output(0).nextTimestampBound());
        };
        try (Graph graph = new Graph(joinAfter(sets, once)))
        {
            graph.start();
            graph.addPacket("b", 20L, 0);
            for (long ts = 0; ts < 4; ts++)
            {
                graph.addPacket("a", 10 + ts, ts);
            }
            graph.waitUntilIdle();
            assertEquals(Timestamp.DONE, boundAfterClose.get());
            assertEquals(list("0:10,20", "1:11,-", "2:12,-", "3:13,-"), snapshot(sets),
                "'f' is done, so every timestamp is settled on it while 'b' is still open");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void closingAGraphInputSettlesEverythingOnIt() throws Exception
    {
        final List<String> sets = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("join", n -> n.calculator(recorder(sets)).inputStream("a", "b"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("a", 1L, 100);
            graph.addPacket("a", 2L, Timestamp.MAX);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(sets));
            graph.closeInput("b");
            graph.waitUntilIdle();
            assertEquals(list("100:1,-", "Max:2,-"), snapshot(sets));
            assertThrows(IllegalStateException.class, () -> graph.addPacket("b", 3L, 200), "'b' is closed");
            graph.closeInput("a");
            graph.waitUntilDone();
        }
    }

    @Test
    @Timeout(10)
    void emittingOnAClosedOutputFailsTheRun() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("closer", n -> n.calculator(() -> ctx ->
            {
                ctx.output(0).close();
                ctx.output(0).addLong(1, ctx.inputTimestamp());
            }).inputStream("in").outputStream("out"))
            .outputStream("out")
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 1L, 7);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final GraphFailure failure = ex.failures().get(0);
            assertEquals("closer", failure.node());
            assertTrue(failure.cause() instanceof TimestampException);
            final String message = failure.cause().getMessage();
            assertTrue(message.contains("'closer'") && message.contains("'out'") && message.contains("7") &&
                message.contains("Done"), message);
        }
    }

    @Test
    @Timeout(10)
    void nodeClosesOnceAllInputsAreDoneAndItsOutputsCloseAfterItsClose() throws Exception
    {
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicLong closeTimestamp = new AtomicLong();
        final Calculator summer = new Calculator()
        {
            private long sum;

            @Override
            public void process(final CalculatorContext ctx)
            {
                for (int i = 0; i < ctx.inputCount(); i++)
                {
                    sum += ctx.input(i).isEmpty() ? 0 : ctx.input(i).getLong();
                }
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                closeTimestamp.set(ctx.inputTimestamp());
                // the outputs are still open in close(): a last packet goes out before they close
                ctx.output(0).addLong(sum, 1000);
                closed.set(true);
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("a", "b")
            .node("summer", n -> n.calculator(() -> summer).inputStream("a", "b").outputStream("sum"))
            .outputStream("sum")
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller poller = graph.poller("sum");
            graph.start();
            graph.addPacket("a", 1L, 1);
            graph.addPacket("b", 2L, 1);
            graph.addPacket("a", 3L, 2);
            graph.closeInput("a");
            graph.waitUntilIdle();
            assertFalse(closed.get(), "'b' is still open");
            assertFalse(poller.isDone());
            graph.closeInput("b");
            graph.waitUntilDone();
            assertTrue(closed.get());
            assertEquals(Timestamp.DONE, closeTimestamp.get());
            assertTrue(poller.next(5, TimeUnit.SECONDS));
            assertEquals(1000, poller.packet().timestamp());
            assertEquals(6, poller.packet().getLong());
            assertFalse(poller.next(1, TimeUnit.SECONDS));
            assertTrue(poller.isDone(), "the output closed after close()");
        }
    }
}
