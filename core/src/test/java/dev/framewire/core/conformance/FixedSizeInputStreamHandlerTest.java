package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.calculators.PassThroughCalculator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static dev.framewire.core.conformance.Conformance.observeTimestamps;
import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MediaPipe's {@code mediapipe/framework/stream_handler/fixed_size_input_stream_handler_test.cc},
 * each case with {@code fixed_min_size} false and true, as MediaPipe parameterizes them.
 */
class FixedSizeInputStreamHandlerTest
{
    /** The source's and the slow calculator's shared counters (MediaPipe's g_source_counter and friends). */
    private static final class Pace
    {
        private long sourceCounter;
        private long slowCounter;
        private boolean sourceDone;

        synchronized void await(final BooleanSupplier condition) throws InterruptedException
        {
            notifyAll();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!condition.getAsBoolean())
            {
                final long left = deadline - System.nanoTime();
                if (left <= 0)
                {
                    throw new IllegalStateException("pace: waited 10 s; source " + sourceCounter + ", slow " +
                        slowCounter + ", done " + sourceDone);
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        synchronized void done()
        {
            sourceDone = true;
            notifyAll();
        }
    }

    /** MediaPipe's TestSourceCalculator: 0..99, running at most 10 packets ahead of the slow calculator. */
    private static Calculator testSource(final Pace pace)
    {
        return new Calculator()
        {
            private long packetId;

            @Override
            public void process(final CalculatorContext ctx) throws InterruptedException
            {
                if (packetId == 100)
                {
                    pace.done();
                    ctx.stop();
                    return;
                }
                ctx.output(0).addLong(0, packetId++);
                synchronized (pace)
                {
                    pace.sourceCounter++;
                    pace.await(() -> pace.sourceCounter <= 10 * pace.slowCounter || pace.sourceCounter <= 1);
                }
            }
        };
    }

    /** MediaPipe's TestSlowCalculator: passes its packet on, then waits until the source is 10 ahead. */
    private static Calculator testSlow(final Pace pace)
    {
        return ctx ->
        {
            ctx.output(0).addLong(0, ctx.inputTimestamp());
            synchronized (pace)
            {
                pace.slowCounter++;
                pace.await(() -> pace.sourceCounter > 10 * pace.slowCounter || pace.sourceDone);
            }
        };
    }

    // fixed_size_input_stream_handler_test.cc, TEST_P(FixedSizeInputStreamHandlerTest, DropsPackets)
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void dropsPackets(final boolean fixedMinSize) throws Exception
    {
        final Pace pace = new Pace();
        final GraphConfig config = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .outputStream("output_packets")
            .node("source", n -> n.calculator(() -> testSource(pace)).outputStream("input_packets"))
            .node("slow", n -> n.calculator(() -> testSlow(pace)).inputStream("input_packets")
                .outputStream("output_packets").inputPolicy(InputPolicy.fixedSize(2, 1, fixedMinSize)))
            .build();
        try (Graph graph = new Graph(config))
        {
            final List<Long> output = observeTimestamps(graph, "output_packets");
            graph.start();
            graph.waitUntilDone();
            assertEquals(List.of(0L, 9L, 19L, 29L, 39L, 49L, 59L, 69L, 79L, 89L, 99L), snapshot(output));
        }
    }

    // fixed_size_input_stream_handler_test.cc, TEST_P(FixedSizeInputStreamHandlerTest, DropsPacketsInFullStream)
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void dropsPacketsInFullStream(final boolean fixedMinSize) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .maxQueueSize(10)
            .outputStream("output_packets")
            .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("input_packets")
                .option("count", 10).option("batch", 10))
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("input_packets")
                .outputStream("output_packets").inputPolicy(InputPolicy.fixedSize(2, 1, fixedMinSize)))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone(); // MediaPipe asserts that the run ends well
        }
    }

    private static GraphConfig threeStreams(final int trigger, final int target, final boolean fixedMinSize)
    {
        return GraphConfig.builder()
            .inputStream("in_0", "in_1", "in_2")
            .outputStream("out_0", "out_1", "out_2")
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("in_0", "in_1", "in_2")
                .outputStream("out_0", "out_1", "out_2").inputPolicy(InputPolicy.fixedSize(trigger, target,
                    fixedMinSize)))
            .build();
    }

    // fixed_size_input_stream_handler_test.cc, TEST_P(FixedSizeInputStreamHandlerTest, ParallelWriteAndRead)
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void parallelWriteAndRead(final boolean fixedMinSize) throws Exception
    {
        try (Graph graph = new Graph(threeStreams(3, 1, fixedMinSize)))
        {
            final List<List<String>> outputs = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                outputs.add(Conformance.observe(graph, "out_" + i));
            }
            graph.start();
            final List<Throwable> errors = syncList();
            final List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++)
            {
                final String stream = "in_" + w;
                final Thread writer = new Thread(() ->
                {
                    try
                    {
                        for (long i = 0; i < 50; i++)
                        {
                            graph.addPacket(stream, i, i);
                            java.util.concurrent.locks.LockSupport.parkNanos(100_000); // MediaPipe's 100 us pace
                        }
                    }
                    catch (final Throwable t)
                    {
                        errors.add(t);
                    }
                }, "writer-" + w);
                writer.start();
                writers.add(writer);
            }
            for (final Thread writer : writers)
            {
                writer.join(TimeUnit.SECONDS.toMillis(10));
            }
            assertEquals(List.of(), snapshot(errors));
            graph.closeAllInputs();
            graph.waitUntilDone();
            final List<String> first = snapshot(outputs.get(0)).stream().map(s -> s.substring(0, s.indexOf('@')))
                .toList();
            for (int i = 1; i < 3; i++)
            {
                assertEquals(first, snapshot(outputs.get(i)).stream().map(s -> s.substring(0, s.indexOf('@'))).toList(),
                    "out_" + i + " against out_0");
            }
            assertTrue(!first.isEmpty());
        }
    }

    // fixed_size_input_stream_handler_test.cc, TEST_P(FixedSizeInputStreamHandlerTest, LateArrivalDrop)
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    @Timeout(30)
    void lateArrivalDrop(final boolean fixedMinSize) throws Exception
    {
        try (Graph graph = new Graph(threeStreams(4, 3, fixedMinSize)))
        {
            final List<List<Long>> outputs = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                outputs.add(observeTimestamps(graph, "out_" + i));
            }
            graph.start();
            for (long i = 1; i <= 6; i++)
            {
                graph.addPacket("in_0", i, i);
            }
            for (long i = 3; i <= 7; i++)
            {
                graph.addPacket("in_1", i, i);
                graph.waitUntilIdle();
            }
            for (long i = 4; i <= 7; i++)
            {
                graph.addPacket("in_2", i, i);
                graph.waitUntilIdle();
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            if (fixedMinSize)
            {
                assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), snapshot(outputs.get(0)));
                assertEquals(List.of(3L, 4L, 5L, 6L, 7L), snapshot(outputs.get(1)));
                assertEquals(List.of(4L, 5L, 6L, 7L), snapshot(outputs.get(2)));
            }
            else
            {
                assertEquals(List.of(5L, 6L), snapshot(outputs.get(0)));
                assertEquals(List.of(5L, 6L, 7L), snapshot(outputs.get(1)));
                assertEquals(List.of(5L, 6L, 7L), snapshot(outputs.get(2)));
            }
        }
    }
}
