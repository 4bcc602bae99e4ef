package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.MutableDirectBuffer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The publishing side of {@link TwoProcessTest}'s publisher-killed test, in a JVM of its own:
 * publishes 320x240 GRAY8 frames under {@code DROP}, one every 2 ms, until it is killed, and prints
 * its driver's directory ({@code DIR path}) and every frame before it goes ({@code SENT ts crc32c}).
 */
public final class RemotePublisherChild
{
    static final int WIDTH = 320;
    static final int HEIGHT = 240;

    private RemotePublisherChild()
    {
    }

    /**
     * Runs the publisher until the process is killed.
     *
     * @param args channel, stream id.
     * @throws Exception to exit non-zero.
     */
    public static void main(final String[] args) throws Exception
    {
        final String channel = args[0];
        final int streamId = Integer.parseInt(args[1]);
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        final RemoteDriver driver = RemoteDriver.acquire("", "SHARED", "child");
        out.println("DIR " + driver.directory());
        try (Graph sender = new Graph(RemoteTestSupport.publisher(channel, streamId,
            n -> n.option("mtu", 8192L).option("policy", "DROP"))))
        {
            sender.start();
            final GraphInputHandle in = sender.input("in");
            for (long ts = 0; ; ts++)
            {
                final Payload p = frame(sender, ts);
                out.println("SENT " + ts + " " + RemoteChild.crc(p));
                in.addPacket(p, ts);
                Thread.sleep(2); // paced, a camera's way
            }
        }
        finally
        {
            driver.release();
        }
    }

    /** A GRAY8 frame of pseudo-random bytes seeded by {@code ts}, from {@code graph}'s pool. */
    static Payload frame(final Graph graph, final long ts)
    {
        final Payload p = graph.pool().acquireFrame(WIDTH, HEIGHT, PixelFormat.GRAY8);
        final MutableDirectBuffer b = p.mutableBuffer();
        long x = ts * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < p.length(); i += 8)
        {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.putLong(i, x);
        }
        return p;
    }
}
