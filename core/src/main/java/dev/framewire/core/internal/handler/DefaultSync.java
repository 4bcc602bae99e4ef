package dev.framewire.core.internal.handler;

import dev.framewire.core.InputPolicy;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

/**
 * The default policy and its variants: batched, early close, and fixed size (MediaPipe's
 * DefaultInputStreamHandler, EarlyCloseInputStreamHandler and FixedSizeInputStreamHandler).
 *
 * <p>Fixed size follows MediaPipe: with {@code fixed_min_size} off, any input queue at the trigger
 * raises a sticky "kept timestamp" so that queue keeps only {@code target} packets, and packets
 * below it are dropped on every input, so streams stay aligned; before an input set is handed
 * over, dropping stops at the least current stream's bound so one input set always survives. With
 * it on, dropping waits until every queue reached the trigger. Every drop releases its payload at
 * once and is counted on the node.
 *
 * <p>Threading: the node's worker only. What it writes per packet is in {@link StickySync}, on
 * lines of its own.
 */
public final class DefaultSync extends StickySync
{
    private final DropSink drops;
    private final int[] batchCursor;
    private final SyncGroup group;
    private final InputPolicy.Kind kind;
    private final int batchSize;
    private final int trigger;
    private final int target;
    private final boolean fixedMinSize;

    public DefaultSync(
        final DropSink drops, final int[] batchCursor, final InputPort[] ports, final InputPolicy policy,
        final boolean processBounds)
    {
        super(ports, processBounds);
        this.drops = drops;
        this.batchCursor = batchCursor;
        this.group = new SyncGroup(ports);
        this.kind = policy.kind();
        this.batchSize = policy.batchSize();
        this.trigger = policy.triggerQueueSize();
        this.target = policy.targetQueueSize();
        this.fixedMinSize = policy.fixedMinSize();
    }

    @Override
    public int batchSize()
    {
        return batchSize;
    }

    @Override
    public long readiness()
    {
        if (pending != InputSync.NOT_READY)
        {
            return pending;
        }
        if (kind == InputPolicy.Kind.EARLY_CLOSE && anyInputDone())
        {
            return InputSync.READY_FOR_CLOSE;
        }
        long ready;
        if (kind == InputPolicy.Kind.FIXED_SIZE)
        {
            eraseSurplus(false);
            ready = group.readiness(processBounds);
            while (isTimestamp(ready) && ready < keptTimestamp)
            {
                eraseSurplus(false);
                ready = group.readiness(processBounds);
            }
        }
        else
        {
            ready = group.readiness(processBounds);
            if (batchSize > 1 && isTimestamp(ready) && !batchReady())
            {
                return InputSync.NOT_READY;
            }
        }
        if (isTimestamp(ready))
        {
            pending = ready;
        }
        return ready;
    }

    @Override
    public long nextInBatch()
    {
        if (pending == InputSync.NOT_READY)
        {
            final long ready = group.readiness(processBounds);
            if (isTimestamp(ready))
            {
                pending = ready;
            }
            return ready;
        }
        return pending;
    }

    @Override
    public long fill(final long timestamp)
    {
        long input = timestamp;
        if (kind == InputPolicy.Kind.FIXED_SIZE)
        {
            // As MediaPipe, trim once more and process the most recent settled input set.
            eraseSurplus(true);
            input = minTimestampToProcess();
        }
        group.fill(input);
        pending = InputSync.NOT_READY;
        return input;
    }

    private static boolean isTimestamp(final long ready)
    {
        return ready != InputSync.NOT_READY && ready != InputSync.READY_FOR_CLOSE;
    }

    private boolean anyInputDone()
    {
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            if (queue.bound() >= Timestamp.ONE_OVER_POST_STREAM && queue.peekTimestamp() == Timestamp.UNSET)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code batchSize} input sets are ready, or fewer that will be the last: the
     * distinct queued timestamps below every input's bound.
     */
    private boolean batchReady()
    {
        long minBound = Timestamp.DONE;
        for (final InputPort port : ports)
        {
            minBound = Math.min(minBound, port.queue.bound());
        }
        if (minBound >= Timestamp.ONE_OVER_POST_STREAM)
        {
            return true; // every input is done: flush what is left
        }
        final int n = ports.length;
        int sets = 0;
        long previous = Timestamp.UNSET;
        final int[] cursor = batchCursor;
        java.util.Arrays.fill(cursor, 0);
        while (sets < batchSize)
        {
            long min = Timestamp.DONE;
            for (int i = 0; i < n; i++)
            {
                final long ts = ports[i].queue.peekTimestampAt(cursor[i]);
                if (ts != Timestamp.UNSET && ts < min)
                {
                    min = ts;
                }
            }
            if (min >= minBound)
            {
                return false;
            }
            for (int i = 0; i < n; i++)
            {
                if (ports[i].queue.peekTimestampAt(cursor[i]) == min)
                {
                    cursor[i]++;
                }
            }
            if (min != previous)
            {
                sets++;
                previous = min;
            }
        }
        return true;
    }

    private void eraseSurplus(final boolean keepOne)
    {
        if (fixedMinSize)
        {
            eraseAllSurplus();
        }
        else
        {
            eraseAnySurplus(keepOne);
        }
    }

    private void eraseAllSurplus()
    {
        long minAll = Timestamp.MAX;
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            final int size = queue.size();
            if (size < trigger)
            {
                return;
            }
            minAll = Math.min(minAll, queue.peekTimestampAt(size - target));
        }
        dropBelow(minAll);
    }

    private void eraseAnySurplus(final boolean keepOne)
    {
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            final int size = queue.size();
            final int keep = size >= trigger ? target : trigger - 1;
            if (size > keep)
            {
                // the oldest of the newest keep + 1 packets, and one past it
                final long ts = queue.peekTimestampAt(size - keep - 1);
                keptTimestamp = Math.max(keptTimestamp, Timestamp.nextAllowedInStream(ts));
            }
        }
        if (keepOne)
        {
            keptTimestamp = Math.min(keptTimestamp, previousAllowedRange(minStreamBound()));
        }
        dropBelow(keptTimestamp);
    }

    /** MediaPipe's FixedSizeInputStreamHandler::PreviousAllowedInStream: only range values move. */
    private static long previousAllowedRange(final long bound)
    {
        return bound >= Timestamp.MIN && bound <= Timestamp.MAX ? bound - 1 : bound;
    }

    /** One past the newest packet of the least current stream, or its bound when empty. */
    private long minStreamBound()
    {
        long min = Timestamp.DONE;
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            final int size = queue.size();
            final long bound = queue.bound();
            final long newest = size > 0 ? queue.peekTimestampAt(size - 1) : Timestamp.UNSET;
            min = Math.min(min, newest != Timestamp.UNSET ? Timestamp.nextAllowedInStream(newest) :
                queue.peekTimestamp() != Timestamp.UNSET ? queue.peekTimestamp() : bound);
        }
        return min;
    }

    private long minTimestampToProcess()
    {
        long min = Timestamp.DONE;
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            final long bound = queue.bound();
            final long head = queue.peekTimestamp();
            min = Math.min(min, head != Timestamp.UNSET ? head : previousAllowedRange(bound));
        }
        return min;
    }

    private void dropBelow(final long timestamp)
    {
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            long head;
            while ((head = queue.peekTimestamp()) != Timestamp.UNSET && head < timestamp)
            {
                if (queue.dropHead())
                {
                    queue.wakeHeldBack();
                }
                drops.dropped(queue.streamName, head, "policy");
            }
        }
    }
}
