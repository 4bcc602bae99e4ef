package dev.framewire.journal;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The run as its journal has told it so far, while it is read: the format version (from the
 * header, or the run start when the header is damaged), the run start's config, engine version and
 * names of nodes, streams and workers, its topology and its capture and checksum streams, grown by
 * each subgraph added at run time (format 1.5). The decoders check a record's ids against it and
 * resolve its names from it; {@link JournalReader} keeps what it holds at the end of the read.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RunNames
{
    boolean headerSeen;
    /** Whether a RUN_START was read: ids are checked from then on. */
    boolean started;
    int major = -1;
    int minor = -1;
    long headerEpochMillis;
    long headerNanos;
    long configHash;
    String configText;
    String engineVersion;
    String[] nodes = new String[0];
    String[] streams = new String[0];
    String[] workers = new String[0];
    /** The streams each node consumes, or null when the run start did not give the topology. */
    int[][] nodeInputs;
    final Set<String> captureStreams = new LinkedHashSet<>();
    final Set<String> checksumStreams = new LinkedHashSet<>();

    /** The version read, or this reader's before any. */
    String version()
    {
        return major < 0 ? JournalDescriptor.FORMAT_MAJOR + "." + JournalDescriptor.FORMAT_MINOR : major + "." + minor;
    }

    /**
     * Once the run has started, a record's worker, node and stream must be the run's (or -1).
     *
     * @param kind the record's kind, for the message.
     * @throws CorruptRecord naming the id out of range.
     */
    void checkIds(final JournalRecord.Kind kind, final int worker, final int node, final int stream)
    {
        if (started)
        {
            check(kind, "worker", worker, workers.length);
            check(kind, "node", node, nodes.length);
            check(kind, "stream", stream, streams.length);
        }
    }

    private static void check(final JournalRecord.Kind kind, final String what, final int id, final int count)
    {
        if (id < -1 || id >= count)
        {
            throw new CorruptRecord("the record (" + kind + ") names " + what + " " + id + ", but the run has " +
                count + " " + what + "s");
        }
    }

    String workerName(final int worker)
    {
        return worker >= 0 && worker < workers.length ? workers[worker] : JournalReader.CALLER;
    }

    String nodeName(final int node)
    {
        return node >= 0 && node < nodes.length ? nodes[node] : null;
    }

    String streamName(final int stream)
    {
        return stream >= 0 && stream < streams.length ? streams[stream] : null;
    }

    /** A RUN_START read whole: the run's names, topology and flagged streams from now on. */
    void start(
        final String version,
        final String config,
        final long hash,
        final String[] nodeNames,
        final String[] streamNames,
        final String[] workerNames,
        final int[][] inputs,
        final int[] captured,
        final int[] checksummed)
    {
        engineVersion = version;
        configText = config;
        nodes = nodeNames;
        streams = streamNames;
        workers = workerNames;
        nodeInputs = inputs;
        flag(captured, checksummed);
        configHash = hash;
        started = true;
    }

    /** A SUBGRAPH_ADDED record read whole: the run has its nodes and streams from now on. */
    void learn(final JournalSubgraph subgraph, final int[] captured, final int[] checksummed)
    {
        final int[] nodeIds = subgraph.nodeIds();
        if (nodeIds.length > 0)
        {
            final int length = nodeIds[nodeIds.length - 1] + 1;
            final String[] grown = Arrays.copyOf(nodes, length);
            for (int n = nodes.length; n < length; n++)
            {
                grown[n] = "node#" + n; // a gap: a subgraph record lost to damage
            }
            for (int i = 0; i < nodeIds.length; i++)
            {
                grown[nodeIds[i]] = subgraph.nodeNames().get(i);
            }
            if (nodeInputs != null)
            {
                final int[][] inputs = Arrays.copyOf(nodeInputs, length);
                for (int n = nodes.length; n < length; n++)
                {
                    inputs[n] = new int[0]; // a gap: a subgraph record lost to damage
                }
                for (int i = 0; i < nodeIds.length; i++)
                {
                    inputs[nodeIds[i]] = subgraph.nodeInputs(i);
                }
                nodeInputs = inputs;
            }
            nodes = grown;
        }
        final int[] streamIds = subgraph.streamIds();
        if (streamIds.length > 0)
        {
            final String[] grown = Arrays.copyOf(streams, streamIds[streamIds.length - 1] + 1);
            for (int n = streams.length; n < grown.length; n++)
            {
                grown[n] = "stream#" + n; // a gap: a subgraph record lost to damage
            }
            for (int i = 0; i < streamIds.length; i++)
            {
                grown[streamIds[i]] = subgraph.streamNames().get(i);
            }
            streams = grown;
        }
        flag(captured, checksummed);
    }

    private void flag(final int[] captured, final int[] checksummed)
    {
        for (final int s : captured)
        {
            captureStreams.add(streams[s]);
        }
        for (final int s : checksummed)
        {
            checksumStreams.add(streams[s]);
        }
    }
}
