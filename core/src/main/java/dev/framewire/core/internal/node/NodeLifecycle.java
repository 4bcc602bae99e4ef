package dev.framewire.core.internal.node;

import dev.framewire.core.FailurePolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.core.journal.JournalSink;

/**
 * A node's lifecycle and failure state machine ({@link Node#lifecycle}): its open and close, and its
 * ways out of the run other than its own close: a failed call, isolation under {@code ISOLATE}
 * (failed or blocked), cancellation with its removed subgraph, the close after a failed or
 * cancelled run, and the packets each leaves behind. The state these move (the lifecycle, the
 * outputs, the inputs' queues) is the node's; this class holds none. None of it is on the
 * per-packet path: a {@link Node} step gets here when it opens or closes, when a call threw, or
 * when the node is leaving the run.
 *
 * <p>Threading: the node's worker, except {@link #closeAfterStop}, called by the thread that
 * stopped the workers.
 */
final class NodeLifecycle
{
    private NodeLifecycle()
    {
    }

    /** Worker, a step of an unopened node whose side packets are all set: the calculator's {@code open}. */
    static void open(final Node node)
    {
        Node.INPUT_TIMESTAMP.setOpaque(node, Timestamp.UNSTARTED); // its call is the calculator's open
        NodeCalls.journalBegin(node, false);
        try
        {
            node.calculator.open(node);
            // packets emitted in open() go out like any call's (MediaPipe's UnitDelayCalculator
            // primes a loop this way); consumers get them once they are open themselves
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            node.onFailure(Timestamp.UNSTARTED, t);
            return;
        }
        finally
        {
            NodeCalls.journalEnd(node);
        }
        node.lifecycle = Node.OPEN;
        node.runState.onNodeOpened(node);
    }

    /**
     * Worker: the node closes (its inputs are done, it asked to stop, or its run's sources closed):
     * what is still queued is dropped, the calculator's {@code close} runs and its outputs close. A
     * failed close goes to the failure policy; when the run goes on, the node still closes.
     */
    static void close(final Node node)
    {
        if (!node.isSource)
        {
            node.sync.dropAll(node); // early close: what is still queued will never be processed
        }
        Node.INPUT_TIMESTAMP.setOpaque(node, Timestamp.DONE); // done with input timestamps
        NodeCalls.journalBegin(node, false);
        try
        {
            node.calculator.close(node);
            for (final OutputStream output : node.outputs)
            {
                output.close();
            }
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            node.onFailure(Timestamp.DONE, t);
            if (node.runState.failurePolicy() == FailurePolicy.FAIL_RUN || node.lifecycle != Node.OPEN)
            {
                return;
            }
            // The run goes on: this node still closes, its outputs with it.
            for (final OutputStream output : node.outputs)
            {
                output.close();
            }
            flushQuietly(node);
        }
        finally
        {
            NodeCalls.journalEnd(node);
        }
        node.lifecycle = Node.CLOSED;
        node.runState.onNodeClosed(node);
    }

    /**
     * Worker: after a failure under DROP_TIMESTAMP, the input set at {@code timestamp} is dropped:
     * output bounds move past it so nothing downstream waits for it.
     */
    static void dropTimestamp(final Node node, final long timestamp)
    {
        final long next = Timestamp.nextAllowedInStream(timestamp);
        for (final OutputStream output : node.outputs)
        {
            output.setNextTimestampBound(next);
        }
        flushQuietly(node);
    }

    /**
     * Worker: the node is failed or blocked for the rest of the run (ISOLATE). Its calculator is
     * closed (what it emits is released), what is queued for it is released, its outputs close so
     * consumers still fed elsewhere go on, and it counts as finished.
     */
    static void isolate(final Node node, final int state)
    {
        final boolean wasOpen = node.lifecycle == Node.OPEN;
        final boolean wasUnopened = node.lifecycle == Node.UNOPENED;
        node.lifecycle = state;
        if (wasUnopened)
        {
            node.runState.onNodeOpened(node); // counts as opened, so that sources are not held back for it
        }
        releaseQueued(node);
        for (final OutputStream output : node.outputs)
        {
            output.discarding = true;
        }
        if (wasOpen)
        {
            closeCalculator(node);
        }
        for (final OutputStream output : node.outputs)
        {
            output.discardStaged();
            output.close();
        }
        flushQuietly(node);
        node.runState.onNodeClosed(node);
    }

    /**
     * Worker: its subgraph is being removed and cancelled ({@code Graph#removeSubgraph}). As
     * {@link #isolate}, but each packet still queued, and each packet the calculator's
     * {@code close} emits, is counted as dropped: none is lost uncounted.
     */
    static void cancelForRemoval(final Node node)
    {
        final int life = node.lifecycle;
        node.lifecycle = Node.CLOSED;
        if (life == Node.UNOPENED)
        {
            node.runState.onNodeOpened(node); // counts as opened, as an isolated node does
        }
        node.releaseInputs();
        node.sync.dropAll(node);
        if (life == Node.OPEN)
        {
            closeCalculator(node);
        }
        for (final OutputStream output : node.outputs)
        {
            final int staged = output.stagedCount();
            if (staged > 0)
            {
                node.drops = node.drops + staged;
            }
            output.discardStaged();
            output.close();
        }
        flushQuietly(node);
        node.runState.onNodeClosed(node);
    }

    /**
     * The node's worker, once every node of its removed subgraph has closed: releases and counts
     * what is still queued on its inputs (a packet a producer delivered after the node closed).
     */
    static void releaseAfterRemoval(final Node node)
    {
        node.releaseInputs();
        node.sync.dropAll(node);
        for (final InputPort port : node.inputs)
        {
            port.queue.handOutRoomForGood();
        }
        for (final OutputStream output : node.outputs)
        {
            output.discardStaged();
        }
    }

    /** Worker: releases every packet queued on the node's inputs. */
    static void releaseQueued(final Node node)
    {
        final Lanes lanes = node.lanes;
        if (lanes != null)
        {
            lanes.retire(); // the node is no longer open: each finished call is released
        }
        node.releaseInputs();
        for (final InputPort port : node.inputs)
        {
            final InputQueue queue = port.queue;
            long ts;
            while ((ts = queue.peekTimestamp()) != Timestamp.UNSET)
            {
                if (queue.dropHead())
                {
                    queue.wakeHeldBack();
                }
                final JournalSink journal = node.runState.journal();
                if (journal != null)
                {
                    journal.drop(node.runningOn.id(), node.id, node.runState.streamId(queue.streamName), ts,
                        JournalSink.FAILURE);
                }
            }
        }
    }

    /**
     * Worker: a call failed. Its input set is released and what it emitted is discarded (or, for a
     * source cut short at the hard limit under DROP_OLDEST, delivered); then the failure policy.
     *
     * @param inputPackets packets of the failed call's input set, counted before they were released.
     */
    static void onFailure(final Node node, final long timestamp, final Throwable cause, final int inputPackets)
    {
        node.releaseInputs();
        int staged = 0;
        for (final OutputStream output : node.outputs)
        {
            staged += output.stagedCount();
        }
        final boolean delivered = node.runState.keepsStaged(node, cause);
        if (delivered)
        {
            flushQuietly(node);
        }
        else
        {
            for (final OutputStream output : node.outputs)
            {
                output.discardStaged();
            }
        }
        // what the failure loses: a node's input set; a source's shipment, unless it went out
        final boolean isSource = node.isSource;
        node.runState.onNodeFailure(node, isSource ? SourceRetry.failedAt(timestamp, node.outputs) : timestamp, cause,
            isSource ? (delivered ? 0 : staged) : inputPackets,
            delivered && staged > 0);
    }

    /** Worker: packets of the input set the node's ports hold now. */
    static int inputPackets(final InputPort[] inputs)
    {
        int packets = 0;
        for (final InputPort port : inputs)
        {
            if (!port.isEmpty())
            {
                packets++;
            }
        }
        return packets;
    }

    /**
     * Closes the calculator after a failed or cancelled run, if it was opened and not closed:
     * what it emits is released, not delivered.
     */
    static void closeAfterStop(final Node node)
    {
        if (node.lifecycle != Node.OPEN)
        {
            return;
        }
        node.lifecycle = Node.CLOSED;
        closeCalculator(node);
        for (final OutputStream output : node.outputs)
        {
            output.discardStaged();
        }
    }

    /** The calculator's {@code close} of a node leaving the run: a throw is recorded, not acted on. */
    private static void closeCalculator(final Node node)
    {
        Node.INPUT_TIMESTAMP.setOpaque(node, Timestamp.DONE); // done with input timestamps
        try
        {
            node.calculator.close(node);
        }
        catch (final Throwable t)
        {
            node.runState.recordFailure(node.name, Timestamp.DONE, t);
        }
    }

    /** Worker: flushes the node's outputs on a way out of the run; a failure is recorded, not handled again. */
    private static void flushQuietly(final Node node)
    {
        try
        {
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            node.runState.recordFailure(node.name, node.inputTimestamp, t);
        }
    }
}
