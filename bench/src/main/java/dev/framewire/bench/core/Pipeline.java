package dev.framewire.bench.core;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;

/**
 * A chain of pass-through stages under test, from the benchmark thread to a {@link Sink}: the
 * Framewire graph, the lock-based baseline, or the bare SPSC floor. A long packet carries its
 * value unboxed; a payload packet carries an off-heap payload whose first 8 bytes hold the value,
 * and the pipeline releases it after the sink has read it.
 *
 * <p>Threading: the send and offer methods from the one benchmark thread.
 */
interface Pipeline extends AutoCloseable
{
    /** Sends a long packet, waiting while the pipeline is full. */
    void sendLong(long value, long timestamp) throws InterruptedException;

    /** Sends a payload packet, passing the reference on, waiting while the pipeline is full. */
    void sendPayload(Payload payload, long timestamp) throws InterruptedException;

    /** Offers a long packet; false when refused because a queue is full. */
    boolean offerLong(long value, long timestamp);

    /** Offers a payload packet; false when refused, and then the caller keeps the reference. */
    boolean offerPayload(Payload payload, long timestamp);

    /** The pool to acquire payloads from. */
    PayloadPool pool();

    /** What the pipeline is doing, or why it failed: for a benchmark that gives up waiting. */
    default String describe()
    {
        return toString();
    }

    /** Stops the pipeline and releases what it holds; throws if a payload leaked. */
    @Override
    void close() throws Exception;
}
