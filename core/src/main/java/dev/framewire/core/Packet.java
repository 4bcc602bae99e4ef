package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * A read-only view of one packet: a timestamp and a value (a Java object, an off-heap
 * {@link Payload}, or an unboxed {@code long} or {@code double}). Views are reused by the engine;
 * nothing is allocated per packet.
 *
 * <p>Threading: valid only during the call that handed it over; an off-heap payload must be
 * {@link Payload#retain() retained} to be kept beyond it.
 */
public interface Packet
{
    /**
     * The stream's name.
     *
     * @return the name.
     */
    String streamName();

    /**
     * The packet's timestamp.
     *
     * @return microseconds, or a special value of {@link Timestamp}.
     */
    long timestamp();

    /**
     * The value: a Java object or a {@link Payload}; boxed for a primitive packet.
     *
     * @return the value.
     */
    Object value();

    /**
     * The value as a given type.
     *
     * @param type the expected class.
     * @param <T>  the type.
     * @return the value.
     * @throws IllegalStateException naming the stream and both types if it is not one.
     */
    <T> T get(Class<T> type);

    /**
     * The off-heap payload.
     *
     * @return the payload.
     * @throws IllegalStateException if the value is not a payload.
     */
    Payload payload();

    /**
     * A {@code long} packet's value, unboxed.
     *
     * @return the value.
     * @throws IllegalStateException if not a long packet.
     */
    long getLong();

    /**
     * A {@code double} packet's value, unboxed.
     *
     * @return the value.
     * @throws IllegalStateException if not a double packet.
     */
    double getDouble();

    /**
     * Whether this is a {@code long} packet, asked without boxing it as {@link #value()} would.
     *
     * @return true for a packet added with {@code addLong} or {@code addPacket(stream, long, ts)}.
     */
    default boolean isLong()
    {
        return value() instanceof Long;
    }

    /**
     * Whether this is a {@code double} packet, asked without boxing it as {@link #value()} would.
     *
     * @return true for a packet added with {@code addDouble} or {@code addPacket(stream, double, ts)}.
     */
    default boolean isDouble()
    {
        return value() instanceof Double;
    }
}
