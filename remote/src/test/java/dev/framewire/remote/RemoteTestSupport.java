package dev.framewire.remote;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.NodeConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the remote tests share: channels on loopback, fresh stream ids, the publisher and subscriber
 * graphs (YIELD/PARK workers only: the machines have two cores), and bounded waits.
 */
final class RemoteTestSupport
{
    /** Each test gets stream ids of its own, so that a lingering publication of another is never heard. */
    private static final AtomicInteger STREAM_IDS = new AtomicInteger(2000);

    /** The transports the in-JVM tests run over. */
    enum Transport
    {
        IPC, UDP
    }

    private RemoteTestSupport()
    {
    }

    /**
     * The link key the tests' network channels use: one owner-only file under {@code target/},
     * made by the first test that needs it, read by child JVMs too (they share the working directory).
     */
    static String keyFile()
    {
        final java.nio.file.Path file = java.nio.file.Paths.get("target", "test-link.key").toAbsolutePath();
        synchronized (RemoteTestSupport.class)
        {
            if (!java.nio.file.Files.exists(file))
            {
                try
                {
                    java.nio.file.Files.createDirectories(file.getParent());
                    RemoteKey.generate(file);
                }
                catch (final UncheckedIOException | IOException ex)
                {
                    if (!java.nio.file.Files.exists(file)) // another JVM may have made it meanwhile
                    {
                        throw new IllegalStateException(ex);
                    }
                }
            }
        }
        return file.toString();
    }

    /** The options a network channel needs (its key); none for IPC. */
    static void secure(final NodeConfig.Builder n, final String channel)
    {
        if (!channel.startsWith("aeron:ipc"))
        {
            n.option("key_file", keyFile());
        }
    }

    static int streamId()
    {
        return STREAM_IDS.addAndGet(10);
    }

    static String channel(final Transport transport)
    {
        return transport == Transport.IPC ? "aeron:ipc" : "aeron:udp?endpoint=127.0.0.1:" + freeUdpPort();
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

    /** A graph input {@code in} published by node {@code tx}; more options by {@code setup}. */
    static GraphConfig publisher(final String channel, final int streamId, final Consumer<NodeConfig.Builder> setup)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .node("tx", n ->
            {
                n.calculator(AeronPublisherCalculator.NAME).inputStream("in")
                    .option("channel", channel).option("stream_id", (long)streamId)
                    .option("term_length", 4L * 1024 * 1024);
                secure(n, channel);
                setup.accept(n);
            })
            .build();
    }

    /** Node {@code rx} giving the remote stream as {@code out} and its status as {@code status}. */
    static GraphConfig subscriber(final String channel, final int streamId)
    {
        return subscriber(channel, streamId, n -> { });
    }

    /** Node {@code rx} as {@link #subscriber(String, int)}, more options by {@code setup}. */
    static GraphConfig subscriber(final String channel, final int streamId, final Consumer<NodeConfig.Builder> setup)
    {
        return GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .executor("rx", ExecutorConfig.of(1, IdleKind.PARK))
            .node("rx", n ->
            {
                n.calculator(AeronSubscriberCalculator.NAME).executor("rx")
                    .outputStream("out", "STATUS:status")
                    .option("channel", channel).option("stream_id", (long)streamId);
                secure(n, channel);
                setup.accept(n);
            })
            .outputStream("out", "status")
            .build();
    }

    static void await(final String what, final long timeoutMillis, final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    /**
     * Records each call of a default-policy node with two inputs as "ts:AB", A and B each 1 when
     * that input had a packet, 0 when only settled by its bound.
     */
    static final class JoinRecorder implements Calculator
    {
        private final Queue<String> calls;

        JoinRecorder(final Queue<String> calls)
        {
            this.calls = calls;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            calls.add(ctx.inputTimestamp() + ":" + (ctx.input(0).isEmpty() ? 0 : 1) + (ctx.input(1).isEmpty() ? 0 : 1));
        }
    }
}
