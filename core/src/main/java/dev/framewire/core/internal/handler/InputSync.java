package dev.framewire.core.internal.handler;

import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

import java.util.ArrayList;
import java.util.List;

/**
 * A node's input policy at run time: decides when the node is ready and fills its input set.
 * {@link #readiness()} is sticky, as MediaPipe's handlers are: once it has found an input set it
 * returns the same one until {@link #fill(long)} hands it over, so asking twice is harmless.
 *
 * <p>Threading: the node's worker only.
 */
public abstract class InputSync
{
    /** Readiness: nothing to do. */
    public static final long NOT_READY = Long.MIN_VALUE;
    /** Readiness: every input is done and empty. */
    public static final long READY_FOR_CLOSE = Long.MAX_VALUE;

    public final InputPort[] ports;
    public final boolean processBounds;

    public InputSync(final InputPort[] ports, final boolean processBounds)
    {
        this.ports = ports;
        this.processBounds = processBounds;
    }

    /**
     * The policy's implementation for a node's input ports.
     *
     * @param drops       where drops are counted (the node).
     * @param batchCursor the node's batch cursor, one entry per port (a batching policy's).
     */
    public static InputSync create(
        final InputPort[] ports, final DropSink drops, final int[] batchCursor, final InputPolicy policy,
        final boolean processBounds)
    {
        switch (policy.kind())
        {
            case IMMEDIATE:
            {
                final SyncGroup[] groups = new SyncGroup[ports.length];
                for (int i = 0; i < ports.length; i++)
                {
                    groups[i] = new SyncGroup(new InputPort[]{ports[i]});
                }
                return new ImmediateSync(ports, groups, processBounds);
            }
            case SYNC_SETS:
                return new SyncSetsSync(ports, syncGroups(ports, policy), processBounds);
            case MUX:
                return new MuxSync(ports, drops, processBounds);
            case BARRIER:
                return new BarrierSync(ports, processBounds);
            case TIMESTAMP_ALIGN:
                return new TimestampAlignSync(ports, policy.timestampBaseTagIndex(), processBounds);
            default:
                return SingleInputSync.covers(ports, policy, processBounds) ? new SingleInputSync(ports[0]) :
                    new DefaultSync(drops, batchCursor, ports, policy, processBounds);
        }
    }

    /** The configured groups, then one group of the inputs named in none (validated by GraphPlan). */
    private static SyncGroup[] syncGroups(final InputPort[] ports, final InputPolicy policy)
    {
        final List<SyncGroup> groups = new ArrayList<>();
        final boolean[] used = new boolean[ports.length];
        for (final List<String> keys : policy.syncSets())
        {
            final List<InputPort> members = new ArrayList<>();
            for (final String key : keys)
            {
                for (final InputPort port : ports)
                {
                    if (!used[port.index] && port.spec.matches(key))
                    {
                        used[port.index] = true;
                        members.add(port);
                    }
                }
            }
            groups.add(new SyncGroup(members.toArray(new InputPort[0])));
        }
        final List<InputPort> rest = new ArrayList<>();
        for (final InputPort port : ports)
        {
            if (!used[port.index])
            {
                rest.add(port);
            }
        }
        if (!rest.isEmpty())
        {
            groups.add(new SyncGroup(rest.toArray(new InputPort[0])));
        }
        return groups.toArray(new SyncGroup[0]);
    }

    /**
     * Whether the node has an input set, or is ready to close.
     *
     * @return a timestamp to process, {@link InputSync#NOT_READY} or {@link InputSync#READY_FOR_CLOSE}.
     */
    public abstract long readiness();

    /**
     * Fills the ports with the input set {@link #readiness()} found.
     *
     * @param timestamp what {@link #readiness()} returned.
     * @return the input set's timestamp (a policy may move it, as fixed-size does).
     */
    public abstract long fill(long timestamp);

    /** In a batch, after its first input set: the next one, without waiting for a whole batch. */
    public long nextInBatch()
    {
        return readiness();
    }

    /** How many ready input sets to process back to back in one run. */
    public int batchSize()
    {
        return 1;
    }

    /** The lowest timestamp that may still arrive on any input: where offsets propagate from. */
    public final long inputBound()
    {
        long min = Timestamp.DONE;
        for (final InputPort port : ports)
        {
            min = Math.min(min, port.queue.headOrBound());
        }
        return min;
    }

    /** Drops packets still queued (a node closing early), counting each on the node. */
    public final void dropAll(final DropSink node)
    {
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            long ts;
            while ((ts = queue.peekTimestamp()) != Timestamp.UNSET)
            {
                if (queue.dropHead())
                {
                    queue.wakeHeldBack();
                }
                node.dropped(queue.streamName, ts, "close");
            }
        }
    }
}
