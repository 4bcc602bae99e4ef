package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.InputPort;

/**
 * The sync-set policy (MediaPipe's SyncSetInputStreamHandler): each group settles like default
 * on its own; of the groups ready, the one with the earliest timestamp is processed (ties: the
 * first configured) and the others carry their bounds. A group whose inputs are all done leaves;
 * the node closes when every group has left.
 *
 * <p>Threading: the node's worker only.
 */
public final class SyncSetsSync extends InputSync
{
    private final SyncGroup[] groups;
    private final boolean[] closed;
    private int open;
    private int readyGroup = -1;
    private long readyTimestamp = Timestamp.DONE;

    public SyncSetsSync(final InputPort[] ports, final SyncGroup[] groups, final boolean processBounds)
    {
        super(ports, processBounds);
        this.groups = groups;
        this.closed = new boolean[groups.length];
        this.open = groups.length;
    }

    @Override
    public long readiness()
    {
        if (readyGroup >= 0)
        {
            return readyTimestamp;
        }
        for (int i = 0; i < groups.length; i++)
        {
            if (closed[i])
            {
                continue;
            }
            final long r = groups[i].readiness(processBounds);
            if (r == InputSync.READY_FOR_CLOSE)
            {
                closed[i] = true;
                open--;
            }
            else if (r != InputSync.NOT_READY && r < readyTimestamp)
            {
                readyTimestamp = r;
                readyGroup = i;
            }
        }
        if (readyGroup >= 0)
        {
            return readyTimestamp;
        }
        return open == 0 ? InputSync.READY_FOR_CLOSE : InputSync.NOT_READY;
    }

    @Override
    public long fill(final long timestamp)
    {
        groups[readyGroup].fill(timestamp);
        for (int i = 0; i < groups.length; i++)
        {
            if (i != readyGroup)
            {
                groups[i].fillBounds();
            }
        }
        readyGroup = -1;
        readyTimestamp = Timestamp.DONE;
        return timestamp;
    }
}
