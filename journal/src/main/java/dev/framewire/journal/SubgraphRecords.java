package dev.framewire.journal;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Encodes the records of subgraphs added and removed at run time (format 1.5: SUBGRAPH_ADDED,
 * SUBGRAPH_REMOVED, SUBGRAPH_LEFT; the fields are in docs/JOURNAL.md) for {@link JournalWriter},
 * which appends them in order. Each reads the clock for its {@code nanos}. Allocates: these
 * records are rare.
 *
 * <p>Threading: stateless.
 */
final class SubgraphRecords
{
    private SubgraphRecords()
    {
    }

    /**
     * A SUBGRAPH_ADDED record: see {@link dev.framewire.core.journal.JournalSink#subgraphAdded}.
     *
     * @param captured the ids of the subgraph's streams whose payloads are captured.
     * @param checksummed the ids of the subgraph's streams whose payloads are checksummed.
     * @return the record.
     */
    static RecordBuilder added(
        final String name,
        final String templateText,
        final String[] paramNames,
        final String[] paramTypes,
        final String[] paramValues,
        final String[] boundInputs,
        final String[] boundStreams,
        final int[] nodeIds,
        final String[] nodeNames,
        final int[][] nodeInputStreams,
        final int[] streamIds,
        final String[] streamNames,
        final int[] captured,
        final int[] checksummed)
    {
        final RecordBuilder record = new RecordBuilder()
            .fixed(JournalDescriptor.SUBGRAPH_ADDED, 0, -1, nodeIds.length > 0 ? nodeIds[0] : -1,
                streamIds.length > 0 ? streamIds[0] : -1, System.nanoTime(), Long.MIN_VALUE,
                JournalWriter.configHash(templateText))
            .putText(name)
            .putText(templateText)
            .putInt(paramNames.length);
        for (int p = 0; p < paramNames.length; p++)
        {
            record.putText(paramNames[p]).putText(paramTypes[p]).putInt(paramValues[p] != null ? 1 : 0)
                .putText(paramValues[p] != null ? paramValues[p] : "");
        }
        record.putInt(boundInputs.length);
        for (int b = 0; b < boundInputs.length; b++)
        {
            record.putText(boundInputs[b]).putText(boundStreams[b]);
        }
        record.putInts(nodeIds).putTexts(nodeNames).putInt(nodeInputStreams.length);
        for (final int[] inputs : nodeInputStreams)
        {
            record.putInts(inputs);
        }
        return record.putInts(streamIds).putTexts(streamNames).putInts(captured).putInts(checksummed);
    }

    /**
     * The ids of the streams whose names are among some names (the streams captured or checksummed).
     *
     * @return them, in the order of {@code streamIds}.
     */
    static int[] named(final int[] streamIds, final String[] streamNames, final String[] names)
    {
        final List<String> list = Arrays.asList(names);
        return IntStream.range(0, streamIds.length).filter(s -> list.contains(streamNames[s]))
            .map(s -> streamIds[s]).toArray();
    }

    /**
     * A SUBGRAPH_REMOVED record: see {@link dev.framewire.core.journal.JournalSink#subgraphRemoved}.
     *
     * @return the record.
     */
    static RecordBuilder removed(final String name, final long drainDeadlineNanos,
        final long cancelDeadlineNanos)
    {
        return new RecordBuilder()
            .fixed(JournalDescriptor.SUBGRAPH_REMOVED, 0, -1, -1, -1, System.nanoTime(), Long.MIN_VALUE,
                drainDeadlineNanos)
            .putText(name)
            .putLong(cancelDeadlineNanos);
    }

    /**
     * A SUBGRAPH_LEFT record: see {@link dev.framewire.core.journal.JournalSink#subgraphLeft}.
     *
     * @return the record.
     */
    static RecordBuilder left(final String name, final boolean drained, final long droppedPackets)
    {
        return new RecordBuilder()
            .fixed(JournalDescriptor.SUBGRAPH_LEFT, drained ? 1 : 0, -1, -1, -1, System.nanoTime(), Long.MIN_VALUE,
                droppedPackets)
            .putText(name);
    }
}
