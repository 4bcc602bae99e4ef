package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.InputPort;

/**
 * The immediate policy (MediaPipe's ImmediateInputStreamHandler): one sync group per input. The
 * lowest timestamp any group is ready at is processed, with every group ready at exactly that
 * timestamp filled and the rest carrying their bounds. A group found ready stays ready (sticky)
 * until handed over. As in MediaPipe, when an input becomes done without bound-only processing,
 * the node is called once more with every input empty (kept for compatibility with calculators
 * written for MediaPipe).
 *
 * <p>Threading: the node's worker only.
 */
public final class ImmediateSync extends InputSync
{
    private final SyncGroup[] groups;
    private final long[] ready;

    public ImmediateSync(final InputPort[] ports, final SyncGroup[] groups, final boolean processBounds)
    {
        super(ports, processBounds);
        this.groups = groups;
        this.ready = new long[groups.length];
        java.util.Arrays.fill(ready, Timestamp.UNSET);
    }

    @Override
    public long readiness()
    {
        long input = Timestamp.DONE;
        long minBound = Timestamp.DONE;
        boolean becameDone = false;
        final long donePreceding = Timestamp.previousAllowedInStream(Timestamp.DONE);
        for (int i = 0; i < groups.length; i++)
        {
            if (ready[i] > Timestamp.UNSET)
            {
                minBound = Math.min(minBound, ready[i]);
                input = Math.min(input, ready[i]);
                continue;
            }
            final SyncGroup group = groups[i];
            final long previous = group.lastProcessed;
            final long r = group.readiness(processBounds);
            minBound = Math.min(minBound, group.minStreamTimestamp >= Timestamp.ONE_OVER_POST_STREAM ?
                Timestamp.DONE : group.minStreamTimestamp);
            if (r == InputSync.READY_FOR_CLOSE)
            {
                if (processBounds)
                {
                    if (previous < donePreceding)
                    {
                        minBound = Math.min(minBound, donePreceding);
                        input = Math.min(input, donePreceding);
                        ready[i] = donePreceding;
                    }
                    else
                    {
                        ready[i] = Timestamp.DONE;
                    }
                }
                else if (previous < donePreceding)
                {
                    becameDone = true;
                    ready[i] = Timestamp.DONE;
                }
            }
            else if (r != InputSync.NOT_READY)
            {
                ready[i] = r;
                input = Math.min(input, r);
            }
        }
        if (minBound == Timestamp.DONE)
        {
            return InputSync.READY_FOR_CLOSE;
        }
        if (input < Timestamp.DONE)
        {
            return input;
        }
        return becameDone ? minBound : InputSync.NOT_READY;
    }

    @Override
    public long fill(final long timestamp)
    {
        for (int i = 0; i < groups.length; i++)
        {
            if (ready[i] == timestamp)
            {
                groups[i].fill(timestamp);
                ready[i] = Timestamp.UNSET;
            }
            else
            {
                groups[i].fillBounds();
            }
        }
        return timestamp;
    }
}
