package dev.framewire.core.internal.handler;

/**
 * Where an input policy counts the packets it drops (a policy's drop, or what is still queued when
 * a node closes): the node implements it (one implementation), so a policy never names the node.
 *
 * <p>Threading: the node's worker only.
 */
public interface DropSink
{
    /** Counts (and journals) one dropped packet of {@code stream} at {@code timestamp}, for {@code reason}. */
    void dropped(String stream, long timestamp, String reason);
}
