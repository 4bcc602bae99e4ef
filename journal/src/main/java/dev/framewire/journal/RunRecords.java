package dev.framewire.journal;

/**
 * Encodes the records that open a run's journal for {@link JournalWriter}: the HEADER (format,
 * magic, the writing process) and RUN_START (the config, the names, which streams each node
 * consumes, which are captured and checksummed; the fields are in docs/JOURNAL.md). Each reads the
 * clocks for its {@code nanos} and wall time. Allocates: once a run.
 *
 * <p>Threading: stateless.
 */
final class RunRecords
{
    private RunRecords()
    {
    }

    /** The HEADER record, the journal's first. */
    static RecordBuilder header()
    {
        return new RecordBuilder()
            .fixed(JournalDescriptor.HEADER, 0, -1, JournalDescriptor.FORMAT_MAJOR, JournalDescriptor.FORMAT_MINOR,
                System.nanoTime(), Long.MIN_VALUE, System.currentTimeMillis())
            .putLong(JournalDescriptor.MAGIC)
            .putLong(ProcessHandle.current().pid());
    }

    /**
     * The RUN_START record: see {@link JournalWriter#runStart(String, long, String, String[], String[], String[], int[][])}.
     *
     * @param captureIds  the ids of the streams whose payloads are captured.
     * @param checksumIds the ids of the streams whose payloads are checksummed.
     * @return the record.
     */
    static RecordBuilder runStart(
        final String configText,
        final long configHash,
        final String engineVersion,
        final String[] nodeNames,
        final String[] streamNames,
        final String[] workerNames,
        final int[][] nodeInputStreams,
        final int[] captureIds,
        final int[] checksumIds)
    {
        final RecordBuilder record = new RecordBuilder()
            .fixed(JournalDescriptor.RUN_START, 0, -1, nodeNames.length, streamNames.length, System.nanoTime(),
                Long.MIN_VALUE, configHash)
            .putInt(JournalDescriptor.FORMAT_MAJOR)
            .putInt(JournalDescriptor.FORMAT_MINOR)
            .putLong(System.currentTimeMillis())
            .putText(engineVersion)
            .putText(configText)
            .putTexts(nodeNames)
            .putTexts(streamNames)
            .putTexts(workerNames);
        if (nodeInputStreams == null)
        {
            record.putInt(-1);
        }
        else
        {
            record.putInt(nodeInputStreams.length);
            for (final int[] inputs : nodeInputStreams)
            {
                record.putInts(inputs == null ? new int[0] : inputs);
            }
        }
        return record.putInts(captureIds).putInts(checksumIds);
    }
}
