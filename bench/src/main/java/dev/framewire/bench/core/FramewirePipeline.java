package dev.framewire.bench.core;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.PacketObserver;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;

import java.util.concurrent.TimeUnit;

/**
 * A Framewire graph of {@code stages} {@code PassThroughCalculator} nodes in a line, graph input
 * {@code in} to an observer on {@code out}, every node on the default executor with the given
 * workers and idle strategy.
 */
final class FramewirePipeline implements Pipeline
{
    static final String IN = "in";
    static final String OUT = "out";

    private final Graph graph;

    FramewirePipeline(final int stages, final int workers, final IdleKind idle, final int maxQueueSize,
        final int queueHardCap, final boolean payloads, final Sink sink)
    {
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream(IN)
            .outputStream(OUT)
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, idle))
            .maxQueueSize(maxQueueSize)
            .queueHardCap(queueHardCap);
        String upstream = IN;
        for (int i = 0; i < stages; i++)
        {
            final String in = upstream;
            final String out = i == stages - 1 ? OUT : "s" + i;
            builder.node("pass" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out));
            upstream = out;
        }
        graph = new Graph(builder.build());
        // The observer borrows a payload for its call; the engine releases it after (no consumer).
        final PacketObserver observer = payloads ?
            packet -> sink.accept(packet.payload().buffer().getLong(0)) :
            packet -> sink.accept(packet.getLong());
        graph.observe(OUT, observer);
        graph.start();
    }

    @Override
    public void sendLong(final long value, final long timestamp) throws InterruptedException
    {
        graph.addPacket(IN, value, timestamp);
    }

    @Override
    public void sendPayload(final Payload payload, final long timestamp) throws InterruptedException
    {
        graph.addPacket(IN, payload, timestamp);
    }

    @Override
    public boolean offerLong(final long value, final long timestamp)
    {
        return graph.tryAddPacket(IN, value, timestamp);
    }

    @Override
    public boolean offerPayload(final Payload payload, final long timestamp)
    {
        return graph.tryAddPacket(IN, payload, timestamp);
    }

    @Override
    public String describe()
    {
        try
        {
            if (graph.awaitDone(0, TimeUnit.NANOSECONDS))
            {
                graph.waitUntilDone();
                return "the graph finished early";
            }
            return graph.report();
        }
        catch (final Exception ex)
        {
            return ex.toString();
        }
    }

    @Override
    public PayloadPool pool()
    {
        return graph.pool();
    }

    @Override
    public void close() throws Exception
    {
        try
        {
            graph.closeAllInputs();
            if (!graph.awaitDone(30, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("graph did not finish within 30 s:\n" + graph.report());
            }
            graph.waitUntilDone();
        }
        finally
        {
            graph.close(); // its own pool: throws listing any payload still held
        }
    }
}
