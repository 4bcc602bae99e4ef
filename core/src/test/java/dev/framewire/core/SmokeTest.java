package dev.framewire.core;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SmokeTest
{
    @Test
    void passThroughChain() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .build();
        final List<Long> seen = new ArrayList<>();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> seen.add(p.timestamp() * 1000 + p.getLong()));
            graph.start();
            for (long ts = 0; ts < 1000; ts++)
            {
                graph.addPacket("in", ts * 2, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(1000, seen.size());
        assertEquals(999 * 1000 + 1998, seen.get(999));
    }

    @Test
    void sourceWithPayloadsAndPoller() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("n").option("count", 500))
            .node("frames", n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void process(final CalculatorContext ctx)
                {
                    final Payload p = ctx.pool().acquireFrame(8, 8, PixelFormat.GRAY8);
                    p.mutableBuffer().putLong(0, ctx.input(0).getLong());
                    ctx.output(0).add(p, ctx.inputTimestamp());
                }
            }).inputStream("n").outputStream("f"))
            .outputStream("f")
            .build();
        long sum = 0;
        int count = 0;
        try (Graph graph = new Graph(config))
        {
            final OutputPoller poller = graph.poller("f");
            graph.start();
            while (poller.next(5, TimeUnit.SECONDS))
            {
                sum += poller.packet().payload().buffer().getLong(0);
                count++;
            }
            assertTrue(poller.isDone());
            graph.waitUntilDone();
        }
        assertEquals(500, count);
        assertEquals(499L * 500 / 2, sum);
    }

    @Test
    void failureNamesNode() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("boom", n -> n.calculator(() -> ctx ->
            {
                if (ctx.inputTimestamp() == 3)
                {
                    throw new IllegalStateException("bad frame");
                }
            }).inputStream("in"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 10; ts++)
            {
                try
                {
                    graph.addPacket("in", ts, ts);
                }
                catch (final IllegalStateException ended)
                {
                    break;
                }
            }
            final GraphException ex = assertThrows(GraphException.class, graph::waitUntilDone);
            assertEquals("boom", ex.failures().get(0).node());
            assertEquals(3, ex.failures().get(0).timestamp());
        }
    }
}
