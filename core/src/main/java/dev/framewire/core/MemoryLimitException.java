package dev.framewire.core;

/**
 * A node's off-heap memory would pass a limit: the payload pool's hard limit or its maximum of
 * slab bytes (an acquire was refused), or {@code max_shipment_bytes} (a source's shipment grew
 * too big). Every message has one form:
 * <pre>
 *   node 'src' on stream 'frames' cannot take a 262144 B slot: 12582912 B in use + 262144 B would pass
 *   the pool's hard limit of 12582912 B (soft limit 8388608 B, budget 16777216 B)
 *   fix: raise ..., lower ..., or ...
 *   (the accounts: which size classes and payloads hold the pool's bytes, which queues hold them)
 * </pre>
 * and the figures are also fields: {@link #limit()}, {@link #limitBytes()}, {@link #bytesInUse()},
 * {@link #requestedBytes()}, {@link #node()}, {@link #stream()}.
 */
public final class MemoryLimitException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /** {@link #limit()} of the payload pool's hard limit on bytes in use. */
    public static final String HARD_LIMIT = "hard limit";
    /** {@link #limit()} of the payload pool's maximum of slab bytes. */
    public static final String SLAB_MAXIMUM = "slab maximum";
    /** {@link #limit()} of a source's shipment cap. */
    public static final String MAX_SHIPMENT_BYTES = "max_shipment_bytes";

    private final String node;
    private final String stream;
    private final String limit;
    private final long limitBytes;
    private final long bytesInUse;
    private final long requestedBytes;

    /**
     * A memory limit refused a node's payload; made by the engine, which words the message.
     *
     * @param message        the whole message: where, which limit, the account and the fix.
     * @param node           the node's name.
     * @param stream         the output streams it acquired for, comma-separated.
     * @param limit          {@link #HARD_LIMIT}, {@link #SLAB_MAXIMUM} or {@link #MAX_SHIPMENT_BYTES}.
     * @param limitBytes     the limit in bytes.
     * @param bytesInUse     the bytes in use (or staged) when refused.
     * @param requestedBytes the slot bytes asked for.
     * @param cause          the pool's refusal, or null.
     */
    public MemoryLimitException(
        final String message,
        final String node,
        final String stream,
        final String limit,
        final long limitBytes,
        final long bytesInUse,
        final long requestedBytes,
        final Throwable cause)
    {
        super(message, cause);
        this.node = node;
        this.stream = stream;
        this.limit = limit;
        this.limitBytes = limitBytes;
        this.bytesInUse = bytesInUse;
        this.requestedBytes = requestedBytes;
    }

    /**
     * The node whose memory would have passed the limit.
     *
     * @return its name.
     */
    public String node()
    {
        return node;
    }

    /**
     * The stream or streams the payload was for: the stream it was emitted on, or the node's
     * outputs for a refused acquire; comma-separated, empty for a node without outputs.
     *
     * @return the streams.
     */
    public String stream()
    {
        return stream;
    }

    /**
     * Which limit: {@link #HARD_LIMIT}, {@link #SLAB_MAXIMUM} or {@link #MAX_SHIPMENT_BYTES}.
     *
     * @return the limit's name.
     */
    public String limit()
    {
        return limit;
    }

    /**
     * The limit's value.
     *
     * @return bytes.
     */
    public long limitBytes()
    {
        return limitBytes;
    }

    /**
     * Bytes held when the limit was met: in the pool, or for {@link #MAX_SHIPMENT_BYTES} in the
     * source's shipment so far.
     *
     * @return bytes.
     */
    public long bytesInUse()
    {
        return bytesInUse;
    }

    /**
     * Bytes asked for: the slot the refused payload needed.
     *
     * @return bytes.
     */
    public long requestedBytes()
    {
        return requestedBytes;
    }
}
