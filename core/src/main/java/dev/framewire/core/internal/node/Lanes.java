package dev.framewire.core.internal.node;

/**
 * The {@link Lane}s of a node whose {@code max_in_flight} is above 1, used in turn: the node's
 * steps hand input sets out to free lanes and retire finished ones in the order they were handed
 * out, which is input-timestamp order. Everything that exists only for {@code max_in_flight} is
 * here, so that a node without lanes (its {@link Node#lanes} null) pays one null test per step
 * for it and nothing per packet.
 *
 * <p>Lanes {@code retired} (inclusive) to {@code dispatched} (exclusive), modulo their count, are
 * handed out or done and not yet retired.
 *
 * <p>Threading: {@link #retireAndHandOut()}, {@link #wantsToRun()} and {@link #retire()} from the
 * node's step (one at a time under its state machine, on whichever worker of the executor runs
 * it, see {@link SharedCalls}); {@link #releaseNotRetired()} from the thread that stopped the
 * workers, which then owns every node; {@link #inFlight()} from any thread, racily, for reports.
 * A lane itself changes hands as {@link Lane} says.
 */
public final class Lanes
{
    private final Node node;
    /** The executor's shared queues: a loaded lane goes there, for any of its workers to run. */
    private final SharedCalls shared;
    private final Lane[] lanes;
    /** Lanes handed out so far; written by the node's step only. */
    private long dispatched;
    /** Lanes retired (or released) so far; written by the node's step, or at the end the stopping thread. */
    private long retired;

    /**
     * Graph set-up, once the node has its ports: {@code calls} lanes, each with ports of its own.
     */
    public Lanes(final Node node, final SharedCalls shared, final int calls)
    {
        this.node = node;
        this.shared = shared;
        this.lanes = new Lane[calls];
        for (int i = 0; i < calls; i++)
        {
            lanes[i] = new Lane(node);
        }
    }

    /** The node's {@code max_in_flight}: how many calls may be in flight at once. */
    public int count()
    {
        return lanes.length;
    }

    /** Calls handed out and not yet retired; read racily by reports. */
    public long inFlight()
    {
        return dispatched - retired;
    }

    /**
     * Node step: retires the calls that finished, in order, then hands out input sets while lanes
     * are free. Closes the node only once no call is in flight, and moves an offset's bound only
     * then: a call in flight may still emit below it.
     */
    void retireAndHandOut()
    {
        retire();
        final Node node = this.node;
        final Lane[] lanes = this.lanes;
        while (node.lifecycle == Node.OPEN && !node.runState.isStopping() && dispatched - retired < lanes.length &&
            !node.isThrottled())
        {
            final long ready = node.readiness();
            if (ready == Node.READY_FOR_CLOSE)
            {
                if (dispatched == retired)
                {
                    node.close();
                }
                return;
            }
            if (ready == Node.NOT_READY)
            {
                if (node.hasOffset && dispatched == retired)
                {
                    OffsetBounds.propagate(node);
                }
                return;
            }
            final Lane lane = lanes[(int)(dispatched % lanes.length)];
            lane.load(node.sync.fill(ready));
            dispatched++;
            Node.CALLS.setOpaque(node, node.calls + 1);
            shared.offer(lane);
        }
    }

    /** Node step, the node open: whether a step has work (a call to retire, or an input set and a free lane). */
    boolean wantsToRun()
    {
        if (retired != dispatched && lanes[(int)(retired % lanes.length)].isDone())
        {
            return true;
        }
        if (dispatched - retired >= lanes.length || node.isThrottled())
        {
            return false; // the next call to finish schedules the node again
        }
        final long ready = node.readiness();
        return ready != Node.NOT_READY && (ready != Node.READY_FOR_CLOSE || dispatched == retired);
    }

    /**
     * Node step: retires finished calls in the order they were handed out, delivering what each
     * emitted; stops at the first still running. A node no longer open releases them instead.
     */
    void retire()
    {
        final Lane[] lanes = this.lanes;
        while (retired != dispatched && !node.runState.isStopping())
        {
            final Lane lane = lanes[(int)(retired % lanes.length)];
            if (!lane.isDone())
            {
                return;
            }
            retired++;
            retire(lane);
        }
    }

    private void retire(final Lane lane)
    {
        final Node node = this.node;
        final long timestamp = lane.timestamp;
        // its input timestamp and time in process become the node's (opaque stores, as a step's)
        Node.INPUT_TIMESTAMP.setOpaque(node, timestamp);
        if (lane.callNanos != 0)
        {
            Node.CALL_NANOS.setOpaque(node, node.callNanos + lane.callNanos);
        }
        for (int i = lane.drops; i > 0; i--)
        {
            node.dropped("", timestamp, "calculator");
        }
        if (node.lifecycle != Node.OPEN)
        {
            lane.release(); // failed or blocked meanwhile: a later call's results go nowhere
            return;
        }
        final Throwable failure = lane.failure;
        final int packets = lane.inputPackets();
        if (failure != null)
        {
            lane.release();
            node.runState.onNodeFailure(node, timestamp, failure, packets, false);
            return;
        }
        try
        {
            lane.replay();
            if (node.hasOffset)
            {
                OffsetBounds.follow(node, timestamp);
            }
            node.flushOutputs();
        }
        catch (final Throwable t)
        {
            NodeLifecycle.onFailure(node, timestamp, t, packets);
        }
    }

    /** The thread that stopped the workers: releases the calls not retired. */
    void releaseNotRetired()
    {
        final Lane[] lanes = this.lanes;
        for (; retired != dispatched; retired++)
        {
            lanes[(int)(retired % lanes.length)].release();
        }
    }
}
