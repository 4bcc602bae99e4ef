package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.OutputPoller;
import dev.framewire.core.Timestamp;
import dev.framewire.core.calculators.PassThroughCalculator;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.framewire.core.conformance.Conformance.observe;
import static dev.framewire.core.conformance.Conformance.observeTimestamps;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The timestamp, bound, back-edge and queue-size cases of MediaPipe's
 * {@code mediapipe/framework/calculator_graph_test.cc}, re-expressed through Framewire's API.
 */
class CalculatorGraphTest
{
    /** MediaPipe's GlobalCountSourceCalculator emits this many packets. */
    private static final int NUM_OUTPUT_PACKETS = 5;

    /**
     * MediaPipe's GlobalCountSourceCalculator: packets at 0, 1, 2, ... whose values come from a
     * counter shared by all its instances; optionally the first one from {@code open}; stops after 5.
     */
    private static Calculator globalCountSource(final AtomicInteger counter, final boolean outputInOpen)
    {
        return new Calculator()
        {
            private long localCount;

            private void outputOne(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(counter.getAndIncrement(), localCount);
                localCount++;
            }

            @Override
            public void open(final CalculatorContext ctx)
            {
                if (outputInOpen)
                {
                    outputOne(ctx);
                }
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                outputOne(ctx);
                if (localCount >= NUM_OUTPUT_PACKETS)
                {
                    ctx.stop();
                }
            }
        };
    }

    /** MediaPipe's UnitDelayCalculator: 0 at 0 from {@code open}, then each packet one later. */
    private static Calculator unitDelay()
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(0, 0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), Timestamp.nextAllowedInStream(ctx.inputTimestamp()));
            }
        };
    }

    /** MediaPipe's test MergeCalculator: "Timestamp(ts) v0 v1 ..." with "empty" for an empty input. */
    private static Calculator mergeText()
    {
        return ctx ->
        {
            final StringBuilder text = new StringBuilder("Timestamp(").append(Timestamp.toString(ctx.inputTimestamp()))
                .append(')');
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                text.append(' ').append(ctx.input(i).isEmpty() ? "empty" : String.valueOf(ctx.input(i).value()));
            }
            ctx.output(0).add(text.toString(), ctx.inputTimestamp());
        };
    }

    /** MediaPipe's IntAdderCalculator: offset 0, the sum of its inputs. */
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

    // calculator_graph_test.cc, TEST(CalculatorGraph, SetOffsetInProcess)
    @Test
    @Timeout(20)
    void setOffsetInProcess() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("set_offset", n -> n.calculator(() -> ctx -> ctx.setOffset(0)).inputStream("in").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in", 0L, 0);
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final Throwable cause = ex.failures().get(0).cause();
            assertTrue(cause instanceof IllegalStateException, String.valueOf(cause));
            assertTrue(cause.getMessage().contains("'set_offset'") && cause.getMessage().contains("open"),
                cause.getMessage());
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, InputPacketLifetime)
    @Test
    @Timeout(20)
    void inputPacketLifetime() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("mid", n -> n.calculator(PassThroughCalculator.class).inputStream("in").outputStream("mid"))
            .node("out", n -> n.calculator(PassThroughCalculator.class).inputStream("mid").outputStream("out"))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            long ts = 0;
            graph.addPacket("in", graph.pool().acquire(64), ++ts);
            graph.waitUntilIdle();
            assertEquals(0, graph.pool().acquires() - graph.pool().releases(), "live payloads");
            for (int i = 0; i < 3; i++)
            {
                graph.addPacket("in", graph.pool().acquire(64), ++ts);
            }
            graph.waitUntilIdle();
            assertEquals(0, graph.pool().acquires() - graph.pool().releases(), "live payloads");
            graph.closeInput("in");
            graph.waitUntilDone();
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, Cycle)
    @Test
    @Timeout(20)
    void cycle() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final GraphConfig config = GraphConfig.builder()
            .outputStream("sum")
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("adder", n -> n.calculator(CalculatorGraphTest::intAdder).inputStream("integers", "old_sum")
                .backEdge("old_sum").outputStream("sum").inputPolicy(InputPolicy.earlyClose()))
            .node("delay", n -> n.calculator(CalculatorGraphTest::unitDelay).inputStream("sum").outputStream("old_sum"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> sums = observe(graph, "sum");
            graph.start();
            graph.waitUntilDone();
            assertEquals(List.of("1@0", "3@1", "6@2", "10@3", "15@4"), snapshot(sums));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, OutputPacketInOpen)
    @Test
    @Timeout(20)
    void outputPacketInOpen() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(1)
            .outputStream("output")
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("delay", n -> n.calculator(CalculatorGraphTest::unitDelay).inputStream("integers")
                .outputStream("delayed_integers"))
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("delayed_integers")
                .outputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> output = observe(graph, "output");
            graph.start();
            graph.waitUntilDone();
            assertEquals(List.of("0@0", "1@1", "2@2", "3@3", "4@4", "5@5"), snapshot(output));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, OutputPacketInOpen2)
    @Test
    @Timeout(20)
    void outputPacketInOpen2() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(1)
            .outputStream("output")
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("delay", n -> n.calculator(CalculatorGraphTest::unitDelay).inputStream("integers")
                .outputStream("delayed_integers"))
            .node("merge", n -> n.calculator(CalculatorGraphTest::mergeText).inputStream("delayed_integers", "integers")
                .outputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> output = observe(graph, "output");
            graph.start();
            graph.waitUntilDone();
            final List<String> expected = new ArrayList<>();
            for (int i = 0; i < NUM_OUTPUT_PACKETS; i++)
            {
                expected.add("Timestamp(" + i + ") " + i + " " + (i + 1) + "@" + i);
            }
            expected.add("Timestamp(5) 5 empty@5");
            assertEquals(expected, snapshot(output));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, EmptyInputInOpen)
    @Test
    @Timeout(20)
    void emptyInputInOpen() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final List<String> seenInOpen = syncList();
        final java.util.function.Supplier<Calculator> assertEmptyInOpen = () -> new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                seenInOpen.add(ctx.input(0).isEmpty() ? "empty" : "packet");
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(1)
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("delay", n -> n.calculator(CalculatorGraphTest::unitDelay).inputStream("integers")
                .outputStream("delayed_integers"))
            .node("assert_delayed", n -> n.calculator(assertEmptyInOpen).inputStream("delayed_integers"))
            .node("assert_integers", n -> n.calculator(assertEmptyInOpen).inputStream("integers"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(List.of("empty", "empty"), snapshot(seenInOpen));
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, UnthrottleRespectsLayers)
    @Test
    @Timeout(20)
    void unthrottleRespectsLayers() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(0);
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(1)
            .outputStream("integers0", "integers1passthrough")
            .node("source0", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers0")
                .sourceLayer(0))
            .node("source1", n -> n.calculator(() -> globalCountSource(counter, true)).outputStream("integers1")
                .sourceLayer(1))
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("integers1")
                .outputStream("integers1passthrough"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> layer0 = observe(graph, "integers0");
            final List<String> layer1 = observe(graph, "integers1passthrough");
            graph.start();
            graph.waitUntilDone();
            // layer 1's open runs before any source, its process calls after layer 0 is done
            assertEquals(List.of("1@0", "2@1", "3@2", "4@3", "5@4"), snapshot(layer0));
            assertEquals(List.of("0@0", "6@1", "7@2", "8@3", "9@4"), snapshot(layer1));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, ClosedSourceNodeShouldNotBeUnthrottled)
    // MediaPipe's first source emits its 100 packets in one call; Framewire caps a call's packets
    // per stream at max_shipment_size (64 by default, seed 004's shipments), raised here to 100.
    @Test
    @Timeout(30)
    void closedSourceNodeShouldNotBeUnthrottled() throws Exception
    {
        final Calculator outputAll = ctx ->
        {
            for (long i = 0; i < 100; i++)
            {
                ctx.output(0).addLong(0, i);
            }
            ctx.stop();
        };
        final Calculator oneAtATime = new Calculator()
        {
            private long index;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (index < 1000)
                {
                    ctx.output(0).addLong(0, index++);
                }
                else
                {
                    ctx.stop();
                }
            }
        };
        final Calculator decimator = new Calculator()
        {
            private long index;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (index % 101 == 0)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
                index++;
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(100)
            .maxShipmentSize(100)
            .node("all", n -> n.calculator(() -> outputAll).outputStream("first_stream"))
            .node("one", n -> n.calculator(() -> oneAtATime).outputStream("second_stream"))
            .node("decimator", n -> n.calculator(() -> decimator).inputStream("second_stream")
                .outputStream("decimated_second_stream"))
            .node("merge", n -> n.calculator(CalculatorGraphTest::mergeText)
                .inputStream("first_stream", "second_stream", "decimated_second_stream").outputStream("output"))
            .node("sink", n -> n.calculator(() -> ctx -> { }).inputStream("output"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
            assertEquals(1000, graph.callCount("merge"), "every timestamp of the second stream is merged");
        }
    }

    private static void assertDeadlockReported(final String text, final String... names) throws Exception
    {
        try (Graph graph = new Graph(GraphConfigText.parse(text, "deadlock.pbtxt")))
        {
            graph.start();
            graph.addPacket("input1", 1L, 0);
            // MediaPipe's AddPacketToInputStream returns the deadlock; Framewire's fails the run,
            // and the waiting add ends with it
            final IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> graph.addPacket("input1", 1L, 1));
            assertTrue(refused.getMessage().contains("'input1'"), refused.getMessage());
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            final String message = ex.failures().get(0).cause().getMessage();
            assertTrue(message.contains("deadlock") && message.contains("input1"), message);
            for (final String name : names)
            {
                assertTrue(message.contains(name), message);
            }
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, DeadlockIsReportedAndSufficientInfoProvided)
    @Test
    @Timeout(20)
    void deadlockIsReportedAndSufficientInfoProvided() throws Exception
    {
        assertDeadlockReported(String.join("\n",
            "report_deadlock: true",
            "max_queue_size: 1",
            "input_stream: 'input1'",
            "input_stream: 'input2'",
            "output_stream: 'output1'",
            "node {",
            "  calculator: 'PassThroughCalculator'",
            "  input_stream: 'input1'",
            "  input_stream: 'input2'",
            "  output_stream: 'output1'",
            "  output_stream: 'output2'",
            "}"), "PassThroughCalculator");
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, DeadlockIsReportedAndSufficientInfoProvidedMultipleCalculators)
    // (MediaPipe's second node is its test MergeCalculator; a second PassThroughCalculator here)
    @Test
    @Timeout(20)
    void deadlockIsReportedAndSufficientInfoProvidedMultipleCalculators() throws Exception
    {
        assertDeadlockReported(String.join("\n",
            "report_deadlock: true",
            "max_queue_size: 1",
            "input_stream: 'input1'",
            "input_stream: 'input2'",
            "node {",
            "  calculator: 'PassThroughCalculator'",
            "  input_stream: 'input1'",
            "  input_stream: 'input2'",
            "  output_stream: 'output1'",
            "  output_stream: 'output2'",
            "}",
            "output_stream: 'output3'",
            "node {",
            "  calculator: 'PassThroughCalculator'",
            "  input_stream: 'output1'",
            "  input_stream: 'output2'",
            "  output_stream: 'output3'",
            "  output_stream: 'output4'",
            "}"), "PassThroughCalculator");
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, SetInputStreamMaxQueueSizeWorksSlowCalculator)
    @Test
    @Timeout(30)
    void setInputStreamMaxQueueSizeWorksSlowCalculator() throws Exception
    {
        final Semaphore entered = new Semaphore(0);
        final Semaphore canExit = new Semaphore(0);
        final Semaphore enteredBusy = new Semaphore(0);
        final Semaphore canExitBusy = new Semaphore(0);
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .inputStream("in", "in_2")
            .outputStream("out", "out_2")
            .maxQueueSize(100)
            .streamQueueSize("in", 1)
            .node("slow", n -> n.calculator(() -> semaphoreCalculator(entered, canExit)).inputStream("in")
                .outputStream("out"))
            .node("busy", n -> n.calculator(() -> semaphoreCalculator(enteredBusy, canExitBusy)).inputStream("in_2")
                .outputStream("out_2"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            long ts = 0;
            assertTrue(graph.tryAddPacket("in_2", 0L, ts));
            assertTrue(graph.tryAddPacket("in", 0L, ts++));
            for (long i = 1; i < 20; i++, ts++)
            {
                assertTrue(entered.tryAcquire(5, TimeUnit.SECONDS));
                assertTrue(graph.tryAddPacket("in", i, ts), "one packet may wait while the calculator is busy");
                assertFalse(graph.tryAddPacket("in", i, ts + 1), "the queue of 1 is full");
                canExit.release();
            }
            canExit.release();
            canExitBusy.release();
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /** MediaPipe's SemaphoreCalculator: says it entered, waits to be let out, passes its packet. */
    private static Calculator semaphoreCalculator(final Semaphore entered, final Semaphore canExit)
    {
        return ctx ->
        {
            entered.release();
            if (!canExit.tryAcquire(10, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("never let out of process at " + ctx.inputTimestamp());
            }
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        };
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, AddPacketNoBusyLoop)
    @Test
    @Timeout(30)
    void addPacketNoBusyLoop() throws Exception
    {
        final Calculator decimator = new Calculator()
        {
            private long index;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (index % 101 == 0)
                {
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
                index++;
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .maxQueueSize(1)
            .node("decimator", n -> n.calculator(() -> decimator).inputStream("in").outputStream("decimated_in"))
            .node("merge", n -> n.calculator(CalculatorGraphTest::mergeText).inputStream("decimated_in", "in")
                .outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> out = observe(graph, "out");
            graph.start();
            final int packets = 2 * 101;
            for (long i = 0; i < packets; i++)
            {
                graph.addPacket("in", i, i); // waits while full: deadlock avoidance must let it in
            }
            graph.waitUntilIdle();
            graph.pause();
            graph.resume();
            graph.closeAllInputs();
            graph.waitUntilDone();
            final List<String> expected = new ArrayList<>();
            for (int i = 0; i < packets; i++)
            {
                expected.add((i % 101 == 0 ? "Timestamp(" + i + ") " + i + " " + i : "Timestamp(" + i + ") empty " + i) +
                    "@" + i);
            }
            assertEquals(expected, snapshot(out));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, FastSourceSlowSink)
    @Test
    @Timeout(20)
    void fastSourceSlowSink() throws Exception
    {
        final List<Long> seen = syncList();
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .maxQueueSize(100)
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("out").option("count", 10))
            .node("slow_sink", n -> n.calculator(() -> ctx ->
            {
                java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // its slowness
                seen.add(ctx.inputTimestamp());
            }).inputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(10, snapshot(seen).size());
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, GraphFinishesWhilePaused)
    @Test
    @Timeout(20)
    void graphFinishesWhilePaused() throws Exception
    {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final GraphConfig config = GraphConfig.builder()
            .node("one_shot", n -> n.calculator(() -> ctx ->
            {
                entered.countDown();
                release.await();
                ctx.stop();
            }))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            graph.pause();
            release.countDown(); // the only call ends, and with it the run, while the graph is paused
            graph.resume();
            assertTrue(graph.awaitDone(5, TimeUnit.SECONDS));
            graph.waitUntilDone();
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, CheckInputTimestamp)
    @Test
    @Timeout(20)
    void checkInputTimestamp() throws Exception
    {
        final List<String> seen = syncList();
        final Calculator source = new Calculator()
        {
            private long count;

            @Override
            public void open(final CalculatorContext ctx)
            {
                seen.add("source open " + Timestamp.toString(ctx.inputTimestamp()));
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                seen.add("source process " + Timestamp.toString(ctx.inputTimestamp()));
                ctx.output(0).addLong(count, count);
                if (++count == 2)
                {
                    ctx.stop();
                }
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                seen.add("source close " + Timestamp.toString(ctx.inputTimestamp()));
            }
        };
        final Calculator sink = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                seen.add("sink open " + Timestamp.toString(ctx.inputTimestamp()));
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                seen.add("sink process " + Timestamp.toString(ctx.inputTimestamp()) + "=" +
                    Timestamp.toString(ctx.input(0).timestamp()));
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                seen.add("sink close " + Timestamp.toString(ctx.inputTimestamp()));
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .node("source", n -> n.calculator(() -> source).outputStream("integer"))
            .node("sink", n -> n.calculator(() -> sink).inputStream("integer"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        final List<String> all = snapshot(seen);
        assertTrue(all.containsAll(List.of("source open Unstarted", "source process 0", "source close Done",
            "sink open Unstarted", "sink process 0=0", "sink process 1=1", "sink close Done")), all.toString());
        assertEquals(2, all.stream().filter(s -> s.equals("source process 0")).count(), all.toString());
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, GraphInputStreamWithTag)
    @Test
    @Timeout(20)
    void graphInputStreamWithTag() throws Exception
    {
        final GraphConfig config = GraphConfigText.parse(String.join("\n",
            "input_stream: 'VIDEO_METADATA:video_metadata'",
            "input_stream: 'max_count'",
            "output_stream: 'output_0'",
            "node {",
            "  calculator: 'PassThroughCalculator'",
            "  input_stream: 'FIRST_INPUT:video_metadata'",
            "  input_stream: 'max_count'",
            "  output_stream: 'FIRST_INPUT:output_0'",
            "  output_stream: 'output_1'",
            "}"), "tagged_input.pbtxt");
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_0");
            graph.start();
            for (long i = 0; i < 5; i++)
            {
                graph.addPacket("video_metadata", i, i);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), snapshot(output));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, GraphInputStreamBeforeStartRun)
    @Test
    @Timeout(20)
    void graphInputStreamBeforeStartRun() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("video_metadata")
            .outputStream("output_0")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("video_metadata")
                .outputStream("output_0"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> graph.addPacket("video_metadata", 0L, 0));
            assertTrue(ex.getMessage().contains("start"), ex.getMessage());
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, TestPollPacket)
    @Test
    @Timeout(30)
    void testPollPacket() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .outputStream("output")
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("output").option("count", 1000))
            .build();
        try (Graph graph = new Graph(config))
        {
            final OutputPoller poller = graph.poller("output");
            graph.start();
            int packets = 0;
            while (poller.next(5, TimeUnit.SECONDS))
            {
                assertEquals(packets, poller.packet().getLong());
                packets++;
            }
            graph.waitUntilDone();
            assertFalse(poller.next(1, TimeUnit.SECONDS));
            assertTrue(poller.isDone());
            assertEquals(1000, packets);
        }
    }

    // calculator_graph_bounds_test.cc, TEST(CalculatorGraph, PropagateBoundLoop)
    // (kept here beside Cycle: the same loop, primed from open, with bounds instead of packets on 3 of 4 steps)
    @Test
    @Timeout(20)
    void propagateBoundLoop() throws Exception
    {
        final Calculator outputAndBoundSource = new Calculator()
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
        final Calculator delay20 = new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(20);
                ctx.output(0).addLong(0, 0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp() + 20);
            }
        };
        final GraphConfig config = GraphConfig.builder()
            .outputStream("sum")
            .node("source", n -> n.calculator(() -> outputAndBoundSource).outputStream("integers"))
            .node("adder", n -> n.calculator(CalculatorGraphTest::intAdder).inputStream("integers", "old_sum")
                .backEdge("old_sum").outputStream("sum").inputPolicy(InputPolicy.earlyClose()))
            .node("delay", n -> n.calculator(() -> delay20).inputStream("sum").outputStream("old_sum"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<String> sums = observe(graph, "sum");
            graph.start();
            graph.waitUntilDone();
            final List<String> expected = new ArrayList<>();
            long sum = 0;
            for (int i = 0; i < 101; i++)
            {
                sum += i;
                expected.add(sum + "@" + i * 20);
            }
            assertEquals(expected, snapshot(sums));
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, TerminatesOnCancelWithOpenGraphInputStreams)
    @Test
    @Timeout(20)
    void terminatesOnCancelWithOpenGraphInputStreams() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in_a", "in_b")
            .outputStream("out_a", "out_b")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("in_a", "in_b")
                .outputStream("out_a", "out_b"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.addPacket("in_a", 1L, 1);
            graph.closeInput("in_a");
            graph.addPacket("in_b", 2L, 2);
            graph.waitUntilIdle();
            graph.cancel();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled(), ex.getMessage());
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, TerminatesOnCancelAfterPause)
    @Test
    @Timeout(20)
    void terminatesOnCancelAfterPause() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("in").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.pause();
            graph.addPacket("in", 1L, 1);
            graph.cancel();
            graph.pause();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.isCancelled(), ex.getMessage());
        }
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, ObserveOutputStreamError)
    @Test
    @Timeout(20)
    void observeOutputStreamError() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .outputStream("out")
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("count").option("count", 10))
            .node("mid", n -> n.calculator(PassThroughCalculator.class).inputStream("count").outputStream("mid"))
            .node("out", n -> n.calculator(PassThroughCalculator.class).inputStream("mid").outputStream("out"))
            .build();
        final List<String> counted = syncList();
        try (Graph graph = new Graph(config))
        {
            graph.observe("count", p ->
            {
                counted.add(Conformance.show(p));
                if (counted.size() >= 6)
                {
                    throw new IllegalStateException("Expected. MagicString-eatnhuea");
                }
            });
            graph.observe("out", p -> { });
            graph.start();
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertTrue(ex.getMessage().contains("MagicString-eatnhuea"), ex.getMessage());
        }
        assertEquals(List.of("0@0", "1@1", "2@2", "3@3", "4@4", "5@5"), snapshot(counted));
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, ObserveOutputStreamNonexistent)
    @Test
    @Timeout(20)
    void observeOutputStreamNonexistent() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .outputStream("out")
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("count").option("count", 10))
            .node("out", n -> n.calculator(PassThroughCalculator.class).inputStream("count").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> graph.observe("not_found", p -> { }));
            assertTrue(ex.getMessage().contains("not_found"), ex.getMessage());
        }
    }

    /** MediaPipe's FloatAdderCalculator: offset 0, the sum of its inputs (every input has a packet). */
    private static Calculator doubleAdder(final List<String> incomplete)
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
                double sum = 0;
                for (int i = 0; i < ctx.inputCount(); i++)
                {
                    if (ctx.input(i).isEmpty())
                    {
                        incomplete.add(ctx.nodeName() + "@" + ctx.inputTimestamp()); // MediaPipe's Get would fail
                        continue;
                    }
                    sum += ctx.input(i).getDouble();
                }
                ctx.output(0).addDouble(sum, ctx.inputTimestamp());
            }
        };
    }

    /** MediaPipe's FloatScalarMultiplierCalculator: offset 0, each value times {@code scalar}. */
    private static Calculator doubleScalarMultiplier(final double scalar)
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
                ctx.output(0).addDouble(scalar * ctx.input(0).getDouble(), ctx.inputTimestamp());
            }
        };
    }

    /** MediaPipe's FloatUnitDelayCalculator: 0.0 at 0 from open, then each value one later. */
    private static Calculator doubleUnitDelay()
    {
        return new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.output(0).addDouble(0.0, 0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                ctx.output(0).addDouble(ctx.input(0).getDouble(), Timestamp.nextAllowedInStream(ctx.inputTimestamp()));
            }
        };
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, DirectFormI)
    // y[n] = x[n] + 2 x[n-1] + 1.5 y[n-1] - 0.9 y[n-2]: two loops through back edges, primed by delays
    // that emit from open()
    @Test
    @Timeout(20)
    void directFormI() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final List<String> incomplete = syncList();
        final GraphConfig config = GraphConfig.builder()
            .outputStream("y")
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("to_float", n -> n.calculator(() -> ctx ->
                ctx.output(0).addDouble(ctx.input(0).getLong(), ctx.inputTimestamp())).inputStream("integers")
                .outputStream("x"))
            .node("delay_x", n -> n.calculator(CalculatorGraphTest::doubleUnitDelay).inputStream("x").outputStream("a"))
            .node("b1", n -> n.calculator(() -> doubleScalarMultiplier(2.0)).inputStream("a").outputStream("b"))
            .node("sum_c", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("x", "b").outputStream("c")
                .inputPolicy(InputPolicy.earlyClose()))
            .node("sum_y", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("c", "f").backEdge("f")
                .outputStream("y").inputPolicy(InputPolicy.earlyClose()))
            .node("delay_y", n -> n.calculator(CalculatorGraphTest::doubleUnitDelay).inputStream("y").outputStream("d"))
            .node("a1", n -> n.calculator(() -> doubleScalarMultiplier(1.5)).inputStream("d").outputStream("e"))
            .node("delay_d", n -> n.calculator(CalculatorGraphTest::doubleUnitDelay).inputStream("d").outputStream("g"))
            .node("a2", n -> n.calculator(() -> doubleScalarMultiplier(-0.9)).inputStream("g").outputStream("h"))
            .node("sum_f", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("e", "h").outputStream("f")
                .inputPolicy(InputPolicy.earlyClose()))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<double[]> ys = syncList();
            graph.observe("y", p -> ys.add(new double[] {p.timestamp(), p.getDouble()}));
            graph.start();
            graph.waitUntilDone();
            final double[] expected = {1.0, 5.5, 14.35, 26.575, 39.9475};
            final List<double[]> got = snapshot(ys);
            assertEquals(expected.length, got.size());
            for (int i = 0; i < expected.length; i++)
            {
                assertEquals(i, (long)got.get(i)[0], "timestamp of y[" + i + "]");
                assertEquals(expected[i], got.get(i)[1], 1e-9, "y[" + i + "]");
            }
        }
        assertEquals(List.of(), snapshot(incomplete), "every adder input set was complete");
    }

    // calculator_graph_test.cc, TEST(CalculatorGraph, DirectFormII)
    // the same filter with one shared pair of delays: w[n] = x[n] + 1.5 w[n-1] - 0.9 w[n-2], y[n] = w[n] + 2 w[n-1]
    @Test
    @Timeout(20)
    void directFormII() throws Exception
    {
        final AtomicInteger counter = new AtomicInteger(1);
        final List<String> incomplete = syncList();
        final GraphConfig config = GraphConfig.builder()
            .outputStream("y")
            .node("source", n -> n.calculator(() -> globalCountSource(counter, false)).outputStream("integers"))
            .node("to_float", n -> n.calculator(() -> ctx ->
                ctx.output(0).addDouble(ctx.input(0).getLong(), ctx.inputTimestamp())).inputStream("integers")
                .outputStream("x"))
            .node("sum_a", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("x", "f").backEdge("f")
                .outputStream("a").inputPolicy(InputPolicy.earlyClose()))
            .node("delay_a", n -> n.calculator(CalculatorGraphTest::doubleUnitDelay).inputStream("a").outputStream("b"))
            .node("a1", n -> n.calculator(() -> doubleScalarMultiplier(1.5)).inputStream("b").outputStream("d"))
            .node("delay_b", n -> n.calculator(CalculatorGraphTest::doubleUnitDelay).inputStream("b").outputStream("c"))
            .node("a2", n -> n.calculator(() -> doubleScalarMultiplier(-0.9)).inputStream("c").outputStream("e"))
            .node("sum_f", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("d", "e").outputStream("f")
                .inputPolicy(InputPolicy.earlyClose()))
            .node("b1", n -> n.calculator(() -> doubleScalarMultiplier(2.0)).inputStream("b").outputStream("g"))
            .node("sum_y", n -> n.calculator(() -> doubleAdder(incomplete)).inputStream("a", "g").outputStream("y")
                .inputPolicy(InputPolicy.earlyClose()))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<double[]> ys = syncList();
            graph.observe("y", p -> ys.add(new double[] {p.timestamp(), p.getDouble()}));
            graph.start();
            graph.waitUntilDone();
            final double[] expected = {1.0, 5.5, 14.35, 26.575, 39.9475};
            final List<double[]> got = snapshot(ys);
            assertEquals(expected.length, got.size());
            for (int i = 0; i < expected.length; i++)
            {
                assertEquals(i, (long)got.get(i)[0], "timestamp of y[" + i + "]");
                assertEquals(expected[i], got.get(i)[1], 1e-9, "y[" + i + "]");
            }
        }
        assertEquals(List.of(), snapshot(incomplete), "every adder input set was complete");
    }
}
