package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Corrupt, truncated and foreign journals: every damage is a {@link JournalDamage} with its file,
 * byte offset, Chronicle index and record number, the records after it are still read, and a
 * {@link JournalException} says so; never a fault, never a raw stack trace; damage is never taken
 * for the end of a killed run.
 */
@Timeout(120)
class JournalDamageTest
{
    /** The timestamp of the marker record, easy to find in the file. */
    static final long MARKER = 0x1122334455667788L;
    static final int BEFORE_MARKER = 300;
    static final int AFTER_MARKER = 50;

    @TempDir
    Path dir;
    Path run;
    Path file;
    /** Record index of the marker (header and run start come first). */
    long markerIndex;
    /** Byte offset of the marker record's body in the file. */
    long markerBody;
    /** Chronicle's index of the marker, from Chronicle's own tailer. */
    long markerChronicleIndex;
    /** The intact journal's records. */
    List<JournalRecord> intact;

    @BeforeEach
    void writeJournal() throws Exception
    {
        try (PayloadPool pool = new PayloadPool();
            JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.SYNC)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            final Payload frame = pool.acquire(64);
            for (int i = 0; i < 64; i++)
            {
                frame.mutableBuffer().putByte(i, (byte)i);
            }
            writer.graphInput(0, 1, frame, 0); // record #2: captured
            frame.release();
            for (int i = 0; i < BEFORE_MARKER - 1; i++)
            {
                writer.processBegin(0, 1, 1000 + i);
            }
            writer.emit(1, 1, 2, MARKER, 5L);
            for (int i = 0; i < AFTER_MARKER; i++)
            {
                writer.processEnd(0, 1, 2000 + i);
            }
            writer.runEnd("done");
        }
        final List<Path> files = JournalFiles.cycleFiles(run);
        assertEquals(1, files.size());
        file = files.get(0);
        markerIndex = 2 + BEFORE_MARKER;
        markerBody = body((int)markerIndex);
        assertEquals(MARKER, readLong(markerBody + JournalDescriptor.TIMESTAMP_OFFSET));
        intact = JournalReader.read(run).records();
        assertEquals(markerIndex + 1 + AFTER_MARKER + 1, intact.size());
        markerChronicleIndex = chronicleIndexOfMarker();
    }

    /** Chronicle's own index of the marker record, read with Chronicle's tailer. */
    private long chronicleIndexOfMarker()
    {
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(run).readOnly(true)
            .rollCycle(JournalFiles.rollCycleOf(file)).build())
        {
            final ExcerptTailer tailer = queue.createTailer();
            while (true)
            {
                try (DocumentContext dc = tailer.readingDocument())
                {
                    assertTrue(dc.isPresent(), "the marker is in the queue");
                    final Bytes<?> bytes = dc.wire().bytes();
                    if (bytes.readLong(bytes.readPosition() + JournalDescriptor.TIMESTAMP_OFFSET) == MARKER)
                    {
                        return dc.index();
                    }
                }
            }
        }
    }

    private long body(final int document) throws IOException
    {
        return JournalScanner.documents(file).bodies.getLong(document);
    }

    private long readLong(final long position) throws IOException
    {
        return new JournalFileBytes(file).readLong(position);
    }

    private byte[] read(final long position, final int length) throws IOException
    {
        return new JournalFileBytes(file).read(position, length);
    }

    private void poke(final long position, final byte... bytes) throws IOException
    {
        new JournalFileBytes(file).poke(position, bytes);
    }

    private void pokeInt(final long position, final int value) throws IOException
    {
        new JournalFileBytes(file).pokeInt(position, value);
    }

    private void flip(final long position, final int bit) throws IOException
    {
        new JournalFileBytes(file).flip(position, bit);
    }

    /** Rewrites a record's CRC32C after its bytes were changed on purpose: damage the checksum cannot see. */
    private void fixChecksum(final long body) throws IOException
    {
        new JournalFileBytes(file).fixChecksum(body);
    }

    private void truncate(final Path path, final long length) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(path.toFile(), "rw"))
        {
            raf.setLength(length);
        }
    }

    private JournalException readFails()
    {
        return assertThrows(JournalException.class, () -> JournalReader.read(run));
    }

    private static JournalDamage only(final JournalException ex)
    {
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        return ex.damage().get(0);
    }

    /**
     * The intact journal's records without the marker: every record before and after it was read,
     * numbered as in the intact journal when the damage was one record (after a region of bytes the
     * reader cannot know how many records were lost, and numbers only what it finds).
     */
    private void assertReadAllButTheMarker(final JournalException ex)
    {
        assertNotNull(ex.readable(), ex.getMessage());
        final List<JournalRecord> expected = new ArrayList<>(intact);
        expected.remove((int)markerIndex);
        if (ex.damage().get(0).isOneRecord())
        {
            assertSameRecords(expected, ex.records());
        }
        else
        {
            assertSameContents(expected, ex.records());
        }
        assertEquals(List.of(JournalRoundTripTest.NODES), ex.readable().nodeNames());
        assertEquals("done", ex.readable().runEnd().text(), "the run's end, after the damage, is read");
        assertFalse(ex.readable().endsIncomplete());
        assertNotNull(Postmortem.of(ex.readable()).verdict());
    }

    static void assertSameContents(final List<JournalRecord> expected, final List<JournalRecord> actual)
    {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(content(expected.get(i)), content(actual.get(i)), "record " + i);
        }
    }

    /** A record as text without its number. */
    static String content(final JournalRecord r)
    {
        return r.toString().replaceFirst("^#\\d+ ", "");
    }

    static void assertSameRecords(final List<JournalRecord> expected, final List<JournalRecord> actual)
    {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(expected.get(i).toString(), actual.get(i).toString(), "record " + i);
            assertEquals(expected.get(i).index(), actual.get(i).index(), "record " + i);
        }
    }

    @Test
    void aFlippedBitIsAChecksumMismatchWithItsPositionAndTheRecordsAfterItAreRead() throws Exception
    {
        flip(markerBody + JournalDescriptor.TIMESTAMP_OFFSET + 3, 5);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, damage.kind());
        assertEquals(file, damage.file());
        assertEquals(markerBody - 4, damage.byteOffset(), "the record's Chronicle header");
        assertEquals(markerChronicleIndex, damage.chronicleIndex(), "Chronicle's own index of the record");
        assertEquals(markerIndex, damage.recordIndex());
        assertTrue(damage.isOneRecord());
        final String message = ex.getMessage();
        assertTrue(message.contains("journal " + run + " is damaged: file " + file.getFileName() + ", byte " +
            (markerBody - 4) + " (Chronicle index 0x" + Long.toHexString(markerChronicleIndex) + ", record #" +
            markerIndex + "): checksum mismatch: the record's CRC32C does not match its bytes"), message);
        assertTrue(message.endsWith((intact.size() - 1) + " records were read, " + (AFTER_MARKER + 1) +
            " of them after the damage"), message);
        assertReadAllButTheMarker(ex);
    }

    @Test
    void everySingleBitFlipInARecordIsDetectedAndOnlyThatRecordIsLost() throws Exception
    {
        // every bit of the marker's document: Chronicle's 4-byte header, the 40 bytes, the CRC32C
        final long start = markerBody - 4;
        final int bytes = 4 + JournalDescriptor.MIN_CHECKSUMMED_LENGTH;
        for (int at = 0; at < bytes; at++)
        {
            for (int bit = 0; bit < 8; bit++)
            {
                flip(start + at, bit);
                final String where = "bit " + bit + " of byte " + at + " of the marker's document";
                final JournalException ex = readFails();
                final JournalDamage damage = only(ex);
                assertEquals(start, damage.byteOffset(), where + ": " + damage);
                assertTrue(damage.isOneRecord(), where + ": " + damage);
                if (at < 4)
                {
                    // Chronicle's header: found damaged, the record itself is intact and read
                    assertEquals(JournalDamage.Kind.DAMAGED_HEADER, damage.kind(), where + ": " + damage);
                    assertSameRecords(intact, ex.records());
                }
                else
                {
                    assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, damage.kind(), where + ": " + damage);
                    assertReadAllButTheMarker(ex);
                }
                flip(start + at, bit);
            }
        }
        assertSameRecords(intact, JournalReader.read(run).records());
    }

    @Test
    void aZeroedPageMidFileIsAZeroedRegionNotTheEndOfAKilledRun() throws Exception
    {
        final long first = body(10);
        final long page = (first + 4095) & ~4095L;
        assertTrue(page + 4096 < markerBody, "a whole page of records before the marker");
        poke(page, new byte[4096]);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.ZEROED_REGION, damage.kind(), damage.toString());
        assertTrue(damage.byteOffset() <= page && damage.byteOffset() + damage.length() >= page + 4096,
            damage.toString());
        final Matcher zeros = Pattern.compile("^bytes (\\d+) to (\\d+) are zero").matcher(damage.description());
        assertTrue(zeros.find(), damage.toString());
        assertTrue(Long.parseLong(zeros.group(1)) <= page && Long.parseLong(zeros.group(2)) >= page + 4096,
            damage.toString());
        final JournalReader readable = ex.readable();
        assertFalse(readable.endsIncomplete());
        assertEquals("done", readable.runEnd().text(), "read past the zeroed page to the run's end");
        // about 85 records were in the page (48 bytes each): every other one is read
        final List<JournalRecord> records = readable.records();
        final int lost = intact.size() - records.size();
        assertTrue(lost >= 4096 / 48 && lost <= 4096 / 48 + 2, lost + " records lost");
        final int before = (int)damage.recordIndex();
        assertSameRecords(intact.subList(0, before), records.subList(0, before));
        assertSameContents(intact.subList(before + lost, intact.size()), records.subList(before, records.size()));
        assertTrue(records.stream().anyMatch(r -> r.timestamp() == MARKER));
        assertTrue(Postmortem.of(readable).verdict().contains("The journal is damaged"),
            Postmortem.of(readable).verdict());
    }

    @Test
    void aRecordHeaderOverwrittenIsDamageAndTheRecordsAfterItAreRead() throws Exception
    {
        // a plausible length leading into the middle of a record; zero (where data would end); a length
        // past the file's end; "still being written" with no length (what a killed writer leaves at the end)
        for (final int garbage : new int[]{0x0000_0100, 0, 0x3FFF_FFF0, 0x8000_0000})
        {
            writeJournalAgain();
            pokeInt(markerBody - 4, garbage);
            final JournalException ex = readFails();
            final JournalDamage damage = only(ex);
            final String where = String.format("header 0x%08x: %s", garbage, damage);
            assertEquals(markerBody - 4, damage.byteOffset(), where);
            assertEquals(garbage == 0x0000_0100 ? JournalDamage.Kind.UNREADABLE : JournalDamage.Kind.DAMAGED_HEADER,
                damage.kind(), where);
            assertFalse(damage.isOneRecord(), where);
            assertTrue(damage.description().contains("the reader goes on at the intact record at byte " +
                (markerBody + JournalDescriptor.MIN_CHECKSUMMED_LENGTH)), where);
            assertReadAllButTheMarker(ex);
        }
    }

    private void writeJournalAgain() throws Exception
    {
        try (java.util.stream.Stream<Path> files = Files.list(run))
        {
            for (final Path f : files.toList())
            {
                Files.delete(f);
            }
        }
        Files.delete(run);
        writeJournal();
    }

    @Test
    void aRecordHeaderMarkedIncompleteMidFileIsNotTheEndOfAKilledRun() throws Exception
    {
        // bit 31 set: "still being written", what a killed writer leaves at the end
        final int header = ByteBuffer.wrap(read(markerBody - 4, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
        pokeInt(markerBody - 4, header | 0x8000_0000);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.DAMAGED_HEADER, damage.kind());
        assertTrue(damage.description().contains("with bit 31 flipped back"), damage.toString());
        assertSameRecords(intact, ex.records());
        assertFalse(ex.readable().endsIncomplete());
    }

    @Test
    void unknownRecordKindIsReportedAndSkipped() throws Exception
    {
        poke(markerBody + JournalDescriptor.KIND_OFFSET, (byte)0x7E);
        fixChecksum(markerBody);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.UNKNOWN_KIND, damage.kind());
        assertEquals(markerChronicleIndex, damage.chronicleIndex());
        assertTrue(ex.getMessage().contains("record #" + markerIndex + "): unknown kind: the record has kind 126, " +
            "which format 1." + JournalDescriptor.FORMAT_MINOR + " does not have; it is skipped") && ex.getMessage().contains(run.toString()),
            ex.getMessage());
        assertReadAllButTheMarker(ex);
    }

    @Test
    void idOutOfRangeIsACorruptRecord() throws Exception
    {
        pokeInt(markerBody + JournalDescriptor.NODE_OFFSET, 57);
        fixChecksum(markerBody);
        final JournalException ex = readFails();
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, only(ex).kind());
        assertTrue(ex.getMessage().contains("(EMIT) names node 57, but the run has 3 nodes"), ex.getMessage());
        assertReadAllButTheMarker(ex);
    }

    @Test
    void fileCutInsideARecordIsTruncation() throws Exception
    {
        truncate(file, markerBody + 10);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.TRUNCATED, damage.kind());
        assertEquals(markerBody - 4, damage.byteOffset());
        assertTrue(ex.getMessage().contains("truncated") && ex.getMessage().contains(file.getFileName().toString()),
            ex.getMessage());
        assertEquals(markerIndex, ex.records().size());
        assertNull(ex.readable().runEnd());
    }

    @Test
    void fileCutBetweenRecordsIsTruncation() throws Exception
    {
        truncate(file, markerBody - 4); // just before the marker's Chronicle header
        final JournalException ex = readFails();
        assertEquals(JournalDamage.Kind.TRUNCATED, only(ex).kind());
        assertTrue(ex.getMessage().contains("it was truncated"), ex.getMessage());
        assertEquals(markerIndex, ex.records().size());
    }

    @Test
    void fileCutInsideChroniclesHeaderReadsNothingAndDoesNotFault() throws Exception
    {
        for (final long length : new long[]{300, 0})
        {
            truncate(file, length);
            final JournalException ex = readFails();
            assertTrue(ex.getMessage().contains("truncated"), ex.getMessage());
            assertEquals(0, ex.records().size());
        }
    }

    @Test
    void capturedPayloadFailingItsChecksum() throws Exception
    {
        final long captured = body(2);
        poke(captured + JournalDescriptor.FIXED_LENGTH + 4 + 10, (byte)0xFF);
        JournalException ex = readFails();
        assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, only(ex).kind(), "the record's CRC32C sees it first");
        assertEquals(2, only(ex).recordIndex());
        assertEquals(intact.size() - 1, ex.records().size());

        fixChecksum(captured); // now only the payload's own XXH64 disagrees
        ex = readFails();
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, only(ex).kind());
        assertTrue(ex.getMessage().contains("record #2): corrupt record: the record (GRAPH_INPUT) holds a captured " +
            "payload of 64 bytes that fails its XXH64 checksum"), ex.getMessage());
        assertEquals(intact.size() - 1, ex.records().size());
    }

    @Test
    void truncatedMetadataIsReportedWithEveryRecordRead() throws Exception
    {
        truncate(run.resolve(JournalFiles.METADATA), 1000);
        final JournalException ex = readFails();
        assertEquals(JournalDamage.Kind.METADATA, only(ex).kind());
        assertTrue(ex.getMessage().contains("metadata.cq4t is 1000 bytes"), ex.getMessage());
        assertEquals(intact.size(), ex.records().size());
    }

    @Test
    void anotherMajorVersionIsRefused() throws Exception
    {
        final long header = body(0);
        pokeInt(header + JournalDescriptor.NODE_OFFSET, 2);
        pokeInt(header + JournalDescriptor.STREAM_OFFSET, 3);
        fixChecksum(header);
        final JournalException ex = readFails();
        assertEquals("journal " + run + " has format version 2.3; this Framewire reads format 1.x. Read it with the " +
            "Framewire version that wrote it.", ex.getMessage());
        assertNull(ex.readable());
    }

    @Test
    void aDamagedHeaderRecordIsReportedAndTheRunStartGivesTheVersion() throws Exception
    {
        final long header = body(0);
        flip(header + JournalDescriptor.FIXED_LENGTH, 1); // the magic: "GWJOURNL"
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.CHECKSUM_MISMATCH, damage.kind());
        assertEquals(0, damage.recordIndex());
        assertEquals(header - 4, damage.byteOffset());
        final JournalReader readable = ex.readable();
        assertEquals(1, readable.formatMajor());
        assertEquals(JournalDescriptor.FORMAT_MINOR, readable.formatMinor());
        assertEquals(intact.size() - 1, readable.records().size());
        assertEquals(List.of(JournalRoundTripTest.STREAMS), readable.streamNames());
    }

    @Test
    void aCallRecordInAFormat11JournalIsAnUnknownKind() throws Exception
    {
        final long header = body(0);
        pokeInt(header + JournalDescriptor.STREAM_OFFSET, 1); // a 1.1 journal: CALL came in 1.2
        fixChecksum(header);
        poke(markerBody + JournalDescriptor.KIND_OFFSET, (byte)JournalDescriptor.CALL);
        fixChecksum(markerBody);
        final JournalException ex = readFails();
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.UNKNOWN_KIND, damage.kind());
        assertTrue(ex.getMessage().contains("the record has kind 12, which format 1.1 does not have"), ex.getMessage());
        assertEquals(1, ex.readable().formatMinor());
        assertEquals(intact.size() - 1, ex.readable().records().size());
    }

    @Test
    void aNewerMinorVersionIsReadSkippingWhatItAdds() throws Exception
    {
        final long header = body(0);
        final int newer = JournalDescriptor.FORMAT_MINOR + 1;
        pokeInt(header + JournalDescriptor.STREAM_OFFSET, newer);
        fixChecksum(header);
        poke(markerBody + JournalDescriptor.KIND_OFFSET, (byte)40); // a kind a newer minor version might add
        fixChecksum(markerBody);
        final JournalReader journal = JournalReader.read(run);
        assertEquals(newer, journal.formatMinor());
        assertEquals(intact.size() - 1, journal.records().size());
        assertEquals(List.of("skipped 1 records of kinds format 1." + newer + " has and this reader (format 1." +
            JournalDescriptor.FORMAT_MINOR + ") does not"),
            journal.notes());
        assertFalse(journal.isDamaged());
    }

    @Test
    void notAJournalIsSaidSo() throws Exception
    {
        final Path other = Files.createDirectory(dir.resolve("photos"));
        Files.writeString(other.resolve("a.txt"), "hello");
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(other));
        assertTrue(ex.getMessage().endsWith("is not a Framewire journal: it has no metadata.cq4t and no run-* journal " +
            "directories"), ex.getMessage());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(dir.resolve("missing")));
        assertTrue(ex.getMessage().contains("not a directory"), ex.getMessage());

        // a Chronicle queue of someone else's
        final Path foreign = dir.resolve("foreign");
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(foreign).build();
            ExcerptAppender appender = queue.createAppender())
        {
            for (int i = 0; i < 10; i++)
            {
                try (DocumentContext dc = appender.writingDocument())
                {
                    dc.wire().bytes().writeLong(i).writeLong(i * 31L).writeLong(-i);
                }
            }
        }
        ex = assertThrows(JournalException.class, () -> JournalReader.read(foreign));
        assertTrue(ex.getMessage().endsWith("is not a Framewire journal: its first record is not a Framewire " +
            "journal header"), ex.getMessage());
        assertNull(ex.readable());
    }

    @Test
    void aRootReadsItsNewestRun() throws Exception
    {
        assertEquals(run, JournalReader.latestRun(dir));
        assertEquals(run, JournalReader.read(dir).directory());
        assertFalse(JournalReader.read(dir).records().isEmpty());
    }

    // ---------------------------------------------------------------- format 1.0

    /** A journal written by the format 1.0 writer (before checksums), kept as a test resource. */
    static Path formatOneZero(final Path dir) throws IOException
    {
        return unzipRun(dir, "/journal/format-1.0.zip");
    }

    /**
     * A run journal kept as a zipped test resource, unzipped into {@code dir}.
     *
     * @return its run directory.
     */
    static Path unzipRun(final Path dir, final String resource) throws IOException
    {
        Files.createDirectories(dir);
        Path run = null;
        try (InputStream in = JournalDamageTest.class.getResourceAsStream(resource);
            ZipInputStream zip = new ZipInputStream(in))
        {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry())
            {
                final Path target = dir.resolve(entry.getName());
                if (entry.isDirectory())
                {
                    run = Files.createDirectories(target);
                }
                else
                {
                    Files.copy(zip, target);
                }
            }
        }
        return run;
    }

    @Test
    void aFormatOneZeroJournalIsStillRead() throws Exception
    {
        final JournalReader journal = JournalReader.read(formatOneZero(dir.resolve("old")));
        assertEquals(1, journal.formatMajor());
        assertEquals(0, journal.formatMinor());
        assertFalse(journal.isDamaged());
        final List<JournalRecord> records = journal.records();
        // header, run start, a captured input, 20 calls of begin, emit and end, a drop, a bound, an error, the end
        assertEquals(2 + 1 + 60 + 4, records.size());
        assertEquals(JournalRecord.Kind.GRAPH_INPUT, records.get(2).kind());
        assertEquals(64, records.get(2).payload().remaining());
        assertEquals(JournalRecord.Kind.EMIT, records.get(4).kind());
        assertEquals(1000L, records.get(4).value());
        assertEquals("node 'sink' failed at 119: boom", records.get(records.size() - 2).text());
        assertEquals("failed", journal.runEnd().text());
        assertEquals(List.of(JournalRoundTripTest.NODES), journal.nodeNames());
    }

    @Test
    void aFormatOneZeroJournalWithAZeroedRegionReportsItAndReadsOnFromRecordsFoundByTheirShape() throws Exception
    {
        final Path old = formatOneZero(dir.resolve("old"));
        final Path oldFile = JournalFiles.cycleFiles(old).get(0);
        final List<JournalRecord> all = JournalReader.read(old).records();
        final long emit = JournalScanner.documents(oldFile).bodies.getLong(10);
        try (RandomAccessFile raf = new RandomAccessFile(oldFile.toFile(), "rw"))
        {
            raf.seek(emit - 4);
            raf.write(new byte[96]); // records #10 and #11 (44 bytes each) and the start of #12
        }
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(old));
        final JournalDamage damage = only(ex);
        assertEquals(JournalDamage.Kind.ZEROED_REGION, damage.kind());
        assertEquals(emit - 4, damage.byteOffset());
        assertTrue(damage.description().contains("format 1.0 records have no checksums"), damage.toString());
        final List<JournalRecord> expected = new ArrayList<>(all.subList(0, 10));
        expected.addAll(all.subList(13, all.size()));
        assertSameContents(expected, ex.records());
        assertEquals("failed", ex.readable().runEnd().text());
        assertFalse(ex.readable().endsIncomplete(), "damage, not a killed run");
    }

    @Test
    void aFormatOneZeroJournalWithAnotherMagicIsNotAJournal() throws Exception
    {
        final Path old = formatOneZero(dir.resolve("old"));
        final Path oldFile = JournalFiles.cycleFiles(old).get(0);
        final long header = JournalScanner.documents(oldFile).bodies.getLong(0);
        try (RandomAccessFile raf = new RandomAccessFile(oldFile.toFile(), "rw"))
        {
            raf.seek(header + JournalDescriptor.FIXED_LENGTH);
            raf.write('X');
        }
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(old));
        assertTrue(ex.getMessage().endsWith("is not a Framewire journal: its first record is not a Framewire " +
            "journal header"), ex.getMessage());
    }
}
