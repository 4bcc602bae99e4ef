package dev.framewire.bench.policy;

import dev.framewire.bench.suite.Arrivals;
import dev.framewire.bench.suite.Sender;
import dev.framewire.bench.suite.Suite;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
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
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A node too slow for its input, with {@code max_in_flight} 1 and 2, on an executor of two
 * workers parked when idle. Each call burns {@code work} JMH CPU tokens ({@link Blackhole#consumeCPU},
 * stateless, so safe from two threads) and passes its {@code long} on; one op is one packet
 * accepted (the benchmark thread yields while the node's queue of 64 is full). After each
 * iteration the count, the sum and the order of what arrived are checked: with two calls at once
 * the outputs must still leave in timestamp order. Three threads: the benchmark's and two workers.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class MaxInFlightBenchmark
{
    @Param({"1", "2"})
    public int maxInFlight;

    @Param({"4096"})
    public int work;

    private final Arrivals arrivals = new Arrivals();
    private Graph graph;
    private Sender sender;
    private long lastTimestamp;
    private volatile String disorder;

    /** Burns CPU, then passes the packet on. */
    static final class Slow implements Calculator
    {
        private final int work;

        Slow(final int work)
        {
            this.work = work;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            Blackhole.consumeCPU(work);
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        }
    }

    @Setup(Level.Trial)
    public void setUp()
    {
        graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor("pool", ExecutorConfig.of(2, IdleKind.PARK))
            .maxQueueSize(64)
            .node("slow", n -> n.calculator(() -> new Slow(work)).inputStream("in").outputStream("out")
                .executor("pool").maxInFlight(maxInFlight))
            .build());
        graph.observe("out", packet ->
        {
            // one observer thread at a time: the node's steps are one at a time
            if (packet.timestamp() <= lastTimestamp && disorder == null)
            {
                disorder = "timestamp " + packet.timestamp() + " arrived after " + lastTimestamp;
            }
            lastTimestamp = packet.timestamp();
            arrivals.accept(packet.getLong());
        });
        graph.start();
        final Graph target = graph;
        sender = new Sender((value, timestamp) -> target.tryAddPacket("in", value, timestamp));
    }

    @Benchmark
    public long push()
    {
        return sender.send();
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        sender.verify(arrivals, "max_in_flight " + maxInFlight);
        if (disorder != null)
        {
            throw new IllegalStateException("max_in_flight " + maxInFlight + ": out of order: " + disorder);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
