package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.framewire.journal.JournalCallsTest.CALLS;
import static dev.framewire.journal.JournalCallsTest.NODE;
import static dev.framewire.journal.JournalCallsTest.WORKER;
import static dev.framewire.journal.JournalCallsTest.begins;
import static dev.framewire.journal.JournalCallsTest.firstRecordOfKind;
import static dev.framewire.journal.JournalCallsTest.formatOneSix;
import static dev.framewire.journal.JournalCallsTest.onTheWorkersThread;
import static dev.framewire.journal.JournalCallsTest.onlyDamage;
import static dev.framewire.journal.JournalCallsTest.recordLength;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged calls records (ASYNC journals, {@link JournalCallsTest}'s run): a record whose count lies or
 * whose entry's flags do not hold under an intact checksum, and a call of a node the run does not have,
 * are reported, never read past the record's end; the calls around them still read.
 */
@Timeout(120)
class JournalCallsDamageTest extends JournalCallsRun
{
    @Test
    void aDenseCallsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        assertEquals(64, bytes.readInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET), "the first staging went out full");
        final int length = recordLength(bytes, calls);

        // more calls than it holds: its entries run out before the count
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 1000); // the checksum is made to hold
        bytes.fixChecksum(calls[1]);
        JournalDamage damage = onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length +
            " bytes claims 1000 calls, but its entries run past its end after 64"), damage.toString());
        // those 64 calls are lost together, the other calls read
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());

        // fewer: bytes are left after the last
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 10);
        bytes.fixChecksum(calls[1]);
        damage = onlyDamage(run);
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length + " bytes claims 10 calls, but they " +
            "end at byte "), damage.toString());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
    }

    @Test
    void aDenseEntryWhoseFlagsDoNotHoldIsReportedAndItsRecordSkipped() throws Exception
    {
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final int length = recordLength(bytes, calls);
        final long head = calls[0] + JournalDescriptor.PACKED_ENTRIES_OFFSET;
        // call 0: node 1 (a step of 1 from 0), a packet folded in (value 0, the record's first),
        // its timestamp and nanos the header's: one byte, its packet's kind and stream after it
        final int first = JournalDescriptor.DENSE_FOLDED | JournalDescriptor.DENSE_SAME_VALUE |
            JournalDescriptor.DENSE_SAME_TIMESTAMP | JournalDescriptor.DENSE_SAME_NANOS;
        assertEquals(2 << JournalDescriptor.DENSE_FLAG_BITS | first, bytes.readInt(head) & 0xFF);

        final int original = bytes.readInt(head);
        bytes.pokeInt(head, original | JournalDescriptor.DENSE_SAME_STREAM);
        bytes.fixChecksum(calls[1]);
        JournalDamage damage = onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length + " bytes claims 64 calls, but " +
            "its entry 1 repeats the stream of node 1, which folded no packet before it in the record"), damage.toString());
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()), "that record's calls skipped together");

        bytes.pokeInt(head, original & ~JournalDescriptor.DENSE_FOLDED);
        bytes.fixChecksum(calls[1]);
        damage = onlyDamage(run);
        assertTrue(damage.toString().contains("its entry 1 has a packet's flags but no packet"), damage.toString());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());
    }

    @Test
    void aCallWhoseNodeTheRunDoesNotHaveIsReportedAndTheOthersInItsRecordRead(@TempDir final Path bad) throws Exception
    {
        final Path badRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(bad, JournalConfig.Mode.ASYNC)))
        {
            badRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            onTheWorkersThread(() ->
            {
                for (int i = 0; i < 3; i++)
                {
                    final int node = i == 1 ? 99 : NODE; // the run has three nodes
                    writer.processBegin(WORKER, node, i);
                    writer.processEnd(WORKER, node, i);
                }
            });
            writer.runEnd("done"); // the three calls go as one record
        }
        final JournalDamage damage = onlyDamage(badRun);
        assertTrue(damage.toString().contains("call 2 of 3 in a DENSE_CALLS record: ") &&
            damage.toString().contains("it is skipped"), damage.toString());
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(badRun));
        final List<Long> read = new ArrayList<>();
        for (final JournalRecord r : ex.readable().records())
        {
            if (r.kind() == PROCESS_BEGIN)
            {
                read.add(r.timestamp());
            }
        }
        assertEquals(List.of(0L, 2L), read, "the calls before and after it");
    }

    @Test
    void aFormatOneSixCallsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path old = formatOneSix(dir.resolve("old"));
        final Path file = JournalFiles.cycleFiles(old).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        assertEquals(64, bytes.readInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET), "the first staging went out full");
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 1000);
        bytes.fixChecksum(calls[1]);
        final JournalDamage damage = onlyDamage(old);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a CALLS record of " +
            (JournalDescriptor.CALLS_ENTRIES_OFFSET + 64 * JournalDescriptor.CALLS_ENTRY_LENGTH) +
            " bytes claims 1000 calls"), damage.toString());
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(old));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());
    }
}
