package dev.framewire.bench.remote;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.NodeConfig;
import dev.framewire.offheap.PixelFormat;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.YieldingIdleStrategy;
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

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The round trip of one remote hop each way over Aeron IPC, beside its floor, Aeron's own echo of
 * the same payload. Sample mode: JMH reports p50, p99 and the rest of the round trip's distribution.
 *
 * <ul>
 *   <li>{@code FRAMEWIRE}: the benchmark thread adds a packet to graph A's input; A's
 *       {@code AeronPublisherCalculator} publishes it; graph B's {@code AeronSubscriberCalculator}
 *       gives it back and B's publisher sends it on a second stream; A's subscriber gives it back to
 *       A, whose observer hands the timestamp to the benchmark thread. Two remote hops, the
 *       engine's scheduling at each end, each payload reassembled into a pooled payload at each
 *       receiver.</li>
 *   <li>{@code AERON_ECHO}: the benchmark thread offers the same bytes (96 for a long packet: a
 *       Framewire message's size; 96 + the frame for a frame) on one IPC stream; an echo thread
 *       reassembles them ({@link FragmentAssembler}) and offers them back on a second; the
 *       benchmark thread reassembles the echo. The least any hop over Aeron can cost.</li>
 * </ul>
 * Payloads: {@code LONG} (a {@code long} packet) and {@code GRAY8_720P} (a 1280x720 GRAY8 frame,
 * 921,600 bytes). Every thread that waits yields ({@code YIELD} workers, {@code idle_strategy}
 * YIELD, Agrona's {@link YieldingIdleStrategy}), none busy-spins: the machines have two cores and
 * FRAMEWIRE runs four such threads (the benchmark thread, A's two workers, B's one), the echo two.
 * Each op checks that what came back is what it sent: the timestamp, and for the echo the stamp in
 * the payload; a wrong one fails the benchmark.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RemoteHopBenchmark
{
    private static final int S1 = 7001;
    private static final int S2 = 7002;
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 720;
    private static final long TERM_LENGTH = 16L * 1024 * 1024;

    @Param({"FRAMEWIRE", "AERON_ECHO"})
    public String contender;

    @Param({"LONG", "GRAY8_720P"})
    public String payload;

    private boolean frames;
    private long next;

    // FRAMEWIRE
    private Graph a;
    private Graph b;
    private GraphInputHandle in;
    private volatile long arrived = -1;

    // AERON_ECHO
    private MediaDriver driver;
    private Aeron aeron;
    private Path aeronDir;
    private ExclusivePublication ping;
    private Subscription pong;
    private FragmentAssembler pongAssembler;
    private UnsafeBuffer message;
    private Thread echo;
    private volatile boolean running;
    private long echoed = -1;
    private final IdleStrategy idle = new YieldingIdleStrategy();
    /** The two volatile fields as {@link HopRoundTrip} reads them; made once. */
    private final java.util.function.LongSupplier arrivedNow = () -> arrived;
    private final java.util.function.LongSupplier echoedNow = () -> echoed;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        frames = payload.equals("GRAY8_720P");
        next = 0;
        if (contender.equals("FRAMEWIRE"))
        {
            setUpFramewire();
        }
        else
        {
            setUpEcho();
        }
    }

    private void setUpFramewire()
    {
        final GraphConfig configA = GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
            .executor("rx", ExecutorConfig.of(1, IdleKind.YIELD))
            .node("tx", n -> publisher(n.inputStream("in"), S1))
            .node("rx", n -> subscriber(n.executor("rx").outputStream("back"), S2))
            .outputStream("back")
            .build();
        final GraphConfig configB = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
            .node("rx", n -> subscriber(n.outputStream("mid"), S1))
            .node("tx", n -> publisher(n.inputStream("mid"), S2))
            .build();
        b = new Graph(configB);
        a = new Graph(configA);
        a.observe("back", p -> arrived = p.timestamp());
        if (frames)
        {
            final int bytes = PixelFormat.GRAY8.frameBytes(HEIGHT, WIDTH);
            a.pool().reserve(bytes, 8);
            b.pool().reserve(bytes, 8);
        }
        b.start();
        a.start();
        in = a.input("in");
    }

    private static void publisher(final NodeConfig.Builder n, final int streamId)
    {
        n.calculator("AeronPublisherCalculator").option("channel", "aeron:ipc").option("stream_id", (long)streamId)
            .option("term_length", TERM_LENGTH);
    }

    private static void subscriber(final NodeConfig.Builder n, final int streamId)
    {
        n.calculator("AeronSubscriberCalculator").option("channel", "aeron:ipc").option("stream_id", (long)streamId)
            .option("idle_strategy", "YIELD");
    }

    private void setUpEcho() throws Exception
    {
        aeronDir = Files.createTempDirectory("bench-aeron-");
        driver = MediaDriver.launch(new MediaDriver.Context()
            .aeronDirectoryName(aeronDir.resolve("aeron").toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000))
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true));
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        final String channel = "aeron:ipc?term-length=" + TERM_LENGTH;
        ping = aeron.addExclusivePublication(channel, S1);
        final Subscription pingSub = aeron.addSubscription(channel, S1);
        final ExclusivePublication pongPub = aeron.addExclusivePublication(channel, S2);
        pong = aeron.addSubscription(channel, S2);
        final int length = 96 + (frames ? WIDTH * HEIGHT : 0); // a Framewire message: its 96-byte header and the payload
        message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        pongAssembler = new FragmentAssembler((buffer, offset, len, header) -> echoed = buffer.getLong(offset + 16));
        running = true;
        final IdleStrategy echoWait = new YieldingIdleStrategy();
        final FragmentHandler back = (buffer, offset, len, header) ->
        {
            while (pongPub.offer(buffer, offset, len) < 0 && running)
            {
                echoWait.idle();
            }
        };
        final FragmentAssembler pingAssembler = new FragmentAssembler(back);
        echo = new Thread(() ->
        {
            final IdleStrategy wait = new YieldingIdleStrategy();
            while (running)
            {
                wait.idle(pingSub.poll(pingAssembler, 16));
            }
        }, "aeron-echo");
        echo.start();
        while (!ping.isConnected() || !pongPub.isConnected())
        {
            Thread.sleep(1);
        }
    }

    @Benchmark
    public long roundTrip() throws InterruptedException
    {
        final long ts = next++;
        if (contender.equals("FRAMEWIRE"))
        {
            return HopRoundTrip.framewire(in, a.pool(), frames, WIDTH, HEIGHT, ts, arrivedNow, idle);
        }
        return HopRoundTrip.echo(ping, message, pong, pongAssembler, ts, echoedNow, idle);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        if (a != null)
        {
            a.cancel();
            b.cancel();
            a.close();
            b.close();
        }
        if (driver != null)
        {
            running = false;
            echo.join(10_000);
            aeron.close();
            driver.close();
            IoUtil.delete(aeronDir.toFile(), true);
        }
    }
}
