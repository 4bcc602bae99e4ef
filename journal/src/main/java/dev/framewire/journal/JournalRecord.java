package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import dev.framewire.core.journal.JournalSink;

import java.nio.ByteBuffer;

/**
 * One event of a run as read back from a journal: what happened ({@link Kind}), when (the
 * writer's {@link System#nanoTime()}), on which worker, to which node and stream, at which packet
 * timestamp, with which value. Names are resolved from the run's {@link Kind#RUN_START} record.
 *
 * <p>Which fields a kind fills is listed on each {@link Kind}; the others hold -1 (ids),
 * {@link Timestamp#UNSET} (timestamp) or 0 (value). The byte layout is in {@code docs/JOURNAL.md}.
 *
 * <p>Threading: immutable; safe to share.
 */
public final class JournalRecord
{
    // The drop reasons are the engine's (core's JournalSink, which passes them); the same codes here,
    // where a reader of reason() looks for them.
    /** Drop reason: the node's input policy dropped the packet (fixed size); {@link JournalSink#POLICY}. */
    public static final int POLICY = JournalSink.POLICY;
    /** Drop reason: the calculator dropped on purpose (a flow limiter, a gate); {@link JournalSink#FLOW_LIMIT}. */
    public static final int FLOW_LIMIT = JournalSink.FLOW_LIMIT;
    /** Drop reason: shed to stay within the memory budget; {@link JournalSink#MEMORY}. */
    public static final int MEMORY = JournalSink.MEMORY;
    /** Drop reason: a failure (the failure policy dropped the input set, or a failed node's queue); {@link JournalSink#FAILURE}. */
    public static final int FAILURE = JournalSink.FAILURE;
    /** Drop reason: the node closed with packets still queued (early close); {@link JournalSink#CLOSE}. */
    public static final int CLOSE = JournalSink.CLOSE;

    /** Value kind: nothing recorded about the value (a Java object the journal cannot fingerprint). */
    public static final int VALUE_NONE = 0;
    /** Value kind: a {@code long} packet, or a boxed {@code Long}; {@link #value()} is the number. */
    public static final int VALUE_LONG = 1;
    /** Value kind: a {@code double} packet, or a boxed {@code Double}; {@link #value()} is its raw bits. */
    public static final int VALUE_DOUBLE = 2;
    /** Value kind: a payload of a checksum stream; {@link #value()} is {@link PayloadChecksum} of its bytes. */
    public static final int VALUE_CHECKSUM = 3;
    /** Value kind: a payload of any other stream; {@link #value()} is its length in bytes. */
    public static final int VALUE_PAYLOAD = 4;
    /**
     * Value kind: a graph input payload of a capture stream; {@link #payload()} holds its bytes and
     * {@link #value()} their {@link PayloadChecksum}.
     */
    public static final int VALUE_CAPTURED = 5;

    /** The events a journal records. */
    public enum Kind
    {
        /**
         * First record of every journal: {@link #value()} the wall-clock epoch millis at the same
         * instant as {@link #nanos()}, {@link #node()} / {@link #stream()} the format's major / minor version.
         */
        HEADER(1),
        /**
         * Start of the run: names, config; {@link #value()} the config hash, {@link #text()} the
         * config text, {@link #node()} / {@link #stream()} the number of nodes / streams.
         */
        RUN_START(2),
        /** A packet added to a graph input stream: stream, timestamp, value (worker -1: the adding thread). */
        GRAPH_INPUT(3),
        /** A packet a node emitted, as delivered: worker, node, stream, timestamp, value. */
        EMIT(4),
        /** A node's call began: worker, node, input timestamp (Unstarted for open, Done for close). */
        PROCESS_BEGIN(5),
        /** A node's call returned (or threw): worker, node, input timestamp. */
        PROCESS_END(6),
        /** A packet or input set dropped: worker, node, stream (-1: a whole input set), timestamp, {@link #reason()}. */
        DROP(7),
        /** A stream's bound moved other than past a packet: worker, stream, timestamp = the new bound. */
        BOUND(8),
        /** A failure: worker, node (-1 if not a node's), timestamp, {@link #text()} the message. */
        ERROR(9),
        /** End of the run: {@link #text()} "done", "failed" or "cancelled"; {@link #value()} records lost in total. */
        RUN_END(10),
        /** ASYNC only: {@link #value()} records lost since the previous LOST because the ring was full. */
        LOST(11),
        /**
         * Since 1.3, a node's note of a rare event (a camera's timestamp jump, a dropout): worker,
         * node, timestamp, {@link #value()} (the calculator documents which), {@link #text()}.
         */
        NOTE(13),
        /**
         * Since 1.5, a subgraph added to the running graph: {@link #text()} its name,
         * {@link #subgraph()} its template, parameters, bindings and the ids its nodes and streams
         * got; {@link #value()} the template text's hash. The records of its nodes and streams
         * come after it.
         */
        SUBGRAPH_ADDED(15),
        /**
         * Since 1.5, a subgraph's removal asked for: {@link #text()} its name, {@link #value()} the
         * drain deadline in nanoseconds, {@link #subgraph()} both deadlines.
         */
        SUBGRAPH_REMOVED(16),
        /**
         * Since 1.5, a subgraph left the graph (removed, or closed on its own): {@link #text()} its
         * name, {@link #value()} the packets it dropped over its life, {@link #subgraph()} whether it
         * drained.
         */
        SUBGRAPH_LEFT(17),
        /**
         * Since 1.10, a payload captured as a node emitted it (its stream is a capture stream):
         * worker, node, stream, timestamp, {@link #value()} the XXH64 of its bytes,
         * {@link #payload()} its bytes, {@link #shape()} its frame's shape. The packet's
         * {@link #EMIT} record is journaled as for any stream; the two share stream and timestamp.
         */
        CAPTURED(22);

        final int code;

        Kind(final int code)
        {
            this.code = code;
        }

        /**
         * The kind's code on disk (and its message type in the ASYNC ring).
         *
         * @return 1 and up.
         */
        public int code()
        {
            return code;
        }

        private static final Kind[] BY_CODE = new Kind[32];

        static
        {
            for (final Kind kind : values())
            {
                BY_CODE[kind.code] = kind;
            }
        }

        /**
         * The kind of a code.
         *
         * @param code a code from disk.
         * @return the kind, or null for an unknown code.
         */
        public static Kind ofCode(final int code)
        {
            return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
        }
    }

    private final long index;
    private final Kind kind;
    private final long nanos;
    private final int worker;
    private final int node;
    private final int stream;
    private final long timestamp;
    private final int aux;
    private final long value;
    private final String text;
    private final byte[] payload;
    private final String workerName;
    private final String nodeName;
    private final String streamName;
    private final JournalSubgraph subgraph;
    private final PayloadShape shape;

    JournalRecord(
        final long index,
        final Kind kind,
        final long nanos,
        final int worker,
        final int node,
        final int stream,
        final long timestamp,
        final int aux,
        final long value,
        final String text,
        final byte[] payload,
        final String workerName,
        final String nodeName,
        final String streamName)
    {
        this(index, kind, nanos, worker, node, stream, timestamp, aux, value, text, payload, workerName, nodeName,
            streamName, null);
    }

    /** A record, with the shape of a {@link Kind#CAPTURED} payload (null for others). */
    JournalRecord(
        final long index,
        final Kind kind,
        final long nanos,
        final int worker,
        final int node,
        final int stream,
        final long timestamp,
        final int aux,
        final long value,
        final String text,
        final byte[] payload,
        final String workerName,
        final String nodeName,
        final String streamName,
        final PayloadShape shape)
    {
        this.index = index;
        this.kind = kind;
        this.nanos = nanos;
        this.worker = worker;
        this.node = node;
        this.stream = stream;
        this.timestamp = timestamp;
        this.aux = aux;
        this.value = value;
        this.text = text;
        this.payload = payload;
        this.workerName = workerName;
        this.nodeName = nodeName;
        this.streamName = streamName;
        this.subgraph = null;
        this.shape = shape;
    }

    /** A subgraph record: its name is the text, the rest in {@code subgraph}. */
    JournalRecord(
        final long index,
        final Kind kind,
        final long nanos,
        final int node,
        final int stream,
        final int aux,
        final long value,
        final JournalSubgraph subgraph)
    {
        this.index = index;
        this.kind = kind;
        this.nanos = nanos;
        this.worker = -1;
        this.node = node;
        this.stream = stream;
        this.timestamp = Timestamp.UNSET;
        this.aux = aux;
        this.value = value;
        this.text = subgraph.name();
        this.payload = null;
        this.workerName = JournalReader.CALLER;
        this.nodeName = null;
        this.streamName = null;
        this.subgraph = subgraph;
        this.shape = null;
    }

    /**
     * Position of this record in its journal, counting from 0 (the header).
     *
     * @return the index.
     */
    public long index()
    {
        return index;
    }

    /**
     * What happened.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * The writer's {@link System#nanoTime()} when the event was journaled; see {@link Kind#HEADER}
     * for the wall clock.
     *
     * @return nanos.
     */
    public long nanos()
    {
        return nanos;
    }

    /**
     * The worker whose thread journaled it, -1 for any other thread (graph inputs, the graph's owner).
     *
     * @return the worker id.
     */
    public int worker()
    {
        return worker;
    }

    /**
     * The node, -1 if none.
     *
     * @return the node id.
     */
    public int node()
    {
        return node;
    }

    /**
     * The stream, -1 if none.
     *
     * @return the stream id.
     */
    public int stream()
    {
        return stream;
    }

    /**
     * The packet timestamp, input timestamp or bound; {@link Timestamp#UNSET} if none.
     *
     * @return the timestamp.
     */
    public long timestamp()
    {
        return timestamp;
    }

    /**
     * For {@link Kind#EMIT} and {@link Kind#GRAPH_INPUT}, how to read {@link #value()}: one of the
     * {@code VALUE_*} constants.
     *
     * @return the value kind, 0 for other kinds.
     */
    public int valueKind()
    {
        return kind == Kind.EMIT || kind == Kind.GRAPH_INPUT || kind == Kind.CAPTURED ? aux : VALUE_NONE;
    }

    /**
     * For {@link Kind#DROP}, why: {@link #POLICY}, {@link #FLOW_LIMIT}, {@link #MEMORY},
     * {@link #FAILURE} or {@link #CLOSE}.
     *
     * @return the reason, 0 for other kinds.
     */
    public int reason()
    {
        return kind == Kind.DROP ? aux : 0;
    }

    /**
     * The value: see {@link #valueKind()} and each {@link Kind}.
     *
     * @return the value.
     */
    public long value()
    {
        return value;
    }

    /**
     * The text of {@link Kind#ERROR} (message), {@link Kind#NOTE}, {@link Kind#RUN_END} (how),
     * {@link Kind#RUN_START} (config text) and the subgraph records (the subgraph's name).
     *
     * @return the text, or null.
     */
    public String text()
    {
        return text;
    }

    /**
     * What a {@link Kind#SUBGRAPH_ADDED}, {@link Kind#SUBGRAPH_REMOVED} or {@link Kind#SUBGRAPH_LEFT}
     * record says of its subgraph.
     *
     * @return the subgraph's record, or null for other kinds.
     */
    public JournalSubgraph subgraph()
    {
        return subgraph;
    }

    /**
     * The shape of a {@link Kind#CAPTURED} payload: a frame's width, height, stride and pixel format.
     *
     * @return the shape, or null for other records.
     */
    public PayloadShape shape()
    {
        return shape;
    }

    /**
     * The captured bytes of a {@link #VALUE_CAPTURED} graph input, or of a {@link Kind#CAPTURED} emit.
     *
     * @return a read-only view, or null if nothing was captured.
     */
    public ByteBuffer payload()
    {
        return payload == null ? null : ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /**
     * The worker's name, "-" for -1.
     *
     * @return the name.
     */
    public String workerName()
    {
        return workerName;
    }

    /**
     * The node's name, or null if none.
     *
     * @return the name.
     */
    public String nodeName()
    {
        return nodeName;
    }

    /**
     * The stream's name, or null if none.
     *
     * @return the name.
     */
    public String streamName()
    {
        return streamName;
    }

    /**
     * Names a drop reason.
     *
     * @param reason one of the reason constants.
     * @return "policy", "flow limit", "memory", "failure", "close", or "reason N".
     */
    public static String reasonName(final int reason)
    {
        switch (reason)
        {
            case POLICY:
                return "policy";
            case FLOW_LIMIT:
                return "flow limit";
            case MEMORY:
                return "memory";
            case FAILURE:
                return "failure";
            case CLOSE:
                return "close";
            default:
                return "reason " + reason;
        }
    }

    /**
     * The value as text, by its kind: the number, the double, the checksum in hex, the length.
     *
     * @return the text, empty when nothing was recorded.
     */
    public String valueText()
    {
        switch (valueKind())
        {
            case VALUE_LONG:
                return Long.toString(value);
            case VALUE_DOUBLE:
                return Double.toString(Double.longBitsToDouble(value));
            case VALUE_CHECKSUM:
                return "checksum " + hex(value);
            case VALUE_PAYLOAD:
                return "payload " + value + " B";
            case VALUE_CAPTURED:
                return "captured " + (payload == null ? 0 : payload.length) + " B, checksum " + hex(value);
            default:
                return "";
        }
    }

    static String hex(final long value)
    {
        final String digits = Long.toHexString(value);
        return "0x" + "0000000000000000".substring(digits.length()) + digits;
    }

    /**
     * One line, as a dump prints it.
     *
     * @return the record as text.
     */
    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder(96);
        sb.append('#').append(index).append(' ').append(kind).append(" nanos=").append(nanos);
        if (worker >= 0)
        {
            sb.append(" worker=").append(workerName);
        }
        if (nodeName != null)
        {
            sb.append(" node=").append(nodeName);
        }
        if (streamName != null)
        {
            sb.append(" stream=").append(streamName);
        }
        switch (kind)
        {
            case HEADER:
                sb.append(" format=").append(node).append('.').append(stream).append(" epochMillis=").append(value);
                break;
            case RUN_START:
                sb.append(" configHash=").append(hex(value));
                break;
            case BOUND:
                sb.append(" bound=").append(Timestamp.toString(timestamp));
                break;
            case DROP:
                sb.append(" ts=").append(Timestamp.toString(timestamp)).append(" reason=").append(reasonName(aux));
                break;
            case RUN_END:
                sb.append(" how=").append(text).append(" lost=").append(value);
                break;
            case LOST:
                sb.append(" lost=").append(value);
                break;
            case ERROR:
                sb.append(" ts=").append(Timestamp.toString(timestamp)).append(" message=").append(text);
                break;
            case NOTE:
                sb.append(" ts=").append(Timestamp.toString(timestamp)).append(" value=").append(value)
                    .append(" note=").append(text);
                break;
            case SUBGRAPH_ADDED:
            case SUBGRAPH_REMOVED:
            case SUBGRAPH_LEFT:
                sb.append(' ').append(subgraph.describe());
                break;
            default:
                sb.append(" ts=").append(Timestamp.toString(timestamp));
                final String v = valueText();
                if (!v.isEmpty())
                {
                    sb.append(" value=").append(v);
                }
        }
        return sb.toString();
    }

    /**
     * Equal records: same kind, nanos, ids, timestamp, value, text and bytes (names follow from ids).
     *
     * @param o another object.
     * @return whether equal.
     */
    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof JournalRecord))
        {
            return false;
        }
        final JournalRecord r = (JournalRecord)o;
        return index == r.index && kind == r.kind && nanos == r.nanos && worker == r.worker && node == r.node &&
            stream == r.stream && timestamp == r.timestamp && aux == r.aux && value == r.value &&
            java.util.Objects.equals(text, r.text) && java.util.Arrays.equals(payload, r.payload);
    }

    @Override
    public int hashCode()
    {
        return java.util.Objects.hash(kind, nanos, worker, node, stream, timestamp, value);
    }
}
