package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.Timestamp;
import dev.framewire.core.TimestampException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.conformance.Conformance.boundObserver;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/output_stream_manager_test.cc}: which packets and bounds
 * an output stream takes, and the bound an offset gives it. MediaPipe calls its output stream
 * manager directly; here a node emits and a downstream node that processes bounds shows what
 * arrived ({@code value@ts} for a packet, {@code -@settled} for a bound).
 */
class OutputStreamManagerTest
{
    /** Input {@code in} into {@code emitter}, whose output goes to a bound observer. */
    private static Graph graph(final Calculator emitter, final List<String> seen)
    {
        return new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("emitter", n -> n.calculator(() -> emitter).inputStream("in").outputStream("out"))
            .node("observer", n -> n.calculator(boundObserver(seen)).inputStream("out"))
            .build());
    }

    /** Emits {@code timestamps} in order, each at the first input set. */
    private static Calculator emitsOnce(final long... timestamps)
    {
        return new Calculator()
        {
            private boolean done;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (!done)
                {
                    done = true;
                    for (final long ts : timestamps)
                    {
                        ctx.output(0).addLong(ts == Timestamp.PRE_STREAM || ts == Timestamp.POST_STREAM ? 0 : ts, ts);
                    }
                }
            }
        };
    }

    private static TimestampException failure(final Calculator emitter, final long inputTimestamp) throws Exception
    {
        try (Graph graph = graph(emitter, syncList()))
        {
            graph.start();
            graph.addPacket("in", 0L, inputTimestamp);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final GraphFailure failure = ex.failures().get(0);
            assertEquals("emitter", failure.node());
            assertTrue(failure.cause() instanceof TimestampException, String.valueOf(failure.cause()));
            return (TimestampException)failure.cause();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacket)
    @Test
    @Timeout(20)
    void addPacket() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(emitsOnce(10, 20, 30), seen))
        {
            graph.start();
            graph.addPacket("in", 0L, 0);
            graph.waitUntilIdle();
            assertEquals(List.of("10@10", "20@20", "30@30"), snapshot(seen), "the bound is 31 after them");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketUnset), AddPacketUnstarted,
    // AddPacketOneOverPostStream, AddPacketdDone
    @Test
    @Timeout(20)
    void addPacketAtATimestampNoPacketMayCarry() throws Exception
    {
        for (final long ts : new long[] {Timestamp.UNSET, Timestamp.UNSTARTED, Timestamp.ONE_OVER_POST_STREAM,
            Timestamp.DONE})
        {
            final String message = failure(emitsOnce(ts), 0).getMessage();
            assertTrue(message.contains(Timestamp.toString(ts)) && message.contains("'emitter'") &&
                message.contains("'out'"), message);
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketOnlyPreStream)
    @Test
    @Timeout(20)
    void addPacketOnlyPreStream() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(emitsOnce(Timestamp.PRE_STREAM), seen))
        {
            graph.start();
            graph.addPacket("in", 0L, Timestamp.PRE_STREAM);
            graph.waitUntilIdle();
            // the bound is OneOverPostStream: nothing more can come, Max is settled, and a node
            // processing bounds is called there too (MediaPipe's sync set does the same)
            assertEquals(List.of("0@PreStream", "-@Max"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketAfterPreStream)
    @Test
    @Timeout(20)
    void addPacketAfterPreStream() throws Exception
    {
        final String message = failure(emitsOnce(Timestamp.PRE_STREAM, 10), 0).getMessage();
        assertTrue(message.contains("PreStream") && message.contains("10"), message);
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketOnlyPostStream)
    @Test
    @Timeout(20)
    void addPacketOnlyPostStream() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(emitsOnce(Timestamp.POST_STREAM), seen))
        {
            graph.start();
            graph.addPacket("in", 0L, Timestamp.POST_STREAM);
            graph.waitUntilIdle();
            assertEquals(List.of("0@PostStream"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketBeforePostStream)
    @Test
    @Timeout(20)
    void addPacketBeforePostStream() throws Exception
    {
        final String message = failure(emitsOnce(10, Timestamp.POST_STREAM), 10).getMessage();
        assertTrue(message.contains("PostStream") && message.contains("10"), message);
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, AddPacketReverseTimestamps)
    @Test
    @Timeout(20)
    void addPacketReverseTimestamps() throws Exception
    {
        final String message = failure(emitsOnce(20, 10), 20).getMessage();
        assertTrue(message.contains("20") && message.contains("10"), message);
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, SetNextTimestampBoundReverseTimestamps)
    // MediaPipe fails a bound set below the stream's bound (50, then 40). Framewire ignores the lower
    // bound (Output.setNextTimestampBound: "Lower values are ignored"): the bound stays 50 and the run
    // goes on. Kept: a bound only ever moves forward either way, and the tighter promise stands.
    @Test
    @Timeout(20)
    void setNextTimestampBoundReverseTimestamps() throws Exception
    {
        final List<String> seen = syncList();
        final List<Long> boundAfter = syncList();
        final Calculator reverse = ctx ->
        {
            ctx.output(0).setNextTimestampBound(ctx.inputTimestamp() == 20 ? 50 : 40);
            boundAfter.add(ctx.output(0).nextTimestampBound());
        };
        try (Graph graph = graph(reverse, seen))
        {
            graph.start();
            graph.addPacket("in", 0L, 20);
            graph.waitUntilIdle();
            graph.addPacket("in", 0L, 30);
            graph.waitUntilIdle();
            assertEquals(List.of(50L, 50L), snapshot(boundAfter));
            assertEquals(List.of("-@49"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /** Offset {@code offset}, emits nothing: the bound is all the observer sees. */
    private static Calculator offsetOnly(final long offset)
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(offset);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
            }
        };
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, ComputeOutputTimestampBoundWithOffset)
    @Test
    @Timeout(20)
    void computeOutputTimestampBoundWithOffset() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(offsetOnly(0), seen))
        {
            graph.start();
            graph.addPacket("in", 0L, 0);
            graph.waitUntilIdle();
            assertEquals(List.of("-@0"), snapshot(seen), "input 0, offset 0: bound 1");
            graph.addPacket("in", 0L, Timestamp.MAX);
            graph.waitUntilIdle();
            assertEquals(List.of("-@0", "-@Max"), snapshot(seen),
                "input Max, offset 0: bound PostStream, which settles nothing more; then the node closes");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, ComputeOutputTimestampBoundWithNegativeOffset)
    @Test
    @Timeout(20)
    void computeOutputTimestampBoundWithNegativeOffset() throws Exception
    {
        final List<String> seen = syncList();
        try (Graph graph = graph(offsetOnly(-10), seen))
        {
            graph.start();
            graph.addPacket("in", 0L, 0);
            graph.waitUntilIdle();
            assertEquals(List.of("-@-10"), snapshot(seen), "input 0, offset -10: bound -9");
            graph.addPacket("in", 0L, Timestamp.MAX);
            graph.waitUntilIdle();
            // input Max, offset -10: bound Max - 9; then nothing can follow Max on the only input
            // (its bound is OneOverPostStream), so the node closes, and its output with it
            assertEquals(List.of("-@-10", "-@" + (Timestamp.MAX - 10), "-@Max"), snapshot(seen));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, ComputeOutputTimestampBoundWithOffset):
    // its bound after an input at Max is PostStream, not past it, so a node with an offset may still
    // emit its one PostStream packet from close() (a summary, as MediaPipe's calculators do).
    @Test
    @Timeout(20)
    void anOffsetNodeMayEmitAtPostStreamFromCloseAfterAnInputAtMax() throws Exception
    {
        final List<String> seen = syncList();
        final Calculator summary = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(7, Timestamp.POST_STREAM);
            }
        };
        try (Graph graph = graph(summary, seen))
        {
            graph.start();
            graph.addPacket("in", 0L, Timestamp.MAX);
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals("7@PostStream", snapshot(seen).get(snapshot(seen).size() - 1), snapshot(seen).toString());
        }
    }

    // output_stream_manager_test.cc, TEST_F(OutputStreamManagerTest, ComputeOutputTimestampBoundWithOffsetForPreStream):
    // a PreStream input set leaves an offset node's outputs at Min, so a header on one input
    // (a PreStream packet) does not close the outputs to the frames on another
    @Test
    @Timeout(20)
    void computeOutputTimestampBoundWithOffsetForPreStream() throws Exception
    {
        final Calculator framesAfterHeader = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (!ctx.input(1).isEmpty())
                {
                    ctx.output(0).addLong(ctx.input(1).getLong(), ctx.inputTimestamp());
                }
            }
        };
        final List<String> seen = syncList();
        try (Graph graph = new Graph(GraphConfig.builder()
            .inputStream("header", "frames")
            .node("emitter", n -> n.calculator(() -> framesAfterHeader).inputStream("header", "frames")
                .outputStream("out"))
            .node("observer", n -> n.calculator(boundObserver(seen)).inputStream("out"))
            .build()))
        {
            graph.start();
            graph.addPacket("header", 0L, Timestamp.PRE_STREAM);
            for (long ts = 0; ts < 4; ts++)
            {
                graph.addPacket("frames", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            // the frames, whatever bounds came between them (a bound the offset moved before 0 came)
            assertEquals(List.of("0@0", "1@1", "2@2", "3@3", "-@Max"),
                snapshot(seen).stream().filter(e -> !e.startsWith("-@") || e.equals("-@Max")).toList(),
                snapshot(seen).toString());
        }
    }
}
