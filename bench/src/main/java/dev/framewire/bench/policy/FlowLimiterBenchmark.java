package dev.framewire.bench.policy;

import dev.framewire.bench.suite.Arrivals;
import dev.framewire.bench.suite.Suite;
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

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * MediaPipe's flow limiter at full rate in front of a slow node: the benchmark thread adds
 * {@code long}s as fast as the limiter takes them (yielding while the limiter's own input queue
 * is full; with {@code max_in_queue} 0 the limiter drops what it cannot let through, so the slow
 * node never holds the producer back); the slow node burns {@code work}
 * JMH CPU tokens per packet on its own worker and its output comes back to the limiter's
 * {@code FINISHED} back edge. One op is one packet offered.
 *
 * <p>After each iteration, once the graph is idle, every packet must be accounted for: arrived at
 * the end or counted as dropped by the limiter (which packets go through is the limiter's
 * choice, so the count is checked, exactly, not a sum). Each iteration prints its drop rate. Two workers parked when idle and the benchmark thread.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class FlowLimiterBenchmark
{
    @Param({"4096"})
    public int work;

    @Param({"1", "2"})
    public int maxInFlight;

    private final Arrivals arrivals = new Arrivals();
    private Graph graph;
    private long sent;
    private long sentBefore;
    private long arrivedBefore;
    private long droppedBefore;

    @Setup(Level.Trial)
    public void setUp()
    {
        graph = new Graph(GraphConfig.builder()
            .inputStream("frames")
            .outputStream("done")
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                .inputStream("frames", "FINISHED:done").backEdge("FINISHED")
                .outputStream("limited")
                .option("max_in_flight", (long)maxInFlight))
            .node("slow", n -> n.calculator(() -> new MaxInFlightBenchmark.Slow(work)).inputStream("limited")
                .outputStream("done").executor("slow"))
            .build());
        graph.observe("done", packet -> arrivals.accept(packet.getLong()));
        graph.start();
    }

    @Benchmark
    public long offer()
    {
        final long n = ++sent;
        while (!graph.tryAddPacket("frames", n, n))
        {
            Thread.yield(); // the limiter's own queue is full: it drops, but one packet at a time
        }
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify() throws InterruptedException
    {
        graph.waitUntilIdle();
        final long arrived = arrivals.count();
        final long dropped = graph.dropCount("limiter");
        if (arrived + dropped != sent)
        {
            throw new IllegalStateException("flow limiter: " + sent + " offered, " + arrived + " arrived, " + dropped +
                " dropped: " + (sent - arrived - dropped) + " unaccounted for");
        }
        final long offered = sent - sentBefore;
        System.out.printf(Locale.ROOT, "  [limiter] %,d offered, %,d through, %,d dropped (%.2f%% dropped)%n",
            offered, arrived - arrivedBefore, dropped - droppedBefore, 100.0 * (dropped - droppedBefore) / offered);
        sentBefore = sent;
        arrivedBefore = arrived;
        droppedBefore = dropped;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
