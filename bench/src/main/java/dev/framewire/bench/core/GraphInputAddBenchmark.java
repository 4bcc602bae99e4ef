package dev.framewire.bench.core;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import org.jctools.queues.SpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What adding a packet costs the adding thread, with nobody taking packets meanwhile: the part of a
 * hop's latency that is spent before the packet is even visible to the worker. The graph is paused
 * while {@value #BATCH} packets are added, then resumed and drained outside the measurement
 * (a per-invocation set-up, which JMH times apart). Beside it, the floor: the same number of offers
 * into a JCTools SPSC queue that is emptied the same way.
 *
 * <pre>
 *   java @.mvn/jvm.config -jar bench/target/benchmarks.jar GraphInputAddBenchmark -jvmArgsPrepend @.mvn/jvm.config -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class GraphInputAddBenchmark
{
    static final int BATCH = 512;

    /** A graph with one input and one pass-through node whose output is observed, per benchmark thread. */
    @State(Scope.Thread)
    public static class GraphState
    {
        /**
         * YIELD: the worker polls the graph input's queue, so an add neither fences nor touches the
         * node (as on the busy-spinning hop of B1); PARK: the add schedules the node.
         */
        @Param({"YIELD", "PARK"})
        IdleKind idle;
        Graph graph;
        GraphInputHandle in;
        long timestamp;

        @Setup(Level.Trial)
        public void start()
        {
            graph = new Graph(GraphConfig.builder()
                .inputStream("in")
                .node("hop", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
                .outputStream("out")
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, idle))
                .maxQueueSize(4 * BATCH)
                .build());
            graph.observe("out", packet -> { });
            graph.start();
            in = graph.input("in");
        }

        @Setup(Level.Invocation)
        public void drain() throws InterruptedException
        {
            graph.resume();
            graph.waitUntilIdle();
            graph.pause();
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception
        {
            graph.resume();
            graph.closeAllInputs();
            graph.waitUntilDone();
            graph.close();
        }
    }

    /** A bare JCTools SPSC queue, the floor an add is measured against. */
    @State(Scope.Thread)
    public static class SpscState
    {
        final SpscArrayQueue<Object> queue = new SpscArrayQueue<>(4 * BATCH);
        final Object item = new Object();

        @Setup(Level.Invocation)
        public void drain()
        {
            queue.clear();
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long framewire(final GraphState state)
    {
        final GraphInputHandle in = state.in;
        long ts = state.timestamp;
        int added = 0;
        for (int i = 0; i < BATCH; i++)
        {
            if (in.tryAddPacket(ts, ts))
            {
                added++;
            }
            ts++;
        }
        state.timestamp = ts;
        return added;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int spscFloor(final SpscState state)
    {
        final SpscArrayQueue<Object> queue = state.queue;
        int added = 0;
        for (int i = 0; i < BATCH; i++)
        {
            if (queue.offer(state.item))
            {
                added++;
            }
        }
        return added;
    }
}
