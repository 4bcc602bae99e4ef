package dev.framewire.bench.policy;

import dev.framewire.bench.suite.Arrivals;
import dev.framewire.bench.suite.Suite;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
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
 * The drop path, where allocation used to hide (a JFR event made per drop): a live-camera node
 * under the fixed-size policy (trigger 2, target 1: MediaPipe's FixedSizeInputStreamHandler keeps
 * the newest packet when two are waiting) behind a graph input fed as fast as it takes packets, so
 * that most packets are dropped by the policy. One op is one packet added. After each iteration the
 * node's calls plus its policy drops must account for every packet sent. Run with {@code -prof gc}:
 * {@code gc.alloc.rate.norm} is the drop path's allocation. One worker, parked when idle.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class FixedSizeDropBenchmark
{
    /** FIXED_SIZE: most packets dropped by the policy; DEFAULT: none dropped, for comparison. */
    @Param({"FIXED_SIZE", "DEFAULT"})
    public String policy;

    private final Arrivals arrivals = new Arrivals();
    private Graph graph;
    private long sent;

    @Setup(Level.Trial)
    public void setUp()
    {
        final InputPolicy inputPolicy = policy.equals("FIXED_SIZE") ? InputPolicy.fixedSize(2, 1, false) :
            InputPolicy.DEFAULT;
        graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(1024)
            .queueHardCap(8 * 1024)
            .node("live", n -> n.calculator(() -> ctx -> arrivals.accept(ctx.input(0).getLong()))
                .inputStream("in").inputPolicy(inputPolicy))
            .build());
        graph.start();
    }

    @Benchmark
    public long push()
    {
        final long n = ++sent;
        while (!graph.tryAddPacket("in", n, n))
        {
            Thread.yield();
        }
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (arrivals.count() + graph.dropCount("live") != sent)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException(policy + ": " + sent + " sent, but " + arrivals.count() +
                    " processed and " + graph.dropCount("live") + " dropped");
            }
            Thread.yield();
        }
        if (policy.equals("DEFAULT") && graph.dropCount("live") != 0)
        {
            throw new IllegalStateException("the default policy dropped " + graph.dropCount("live") + " packets");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
