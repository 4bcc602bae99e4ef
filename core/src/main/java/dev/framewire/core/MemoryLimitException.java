package dev.framewire.core;

import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.MemoryBudgetExceededException;

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

    private MemoryLimitException(
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
     * A node's acquire was refused by the pool ({@code cause}): the pool's hard limit or its slab
     * maximum, with the pool's account (from the cause) and the graph's (queued bytes per stream).
     */
    static MemoryLimitException of(final Graph graph, final Node node, final MemoryBudgetExceededException cause)
    {
        final MemoryBudget budget = graph.pool().budget();
        final String limit = cause.isHardLimit() ? HARD_LIMIT : SLAB_MAXIMUM;
        final String stream = outputNames(node);
        final StringBuilder sb = new StringBuilder(512);
        sb.append(where(node, stream)).append(" cannot take a ").append(cause.requestedBytes()).append(" B slot: ");
        if (cause.isHardLimit())
        {
            sb.append(cause.bytesInUse()).append(" B in use + ").append(cause.requestedBytes())
                .append(" B would pass the pool's hard limit of ").append(cause.limitBytes()).append(" B");
        }
        else
        {
            sb.append("the pool's slabs would pass its maximum of ").append(cause.limitBytes())
                .append(" B (free slots of other sizes are not cut up for this one; ").append(cause.bytesInUse())
                .append(" B in use)");
        }
        sb.append(" (soft limit ").append(budget.softLimitBytes()).append(" B, hard limit ")
            .append(budget.hardLimitBytes()).append(" B, budget ").append(budget.maxBytes()).append(" B)");
        if (cause.requestedBytes() > budget.hardLimitBytes())
        {
            sb.append("; the slot alone is more than the hard limit");
        }
        sb.append("\nfix: raise memory_budget_bytes (GraphConfig.Builder.memoryBudget; the hard limit is 75 % of " +
            "it), lower max_shipment_size (").append(graph.config().maxShipmentSize).append(") or max_shipment_bytes (")
            .append(graph.shipmentByteCap()).append(" B) so that sources make smaller shipments, or set " +
            "memory_limit_policy: DROP_OLDEST to drop the oldest queued packets instead of failing");
        final String pool = cause.getMessage();
        final int held = pool == null ? -1 : pool.indexOf("Held by size class:");
        sb.append('\n').append(held >= 0 ? pool.substring(held) : pool);
        sb.append('\n').append(GraphReport.memory(graph));
        return new MemoryLimitException(sb.toString(), node.name, stream, limit, cause.limitBytes(),
            cause.bytesInUse(), cause.requestedBytes(), cause);
    }

    /**
     * A source emitted a payload that would take its shipment past {@code max_shipment_bytes}.
     *
     * @param staged    bytes of payloads the call emitted before this one.
     * @param requested this payload's slot bytes.
     */
    static MemoryLimitException shipment(final Node node, final String stream, final long staged, final long requested)
    {
        final NodeRunState graph = node.runState;
        final long cap = graph.shipmentByteCap();
        final String message = where(node, stream) + " cannot take a " + requested + " B slot: " + staged +
            " B already in this call's shipment + " + requested + " B would pass max_shipment_bytes of " + cap + " B (" +
            (graph.config().maxShipmentBytes > 0 ? "configured" : "derived from the memory budget: its hard limit " +
            "less its soft limit") + ")\nfix: end the shipment when ctx.shipmentBytesLeft() is less than the next " +
            "payload (the source is called again for the rest; the first payload of a call always goes out), raise " +
            "max_shipment_bytes (GraphConfig.Builder.maxShipmentBytes; -1 for no cap), or lower max_shipment_size (" +
            graph.config().maxShipmentSize + ")";
        return new MemoryLimitException(message, node.name, stream, MAX_SHIPMENT_BYTES, cap, staged,
            requested, null);
    }

    /** "source node 'src' on stream 'frames'", "node 'resize' on streams 'a', 'b' at input timestamp 5". */
    private static String where(final Node node, final String streams)
    {
        final String[] names = streams.isEmpty() ? new String[0] : streams.split(", ");
        final StringBuilder sb = new StringBuilder(node.isSource ? "source node '" : "node '").append(node.name)
            .append('\'');
        if (names.length > 0)
        {
            sb.append(names.length == 1 ? " on stream " : " on streams ");
            for (int i = 0; i < names.length; i++)
            {
                sb.append(i == 0 ? "" : ", ").append('\'').append(names[i]).append('\'');
            }
        }
        if (!node.isSource)
        {
            sb.append(" at input timestamp ").append(Timestamp.toString(node.inputTimestamp));
        }
        return sb.toString();
    }

    /** The node's output streams, comma-separated: where what it acquires goes. */
    private static String outputNames(final Node node)
    {
        final StringBuilder sb = new StringBuilder();
        for (final OutputStream output : node.outputs)
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(output.name);
        }
        return sb.toString();
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
