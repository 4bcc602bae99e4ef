package dev.framewire.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Keeps the README's embedding example compiling and working: the same lines, with the print
 * replaced by a check.
 */
class ReadmeExampleTest
{
    @Test
    @Timeout(30)
    void embeddingExampleRuns() throws Exception
    {
        final AtomicLong sum = new AtomicLong();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("scale", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .maxQueueSize(32)
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", packet -> sum.addAndGet(packet.getLong()));
            final GraphInputHandle in = graph.input("in");
            graph.start();
            for (long ts = 0; ts < 100; ts++)
            {
                in.addPacket(ts * ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(328350, sum.get());
    }
}
