package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.calculators.PassThroughCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.conformance.Conformance.await;
import static dev.framewire.core.conformance.Conformance.boundObserver;
import static dev.framewire.core.conformance.Conformance.boundToPacket;
import static dev.framewire.core.conformance.Conformance.forward;
import static dev.framewire.core.conformance.Conformance.futurePacket;
import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.observeTimestamps;
import static dev.framewire.core.conformance.Conformance.offsetBound;
import static dev.framewire.core.conformance.Conformance.processBoundToPacket;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/calculator_graph_bounds_test.cc}, case by case: how
 * timestamp bounds travel through offsets, explicit bounds, policies and closes. Each test names
 * the MediaPipe case it re-expresses and asserts what that case asserts.
 */
class CalculatorGraphBoundsTest
{
    /** MediaPipe's ValveCalculator: passes 'in' when 'gate' is true, else promises the next bound. */
    private static Calculator valve()
    {
        return ctx ->
        {
            if ((Boolean)ctx.input(1).value())
            {
                forward(ctx, 0);
            }
            else
            {
                ctx.output(0).setNextTimestampBound(Timestamp.nextAllowedInStream(ctx.inputTimestamp()));
            }
        };
    }

    /** MediaPipe's TimeShiftCalculator: offset {@code shift}, each packet again {@code shift} later. */
    /** MediaPipe's TimeShiftCalculator: its shift is the side packet {@code shift}, read in open. */
    private static Calculator timeShift()
    {
        return new Calculator()
        {
            private long shift;

            @Override
            public void open(final CalculatorContext ctx)
            {
                shift = (Long)ctx.sidePacket("shift");
                ctx.setOffset(shift);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp() + shift);
            }
        };
    }

    /** MediaPipe's MergeCalculator: the first input holding a packet, at the input timestamp. */
    private static Calculator merge()
    {
        return ctx ->
        {
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                if (!ctx.input(i).isEmpty())
                {
                    ctx.output(0).addLong(ctx.input(i).getLong(), ctx.inputTimestamp());
                    return;
                }
            }
        };
    }

    private static GraphConfig valveGraph()
    {
        return GraphConfig.builder()
            .inputStream("in", "gate")
            .outputStream("gated", "out")
            .node("valve", n -> n.calculator(CalculatorGraphBoundsTest::valve).inputStream("in", "gate")
                .outputStream("gated"))
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("gated").outputStream("passed"))
            .node("shift", n -> n.calculator(CalculatorGraphBoundsTest::timeShift).inputStream("passed")
                .inputSidePacket("shift").outputStream("shifted"))
            .node("merge", n -> n.calculator(CalculatorGraphBoundsTest::merge).inputStream("in", "shifted")
                .outputStream("merged"))
            .node("merged_output", n -> n.calculator(PassThroughCalculator.class).inputStream("merged")
                .outputStream("out"))
            .build();
    }

    private static void sendValve(final Graph graph, final long ts, final boolean pass) throws InterruptedException
    {
        graph.addPacket("in", ts, ts);
        graph.addPacket("gate", (Object)pass, ts);
    }

    /** Calls of the valve that let its packet through (MediaPipe's "PassThrough" counter). */
    private static long valvePassed(final List<Long> gated)
    {
        return snapshot(gated).size();
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraph, SetNextTimestampBoundPropagation)
    @Test
    @Timeout(20)
    void setNextTimestampBoundPropagation() throws Exception
    {
        try (Graph graph = new Graph(valveGraph()))
        {
            final List<Long> gated = observeTimestamps(graph, "gated");
            graph.start(Map.of("shift", 0L));
            sendValve(graph, 1, true);
            sendValve(graph, 2, true);
            sendValve(graph, 3, false);
            sendValve(graph, 4, false);
            graph.waitUntilIdle();
            assertEquals(2, valvePassed(gated));
            assertEquals(4, graph.callCount("valve"), "2 passed, 2 blocked");
            assertEquals(4, graph.callCount("merged_output"), "3 and 4 settled on 'shifted' by the valve's bounds");
            sendValve(graph, 5, true);
            sendValve(graph, 6, false);
            graph.waitUntilIdle();
            assertEquals(3, valvePassed(gated));
            assertEquals(6, graph.callCount("valve"));
            assertEquals(6, graph.callCount("merged_output"));
            graph.closeAllInputs();
            graph.waitUntilDone();
            // the same graph runs again with shift -1, as MediaPipe's does: counts start afresh, the
            // observer carries over
            gated.clear();
            graph.start(Map.of("shift", -1L));
            sendValve(graph, 7, true);
            graph.waitUntilIdle();
            assertEquals(1, valvePassed(gated));
            assertEquals(1, graph.callCount("merged_output"), "6 (shifted) is settled, 7 is not: 'shifted' is at 7");
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(2, graph.callCount("merged_output"));
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraph, NotAllInputPacketsAtNextTimestampBoundAvailable)
    @Test
    @Timeout(20)
    void notAllInputPacketsAtNextTimestampBoundAvailable() throws Exception
    {
        final Calculator evenFilter = ctx ->
        {
            if (ctx.input(0).getLong() % 2 == 0)
            {
                forward(ctx, 0);
            }
            else
            {
                ctx.output(0).setNextTimestampBound(Timestamp.nextAllowedInStream(ctx.inputTimestamp()));
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in0_unfiltered", "in1_to_be_filtered")
            .outputStream("out")
            .node("filter", n -> n.calculator(() -> evenFilter).inputStream("in1_to_be_filtered")
                .outputStream("in1_filtered"))
            .node("adder", n -> n.calculator(CalculatorGraphBoundsTest::intAdder)
                .inputStream("in0_unfiltered", "in1_filtered").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            graph.addPacket("in0_unfiltered", 1L, 1);
            graph.addPacket("in1_to_be_filtered", 2L, 1);
            graph.waitUntilIdle();
            assertEquals(List.of("3@1"), snapshot(out));
            graph.addPacket("in1_to_be_filtered", 3L, 2);
            graph.addPacket("in0_unfiltered", 3L, 3);
            graph.waitUntilIdle();
            assertEquals(List.of("3@1"), snapshot(out), "2 has no packet on either input; 3 is not settled");
            graph.addPacket("in1_to_be_filtered", 4L, 3);
            graph.waitUntilIdle();
            assertEquals(List.of("3@1", "7@3"), snapshot(out));
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(2, snapshot(out).size());
        }
    }

    /** MediaPipe's IntAdderCalculator: offset 0, the sum of its inputs at the input timestamp. */
    private static Calculator intAdder()
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
                long sum = 0;
                for (int i = 0; i < ctx.inputCount(); i++)
                {
                    sum += ctx.input(i).isEmpty() ? 0 : ctx.input(i).getLong();
                }
                ctx.output(0).addLong(sum, ctx.inputTimestamp());
            }
        };
    }

    /**
     * MediaPipe's OutputAndBoundSourceCalculator: every 10 us from 0 to 2000, a packet (the count
     * of packets so far) at multiples of 20 and a bound at the others.
     */
    private static Calculator outputAndBoundSource()
    {
        return new Calculator()
        {
            private long counter;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (counter % 20 == 0)
                {
                    ctx.output(0).addLong(counter / 20, counter);
                }
                else
                {
                    ctx.output(0).setNextTimestampBound(counter);
                }
                if (counter == 2000)
                {
                    ctx.stop();
                    return;
                }
                counter += 10;
            }
        };
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraph, CheckBatchProcessingBoundPropagation)
    @Test
    @Timeout(20)
    void checkBatchProcessingBoundPropagation() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .node("source", n -> n.calculator(CalculatorGraphBoundsTest::outputAndBoundSource).outputStream("integers"))
            .node("batch", n -> n.calculator(PassThroughCalculator.class).inputStream("integers").outputStream("output")
                .inputPolicy(InputPolicy.batch(10)))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> out = observeTimestamps(graph, "output");
            graph.start();
            graph.waitUntilDone();
            // MediaPipe asserts only that the run ends well; every packet also got through
            assertEquals(101, snapshot(out).size());
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ImmediateHandlerBounds)
    @Test
    @Timeout(20)
    void immediateHandlerBounds() throws Exception
    {
        final Calculator customBound = ctx -> ctx.output(0).setNextTimestampBound(ctx.inputTimestamp() + 1);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .node("custom_bound", n -> n.calculator(() -> customBound).inputStream("input").outputStream("bounds"))
            .outputStream("output")
            .node("immediate", n -> n.calculator(PassThroughCalculator.class).inputStream("bounds")
                .outputStream("bounds_2").inputPolicy(InputPolicy.immediate()))
            .node("join", n -> n.calculator(PassThroughCalculator.class).inputStream("bounds_2", "input")
                .outputStream("bounds_output", "output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i);
            }
            graph.waitUntilIdle();
            assertEquals(List.of(0L, 1L, 2L, 3L), snapshot(output),
                "bounds alone pass an immediate offset-0 node and settle 'bounds_2'");
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(4, snapshot(output).size());
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, OffsetBoundPropagation)
    @Test
    @Timeout(20)
    void offsetBoundPropagation() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .outputStream("output")
            .node("offset_bound", n -> n.calculator(offsetBound()).inputStream("input").outputStream("bounds"))
            .node("join", n -> n.calculator(PassThroughCalculator.class).inputStream("bounds", "input")
                .outputStream("bounds_output", "output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i);
            }
            graph.waitUntilIdle();
            assertEquals(List.of(0L, 1L, 2L, 3L), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, BoundWithoutInputPackets)
    @Test
    @Timeout(20)
    void boundWithoutInputPackets() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .outputStream("output")
            .node("future", n -> n.calculator(futurePacket()).inputStream("input").outputStream("input_2"))
            .node("offset_bound", n -> n.calculator(offsetBound()).inputStream("input_2").outputStream("bounds"))
            .node("bound_to_packet", n -> n.calculator(boundToPacket()).inputStream("bounds").outputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i);
                graph.waitUntilIdle();
            }
            assertEquals(List.of(), snapshot(output), "a default-policy node is not run for bounds alone");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, FixedSizeHandlerBounds)
    @Test
    @Timeout(20)
    void fixedSizeHandlerBounds() throws Exception
    {
        final Semaphore entered = new Semaphore(0);
        final Semaphore exit = new Semaphore(0);
        final AtomicLong lastEntered = new AtomicLong(Timestamp.UNSET);
        final Calculator thin = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx) throws InterruptedException
            {
                lastEntered.set(ctx.inputTimestamp());
                entered.release();
                exit.acquire();
                forward(ctx, 0);
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("input")
            .outputStream("output", "thinned_output")
            .node("thin", n -> n.calculator(() -> thin).inputStream("input").outputStream("thinned")
                .inputPolicy(InputPolicy.fixedSize(2, 1, false)))
            .node("join", n -> n.calculator(PassThroughCalculator.class).inputStream("thinned", "input")
                .outputStream("thinned_output", "output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output");
            final List<Long> thinned = observeTimestamps(graph, "thinned_output");
            graph.start();
            graph.waitUntilIdle();
            // MediaPipe's first call takes 0 before 1..3 arrive; here that order is made sure of
            graph.addPacket("input", 33L, 0);
            assertTrue(entered.tryAcquire(5, TimeUnit.SECONDS));
            for (long i = 1; i < 4; i++)
            {
                graph.addPacket("input", 33L, i);
            }
            assertEquals(List.of(), snapshot(output), "the join waits for 'thinned' at 0");
            exit.release();
            assertTrue(entered.tryAcquire(5, TimeUnit.SECONDS));
            assertEquals(3, lastEntered.get(), "1 and 2 were dropped by the fixed-size policy");
            await("the join to pass 0", () -> snapshot(output).size() == 1 && snapshot(thinned).size() == 1);
            exit.release();
            graph.waitUntilIdle();
            assertEquals(List.of(0L, 3L), snapshot(thinned));
            assertEquals(List.of(0L, 1L, 2L, 3L), snapshot(output), "the dropped 1 and 2 are settled on 'thinned'");
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, LastPacketCheck)
    @Test
    @Timeout(20)
    void lastPacketCheck() throws Exception
    {
        final Calculator lastPacket = new Calculator()
        {
            private long lastValue;
            private long lastTimestamp = Timestamp.UNSET;

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).setNextTimestampBound(ctx.inputTimestamp());
                lastValue = ctx.input(0).getLong();
                lastTimestamp = ctx.inputTimestamp();
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(lastValue, lastTimestamp);
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .outputStream("output", "last_output")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("input").outputStream("input_2"))
            .node("last", n -> n.calculator(() -> lastPacket).inputStream("input_2").outputStream("last_packet"))
            .node("join", n -> n.calculator(PassThroughCalculator.class).inputStream("input", "last_packet")
                .outputStream("output", "last_output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output");
            final List<Long> lastOutput = observeTimestamps(graph, "last_output");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i);
                graph.waitUntilIdle();
                assertEquals(i, snapshot(output).size(), "'last_packet' is bounded at " + i + ", not past it");
                assertEquals(0, snapshot(lastOutput).size());
            }
            graph.closeAllInputs();
            graph.waitUntilIdle();
            assertEquals(4, snapshot(output).size());
            assertEquals(List.of(3L), snapshot(lastOutput));
            graph.waitUntilDone();
        }
    }

    private static void boundsForEmptyInputs(final InputPolicy policy) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .outputStream("input_ts", "bounds_ts")
            .node("future", n -> n.calculator(futurePacket()).inputStream("input").outputStream("futures"))
            .node("offset_bound", n -> n.calculator(offsetBound()).inputStream("futures").outputStream("bounds"))
            .node("bound_to_packet", n ->
            {
                n.calculator(boundToPacket()).inputStream("input", "bounds").outputStream("input_ts", "bounds_ts");
                if (policy != null)
                {
                    n.inputPolicy(policy);
                }
            })
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> inputTs = syncList();
            final List<Long> boundsTs = syncList();
            graph.observe("input_ts", p -> inputTs.add(p.getLong()));
            graph.observe("bounds_ts", p -> boundsTs.add(p.getLong()));
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i * 10);
                graph.waitUntilIdle();
            }
            assertEquals(List.of(0L, 10L, 20L, 30L), snapshot(inputTs));
            final List<Long> bounds = snapshot(boundsTs);
            assertEquals(4, bounds.size());
            final long[] expected = {Timestamp.UNSTARTED, 3, 13, 23, 33};
            for (int i = 0; i < bounds.size(); i++)
            {
                final long ts = bounds.get(i);
                assertTrue(ts >= expected[i] && ts <= expected[i + 1],
                    "bound seen at input set " + i + " is " + Timestamp.toString(ts) + ", outside [" +
                        Timestamp.toString(expected[i]) + ", " + expected[i + 1] + "]: " + bounds);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, BoundsForEmptyInputs_Immediate)
    @Test
    @Timeout(20)
    void boundsForEmptyInputsImmediate() throws Exception
    {
        boundsForEmptyInputs(InputPolicy.immediate());
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, BoundsForEmptyInputs_Default)
    @Test
    @Timeout(20)
    void boundsForEmptyInputsDefault() throws Exception
    {
        boundsForEmptyInputs(InputPolicy.DEFAULT);
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, BoundsForEmptyInputs_SyncSet)
    @Test
    @Timeout(20)
    void boundsForEmptyInputsSyncSet() throws Exception
    {
        boundsForEmptyInputs(InputPolicy.syncSets(List.of()));
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, BoundsForEmptyInputs_SyncSets)
    @Test
    @Timeout(20)
    void boundsForEmptyInputsSyncSets() throws Exception
    {
        boundsForEmptyInputs(InputPolicy.syncSets(List.of(List.of("input"))));
    }

    private static void processForEmptyInputs(final InputPolicy policy) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input")
            .outputStream("bounds_ts")
            .node("future", n -> n.calculator(futurePacket()).inputStream("input").outputStream("futures"))
            .node("offset_bound", n -> n.calculator(offsetBound()).inputStream("futures").outputStream("bounds"))
            .node("bound_to_packet", n -> n.calculator(processBoundToPacket()).inputStream("bounds")
                .outputStream("bounds_ts").inputPolicy(policy))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> boundsTs = observeTimestamps(graph, "bounds_ts");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input", 33L, i * 10);
                graph.waitUntilIdle();
            }
            // MediaPipe asserts the count; the timestamps it computes (ts + 3) hold too
            assertEquals(List.of(3L, 13L, 23L, 33L), snapshot(boundsTs));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ProcessTimestampBounds_Default)
    @Test
    @Timeout(20)
    void processTimestampBoundsDefault() throws Exception
    {
        processForEmptyInputs(InputPolicy.DEFAULT);
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ProcessTimestampBounds_Immediate)
    @Test
    @Timeout(20)
    void processTimestampBoundsImmediate() throws Exception
    {
        processForEmptyInputs(InputPolicy.immediate());
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ProcessTimestampBounds_SyncSet)
    @Test
    @Timeout(20)
    void processTimestampBoundsSyncSet() throws Exception
    {
        processForEmptyInputs(InputPolicy.syncSets(List.of()));
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ProcessTimestampBounds_SyncSets)
    @Test
    @Timeout(20)
    void processTimestampBoundsSyncSets() throws Exception
    {
        processForEmptyInputs(InputPolicy.syncSets(List.of(List.of("bounds"))));
    }

    /** MediaPipe's ImmediatePassthroughCalculator: packets pass, bounds alone pass as bounds. */
    private static Calculator immediatePassthrough()
    {
        return new Calculator()
        {
            @Override
            public void contract(final Contract contract)
            {
                contract.inputPolicy(InputPolicy.immediate()).processTimestampBounds(true);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                for (int i = 0; i < ctx.outputCount(); i++)
                {
                    if (!ctx.input(i).isEmpty())
                    {
                        forward(ctx, i);
                    }
                    else
                    {
                        final long inputBound = Timestamp.nextAllowedInStream(ctx.input(i).timestamp());
                        if (ctx.output(i).nextTimestampBound() < inputBound)
                        {
                            ctx.output(i).setNextTimestampBound(inputBound);
                        }
                    }
                }
            }
        };
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, ProcessTimestampBounds_Passthrough)
    @Test
    @Timeout(20)
    void processTimestampBoundsPassthrough() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input_0", "input_1")
            .outputStream("output_0", "output_1")
            .node("offset_bound", n -> n.calculator(offsetBound()).inputStream("input_1").outputStream("bound_1"))
            .node("passthrough", n -> n.calculator(CalculatorGraphBoundsTest::immediatePassthrough)
                .inputStream("input_0", "bound_1").outputStream("same_0", "same_1"))
            .node("bound_to_packet", n -> n.calculator(processBoundToPacket()).inputStream("same_0", "same_1")
                .outputStream("output_0", "output_1"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output0 = syncList();
            final List<Long> output1 = syncList();
            graph.observe("output_0", p -> output0.add(p.getLong()));
            graph.observe("output_1", p -> output1.add(p.getLong()));
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 4; i++)
            {
                graph.addPacket("input_0", 33L, i * 10);
                graph.waitUntilIdle();
            }
            assertEquals(List.of(0L, 10L, 20L, 30L), snapshot(output0));
            assertEquals(List.of(), snapshot(output1));
            for (long i = 0; i < 2; i++)
            {
                graph.addPacket("input_1", 33L, 10 + i * 10);
                graph.waitUntilIdle();
            }
            assertEquals(4, snapshot(output0).size());
            assertEquals(List.of(10L, 20L), snapshot(output1));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, PostStreamPacketToSetProcessTimestampBound)
    @Test
    @Timeout(20)
    void postStreamPacketToSetProcessTimestampBound() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input_0")
            .outputStream("output_0")
            .node("bound_to_packet", n -> n.calculator(processBoundToPacket()).inputStream("input_0")
                .outputStream("output_0"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            graph.waitUntilIdle();
            graph.addPacket("input_0", 0L, Timestamp.POST_STREAM);
            graph.waitUntilIdle();
            assertEquals(List.of(Timestamp.POST_STREAM), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, MaxInFlightWithOccasionalBound)
    @Test
    @Timeout(20)
    void maxInFlightWithOccasionalBound() throws Exception
    {
        final Calculator occasionalBound = ctx ->
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the work MediaPipe's case sleeps for
            if (ctx.inputTimestamp() % 20 == 0)
            {
                final long bound = Timestamp.nextAllowedInStream(ctx.inputTimestamp());
                ctx.output(0).setNextTimestampBound(Math.max(bound, ctx.output(0).nextTimestampBound()));
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(4, IdleKind.PARK))
            .inputStream("input_0")
            .outputStream("output_0")
            .node("occasional", n -> n.calculator(() -> occasionalBound).inputStream("input_0")
                .outputStream("output_0").maxInFlight(5))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 9; i++)
            {
                graph.addPacket("input_0", i, 10 + i * 10);
            }
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, OffsetAndBound)
    @Test
    @Timeout(20)
    void offsetAndBound() throws Exception
    {
        final Calculator offsetAndBound = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (ctx.inputTimestamp() % 20 == 0)
                {
                    ctx.output(0).setNextTimestampBound(10000);
                }
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input_0")
            .outputStream("output_0")
            .node("offset_and_bound", n -> n.calculator(() -> offsetAndBound).inputStream("input_0")
                .outputStream("output_0"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 9; i++)
            {
                graph.addPacket("input_0", i, 10 + i * 10);
            }
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, EmptyPacketOutput)
    // MediaPipe's calculator adds an empty packet (Packet().At(ts)), which is not delivered but moves
    // the bound past ts. Framewire has no empty packets (Output.add refuses null): the same
    // calculator promises the bound instead, and the consumer sees the same.
    @Test
    @Timeout(20)
    void emptyPacketOutput() throws Exception
    {
        final Calculator emptyPacket = ctx ->
        {
            if (ctx.inputTimestamp() % 2 == 0)
            {
                ctx.output(0).setNextTimestampBound(Timestamp.nextAllowedInStream(ctx.inputTimestamp()));
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input_0")
            .outputStream("output_0")
            .node("empty", n -> n.calculator(() -> emptyPacket).inputStream("input_0").outputStream("empty_0"))
            .node("bound_to_packet", n -> n.calculator(processBoundToPacket()).inputStream("empty_0")
                .outputStream("output_0"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 9; i++)
            {
                graph.addPacket("input_0", i, 10 + i * 10);
                graph.waitUntilIdle();
            }
            assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, SetInputStreamTimestampBound)
    @Test
    @Timeout(20)
    void setInputStreamTimestampBound() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("input_0")
            .outputStream("output_0")
            .node("bound_to_packet", n -> n.calculator(processBoundToPacket()).inputStream("input_0")
                .outputStream("output_0"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            graph.waitUntilIdle();
            for (long i = 0; i < 9; i++)
            {
                graph.setInputBound("input_0", Timestamp.nextAllowedInStream(10 + i * 10));
                graph.waitUntilIdle();
            }
            assertEquals(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L), snapshot(output));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraphBoundsTest, TimestampBoundsForInfrequentInput)
    // The outputs are listed VIDEO before CONFIG, as in MediaPipe's graph: PassThroughCalculator pairs
    // streams by tag, not by their place in the list. MediaPipe's observers with bound updates are
    // bound-processing immediate nodes here.
    @Test
    @Timeout(20)
    void timestampBoundsForInfrequentInput() throws Exception
    {
        final List<String> frames = syncList();
        final List<String> configs = syncList();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("INFREQUENT:config", "FREQUENT:frame")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("CONFIG:config", "VIDEO:frame")
                .outputStream("VIDEO:output_frame", "CONFIG:output_config"))
            .node("frame_observer", n -> n.calculator(boundObserver(frames)).inputStream("output_frame"))
            .node("config_observer", n -> n.calculator(boundObserver(configs)).inputStream("output_config"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilIdle();
            graph.addPacket("frame", "frame_0", 0);
            graph.waitUntilIdle();
            assertEquals(List.of(), snapshot(frames));
            graph.setInputBound("config", 10000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0"), snapshot(frames));
            graph.addPacket("frame", "frame_1", 20000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999"), snapshot(frames));
            graph.setInputBound("config", 30000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999", "frame_1@20000"), snapshot(frames));
            graph.addPacket("frame", "frame_2", 40000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999", "frame_1@20000", "-@29999"), snapshot(frames));
            graph.addPacket("config", "config_1", 50000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999", "frame_1@20000", "-@29999", "frame_2@40000"),
                snapshot(frames));
            graph.addPacket("frame", "frame_3", 60000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999", "frame_1@20000", "-@29999", "frame_2@40000", "-@50000"),
                snapshot(frames));
            graph.setInputBound("config", 70000);
            graph.waitUntilIdle();
            assertEquals(List.of("frame_0@0", "-@9999", "frame_1@20000", "-@29999", "frame_2@40000", "-@50000",
                "frame_3@60000"), snapshot(frames));
            assertEquals(List.of("-@0", "-@9999", "-@20000", "-@29999", "-@40000", "config_1@50000", "-@60000"),
                snapshot(configs));
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }
}
