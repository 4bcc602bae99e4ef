package dev.framewire.journal;

import dev.framewire.core.journal.JournalSink;
import dev.framewire.offheap.Payload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import static dev.framewire.journal.JournalRecord.VALUE_CHECKSUM;
import static dev.framewire.journal.JournalRecord.VALUE_DOUBLE;
import static dev.framewire.journal.JournalRecord.VALUE_LONG;
import static dev.framewire.journal.JournalRecord.VALUE_NONE;
import static dev.framewire.journal.JournalRecord.VALUE_PAYLOAD;

/**
 * What a packet's value is journaled as, by stream: a payload of a capture stream is copied
 * whole, of a checksum stream checksummed (XXH64), else recorded by its length; a long or double
 * by its bits; any other object by nothing. The capture and checksum streams are named in the
 * {@link dev.framewire.core.journal.JournalConfig}, resolved to stream ids at run start, and
 * grow when a subgraph whose streams are named comes at run time.
 *
 * <p>Threading: {@link #start} before the workers start, {@link #subgraphAdded} before the
 * engine publishes the subgraph (a volatile write), which publishes the flags to the threads that
 * reach its streams; the lookups from any thread.
 */
final class PacketValues
{
    /** How a subgraph added at run time prefixes its streams' names ({@code SubgraphExpander.SEPARATOR}). */
    private static final String SUBGRAPH_SEPARATOR = dev.framewire.core.SubgraphExpander.SEPARATOR;

    private final String[] captureNames;
    private final String[] checksumNames;
    /** By stream id, set at run start. */
    private boolean[] capture = new boolean[0];
    private boolean[] checksum = new boolean[0];

    PacketValues(final String[] captureNames, final String[] checksumNames)
    {
        this.captureNames = captureNames;
        this.checksumNames = checksumNames;
    }

    /** Whether any stream's payloads are captured, or may be once a subgraph comes. */
    boolean capturesAny()
    {
        return captureNames.length != 0;
    }

    /**
     * By stream id, whether its payloads are captured ({@code capture}) or checksummed.
     *
     * @throws IllegalArgumentException naming a stream of the settings that is not among the streams.
     */
    boolean[] flags(final String[] streamNames, final boolean capture)
    {
        final Map<String, Integer> ids = new HashMap<>();
        for (int s = 0; s < streamNames.length; s++)
        {
            ids.put(streamNames[s], s);
        }
        final String what = capture ? "capture" : "checksum";
        final boolean[] flags = new boolean[streamNames.length];
        for (final String name : capture ? captureNames : checksumNames)
        {
            final Integer id = ids.get(name);
            if (id == null && name.contains(SUBGRAPH_SEPARATOR))
            {
                continue; // a stream of a subgraph added at run time, flagged when it is added
            }
            if (id == null)
            {
                throw new IllegalArgumentException("journal " + what + " stream '" + name + "' is not a stream of " +
                    "this graph; its streams are " + Arrays.toString(streamNames) + " (a stream of a subgraph added " +
                    "at run time is named subgraph" + SUBGRAPH_SEPARATOR + "stream)");
            }
            flags[id] = true;
        }
        return flags;
    }

    /** At run start: the graph's flags, from {@link #flags}. */
    void start(final boolean[] capture, final boolean[] checksum)
    {
        this.capture = capture;
        this.checksum = checksum;
    }

    /** By stream id, whether its payloads are captured (for the lighter levels). */
    boolean[] captureFlags()
    {
        return capture;
    }

    /** The ids of the streams whose payloads are captured, ascending (for the run start record). */
    int[] captureIds()
    {
        return ids(capture);
    }

    /** The ids of the streams whose payloads are checksummed, ascending (for the run start record). */
    int[] checksumIds()
    {
        return ids(checksum);
    }

    private static int[] ids(final boolean[] flags)
    {
        int n = 0;
        for (final boolean f : flags)
        {
            n += f ? 1 : 0;
        }
        final int[] ids = new int[n];
        n = 0;
        for (int i = 0; i < flags.length; i++)
        {
            if (flags[i])
            {
                ids[n++] = i;
            }
        }
        return ids;
    }

    /** Of a subgraph's streams, the ids of those the settings name for capture. */
    int[] captured(final int[] streamIds, final String[] streamNames)
    {
        return SubgraphRecords.named(streamIds, streamNames, captureNames);
    }

    /** Of a subgraph's streams, the ids of those the settings name for a checksum. */
    int[] checksummed(final int[] streamIds, final String[] streamNames)
    {
        return SubgraphRecords.named(streamIds, streamNames, checksumNames);
    }

    /**
     * A subgraph's streams named in the settings ({@code cam7__frames}) are captured or
     * checksummed like the graph's own from now on. Plain writes: the engine publishes the
     * subgraph (a volatile write) after this returns, and its adders and workers reach its streams
     * through that.
     */
    synchronized void subgraphAdded(final int[] streamIds, final int[] captured, final int[] checksummed)
    {
        int last = capture.length - 1;
        for (final int id : streamIds)
        {
            last = Math.max(last, id);
        }
        final boolean[] capture = Arrays.copyOf(this.capture, last + 1);
        final boolean[] checksum = Arrays.copyOf(this.checksum, last + 1);
        for (final int id : captured)
        {
            capture[id] = true;
        }
        for (final int id : checksummed)
        {
            checksum[id] = true;
        }
        this.checksum = checksum;
        this.capture = capture;
    }

    /** Whether a stream's payloads are captured. */
    boolean captures(final int streamId)
    {
        final boolean[] capture = this.capture;
        return streamId >= 0 && streamId < capture.length && capture[streamId];
    }

    /**
     * What a value is journaled as: a {@code JournalRecord.VALUE_*} kind.
     *
     * @param hasWord whether the caller gave the word a {@link JournalSink#LONG} or
     *                {@link JournalSink#DOUBLE} packet's bits are in.
     */
    int kind(final int streamId, final Object value, final boolean hasWord)
    {
        if (value instanceof Payload)
        {
            return streamId >= 0 && streamId < checksum.length && checksum[streamId] ? VALUE_CHECKSUM : VALUE_PAYLOAD;
        }
        if (value == JournalSink.LONG)
        {
            return hasWord ? VALUE_LONG : VALUE_NONE;
        }
        if (value == JournalSink.DOUBLE)
        {
            return hasWord ? VALUE_DOUBLE : VALUE_NONE;
        }
        if (value instanceof Long)
        {
            return VALUE_LONG;
        }
        if (value instanceof Double)
        {
            return VALUE_DOUBLE;
        }
        return VALUE_NONE;
    }

    /** The record's value word for a value of {@code kind}: a checksum, a length, bits, or 0. */
    static long word(final int kind, final Object value, final long word)
    {
        switch (kind)
        {
            case VALUE_CHECKSUM:
            {
                final Payload payload = (Payload)value;
                return PayloadChecksum.of(payload.buffer(), 0, payload.length());
            }
            case VALUE_PAYLOAD:
                return ((Payload)value).length();
            case VALUE_LONG:
                return value instanceof Long ? (Long)value : word;
            case VALUE_DOUBLE:
                return value instanceof Double ? Double.doubleToRawLongBits((Double)value) : word;
            default:
                return 0;
        }
    }

    /**
     * The streams no node takes as input: the graph's outputs (and unconsumed streams), what the
     * lighter levels keep of packets.
     *
     * @param streamCount      the number of streams.
     * @param nodeInputStreams by node id, the stream ids of its inputs; null if unknown (then every stream).
     * @return by stream id, whether it ends in no node.
     */
    static boolean[] endStreams(final int streamCount, final int[][] nodeInputStreams)
    {
        final boolean[] ends = new boolean[streamCount];
        Arrays.fill(ends, true);
        if (nodeInputStreams != null)
        {
            for (final int[] inputs : nodeInputStreams)
            {
                for (final int s : inputs == null ? new int[0] : inputs)
                {
                    if (s >= 0 && s < ends.length)
                    {
                        ends[s] = false;
                    }
                }
            }
        }
        return ends;
    }
}
