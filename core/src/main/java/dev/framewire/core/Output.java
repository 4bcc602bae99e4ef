package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * One output stream of a node. Packets added during a call reach the consumers when the call
 * returns, together with the stream's new bound.
 *
 * <p>Timestamps on a stream must increase strictly and be at least its bound; a violation fails
 * the run with the node, the stream and both timestamps.
 *
 * <p>Threading: the calling worker only, during the call.
 */
public interface Output
{
    /**
     * Position among the node's outputs.
     *
     * @return 0-based index.
     */
    int index();

    /**
     * The stream's name.
     *
     * @return the name.
     */
    String streamName();

    /**
     * Emits a Java object, or an off-heap payload whose reference the output takes: a payload
     * acquired by the calculator is handed over; a payload received on an input passes that
     * input's reference on (emitting it a second time retains it).
     *
     * @param value     the packet's value, not null.
     * @param timestamp the packet's timestamp.
     */
    void add(Object value, long timestamp);

    /**
     * Emits a {@code long} packet without boxing.
     *
     * @param value     the value.
     * @param timestamp the packet's timestamp.
     */
    void addLong(long value, long timestamp);

    /**
     * Emits a {@code double} packet without boxing.
     *
     * @param value     the value.
     * @param timestamp the packet's timestamp.
     */
    void addDouble(double value, long timestamp);

    /**
     * Promises that no packet below {@code bound} will come on this stream, so consumers can
     * settle earlier timestamps without waiting for a packet. Lower values are ignored.
     *
     * @param bound the next timestamp a packet may carry.
     */
    void setNextTimestampBound(long bound);

    /**
     * The stream's current bound: the lowest timestamp the next packet may carry.
     *
     * @return the bound.
     */
    long nextTimestampBound();

    /**
     * Closes the stream: its bound becomes {@link Timestamp#DONE}.
     */
    void close();

    /**
     * Convenience for {@link #add(Object, long)} with a payload.
     *
     * @param payload   the payload, whose reference the output takes.
     * @param timestamp the packet's timestamp.
     */
    default void addPayload(final Payload payload, final long timestamp)
    {
        add(payload, timestamp);
    }
}
