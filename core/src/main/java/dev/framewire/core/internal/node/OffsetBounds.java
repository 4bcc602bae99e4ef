package dev.framewire.core.internal.node;

import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.OutputStream;

/**
 * The bounds a node's offset ({@code CalculatorContext#setOffset}) gives its outputs, by MediaPipe's
 * rules: the bound itself ({@link #offsetBound}), and its moves when no input set is ready
 * ({@link #propagate}) and when a lane's call retires ({@link #follow}). Stateless; static calls, so
 * the step that follows an offset gains no dispatch.
 *
 * <p>Threading: the node's worker (the one running its step).
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

    /**
     * A step of a node with an offset that found no input set ready: its outputs' bound follows its
     * inputs' as far as they have moved (a bound arriving on an input schedules the node).
     */
    static void propagate(final Node node)
    {
        final long in = node.inputBound();
        if (in == Timestamp.DONE)
        {
            return; // every input is done: close() follows, its outputs close after it
        }
        final long next = offsetBound(Timestamp.previousAllowedInStream(in), node.offset);
        boolean moved = false;
        for (final OutputStream output : node.outputs)
        {
            if (next > output.bound)
            {
                output.setNextTimestampBound(next);
                moved = true;
            }
        }
        if (moved)
        {
            try
            {
                node.flushOutputs();
            }
            catch (final Throwable t)
            {
                node.onFailure(node.inputTimestamp, t);
            }
        }
    }

    /** {@link Lanes}, a retired call's outputs: the bound the offset gives them once the call at {@code completed} is done. */
    static void follow(final Node node, final long completed)
    {
        final long next = offsetBound(completed, node.offset);
        for (final OutputStream output : node.outputs)
        {
            output.setNextTimestampBound(next);
        }
    }
}
