package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.nio.file.Path;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;

/**
 * Decodes the records that say what the run is: the journal's HEADER (its magic and format
 * version: another major version is refused) and the RUN_START (engine version, config, the names
 * of nodes, streams and workers, the topology, the capture and checksum streams), into
 * {@link RunNames}. A RUN_START is read whole before any of it is kept, so one that fails part-way
 * leaves nothing of its own behind.
 *
 * <p>Threading: confined to the reading thread.
 */
final class RunStartDecoder
{
    private final Path run;
    private final RunNames names;
    private final RecordFields fields;

    RunStartDecoder(final Path run, final RunNames names, final RecordFields fields)
    {
        this.run = run;
        this.names = names;
        this.fields = fields;
    }

    /**
     * The journal's first record, which must be a Framewire journal header of this major version.
     *
     * @param code the record's kind code.
     * @return the HEADER record.
     * @throws RefusedJournal if it is not one.
     */
    JournalRecord header(final int code, final DirectBuffer buffer, final int length)
    {
        if (code != JournalDescriptor.HEADER || length < FIXED_LENGTH + 8 ||
            buffer.getLong(FIXED_LENGTH, ByteOrder.LITTLE_ENDIAN) != JournalDescriptor.MAGIC)
        {
            throw new RefusedJournal(run + " is not a Framewire journal: its first record is not a Framewire journal " +
                "header");
        }
        final int headerMajor = buffer.getInt(JournalDescriptor.NODE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int headerMinor = buffer.getInt(JournalDescriptor.STREAM_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (headerMajor != JournalDescriptor.FORMAT_MAJOR)
        {
            throw new RefusedJournal("journal " + run + " has format version " + headerMajor + "." + headerMinor +
                "; this Framewire reads format " + JournalDescriptor.FORMAT_MAJOR + ".x. Read it with the " +
                "Framewire version that wrote it.");
        }
        names.major = headerMajor;
        names.minor = headerMinor;
        names.headerSeen = true;
        names.headerNanos = buffer.getLong(JournalDescriptor.NANOS_OFFSET, ByteOrder.LITTLE_ENDIAN);
        names.headerEpochMillis = buffer.getLong(JournalDescriptor.VALUE_OFFSET, ByteOrder.LITTLE_ENDIAN);
        return new JournalRecord(0, JournalRecord.Kind.HEADER, names.headerNanos, -1, names.major, names.minor,
            Timestamp.UNSET, 0, names.headerEpochMillis, null, null, JournalReader.CALLER, null, null);
    }

    /**
     * A RUN_START record's fields past the fixed ones, checked and kept in {@link RunNames}.
     *
     * @param nodeCount the nodes its fixed fields count.
     * @param streamCount the streams its fixed fields count.
     * @param hash the config hash.
     */
    void runStart(final int nodeCount, final int streamCount, final long hash)
    {
        if (names.started)
        {
            throw new CorruptRecord("the record is a second RUN_START");
        }
        final int runMajor = fields.getInt("format major");
        final int runMinor = fields.getInt("format minor");
        if (!names.headerSeen && names.major < 0)
        {
            // the header record was damaged: the run start says the version too
            if (runMajor != JournalDescriptor.FORMAT_MAJOR)
            {
                throw new RefusedJournal("journal " + run + " has format version " + runMajor + "." + runMinor +
                    " (from its run start; its header is damaged); this Framewire reads format " +
                    JournalDescriptor.FORMAT_MAJOR + ".x. Read it with the Framewire version that wrote it.");
            }
            names.major = runMajor;
            names.minor = runMinor;
        }
        fields.getLong("start time");
        // read whole before any of it is kept: a record that fails part-way (damage) must not
        // leave names, inputs or flags of its own behind for a later RUN_START or the records after
        final String version = fields.text("engine version");
        final String config = fields.text("config text");
        final String[] nodeNames = fields.texts("node names");
        final String[] streamNames = fields.texts("stream names");
        final String[] workerNames = fields.texts("worker names");
        if (nodeNames.length != nodeCount || streamNames.length != streamCount)
        {
            throw new CorruptRecord("the record (RUN_START) counts " + nodeCount + " nodes and " + streamCount +
                " streams but names " + nodeNames.length + " and " + streamNames.length);
        }
        final int topology = fields.getInt("topology");
        int[][] inputs = null;
        if (topology >= 0)
        {
            if (topology != nodeNames.length)
            {
                throw new CorruptRecord("the record (RUN_START) gives inputs for " + topology + " of " +
                    nodeNames.length + " nodes");
            }
            inputs = new int[topology][];
            for (int n = 0; n < topology; n++)
            {
                inputs[n] = streamIds("node inputs", streamNames.length);
            }
        }
        final int[] captured = streamIds("capture streams", streamNames.length);
        final int[] checksummed = streamIds("checksum streams", streamNames.length);
        names.start(version, config, hash, nodeNames, streamNames, workerNames, inputs, captured, checksummed);
    }

    private int[] streamIds(final String what, final int streamCount)
    {
        final int[] ids = fields.ints(what);
        for (final int id : ids)
        {
            if (id < 0 || id >= streamCount)
            {
                throw new CorruptRecord("the record (RUN_START) lists stream " + id + " among its " + what +
                    ", but the run has " + streamCount + " streams");
            }
        }
        return ids;
    }
}
