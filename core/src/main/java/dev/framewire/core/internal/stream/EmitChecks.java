package dev.framewire.core.internal.stream;

import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;

/**
 * The checks of an emitted packet that an {@link OutputStream} and a lane's recorded output share:
 * the value (not null; a payload lent or still referenced) and, when a stream refuses a timestamp,
 * the message that says why. Stateless; static calls, so the emit path gains no dispatch.
 */
public final class EmitChecks
{
    private EmitChecks()
    {
    }

    /**
     * Checks a value a calculator (or a graph input) emits, for {@link OutputStream#add(Object, long)} and
     * in a lane ({@code internal.node.Lane}): not null, and a payload is either lent by one of {@code lenders} (the
     * emit passes that input's reference on, see {@link InputPort#passOn}) or still referenced by
     * the caller, whose reference then moves to the stream.
     *
     * @param owner   the output, named in the error (its {@code toString}, only on error).
     * @param lenders the emitting call's inputs, or null for a graph input.
     * @return the packet's word: a payload's generation, else 0.
     */
    public static long checkEmitted(final Object owner, final Object value, final long timestamp, final InputPort[] lenders)
    {
        if (value == null)
        {
            throw new IllegalArgumentException(owner + ": null packet value at timestamp " + Timestamp.toString(timestamp));
        }
        if (!(value instanceof Payload))
        {
            return 0;
        }
        final Payload payload = (Payload)value;
        if ((lenders == null || !InputPort.passOn(lenders, payload)) && payload.refCount() <= 0)
        {
            throw new IllegalStateException(owner + ": emitted a released " + payload);
        }
        return payload.generation();
    }

    /**
     * Why {@code timestamp} may not be staged on the stream {@code owner}, whose last packet was at
     * {@code lastTimestamp} and whose bound is {@code bound}: the message of the
     * {@code TimestampException} a refused emit throws.
     */
    static String timestampError(final String owner, final long timestamp, final long lastTimestamp, final long bound)
    {
        if (!Timestamp.isValidPacketTimestamp(timestamp))
        {
            return owner + ": timestamp " + Timestamp.toString(timestamp) + " is not a valid packet timestamp " +
                "(valid: PreStream, PostStream, or Min..Max)";
        }
        if (lastTimestamp != Timestamp.UNSET && timestamp <= lastTimestamp)
        {
            return owner + ": timestamp " + Timestamp.toString(timestamp) + " is not after the previous packet's " +
                Timestamp.toString(lastTimestamp) + "; timestamps must increase strictly";
        }
        if ((timestamp == Timestamp.PRE_STREAM || timestamp == Timestamp.POST_STREAM) && lastTimestamp != Timestamp.UNSET)
        {
            return owner + ": a packet at " + Timestamp.toString(timestamp) + " must be the only packet of its " +
                "stream, but the stream already had one at " + Timestamp.toString(lastTimestamp);
        }
        return owner + ": timestamp " + Timestamp.toString(timestamp) + " is below the stream's bound " +
            Timestamp.toString(bound) + (lastTimestamp == Timestamp.UNSET ? "" :
            " (previous packet " + Timestamp.toString(lastTimestamp) + ")");
    }
}
