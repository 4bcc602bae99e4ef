package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * The child JVM of {@link JvmFlagsTest}, started without some of the flags of
 * {@code .mvn/jvm.config}: builds a one-node graph (carrying long packets or off-heap payloads, as
 * asked), starts it and runs ten packets through. Prints {@code REFUSED <message>} and exits 3
 * when start refuses, {@code RAN} and exits 0 when the run completes.
 *
 * <p>Arguments: {@code plain} (long packets) or {@code payload} (off-heap payloads). The journal's
 * flags are tested in framewire-journal ({@code JournalJvmFlagsChild}).
 */
public final class JvmFlagsChild
{
    private JvmFlagsChild()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final String what = args[0];
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("in")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out");
        try (Graph graph = new Graph(builder.build()))
        {
            try
            {
                graph.start();
            }
            catch (final IllegalStateException ex)
            {
                System.out.println("REFUSED " + ex.getMessage());
                System.out.flush();
                System.exit(3);
            }
            for (int ts = 0; ts < 10; ts++)
            {
                if (what.equals("payload"))
                {
                    final Payload payload = graph.pool().acquire(64);
                    payload.mutableBuffer().putLong(0, ts);
                    graph.addPacket("in", payload, ts);
                }
                else
                {
                    graph.addPacket("in", (long)ts, ts);
                }
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        System.out.println("RAN");
    }
}
