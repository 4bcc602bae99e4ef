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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of 1280x720 GRAY8 frames (921,600 bytes) from one graph to another, beside the same
 * frames through one graph. The benchmark thread adds frames to graph A's input as fast as the
 * graphs take them (the input waits while its queue, {@code max_queue_size} 8, is full); the score
 * is frames added per second, in steady state the rate at which they arrive.
 * <ul>
 *   <li>{@code LOCAL}: A passes each frame through a node to its output: the in-process baseline.</li>
 *   <li>{@code IPC}, {@code UDP}: A's {@code AeronPublisherCalculator} ({@code WAIT}, 16 MiB terms,
 *       {@code mtu} 8192 for UDP) to graph B's {@code AeronSubscriberCalculator}, in this JVM, over
 *       Aeron IPC, or UDP on 127.0.0.1 through the embedded driver (SHARED), with Aeron's default
 *       receiver window (128 KiB).</li>
 * </ul>
 * Each iteration checks its answer: every frame added arrives, at its timestamp, in order. Workers
 * PARK (two cores: A's worker, B's subscriber, the driver and the benchmark thread share them).
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

    @Param({"LOCAL", "IPC", "UDP"})
    public String transport;

    private Graph a;
    private Graph b;
    private GraphInputHandle in;
    private long next;
    private final AtomicLong arrived = new AtomicLong(-1);
    private final AtomicLong disorder = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        final int bytes = PixelFormat.GRAY8.frameBytes(HEIGHT, WIDTH);
        if (transport.equals("LOCAL"))
        {
            a = new Graph(GraphConfig.builder()
                .inputStream("in")
                .maxQueueSize(8)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
                .outputStream("out")
                .build());
            observe(a);
        }
        else
        {
            final String channel = transport.equals("IPC") ? "aeron:ipc" :
                "aeron:udp?endpoint=127.0.0.1:" + freePort() + "|mtu=8192";
            b = new Graph(GraphConfig.builder()
                .maxQueueSize(8)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("rx", n -> n.calculator("AeronSubscriberCalculator").outputStream("out")
                    .option("channel", channel).option("stream_id", 7101L))
                .outputStream("out")
                .build());
            a = new Graph(GraphConfig.builder()
                .inputStream("in")
                .maxQueueSize(8)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .node("tx", n -> n.calculator("AeronPublisherCalculator").inputStream("in")
                    .option("channel", channel).option("stream_id", 7101L).option("term_length", 16L << 20))
                .build());
            observe(b);
            b.pool().reserve(bytes, 12);
            b.start();
        }
        a.pool().reserve(bytes, 12);
        a.start();
        in = a.input("in");
        next = 0;
    }

    private void observe(final Graph graph)
    {
        graph.observe("out", p ->
        {
            if (p.timestamp() != arrived.get() + 1)
            {
                disorder.incrementAndGet();
            }
            arrived.lazySet(p.timestamp());
        });
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
    public void verify() throws InterruptedException
    {
        final long last = next - 1;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (arrived.get() != last)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException(transport + ": sent up to " + last + ", arrived up to " + arrived.get());
            }
            Thread.sleep(1);
        }
        if (disorder.get() != 0)
        {
            throw new IllegalStateException(transport + ": " + disorder.get() + " frames arrived out of order or missing");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        a.cancel();
        a.close();
        if (b != null)
        {
            b.cancel();
            b.close();
        }
    }
}
