package dev.framewire.core.internal.node;

import dev.framewire.core.internal.handler.SingleInputSync;
import dev.framewire.core.internal.stream.InputPort;

import java.util.Set;

/**
 * Who hands a node its input, decided once before the run starts, when every node has its worker,
 * its ports and its input policy: whether only the node's own worker ever schedules it (its
 * schedule state may then be local, {@link ScheduleState#makeLocal()}), whether every packet it
 * takes is emitted on that worker ({@link Node#inputsFromItsWorker}), and whether its one input is
 * handed over by another thread ({@link Node#oneInputHandedOver}). Stateless; nothing here runs
 * once the run has started.
 *
 * <p>Threading: the thread that starts the run, before any worker does.
 */
public final class NodeFeeds
{
    private NodeFeeds()
    {
    }

    /**
     * Whether only {@code node}'s own worker ever needs to schedule it, so that its state may be
     * local ({@link ScheduleState#makeLocal()}). True when it is pinned to a worker (no
     * {@code max_in_flight}), not a source, not part of a subgraph added at run time, every input
     * is fed by a node pinned to the same worker or by a graph input that worker polls (never one
     * whose adder schedules the node), and no full queue wakes it (BMF backpressure,
     * {@code heldBackNodes}).
     */
    public static boolean schedulesOnlyFromItsWorker(final Node node, final Set<Node> heldBackNodes)
    {
        if (node.isSource || node.shared != null || node.worker == null || node.subgraph != null ||
            heldBackNodes.contains(node))
        {
            return false;
        }
        for (final InputPort port : node.inputs)
        {
            final Node producer = (Node)port.queue.producer;
            if (producer == null ? !port.queue.polled : producer.shared != null || producer.worker != node.worker)
            {
                // a graph input's queue that this worker polls is fine: the adder neither claims nor
                // schedules the node (OutputStream.notifyConsumers skips it), the worker's poll does
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every packet {@code node} takes is emitted on its own worker, so that no other thread
     * hands it anything. True when it has inputs, is pinned to a worker (no {@code max_in_flight})
     * and every input is fed by a node pinned to the same worker; a graph input's packets come from
     * its adder's thread, even when the worker polls them.
     */
    public static boolean inputsAllFromItsWorker(final Node node)
    {
        if (node.isSource || node.shared != null || node.worker == null || node.inputs.length == 0)
        {
            return false;
        }
        for (final InputPort port : node.inputs)
        {
            final Node producer = (Node)port.queue.producer;
            if (producer == null || producer.shared != null || producer.worker != node.worker)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * After {@link #inputsAllFromItsWorker} set {@link Node#inputsFromItsWorker} and
     * {@link Node#initInputs()} made the policy: whether {@code node} takes one input
     * ({@link SingleInputSync}) that another thread hands over, on its own worker only (see
     * {@link Node#oneInputHandedOver}).
     */
    public static boolean oneInputFromAnotherThread(final Node node)
    {
        return !node.inputsFromItsWorker && !node.isSource && node.shared == null && node.worker != null &&
            node.solo != null;
    }
}
