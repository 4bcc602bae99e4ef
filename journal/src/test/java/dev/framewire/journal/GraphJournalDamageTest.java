package dev.framewire.journal;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damage to the journal of a real graph run: single bits flipped at several places, a page zeroed
 * in the middle of the file, a record's header overwritten. Each is reported with its file and byte
 * offset, the records after it are read up to the run's end, and the post-mortem says the journal
 * is damaged rather than that the run was killed.
 */
@Timeout(120)
class GraphJournalDamageTest
{
    static final int PACKETS = 400;

    @TempDir
    Path dir;
    Path run;
    Path file;
    List<JournalRecord> intact;
    JournalScanner.Documents documents;

    @BeforeEach
    void runAGraph() throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).blockSize(1 << 20))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < PACKETS; ts++)
            {
                graph.addPacket("in", ts * 3, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        run = JournalReader.latestRun(dir);
        final List<Path> files = JournalFiles.cycleFiles(run);
        assertEquals(1, files.size());
        file = files.get(0);
        final JournalReader journal = JournalReader.read(run);
        intact = journal.records();
        assertEquals("done", journal.runEnd().text());
        documents = JournalScanner.documents(file);
        assertEquals(intact.size(), documents.bodies.size());
        assertTrue(intact.size() > PACKETS * 7, intact.size() + " records"); // input, 2 x (begin, emit, end)
    }

    private JournalException damaged()
    {
        return assertThrows(JournalException.class, () -> JournalReader.read(run));
    }

    private void flip(final long position, final int bit) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            final int b = raf.read();
            raf.seek(position);
            raf.write(b ^ (1 << bit));
        }
    }

    private void write(final long position, final byte[] bytes) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    /** The Chronicle header's offset of a record (its document starts 4 bytes before its body). */
    private long documentStart(final int record)
    {
        return documents.bodies.getLong(record) - 4;
    }

    /** Damage, not a killed run: the post-mortem says so, and the run's end after the damage is read. */
    private static void assertDamageNotAKilledRun(final JournalReader readable)
    {
        assertFalse(readable.endsIncomplete());
        final String verdict = Postmortem.of(readable).verdict();
        assertTrue(verdict.startsWith("The journal is damaged in "), verdict);
        assertFalse(verdict.contains("The journal has no end of run"), verdict);
    }

    @Test
    void singleBitFlipsAnywhereAreReportedWithTheirPositionAndTheRestIsRead() throws Exception
    {
        final int n = intact.size();
        final int[] records = {0, 1, 2, n / 4, n / 2, 3 * n / 4, n - 2, n - 1};
        final Random random = new Random(20261125L);
        for (final int record : records)
        {
            final long start = documentStart(record);
            final int documentLength = 4 + documents.lengths.getInt(record);
            // the Chronicle header, the record's first field, anywhere in it, its checksum
            final long[] positions = {start + random.nextInt(4), start + 4, start + random.nextInt(documentLength),
                start + documentLength - 1 - random.nextInt(4)};
            for (final long position : positions)
            {
                final int bit = random.nextInt(8);
                flip(position, bit);
                final String where = "record #" + record + " (" + intact.get(record).kind() + "), bit " + bit +
                    " of byte " + position;
                final JournalException ex = damaged();
                assertEquals(1, ex.damage().size(), where + ": " + ex.damage());
                final JournalDamage damage = ex.damage().get(0);
                assertEquals(file, damage.file(), where);
                assertEquals(start, damage.byteOffset(), where + ": " + damage);
                assertEquals(record, damage.recordIndex(), where + ": " + damage);
                assertTrue(damage.chronicleIndex() >= 0, where + ": " + damage);
                assertTrue(ex.getMessage().contains("byte " + start + " (Chronicle index 0x"), ex.getMessage());
                final List<JournalRecord> expected = new ArrayList<>(intact);
                if (position < start + 4)
                {
                    assertEquals(JournalDamage.Kind.DAMAGED_HEADER, damage.kind(), where + ": " + damage);
                }
                else
                {
                    assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, damage.kind(), where + ": " + damage);
                    expected.remove(record);
                }
                final JournalReader readable = ex.readable();
                assertNotNull(readable, where);
                if (record == 1 && damage.kind() != JournalDamage.Kind.DAMAGED_HEADER)
                {
                    // the run start is lost with its names: the records after it still read, by id
                    assertEquals(expected.size(), readable.records().size(), where);
                    for (int i = 0; i < expected.size(); i++)
                    {
                        assertEquals(ids(expected.get(i)), ids(readable.records().get(i)), where);
                    }
                    assertTrue(readable.nodeNames().isEmpty(), where);
                }
                else
                {
                    JournalDamageTest.assertSameRecords(expected, readable.records());
                }
                if (record != n - 1)
                {
                    assertEquals("done", readable.runEnd().text(), where);
                    assertDamageNotAKilledRun(readable);
                }
                if (record > 1)
                {
                    assertEquals(List.of("a", "b"), readable.nodeNames(), where);
                }
                flip(position, bit);
            }
        }
        JournalDamageTest.assertSameRecords(intact, JournalReader.read(run).records());
    }

    private static String ids(final JournalRecord r)
    {
        return r.index() + " " + r.kind() + " " + r.nanos() + " " + r.worker() + " " + r.node() + " " + r.stream() + " " +
            r.timestamp() + " " + r.value();
    }

    @Test
    void aZeroedPageMidFileIsReportedAndTheRecordsAfterItAreRead() throws Exception
    {
        final long middle = documents.bodies.getLong(intact.size() / 2);
        final long page = middle & ~4095L;
        write(page, new byte[4096]);
        final JournalException ex = damaged();
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(JournalDamage.Kind.ZEROED_REGION, damage.kind(), damage.toString());
        assertTrue(damage.byteOffset() <= page && damage.byteOffset() + damage.length() >= page + 4096,
            damage.toString());
        assertTrue(ex.getMessage().contains("zeroed region: bytes "), ex.getMessage());
        final JournalReader readable = ex.readable();
        final List<JournalRecord> records = readable.records();
        final int lost = intact.size() - records.size();
        assertTrue(lost > 0 && lost < 4096 / 44 + 2, lost + " records lost");
        final int before = (int)damage.recordIndex();
        JournalDamageTest.assertSameRecords(intact.subList(0, before), records.subList(0, before));
        JournalDamageTest.assertSameContents(intact.subList(before + lost, intact.size()),
            records.subList(before, records.size()));
        assertEquals("done", readable.runEnd().text());
        assertDamageNotAKilledRun(readable);
    }

    @Test
    void aDamagedRecordHeaderIsReportedAndTheRecordsAfterItAreRead() throws Exception
    {
        final int record = intact.size() / 3;
        final long start = documentStart(record);
        // two bits of the length changed: not one flip the reader could undo
        flip(start, 3);
        flip(start, 6);
        final JournalException ex = damaged();
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(start, damage.byteOffset(), damage.toString());
        assertFalse(damage.isOneRecord(), damage.toString());
        final List<JournalRecord> expected = new ArrayList<>(intact);
        expected.remove(record);
        JournalDamageTest.assertSameContents(expected, ex.records());
        assertEquals("done", ex.readable().runEnd().text());
        assertDamageNotAKilledRun(ex.readable());
    }
}
