package dev.framewire.bench.policy;

import dev.framewire.bench.suite.Arrivals;
import dev.framewire.bench.suite.Suite;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * One node with two inputs, under the default policy (a join: one input set per timestamp, both
 * packets in it, once both have come) or the immediate policy (an input set as soon as either
 * packet is there; as in MediaPipe, a packet of the other input already queued at the same
 * timestamp joins it, so there are one to two input sets per timestamp). One op is one timestamp:
 * a {@code long} added to each input, the benchmark thread yielding while a queue is full. The
 * node adds every packet it sees to {@link Arrivals}; after each iteration the count (two per op)
 * and the sum of the packets are checked. One worker, parked when idle: two threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class TwoInputPolicyBenchmark
{
    @Param({"DEFAULT", "IMMEDIATE"})
    public String policy;

    private final Arrivals arrivals = new Arrivals();
    private Graph graph;
    private long sent;
    private long expectedSum;

    /** Counts every packet of each input set. */
    static final class Count implements Calculator
    {
        private final Arrivals arrivals;

        Count(final Arrivals arrivals)
        {
            this.arrivals = arrivals;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            for (int i = 0; i < 2; i++)
            {
                final Input input = ctx.input(i);
                if (!input.isEmpty())
                {
                    arrivals.accept(input.getLong());
                }
            }
        }
    }

    @Setup(Level.Trial)
    public void setUp()
    {
        final InputPolicy inputPolicy = policy.equals("IMMEDIATE") ? InputPolicy.immediate() : InputPolicy.DEFAULT;
        graph = new Graph(GraphConfig.builder()
            .inputStream("a", "b")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(1024)
            .queueHardCap(8 * 1024)
            .node("node", n -> n.calculator(() -> new Count(arrivals)).inputStream("a", "b").inputPolicy(inputPolicy))
            .build());
        graph.start();
    }

    @Benchmark
    public long push()
    {
        final long n = ++sent;
        final long value = n * 3 + 1;
        expectedSum += 2 * value;
        while (!graph.tryAddPacket("a", value, n))
        {
            Thread.yield();
        }
        while (!graph.tryAddPacket("b", value, n))
        {
            Thread.yield();
        }
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        arrivals.verify(policy, 2 * sent, expectedSum);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
