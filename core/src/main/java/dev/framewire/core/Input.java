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
     * The stream's tag in the node's config ({@code TAG:index:name}), as MediaPipe's
     * {@code TAG:index} addresses it.
     *
     * @return the tag, or the empty string for an untagged input.
     */
    String tag();

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
     * <p>Whether this call copies depends on whether the payload's other consumers have run: a
     * node releases its inputs when its {@code process} returns. Nothing orders consumers of the
     * same stream among themselves (on one worker MediaPipe's order runs the node declared last
     * first), so a writer beside readers usually copies. To write in place, order the writer after
     * the readers: give it their outputs as further inputs, and the default policy runs it at a
     * timestamp only once every reader has run there and released the frame.
     *
     * @return a payload this calculator may write.
     */
    Payload writablePayload();
}
