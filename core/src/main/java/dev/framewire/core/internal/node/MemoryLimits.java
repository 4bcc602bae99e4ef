package dev.framewire.core.internal.node;

import dev.framewire.core.MemoryLimitException;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.stream.OutputStream;

/**
 * Words the {@link MemoryLimitException}s a node's payloads meet: where (the node, its streams, the
 * input timestamp), which limit, the account and the fix.
 *
 * <p>Threading: stateless; called on the node's worker.
 */
public final class MemoryLimits
{
    private MemoryLimits()
    {
    }

    /**
     * A source emitted a payload that would take its shipment past {@code max_shipment_bytes}.
     *
     * @param staged    bytes of payloads the call emitted before this one.
     * @param requested this payload's slot bytes.
     */
    public static MemoryLimitException shipment(final Node node, final String stream, final long staged, final long requested)
    {
        final NodeRunState graph = node.runState;
        final long cap = graph.shipmentByteCap();
        final String message = where(node, stream) + " cannot take a " + requested + " B slot: " + staged +
            " B already in this call's shipment + " + requested + " B would pass max_shipment_bytes of " + cap + " B (" +
            (graph.config().maxShipmentBytes() > 0 ? "configured" : "derived from the memory budget: its hard limit " +
            "less its soft limit") + ")\nfix: end the shipment when ctx.shipmentBytesLeft() is less than the next " +
            "payload (the source is called again for the rest; the first payload of a call always goes out), raise " +
            "max_shipment_bytes (GraphConfig.Builder.maxShipmentBytes; -1 for no cap), or lower max_shipment_size (" +
            graph.config().maxShipmentSize() + ")";
        return new MemoryLimitException(message, node.name, stream, MemoryLimitException.MAX_SHIPMENT_BYTES, cap, staged,
            requested, null);
    }

    /** "source node 'src' on stream 'frames'", "node 'resize' on streams 'a', 'b' at input timestamp 5". */
    public static String where(final Node node, final String streams)
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
    public static String outputNames(final Node node)
    {
        final StringBuilder sb = new StringBuilder();
        for (final OutputStream output : node.outputs)
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(output.name);
        }
        return sb.toString();
    }
}
