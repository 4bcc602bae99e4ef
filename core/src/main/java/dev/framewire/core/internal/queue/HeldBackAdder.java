package dev.framewire.core.internal.queue;

/**
 * A graph input whose adders a full {@link InputQueue} holds back: the queue wakes its waiting
 * adders when it has room, and the deadlock check asks whether it may still add. The graph input
 * implements it (one implementation), so a queue never names the stream layer.
 *
 * <p>Threading: both methods from any thread.
 */
public interface HeldBackAdder
{
    /** A queue this input waits on has room: unparks a waiting adder, if any. */
    void wakeWaiter();

    /** Whether the input was closed (it holds nothing back any more). */
    boolean isClosed();
}
