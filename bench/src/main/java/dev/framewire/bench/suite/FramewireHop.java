package dev.framewire.bench.suite;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphInputHandle;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;

/** Framewire: graph input (added to through its handle), one {@code PassThroughCalculator} node, an observer on its output, one worker. */
final class FramewireHop implements Hop
{
    private final Graph graph;
    private final GraphInputHandle in;

    FramewireHop(final IdleKind idle, final int spinBeforeParkMicros, final Arrivals arrivals)
    {
        this(idle, spinBeforeParkMicros, Scheduling.PINNED, arrivals);
    }

    FramewireHop(final IdleKind idle, final int spinBeforeParkMicros, final Scheduling scheduling, final Arrivals arrivals)
    {
        graph = new Graph(GraphConfig.builder()
            .inputStream("in")
            .node("hop", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, idle).spinBeforeParkMicros(spinBeforeParkMicros)
                .scheduling(scheduling))
            .maxQueueSize(1024)
            .queueHardCap(4096)
            .build());
        graph.observe("out", packet -> arrivals.acceptSentAt(packet.getLong()));
        graph.start();
        in = graph.input("in");
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        return in.tryAddPacket(value, timestamp);
    }

    @Override
    public void close() throws Exception
    {
        Suite.closeGraph(graph);
    }
}
