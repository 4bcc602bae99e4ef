package dev.framewire.core;

import dev.framewire.offheap.Payload;

/**
 * One input stream of a node, as the current input set holds it: a packet or nothing.
 *
 * <p>An off-heap payload seen here is lent to the calculator until {@code process} returns,
 * when the engine releases it, unless the calculator emitted it on an output (which passes the
 * reference on) or retained it itself.
 *
 * <p>Threading: the calling worker only, during the call.
 */
public interface Input extends Packet
{
    /**
     * Position among the node's inputs.
     *
     * @return 0-based index.
     */
    int index();

    /**
     * Whether this input has no packet in the current input set.
     *
     * @return true when empty.
     */
    boolean isEmpty();

    /**
     * The packet's timestamp, or, when empty, the highest timestamp settled on the stream.
     *
     * @return the timestamp.
     */
    @Override
    long timestamp();

    /**
     * The packet's payload, to write: the same memory when this node holds the only reference,
     * a copy otherwise (copy-on-write). The input now lends the returned payload.
     *
     * @return a payload this calculator may write.
     */
    Payload writablePayload();
}
