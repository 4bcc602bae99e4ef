package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ASYNC journals since format 1.4: the agent appends what it takes off its rings in one go as
 * one BATCH document. Every record reads back in order, each with a number of its own; a record
 * too long for a batch goes alone; a damaged batch is reported (one checksum covers it all) and
 * the reader goes on after it; a batch whose framing lies under an intact checksum is reported as
 * corrupt, naming the record and the bytes, never read past its end.
 */
@Timeout(120)
class JournalBatchTest
{
    private static final int RECORDS = 20_000;
    /** A text longer than a batch holds (64 KiB). */
    private static final String LONG_TEXT = "x".repeat(70_000);

    @TempDir
    Path dir;
    Path run;
    Path file;
    JournalScanner.Documents documents;
    /** The BATCH document with the most bytes. */
    int biggest;

    @BeforeEach
    void writeJournal() throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            for (int i = 0; i < RECORDS; i++)
            {
                writer.processBegin(-1, 1, i); // the caller's ring, as a graph input's adder would
                if (i == RECORDS / 2)
                {
                    writer.error(-1, 1, i, LONG_TEXT);
                }
            }
            writer.runEnd("done");
        }
        final List<Path> files = JournalFiles.cycleFiles(run);
        assertEquals(1, files.size());
        file = files.get(0);
        documents = JournalScanner.documents(file);
        biggest = -1;
        for (int d = 0; d < documents.lengths.size(); d++)
        {
            final boolean batch = (readInt(documents.bodies.getLong(d)) & 0xFF) == JournalDescriptor.BATCH;
            if (batch && (biggest < 0 || documents.lengths.getInt(d) > documents.lengths.getInt(biggest)))
            {
                biggest = d;
            }
        }
        assertTrue(biggest >= 0, "no BATCH document among " + documents.lengths.size());
    }

    @Test
    void everyRecordReadsBackInOrderFromFewerDocuments() throws Exception
    {
        final JournalReader reader = JournalReader.read(run);
        final List<JournalRecord> records = reader.records();
        assertEquals(JournalDescriptor.FORMAT_MINOR, reader.formatMinor());
        // header, run start, the calls and the error, the run's end
        assertEquals(2 + RECORDS + 1 + 1, records.size());
        int call = 0;
        for (final JournalRecord r : records)
        {
            assertEquals(records.indexOf(r), r.index(), "numbered one by one, batch or not");
            if (r.kind() == JournalRecord.Kind.PROCESS_BEGIN)
            {
                assertEquals(call++, r.timestamp());
                assertEquals("detector", r.nodeName());
            }
            else if (r.kind() == JournalRecord.Kind.ERROR)
            {
                assertEquals(LONG_TEXT, r.text());
                assertEquals(RECORDS / 2 + 1, call, "in its place among the calls");
            }
        }
        assertEquals(RECORDS, call);
        assertEquals("done", reader.runEnd().text());
        assertTrue(documents.lengths.size() < records.size() / 4,
            documents.lengths.size() + " documents for " + records.size() + " records: the agent batched");
    }

    @Test
    void aDamagedBatchIsReportedAndTheRestIsRead() throws Exception
    {
        final long body = documents.bodies.getLong(biggest);
        final int count = readInt(body + JournalDescriptor.BATCH_COUNT_OFFSET);
        assertTrue(count > 1, "a batch of " + count);
        new JournalFileBytes(file).flip(body + JournalDescriptor.BATCH_RECORDS_OFFSET + 4 + JournalDescriptor.TIMESTAMP_OFFSET, 3);
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, damage.kind());
        assertEquals(body - 4, damage.byteOffset());
        // the batch's records are lost together; every other record is read
        assertEquals(2 + RECORDS + 2 - count, ex.readable().records().size(), ex.getMessage());
        assertEquals("done", ex.readable().runEnd().text());
    }

    @Test
    void aBatchWhoseLengthsLieIsReportedNotReadPastItsEnd() throws Exception
    {
        final long body = documents.bodies.getLong(biggest);
        final int count = readInt(body + JournalDescriptor.BATCH_COUNT_OFFSET);
        final int first = readInt(body + JournalDescriptor.BATCH_RECORDS_OFFSET);
        final long second = body + JournalDescriptor.BATCH_RECORDS_OFFSET + 4 + first;
        pokeInt(second, 1 << 20); // the second record claims a megabyte; the checksum is made to hold
        new JournalFileBytes(file).fixChecksum(body);
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("record 2 of a batch of " + count) &&
            damage.toString().contains("claims 1048576 bytes"), damage.toString());
        // the first record of the batch was read; the rest of it is skipped but keeps its numbers
        assertEquals(2 + RECORDS + 2 - (count - 1), ex.readable().records().size(), ex.getMessage());
        final List<JournalRecord> read = ex.readable().records();
        assertEquals(read.size() + count - 1, read.get(read.size() - 1).index() + 1, "numbers kept");
    }

    /**
     * A live journal read while the agent appends a document whose length is one bit (a batch may
     * be 128 bytes): complete but for its header, which Chronicle writes last. That is the end of
     * what was written so far, not a damaged header: nothing follows it.
     */
    @Test
    void aRecordBeingAppendedWithAOneBitLengthIsTheEndNotDamage() throws Exception
    {
        final Path live = dir.resolve("live");
        final String text = "e".repeat(128 - JournalDescriptor.FIXED_LENGTH - 4 - JournalDescriptor.CHECKSUM_LENGTH);
        final Path liveRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(live, JournalConfig.Mode.SYNC)))
        {
            liveRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            writer.processBegin(-1, 1, 1);
            writer.error(-1, 1, 2, text); // 128 bytes with its checksum
            writer.processEnd(-1, 1, 3);
            writer.runEnd("done");
        }
        file = JournalFiles.cycleFiles(liveRun).get(0);
        documents = JournalScanner.documents(file);
        int error = -1;
        for (int d = 0; d < documents.lengths.size(); d++)
        {
            error = documents.lengths.getInt(d) == 128 ? d : error;
        }
        assertTrue(error >= 0, "the 128-byte record");
        final long body = documents.bodies.getLong(error);
        // the file as a reader finds it while the writer appends that record: header not yet written,
        // nothing after it
        pokeInt(body - 4, 0);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(body + 128);
            raf.write(new byte[(int)Math.min(1 << 16, raf.length() - body - 128)]);
        }
        final JournalReader reader = JournalReader.read(liveRun);
        assertEquals(List.of(JournalRecord.Kind.HEADER, JournalRecord.Kind.RUN_START, JournalRecord.Kind.PROCESS_BEGIN),
            reader.records().stream().map(JournalRecord::kind).collect(java.util.stream.Collectors.toList()));
        assertEquals(null, reader.runEnd(), "no end of run yet");
    }

    private int readInt(final long position) throws IOException
    {
        return new JournalFileBytes(file).readInt(position);
    }

    private void pokeInt(final long position, final int value) throws IOException
    {
        new JournalFileBytes(file).pokeInt(position, value);
    }
}
