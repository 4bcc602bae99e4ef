package dev.framewire.journal;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Format 1.10's PACKED_EMITS: at the IO level a worker's packets on end streams are not folded into
 * calls, and the ASYNC journal agent packs those it takes off a worker's ring one after another as
 * varint entries, as it packs graph inputs. Each reads back as the EMIT it was (its node, worker,
 * stream, value and timestamp, in order); the lightest level writes fewer bytes a packet than the
 * heaviest; a record whose count lies under an intact checksum is reported, its packets skipped
 * together, never read past its end.
 */
@Timeout(60)
class JournalEmitsTest
{
    private static final int PACKETS = 5_000;

    @TempDir
    Path dir;

    /** B5's chain in small: three pass-throughs on one worker, {@link #PACKETS} longs, journaled at {@code level}. */
    private Path run(final String name, final JournalConfig.Level level) throws Exception
    {
        final Path root = dir.resolve(name);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("s1"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("s1").outputStream("s2"))
            .node("c", n -> n.calculator("PassThroughCalculator").inputStream("s2").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC).level(level))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < PACKETS; ts++)
            {
                graph.addPacket("in", ts % 3 == 0 ? Long.MIN_VALUE + ts : ts * ts, ts * 7 - (1L << 40));
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader read = JournalReader.read(root);
        assertEquals(0, read.lostRecords());
        return read.directory();
    }

    private static List<JournalRecord> outputs(final List<JournalRecord> records)
    {
        return records.stream().filter(r -> r.kind() == JournalRecord.Kind.EMIT && "out".equals(r.streamName()))
            .collect(Collectors.toList());
    }

    @Test
    void anEndStreamsPacketsArePackedAndReadBackAsTheEmitsTheyWere() throws Exception
    {
        final Path io = run("io", JournalConfig.Level.IO);
        JournalCallsTest.firstRecordOfKind(JournalFiles.cycleFiles(io).get(0), JournalDescriptor.PACKED_EMITS);
        final List<JournalRecord> packed = outputs(JournalReader.read(io).records());
        final List<JournalRecord> calls = outputs(JournalReader.read(run("calls", JournalConfig.Level.CALLS)).records());
        assertEquals(PACKETS, packed.size());
        assertEquals(PACKETS, calls.size());
        for (int i = 0; i < PACKETS; i++)
        {
            final JournalRecord p = packed.get(i);
            final JournalRecord c = calls.get(i);
            assertEquals(i * 7L - (1L << 40), p.timestamp(), p::toString);
            assertEquals(c.value(), p.value(), p::toString);
            assertEquals(c.valueKind(), p.valueKind(), p::toString);
            assertEquals("c", p.nodeName(), p::toString);
            assertEquals(c.worker(), p.worker(), p::toString);
        }
    }

    @Test
    void theLightestLevelWritesFewerBytesThanEveryCall() throws Exception
    {
        final long io = journalBytes(run("io", JournalConfig.Level.IO));
        final long calls = journalBytes(run("calls", JournalConfig.Level.CALLS));
        // CALLS folds each packet into its call (1-4 bytes a call); IO packs an input and an output a packet
        assertTrue(io < calls, "IO wrote " + io + " bytes of records, CALLS " + calls);
    }

    /** The bytes of the run's documents (a cycle file's length is its mapped size, not what it holds). */
    private static long journalBytes(final Path run) throws Exception
    {
        final JournalScanner.Documents documents = JournalScanner.documents(JournalFiles.cycleFiles(run).get(0));
        long bytes = 0;
        for (int d = 0; d < documents.lengths.size(); d++)
        {
            bytes += documents.lengths.getInt(d);
        }
        return bytes;
    }

    @Test
    void aPackedEmitsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path run = run("io", JournalConfig.Level.IO);
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] record = JournalCallsTest.firstRecordOfKind(file, JournalDescriptor.PACKED_EMITS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final int count = bytes.readInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET);
        assertTrue(count >= 2, "count " + count);
        final int length = JournalCallsTest.recordLength(bytes, record);

        bytes.pokeInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET, count + 1000); // the checksum is made to hold
        bytes.fixChecksum(record[1]);
        JournalDamage damage = JournalCallsTest.onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a PACKED_EMITS record of " + length + " bytes claims " + (count + 1000) +
            " packets, but its entries run past its end after " + count), damage.toString());
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        // that record's packets are lost together (its entries are packets and bounds), the others read
        final int read = outputs(ex.readable().records()).size();
        assertTrue(read < PACKETS && read >= PACKETS - count, read + " of " + PACKETS + " read, the record held " + count);

        bytes.pokeInt(record[0] + JournalDescriptor.INPUTS_COUNT_OFFSET, 1);
        bytes.fixChecksum(record[1]);
        damage = JournalCallsTest.onlyDamage(run);
        assertTrue(damage.toString().contains("claims 1 packets, but a record holds at least two"), damage.toString());
    }
}
