package dev.framewire.core;

/**
 * Inputs settled together, as MediaPipe's {@code InputStreamHandler::SyncSet}: the unit every
 * input policy is made of. Default has one group of all inputs, immediate one group per input,
 * sync sets the configured groups.
 *
 * <p>Threading: the node's worker only.
 */
final class SyncGroup
{
    final InputPort[] ports;
    /** Highest input timestamp handed over, for bound-only processing. */
    long lastProcessed = Timestamp.UNSET;
    /** After {@link #readiness}: the lowest timestamp that may still arrive (packet or bound). */
    long minStreamTimestamp;

    SyncGroup(final InputPort[] ports)
    {
        this.ports = ports;
    }

    /**
     * MediaPipe's SyncSet::GetReadiness.
     *
     * @param processBounds whether bound-only input sets count (ProcessTimestampBounds).
     * @return a timestamp to process, {@link Node#NOT_READY} or {@link Node#READY_FOR_CLOSE}.
     */
    long readiness(final boolean processBounds)
    {
        long minBound = Timestamp.DONE;
        long minPacket = Timestamp.DONE;
        boolean waitingBackEdge = false;
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            long head = queue.peekTimestamp();
            if (head != Timestamp.UNSET)
            {
                minPacket = Math.min(minPacket, head); // no bound read: a queued packet is the lower one
                continue;
            }
            final long bound = queue.bound(); // then the ring again: a packet the bound settles is visible
            head = queue.peekTimestamp();
            if (head != Timestamp.UNSET)
            {
                minPacket = Math.min(minPacket, head);
            }
            else if (queue.backEdge && bound == Timestamp.PRE_STREAM)
            {
                // A back edge that has seen nothing yet does not hold up the first timestamps
                // of the other inputs, but is not done either.
                waitingBackEdge = true;
            }
            else
            {
                minBound = Math.min(minBound, bound);
            }
        }
        final long min = Math.min(minPacket, minBound);
        minStreamTimestamp = min;
        if (min >= Timestamp.ONE_OVER_POST_STREAM && waitingBackEdge)
        {
            minStreamTimestamp = Timestamp.PRE_STREAM;
            return Node.NOT_READY;
        }
        if (min >= Timestamp.ONE_OVER_POST_STREAM)
        {
            lastProcessed = Timestamp.previousAllowedInStream(Timestamp.DONE);
            return Node.READY_FOR_CLOSE;
        }
        if (!processBounds)
        {
            if (minBound > minPacket)
            {
                lastProcessed = min;
                return min;
            }
            return Node.NOT_READY;
        }
        final long settled = minPacket == Timestamp.POST_STREAM && minBound > minPacket ?
            minPacket : Timestamp.previousAllowedInStream(minBound);
        final long input = Math.min(minPacket, settled);
        if (input > Math.max(lastProcessed, Timestamp.UNSTARTED))
        {
            lastProcessed = input;
            return input;
        }
        return Node.NOT_READY;
    }

    /**
     * Fills the group's ports for an input timestamp: the packet at it, or an empty input carrying
     * the highest settled timestamp.
     */
    void fill(final long timestamp)
    {
        for (final InputPort port : ports)
        {
            fillPort(port, timestamp);
        }
    }

    /**
     * Fills one port for an input timestamp: takes its packet at it (waking a producer held back
     * by the queue), or gives it an empty input carrying the highest settled timestamp.
     */
    static void fillPort(final InputPort port, final long timestamp)
    {
        final InputQueue queue = port.queue;
        final long head = queue.peekTimestamp();
        if (head == timestamp)
        {
            if (port.take())
            {
                queue.wakeHeldBack();
            }
        }
        else
        {
            final long next = head != Timestamp.UNSET ? head :
                Math.max(queue.bound(), Timestamp.nextAllowedInStream(timestamp));
            port.set(Timestamp.previousAllowedInStream(next), null, 0);
        }
    }

    /** Fills the group's ports with nothing but their settled bound (another group is processed). */
    void fillBounds()
    {
        for (final InputPort port : ports)
        {
            final InputQueue queue = port.queue;
            final long bound = queue.bound();
            final long head = queue.peekTimestamp();
            port.set(Timestamp.previousAllowedInStream(head != Timestamp.UNSET ? head : bound), null, 0);
        }
    }
}
