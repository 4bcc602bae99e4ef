package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.PollerSignal;
import dev.framewire.core.internal.stream.OutputStream;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's output pollers' queues: each made before the start and attached to its stream's producer,
 * woken when the run stops, and drained when the run closes, after its poller let go of the packet it
 * held. One per {@link Run}.
 *
 * <p>Threading: {@link #add} by the run's owner before the start; {@link #wake} from whichever thread
 * stops the run; {@link #release} by the closing thread once the workers have stopped; {@link #queues}
 * from any thread once the run has started (reports).
 */
final class RunPollers
{
    private final GraphConfig config;
    private final GraphPlan plan;
    private final List<InputQueue> queues = new ArrayList<>();
    private final List<Runnable> releases = new ArrayList<>();

    RunPollers(final GraphConfig config, final GraphPlan plan)
    {
        this.config = config;
        this.plan = plan;
    }

    /**
     * Before the start: a poller's queue on {@code stream}, attached to its producer and to
     * {@code into} (the scheduler's queues).
     *
     * @param producerNode   the node producing the stream, or null for a graph input.
     * @param releaseCurrent lets go of the packet the poller holds, at close.
     */
    InputQueue add(
        final String stream, final OutputStream producer, final Node producerNode, final List<InputQueue> into,
        final Runnable releaseCurrent)
    {
        final InputQueue queue = new InputQueue(stream, producerNode, null, -1, false,
            config.queueHardCap(), plan.queueLimit(stream), 1);
        queue.poller = new PollerSignal();
        RunAssembler.attach(producer, queue, into);
        queues.add(queue);
        releases.add(releaseCurrent);
        return queue;
    }

    /** The pollers' queues, in the order they were made. */
    List<InputQueue> queues()
    {
        return queues;
    }

    /** The run stops: every poller waiting for a packet is woken to see it. */
    void wake()
    {
        for (final InputQueue queue : queues)
        {
            queue.poller.wake();
        }
    }

    /** The run closes, its workers stopped: each poller lets its packet go, and its queue is drained. */
    void release()
    {
        for (int i = 0; i < queues.size(); i++)
        {
            releases.get(i).run();
            queues.get(i).drainAndRelease();
        }
    }
}
