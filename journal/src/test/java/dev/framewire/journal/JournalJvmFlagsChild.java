package dev.framewire.journal;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;

import java.nio.file.Path;

/**
 * The child JVM of {@link JournalJvmFlagsTest}: a one-node graph journaled into the directory given
 * as its argument, started and run with ten packets. Prints {@code REFUSED <message>} and exits 3
 * when start refuses, {@code RAN} and exits 0 when the run completes.
 */
public final class JournalJvmFlagsChild
{
    private JournalJvmFlagsChild()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("pass", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(Path.of(args[0])))
            .build();
        try (Graph graph = new Graph(config))
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
                graph.addPacket("in", (long)ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        System.out.println("RAN");
    }
}
