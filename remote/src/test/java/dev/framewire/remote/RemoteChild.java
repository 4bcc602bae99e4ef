package dev.framewire.remote;

import dev.framewire.core.Graph;
import dev.framewire.offheap.Payload;
import org.agrona.DirectBuffer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The receiving side of {@link TwoProcessTest}, in a JVM of its own: subscribes to a channel and
 * stream id and prints, one line each, its driver's directory ({@code DIR path}), every frame
 * ({@code FRAME ts crc32c}), every status ({@code STATUS kind lost}) and the end ({@code DONE frames}). Exits 0 when the stream closes.
 */
public final class RemoteChild
{
    private RemoteChild()
    {
    }

    /**
     * Runs the receiver.
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
        final long[] frames = new long[1];
        try (Graph receiver = new Graph(RemoteTestSupport.subscriber(channel, streamId)))
        {
            receiver.observe("out", p ->
            {
                out.println("FRAME " + p.timestamp() + " " + crc(p.payload()));
                frames[0]++;
            });
            receiver.observe("status", p ->
            {
                final RemoteStatus status = p.get(RemoteStatus.class);
                out.println("STATUS " + status.kind() + " " + status.lost());
            });
            receiver.start();
            receiver.waitUntilDone();
        }
        finally
        {
            driver.release();
        }
        out.println("DONE " + frames[0]);
    }

    static long crc(final Payload payload)
    {
        final CRC32C crc = new CRC32C();
        final DirectBuffer buffer = payload.buffer();
        for (int i = 0; i < payload.length(); i++)
        {
            crc.update(buffer.getByte(i));
        }
        return crc.getValue();
    }
}
