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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The round trip of one remote hop each way between two processes, over Aeron IPC through one
 * media driver both share, or over UDP on 127.0.0.1 through a driver each, beside its floor,
 * Aeron's own echo of the same payload between the same two processes over the same transport.
 * Sample mode: JMH reports p50, p99 and the rest of the round trip's distribution.
 *
 * <ul>
 *   <li>{@code FRAMEWIRE}: the benchmark thread adds a packet to graph A's input (in the JMH fork);
 *       A's {@code AeronPublisherCalculator} publishes it on stream 1 to graph B in a child JVM
 *       ({@link RemoteHopChild}), whose {@code AeronSubscriberCalculator} gives it to B's
 *       publisher, which sends it back on stream 2; A's subscriber gives it to A's observer, which
 *       hands the timestamp to the benchmark thread.</li>
 *   <li>{@code AERON_ECHO}: the benchmark thread offers the same bytes (96 for a long packet, a
 *       Framewire message's size; 96 + the frame for a frame) on stream 1 to an echo thread in a
 *       child JVM that reassembles them ({@link FragmentAssembler}) and offers them back on stream
 *       2; the benchmark thread reassembles the echo. The least a hop between these processes
 *       over Aeron can cost.</li>
 * </ul>
 * Transports: {@code UDP}, each process with its own media driver (Framewire's embedded one for
 * FRAMEWIRE; one set up the same way, {@link #driverContext}, for the echo); {@code IPC}, one media
 * driver in the fork, set up the same way, whose directory both processes connect to (the remote
 * calculators' {@code aeron_dir}): how processes on one host share Aeron's shared-memory log
 * buffers. Payloads: {@code LONG} and {@code GRAY8_720P} (1280x720 GRAY8, 921,600 bytes); all use
 * 16 MiB terms and an MTU of 8192. The child ({@link ChildJvm}) is started by {@code @Setup} and
 * ends at {@code @TearDown}. Every waiting thread yields, none busy-spins (the machines have two
 * cores): FRAMEWIRE runs four (the benchmark thread and A's two workers here, B's worker in the
 * child), the echo two, beside the drivers' threads (backoff). Each op checks that what came back
 * is what it sent.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RemoteProcessHopBenchmark
{
    static final int S1 = 7011;
    static final int S2 = 7012;
    static final int WIDTH = 1280;
    static final int HEIGHT = 720;
    private static final long TERM_LENGTH = 16L * 1024 * 1024;
    private static final int MTU = 8192;
    private static final String CHANNEL_PARAMS = "term-length=" + TERM_LENGTH + "|mtu=" + MTU;

    @Param({"FRAMEWIRE", "AERON_ECHO"})
    public String contender;

    @Param({"LONG", "GRAY8_720P"})
    public String payload;

    @Param({"IPC", "UDP"})
    public String transport;

    private boolean frames;
    private long next;
    private ChildJvm child;

    /** The fork's media driver: the one both processes share over IPC, the echo's own over UDP. */
    private MediaDriver driver;
    private Path aeronDir;

    // FRAMEWIRE
    private Graph a;
    private GraphInputHandle in;
    private volatile long arrived = -1;

    // AERON_ECHO
    private Aeron aeron;
    private ExclusivePublication ping;
    private Subscription pong;
    private FragmentAssembler pongAssembler;
    private UnsafeBuffer message;
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
        final boolean ipc = transport.equals("IPC");
        final String there = ipc ? "aeron:ipc?" + CHANNEL_PARAMS : udp(freeUdpPort());
        final String here = ipc ? "aeron:ipc?" + CHANNEL_PARAMS : udp(freeUdpPort());
        try
        {
            if (ipc || contender.equals("AERON_ECHO"))
            {
                aeronDir = Files.createTempDirectory("bench-aeron-");
                driver = MediaDriver.launch(driverContext(aeronDir));
            }
            // over IPC the child connects to this fork's driver; over UDP it has its own ("")
            final String sharedDir = ipc ? driver.aeronDirectoryName() : "";
            child = ChildJvm.start(RemoteHopChild.class, contender, payload, there, here, sharedDir);
            if (contender.equals("FRAMEWIRE"))
            {
                setUpFramewire(there, here, sharedDir);
            }
            else
            {
                setUpEcho(there, here);
            }
            firstRoundTrip();
        }
        catch (final Exception | Error ex)
        {
            final String err = child == null ? "" : child.stderr();
            tearDown();
            throw new IllegalStateException("setup failed; the child's stderr:\n" + err, ex);
        }
    }

    private static String udp(final int port)
    {
        return "aeron:udp?endpoint=127.0.0.1:" + port + "|" + CHANNEL_PARAMS;
    }

    private static int freeUdpPort()
    {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void setUpFramewire(final String there, final String here, final String aeronDir)
    {
        final GraphConfig configA = GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
            .executor("rx", ExecutorConfig.of(1, IdleKind.YIELD))
            .node("tx", n -> publisher(n.inputStream("in"), there, S1, aeronDir))
            .node("rx", n -> subscriber(n.executor("rx").outputStream("back"), here, S2, aeronDir))
            .outputStream("back")
            .build();
        a = new Graph(configA);
        a.observe("back", p -> arrived = p.timestamp());
        if (frames)
        {
            a.pool().reserve(PixelFormat.GRAY8.frameBytes(HEIGHT, WIDTH), 8);
        }
        a.start();
        in = a.input("in");
    }

    /** A publisher node on {@code channel}; {@code aeronDir} empty for the embedded driver. */
    static void publisher(final NodeConfig.Builder n, final String channel, final int streamId, final String aeronDir)
    {
        BenchLinkKey.secure(n.calculator("AeronPublisherCalculator").option("channel", channel)
            .option("stream_id", (long)streamId).option("aeron_dir", aeronDir), channel);
    }

    /** A subscriber node on {@code channel}, yielding while it waits; {@code aeronDir} as for the publisher. */
    static void subscriber(final NodeConfig.Builder n, final String channel, final int streamId, final String aeronDir)
    {
        BenchLinkKey.secure(n.calculator("AeronSubscriberCalculator").option("channel", channel)
            .option("stream_id", (long)streamId).option("idle_strategy", "YIELD").option("aeron_dir", aeronDir), channel);
    }

    /** A media driver set up as Framewire's embedded one, in a directory of its own under {@code dir}. */
    static MediaDriver.Context driverContext(final Path dir)
    {
        return new MediaDriver.Context()
            .aeronDirectoryName(dir.resolve("aeron").toString())
            .threadingMode(ThreadingMode.SHARED)
            .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, 1_000_000))
            .termBufferSparseFile(true)
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true);
    }

    private void setUpEcho(final String there, final String here) throws Exception
    {
        aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        ping = aeron.addExclusivePublication(there, S1);
        pong = aeron.addSubscription(here, S2);
        final int length = 96 + (frames ? WIDTH * HEIGHT : 0); // a Framewire message: its 96-byte header and the payload
        message = new UnsafeBuffer(ByteBuffer.allocateDirect(length));
        pongAssembler = new FragmentAssembler((buffer, offset, len, header) -> echoed = buffer.getLong(offset + 16));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ping.isConnected() || !pong.isConnected())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new IllegalStateException("the echo did not connect in 30 s");
            }
            Thread.sleep(1);
        }
    }

    /** One round trip, bounded, so that the first measured op finds both ways connected. */
    private void firstRoundTrip() throws InterruptedException
    {
        final long ts = next++;
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        boolean sent = false;
        while (a != null ? arrived != ts : echoed != ts)
        {
            if (System.nanoTime() - deadline > 0 || !child.isAlive())
            {
                throw new IllegalStateException("no round trip within 30 s (child alive: " + child.isAlive() + ")");
            }
            if (a != null && !sent)
            {
                in.addPacket(ts, ts); // a long even for frames: only the connections matter here
                sent = true;
            }
            else if (a == null)
            {
                message.putLong(16, ts);
                sent = sent || ping.offer(message, 0, message.capacity()) >= 0;
                pong.poll(pongAssembler, 16);
            }
            Thread.sleep(1);
        }
    }

    @Benchmark
    public long roundTrip() throws InterruptedException
    {
        final long ts = next++;
        if (a != null)
        {
            return HopRoundTrip.framewire(in, a.pool(), frames, WIDTH, HEIGHT, ts, arrivedNow, idle);
        }
        return HopRoundTrip.echo(ping, message, pong, pongAssembler, ts, echoedNow, idle);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        try
        {
            if (a != null)
            {
                a.cancel();
                a.close();
                a = null;
            }
            if (aeron != null)
            {
                aeron.close();
                aeron = null;
            }
        }
        finally
        {
            try
            {
                if (child != null)
                {
                    child.close(); // before the driver it may share
                    child = null;
                }
            }
            finally
            {
                if (driver != null)
                {
                    driver.close();
                    driver = null;
                    IoUtil.delete(aeronDir.toFile(), true);
                }
            }
        }
    }
}
