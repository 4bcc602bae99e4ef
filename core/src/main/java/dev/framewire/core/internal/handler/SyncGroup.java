package dev.framewire.core.internal.handler;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.InputPort;

abstract class SyncGroupPad0
{
    byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015;
    byte p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031;
    byte p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047;
    byte p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
}

abstract class SyncGroupFields extends SyncGroupPad0
{
    /** Highest input timestamp handed over, for bound-only processing. */
    public long lastProcessed = Timestamp.UNSET;
    /** After {@link SyncGroup#readiness}: the lowest timestamp that may still arrive (packet or bound). */
    public long minStreamTimestamp;
}

abstract class SyncGroupPad1 extends SyncGroupFields
{
    byte p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111, p112, p113, p114, p115;
    byte p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127, p128, p129, p130, p131;
    byte p132, p133, p134, p135, p136, p137, p138, p139, p140, p141, p142, p143, p144, p145, p146, p147;
    byte p148, p149, p150, p151, p152, p153, p154, p155, p156, p157, p158, p159, p160, p161, p162, p163;
}

/**
 * Inputs settled together, as MediaPipe's {@code InputStreamHandler::SyncSet}: the unit every
 * input policy is made of. Default has one group of all inputs, immediate one group per input,
 * sync sets the configured groups.
 *
 * <p>Threading: the node's worker only. Layout: the fields it writes per packet sit between cache
 * lines of padding, as {@link PacketSlot}'s do.
 */
public final class SyncGroup extends SyncGroupPad1
{
    public final InputPort[] ports;

    public SyncGroup(final InputPort[] ports)
    {
        this.ports = ports;
    }

    /**
     * MediaPipe's SyncSet::GetReadiness.
     *
     * @param processBounds whether bound-only input sets count (ProcessTimestampBounds).
     * @return a timestamp to process, {@link InputSync#NOT_READY} or {@link InputSync#READY_FOR_CLOSE}.
     */
    public long readiness(final boolean processBounds)
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
            return InputSync.NOT_READY;
        }
        if (min >= Timestamp.ONE_OVER_POST_STREAM)
        {
            lastProcessed = Timestamp.previousAllowedInStream(Timestamp.DONE);
            return InputSync.READY_FOR_CLOSE;
        }
        if (!processBounds)
        {
            if (minBound > minPacket)
            {
                lastProcessed = min;
                return min;
            }
            return InputSync.NOT_READY;
        }
        final long settled = minPacket == Timestamp.POST_STREAM && minBound > minPacket ?
            minPacket : Timestamp.previousAllowedInStream(minBound);
        final long input = Math.min(minPacket, settled);
        if (input > Math.max(lastProcessed, Timestamp.UNSTARTED))
        {
            lastProcessed = input;
            return input;
        }
        return InputSync.NOT_READY;
    }

    /**
     * Fills the group's ports for an input timestamp: the packet at it, or an empty input carrying
     * the highest settled timestamp.
     */
    public void fill(final long timestamp)
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
