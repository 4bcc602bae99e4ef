package dev.framewire.core.internal.run;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.OutputStream;

import java.util.List;

/**
 * What a run still holds once its workers have stopped: the nodes' lanes, staged outputs and
 * inputs, and the packets left in its queues.
 *
 * <p>Threading: the thread that stopped the workers, which then owns every node and queue.
 */
final class RunTeardown
{
    private RunTeardown()
    {
    }

    /** After the workers stop: closes what the nodes left open and releases every packet they hold. */
    static void releaseAfterStop(final Node[] nodes, final List<InputQueue> queues)
    {
        for (final Node node : nodes)
        {
            node.releaseLanes();
            node.closeAfterStop();
            node.releaseInputs();
            for (final OutputStream output : node.outputs)
            {
                output.discardStaged();
            }
        }
        for (final InputQueue queue : queues)
        {
            if (queue.consumer != null)
            {
                queue.drainAndRelease();
            }
        }
    }
}
