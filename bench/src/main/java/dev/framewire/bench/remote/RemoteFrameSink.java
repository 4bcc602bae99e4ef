package dev.framewire.bench.remote;

import dev.framewire.core.Graph;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The receiving graph of {@link RemoteFrameThroughputBenchmark}'s {@code UDP_PROCESSES}, in a JVM
 * of its own ({@link ChildJvm}) with its own embedded media driver: subscribes to the channel it is
 * given and counts the frames that arrive ({@link FrameArrivals}). Prints {@code READY} once it
 * listens, answers each line of its standard input with what arrived so far, and ends when its
 * standard input does.
 */
public final class RemoteFrameSink
{
    private RemoteFrameSink()
    {
    }

    /**
     * Runs the receiving graph until standard input ends.
     *
     * @param args the channel to receive on.
     * @throws Exception to exit non-zero.
     */
    public static void main(final String[] args) throws Exception
    {
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        final FrameArrivals arrivals = new FrameArrivals();
        try (Graph b = new Graph(RemoteFrameThroughputBenchmark.receiver(args[0])))
        {
            arrivals.observe(b);
            b.pool().reserve(RemoteFrameThroughputBenchmark.FRAME_BYTES, 12);
            b.start();
            out.println("READY");
            final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            while (in.readLine() != null)
            {
                out.println(arrivals.line());
            }
            b.cancel();
        }
        System.exit(0);
    }
}
