package dev.framewire.journal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the records of subgraphs added and removed at run time (format 1.5: SUBGRAPH_ADDED,
 * SUBGRAPH_REMOVED, SUBGRAPH_LEFT), which {@link SubgraphRecords} encodes, into
 * {@link JournalSubgraph}s. A SUBGRAPH_ADDED record is checked whole (its node and stream ids are
 * new and increasing, the streams its nodes consume known by then) before {@link #learn} gives the
 * run its names. Allocates: these records are rare.
 *
 * <p>Threading: confined to the reading thread.
 */
final class SubgraphRecordsDecoder
{
    private final RunNames names;
    private final RecordFields fields;
    /** The captured and checksummed streams of the SUBGRAPH_ADDED record being read. */
    private int[] captured = new int[0];
    private int[] checksummed = new int[0];

    SubgraphRecordsDecoder(final RunNames names, final RecordFields fields)
    {
        this.names = names;
        this.fields = fields;
    }

    /** A SUBGRAPH_REMOVED record's fields past the fixed ones. */
    JournalSubgraph removed(final long value)
    {
        return JournalSubgraph.removed(fields.text("subgraph name"), value, fields.getLong("cancel deadline"));
    }

    /** A SUBGRAPH_LEFT record's fields past the fixed ones. */
    JournalSubgraph left(final int aux, final long value)
    {
        return JournalSubgraph.left(fields.text("subgraph name"), aux == 1, value);
    }

    /**
     * A SUBGRAPH_ADDED record's tail, checked: its node and stream ids are new (beyond every id
     * known, increasing; a gap is a subgraph record lost to damage before), and the streams its
     * nodes consume are known by then. Nothing is learnt until the whole record has been read.
     */
    JournalSubgraph added(final int firstNode, final int firstStream)
    {
        final String name = fields.text("subgraph name");
        final String template = fields.text("template text");
        final List<JournalSubgraph.Parameter> parameters = parameters();
        final int bindingCount = fields.count("bindings", 8);
        final Map<String, String> bindings = new LinkedHashMap<>();
        for (int b = 0; b < bindingCount; b++)
        {
            bindings.put(fields.text("bound input"), fields.text("bound stream"));
        }
        final int[] nodeIds = fields.ints("node ids");
        final String[] nodeNames = fields.texts("node names");
        final int inputCount = fields.count("node inputs", 4);
        if (nodeNames.length != nodeIds.length || inputCount != nodeIds.length)
        {
            throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has " + nodeIds.length +
                " node ids, " + nodeNames.length + " node names and inputs for " + inputCount + " nodes");
        }
        final int[][] nodeInputs = new int[inputCount][];
        for (int n = 0; n < inputCount; n++)
        {
            nodeInputs[n] = fields.ints("node inputs");
        }
        final int[] streamIds = fields.ints("stream ids");
        final String[] streamNames = fields.texts("stream names");
        if (streamNames.length != streamIds.length)
        {
            throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has " + streamIds.length +
                " stream ids and " + streamNames.length + " stream names");
        }
        captured = fields.ints("captured streams");
        checksummed = fields.ints("checksummed streams");
        newIds(name, "node", nodeIds, names.nodes.length, firstNode);
        newIds(name, "stream", streamIds, names.streams.length, firstStream);
        checkConsumed(name, nodeInputs, streamIds);
        checkFlagged(name, streamIds);
        return JournalSubgraph.added(name, template, parameters, bindings, nodeIds, nodeNames, nodeInputs,
            streamIds, streamNames);
    }

    /** A SUBGRAPH_ADDED record read whole: the run has its nodes and streams from now on. */
    void learn(final JournalSubgraph subgraph)
    {
        names.learn(subgraph, captured, checksummed);
    }

    private List<JournalSubgraph.Parameter> parameters()
    {
        final int paramCount = fields.count("parameters", 12);
        final List<JournalSubgraph.Parameter> parameters = new ArrayList<>();
        for (int p = 0; p < paramCount; p++)
        {
            final String paramName = fields.text("parameter name");
            final String type = fields.text("parameter type");
            final int hasText = fields.getInt("parameter has text");
            final String value = fields.text("parameter value");
            if (hasText != 0 && hasText != 1)
            {
                throw new CorruptRecord("the record (SUBGRAPH_ADDED) marks parameter '" + paramName + "' with " +
                    hasText + ", neither 1 (has text) nor 0 (recorded by type only)");
            }
            parameters.add(new JournalSubgraph.Parameter(paramName, type, hasText == 1 ? value : null));
        }
        return parameters;
    }

    /** The streams the subgraph's nodes consume are the run's by then, its own included. */
    private void checkConsumed(final String name, final int[][] nodeInputs, final int[] streamIds)
    {
        final int streamCount = streamIds.length == 0 ? names.streams.length :
            Math.max(names.streams.length, streamIds[streamIds.length - 1] + 1);
        for (final int[] inputs : nodeInputs)
        {
            for (final int s : inputs)
            {
                if (s < 0 || s >= streamCount)
                {
                    throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' has a node " +
                        "consume stream " + s + ", but the run has " + streamCount + " streams by then");
                }
            }
        }
    }

    /** The streams flagged for capture or checksum are the subgraph's own. */
    private void checkFlagged(final String name, final int[] streamIds)
    {
        for (final int[] flagged : new int[][] {captured, checksummed})
        {
            for (final int s : flagged)
            {
                if (Arrays.stream(streamIds).noneMatch(id -> id == s))
                {
                    throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' flags stream " +
                        s + " for capture or checksum, which is not one of its streams " + Arrays.toString(streamIds));
                }
            }
        }
    }

    /** A subgraph's ids are new: increasing, from the first known beyond the run's (at most 2^20 ahead). */
    private static void newIds(final String name, final String what, final int[] ids, final int known, final int first)
    {
        int previous = known - 1;
        for (final int id : ids)
        {
            if (id <= previous || id > known + (1 << 20))
            {
                throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' gives its " + what +
                    " id " + id + ", but the run has " + known + " " + what + "s by then and a subgraph's ids are " +
                    "new and increasing");
            }
            previous = id;
        }
        if (first != (ids.length == 0 ? -1 : ids[0]))
        {
            throw new CorruptRecord("the record (SUBGRAPH_ADDED) of subgraph '" + name + "' says its first " + what +
                " is " + first + " but lists " + Arrays.toString(ids));
        }
    }
}
