package dev.framewire.bench.remote;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.PixelFormat;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.IoUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The far side of {@link RemoteProcessHopBenchmark}, in a JVM of its own ({@link ChildJvm}): takes
 * what comes on one stream and sends it back on another, either through a Framewire graph
 * ({@code FRAMEWIRE}: subscriber to publisher) or with Aeron alone ({@code AERON_ECHO}), through a
 * media driver of its own or the benchmark's, by directory. Prints {@code READY} once it listens,
 * and runs until its standard input ends (the benchmark closes it, or dies), so that it never
 * outlives the benchmark.
 */
public final class RemoteHopChild
{
    private RemoteHopChild()
    {
    }

    /**
     * Runs the far side until standard input ends.
     *
     * @param args contender ({@code FRAMEWIRE} or {@code AERON_ECHO}), payload ({@code LONG} or
     *             {@code GRAY8_720P}), the channel it receives on, the channel it sends back on, the
     *             directory of the media driver to connect to (empty: a driver of its own).
     * @throws Exception to exit non-zero.
     */
    public static void main(final String[] args) throws Exception
    {
        final String contender = args[0];
        final boolean frames = args[1].equals("GRAY8_720P");
        final String in = args[2];
        final String back = args[3];
        final String aeronDir = args[4];
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        if (contender.equals("FRAMEWIRE"))
        {
            final GraphConfig config = GraphConfig.builder()
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.YIELD))
                .node("rx", n -> RemoteProcessHopBenchmark.subscriber(n.outputStream("mid"), in,
                    RemoteProcessHopBenchmark.S1, aeronDir))
                .node("tx", n -> RemoteProcessHopBenchmark.publisher(n.inputStream("mid"), back,
                    RemoteProcessHopBenchmark.S2, aeronDir))
                .build();
            try (Graph b = new Graph(config))
            {
                if (frames)
                {
                    b.pool().reserve(PixelFormat.GRAY8.frameBytes(RemoteProcessHopBenchmark.HEIGHT,
                        RemoteProcessHopBenchmark.WIDTH), 8);
                }
                b.start();
                out.println("READY");
                awaitEndOfInput();
                b.cancel();
            }
        }
        else
        {
            echo(in, back, aeronDir, out);
        }
        System.exit(0);
    }

    private static void echo(final String in, final String back, final String aeronDir, final PrintStream out)
        throws Exception
    {
        final Path dir = Files.createTempDirectory("bench-aeron-child-");
        // a driver of its own, or none (a null resource is skipped) to use the benchmark's
        try (MediaDriver driver = aeronDir.isEmpty() ? MediaDriver.launch(RemoteProcessHopBenchmark.driverContext(dir)) : null;
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver != null ?
                driver.aeronDirectoryName() : aeronDir));
            Subscription sub = aeron.addSubscription(in, RemoteProcessHopBenchmark.S1);
            ExclusivePublication pub = aeron.addExclusivePublication(back, RemoteProcessHopBenchmark.S2))
        {
            final AtomicBoolean running = new AtomicBoolean(true);
            final IdleStrategy offerWait = new YieldingIdleStrategy();
            final FragmentHandler forward = (buffer, offset, length, header) ->
            {
                while (pub.offer(buffer, offset, length) < 0 && running.get())
                {
                    offerWait.idle();
                }
            };
            final FragmentAssembler assembler = new FragmentAssembler(forward);
            final Thread echo = new Thread(() ->
            {
                final IdleStrategy wait = new YieldingIdleStrategy();
                while (running.get())
                {
                    wait.idle(sub.poll(assembler, 16));
                }
            }, "aeron-echo");
            echo.setDaemon(true);
            echo.start();
            out.println("READY");
            awaitEndOfInput();
            running.set(false);
            echo.join(10_000);
        }
        finally
        {
            IoUtil.delete(dir.toFile(), true);
        }
    }

    private static void awaitEndOfInput() throws Exception
    {
        while (System.in.read() != -1)
        {
            // nothing is sent: the benchmark only closes it
        }
    }
}
