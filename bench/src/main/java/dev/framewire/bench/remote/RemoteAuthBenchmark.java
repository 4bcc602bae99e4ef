package dev.framewire.bench.remote;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.NodeConfig;
import dev.framewire.offheap.PixelFormat;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * What protecting a remote link costs on 1920x1080 RGBA frames (8,294,400 bytes): graph A's
 * {@code AeronPublisherCalculator} to graph B's {@code AeronSubscriberCalculator} in this JVM over
 * Aeron IPC (64 MiB terms), so that the transport costs little beside the work on the frames, under
 * each {@code protection}:
 * <ul>
 *   <li>{@code NONE}: no key (the unauthenticated link, as before issue 41);</li>
 *   <li>{@code HEADER}: a key, headers authenticated, payload bytes not;</li>
 *   <li>{@code PAYLOAD}: a key, header and payload authenticated (HMAC-SHA256): the default with a key;</li>
 *   <li>{@code AES_GCM}: a key, the payload encrypted and authenticated (AES-256-GCM).</li>
 * </ul>
 * The benchmark thread adds frames to A's input as fast as the graphs take them ({@code max_queue_size}
 * 4); the score is frames per second. Each iteration checks its answer: every frame added arrived,
 * in order. Workers PARK (two cores).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RemoteAuthBenchmark
{
    private static final int WIDTH = 1920;
    private static final int HEIGHT = 1080;
    private static final long STREAM_ID = 7201L;

    @Param({"NONE", "HEADER", "PAYLOAD", "AES_GCM"})
    public String protection;

    private Graph a;
    private Graph b;
    private GraphInputHandle in;
    private long next;
    private final FrameArrivals arrivals = new FrameArrivals();

    @Setup(Level.Trial)
    public void setUp()
    {
        final int bytes = PixelFormat.RGBA32.frameBytes(HEIGHT, WIDTH * 4);
        b = new Graph(GraphConfig.builder()
            .maxQueueSize(4)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("rx", n -> protect(n.calculator("AeronSubscriberCalculator").outputStream("out")
                .option("channel", "aeron:ipc").option("stream_id", STREAM_ID)))
            .outputStream("out")
            .build());
        arrivals.observe(b);
        b.pool().reserve(bytes, 8);
        b.start();
        a = new Graph(GraphConfig.builder()
            .inputStream("in")
            .maxQueueSize(4)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("tx", n -> protect(n.calculator("AeronPublisherCalculator").inputStream("in")
                .option("channel", "aeron:ipc").option("stream_id", STREAM_ID).option("term_length", 64L << 20)))
            .build());
        a.pool().reserve(bytes, 8);
        a.start();
        in = a.input("in");
        next = 0;
    }

    private NodeConfig.Builder protect(final NodeConfig.Builder n)
    {
        if (protection.equals("NONE"))
        {
            return n;
        }
        n.option("key_file", BenchLinkKey.keyFile());
        if (protection.equals("AES_GCM"))
        {
            return n.option("encryption", "AES_GCM");
        }
        return n.option("authentication", protection);
    }

    @Benchmark
    public long frame() throws InterruptedException
    {
        final long ts = next++;
        in.addPacket(a.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.RGBA32), ts);
        return ts;
    }

    @TearDown(Level.Iteration)
    public void verify() throws Exception
    {
        FrameArrivals.awaitAll(protection, next - 1, () -> arrivals, () -> "; " + b.report());
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        a.cancel();
        a.close();
        b.cancel();
        b.close();
    }
}
