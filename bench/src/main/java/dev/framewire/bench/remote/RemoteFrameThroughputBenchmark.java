package dev.framewire.bench.remote;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
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

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of 1280x720 GRAY8 frames (921,600 bytes) from one graph to another, in this process
 * or in another, beside the same frames through one graph. The benchmark thread adds frames to graph A's input as fast as the
 * graphs take them (the input waits while its queue, {@code max_queue_size} 8, is full); the score
 * is frames added per second, in steady state the rate at which they arrive.
 * <ul>
 *   <li>{@code LOCAL}: A passes each frame through a node to its output: the in-process baseline.</li>
 *   <li>{@code IPC}, {@code UDP}: A's {@code AeronPublisherCalculator} ({@code WAIT}, 16 MiB terms,
 *       {@code mtu} 8192 for UDP) to graph B's {@code AeronSubscriberCalculator}, in this JVM, over
 *       Aeron IPC, or UDP on 127.0.0.1 through the embedded driver (SHARED), with Aeron's default
 *       receiver window (128 KiB).</li>
 *   <li>{@code UDP_PROCESSES}: as {@code UDP}, but graph B runs in a child JVM
 *       ({@link RemoteFrameSink}, started by {@code @Setup}, ended by {@code @TearDown}), each
 *       process with its own embedded driver: frames cross between two processes.</li>
 * </ul>
 * Each iteration checks its answer: every frame added arrives, at its timestamp, in order (the child
 * is asked for its count). Workers PARK (two cores: A's worker, B's subscriber, the drivers and the
 * benchmark thread share them).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RemoteFrameThroughputBenchmark
{
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 720;
    private static final long STREAM_ID = 7101L;
    static final int FRAME_BYTES = PixelFormat.GRAY8.frameBytes(HEIGHT, WIDTH);

    @Param({"LOCAL", "IPC", "UDP", "UDP_PROCESSES"})
    public String transport;

    private Graph a;
    private Graph b;
    private GraphInputHandle in;
    private ChildJvm child;
    private long next;
    private final FrameArrivals arrivals = new FrameArrivals();

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final int bytes = FRAME_BYTES;
        if (transport.equals("LOCAL"))
        {
            a = new Graph(GraphConfig.builder()
                .inputStream("in")
                .maxQueueSize(8)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
                .outputStream("out")
                .build());
            arrivals.observe(a);
        }
        else
        {
            final String channel = transport.equals("IPC") ? "aeron:ipc" :
                "aeron:udp?endpoint=127.0.0.1:" + freePort() + "|mtu=8192";
            if (transport.equals("UDP_PROCESSES"))
            {
                child = ChildJvm.start(RemoteFrameSink.class, channel);
            }
            else
            {
                b = new Graph(receiver(channel));
                arrivals.observe(b);
                b.pool().reserve(bytes, 12);
                b.start();
            }
            a = new Graph(GraphConfig.builder()
                .inputStream("in")
                .maxQueueSize(8)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("tx", n -> BenchLinkKey.secure(n.calculator("AeronPublisherCalculator").inputStream("in")
                    .option("channel", channel).option("stream_id", STREAM_ID).option("term_length", 16L << 20), channel))
                .build());
        }
        a.pool().reserve(bytes, 12);
        a.start();
        in = a.input("in");
        next = 0;
    }

    /** Graph B: the subscriber on {@code channel}, its stream as graph output {@code out}; here or in the child. */
    static GraphConfig receiver(final String channel)
    {
        return GraphConfig.builder()
            .maxQueueSize(8)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("rx", n -> BenchLinkKey.secure(n.calculator("AeronSubscriberCalculator").outputStream("out")
                .option("channel", channel).option("stream_id", STREAM_ID), channel))
            .outputStream("out")
            .build();
    }

    private static int freePort() throws IOException
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    @Benchmark
    public long frame() throws InterruptedException
    {
        final long ts = next++;
        in.addPacket(a.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.GRAY8), ts);
        return ts;
    }

    @TearDown(Level.Iteration)
    public void verify() throws Exception
    {
        FrameArrivals.awaitAll(String.valueOf(transport), next - 1, this::seen,
            () -> child == null ? "" : "; the child's stderr:\n" + child.stderr());
    }

    /** What arrived: here, or as the child says. */
    private FrameArrivals seen() throws IOException
    {
        if (child == null)
        {
            return arrivals;
        }
        final String answer = child.ask("?");
        if (answer == null)
        {
            throw new IllegalStateException(transport + ": the child ended; its stderr:\n" + child.stderr());
        }
        return FrameArrivals.parse(answer);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        try
        {
            if (a != null)
            {
                a.cancel();
                a.close();
            }
            if (b != null)
            {
                b.cancel();
                b.close();
            }
        }
        finally
        {
            if (child != null)
            {
                child.close();
                child = null;
            }
        }
    }
}
