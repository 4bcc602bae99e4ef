package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;

/**
 * The bounds a node's offset ({@code CalculatorContext#setOffset}) gives its outputs, by MediaPipe's
 * rules. Stateless; a static call, so the step that follows an offset gains no dispatch.
 */
final class OffsetBounds
{
    private OffsetBounds()
    {
    }

    /**
     * The bound an offset gives the outputs once every input timestamp up to {@code completed} is
     * done, by MediaPipe's rules (OutputStreamManager::ComputeOutputTimestampBound): the next
     * timestamp plus the offset, except that PreStream gives Min (no offset), Max gives PostStream
     * for an offset of 0 or more (a PostStream input set may still come) and Max + offset + 1 for a
     * negative one, and PostStream gives OneOverPostStream.
     *
     * @param completed the highest input timestamp done with; Unstarted or below when none is.
     * @param offset    the node's offset.
     * @return the output bound, or {@link Timestamp#UNSET} when there is none to follow yet.
     */
    static long offsetBound(final long completed, final long offset)
    {
        if (completed <= Timestamp.UNSTARTED)
        {
            return Timestamp.UNSET;
        }
        if (completed == Timestamp.PRE_STREAM)
        {
            return Timestamp.MIN;
        }
        if (completed == Timestamp.MAX)
        {
            return offset >= 0 ? Timestamp.POST_STREAM : Timestamp.nextAllowedInStream(Timestamp.MAX + offset);
        }
        if (completed > Timestamp.MAX)
        {
            return Timestamp.ONE_OVER_POST_STREAM;
        }
        return Timestamp.add(Timestamp.nextAllowedInStream(completed), offset);
    }
}
