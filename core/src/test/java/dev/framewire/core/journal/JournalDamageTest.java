package dev.framewire.core.journal;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Corrupt, truncated and foreign journals: a {@link JournalException} that says what and where,
 * with every record read before the damage; never a fault, never a raw stack trace.
 */
@Timeout(60)
class JournalDamageTest
{
    /** The timestamp of the marker record, easy to find in the file. */
    static final long MARKER = 0x1122334455667788L;
    static final int BEFORE_MARKER = 100;

    @TempDir
    Path dir;
    Path run;
    Path file;
    /** Record index of the marker (header and run start come first). */
    long markerIndex;
    /** Byte offset of the marker record's body in the file. */
    long markerBody;

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
            for (int i = 0; i < 50; i++)
            {
                writer.processEnd(0, 1, 2000 + i);
            }
            writer.runEnd("done");
        }
        final List<Path> files = JournalFiles.cycleFiles(run);
        assertEquals(1, files.size());
        file = files.get(0);
        markerIndex = 2 + BEFORE_MARKER;
        final JournalFiles.Scan scan = JournalFiles.scan(file);
        markerBody = scan.bodies.getLong((int)markerIndex);
        assertEquals(MARKER, readLong(markerBody + JournalDescriptor.TIMESTAMP_OFFSET));
        assertEquals(markerIndex + 1 + 50 + 1, JournalReader.read(run).records().size());
    }

    private long readLong(final long position) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r"))
        {
            final byte[] b = new byte[8];
            raf.seek(position);
            raf.readFully(b);
            return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
    }

    private void poke(final long position, final byte... bytes) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    private void pokeInt(final long position, final int value) throws IOException
    {
        poke(position, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
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

    /** The readable part: exactly the records before the marker, names resolved. */
    private void assertReadableUpToMarker(final JournalException ex)
    {
        assertNotNull(ex.readable(), ex.getMessage());
        final List<JournalRecord> records = ex.records();
        assertEquals(markerIndex, records.size(), ex.getMessage());
        assertEquals("detector", records.get((int)markerIndex - 1).nodeName());
        assertEquals(List.of(JournalRoundTripTest.NODES), ex.readable().nodeNames());
        assertNull(ex.readable().runEnd());
        assertNotNull(Postmortem.of(ex.readable()).verdict()); // a post-mortem still works on what survived
    }

    @Test
    void unknownRecordKindIsCorruption() throws Exception
    {
        poke(markerBody + JournalDescriptor.KIND_OFFSET, (byte)0x7E);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("record #" + markerIndex + " has kind 126") &&
            ex.getMessage().contains("corrupt") && ex.getMessage().contains(run.toString()), ex.getMessage());
        assertReadableUpToMarker(ex);
    }

    @Test
    void idOutOfRangeIsCorruption() throws Exception
    {
        pokeInt(markerBody + JournalDescriptor.NODE_OFFSET, 57);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("(EMIT) names node 57, but the run has 3 nodes"), ex.getMessage());
        assertReadableUpToMarker(ex);
    }

    @Test
    void fileCutInsideARecordIsTruncation() throws Exception
    {
        truncate(file, markerBody + 10);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("truncated") && ex.getMessage().contains(file.getFileName().toString()),
            ex.getMessage());
        assertReadableUpToMarker(ex);
    }

    @Test
    void fileCutBetweenRecordsIsTruncation() throws Exception
    {
        truncate(file, markerBody - 4); // just before the marker's Chronicle header
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("it was truncated"), ex.getMessage());
        assertReadableUpToMarker(ex);
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
    void recordHeaderClaimingMoreThanTheFileIsReported() throws Exception
    {
        pokeInt(markerBody - 4, 0x3FFF_FFF0);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("claims " + 0x3FFF_FFF0 + " bytes but the file ends"), ex.getMessage());
        assertReadableUpToMarker(ex);
    }

    @Test
    void capturedPayloadFailingItsChecksumIsCorruption() throws Exception
    {
        final long captured = JournalFiles.scan(file).bodies.getLong(2);
        poke(captured + JournalDescriptor.FIXED_LENGTH + 4 + 10, (byte)0xFF);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("record #2 (GRAPH_INPUT) holds a captured payload of 64 bytes that fails " +
            "its checksum"), ex.getMessage());
        assertEquals(2, ex.records().size());
    }

    @Test
    void truncatedMetadataIsReportedWithEveryRecordRead() throws Exception
    {
        truncate(run.resolve(JournalFiles.METADATA), 1000);
        final JournalException ex = readFails();
        assertTrue(ex.getMessage().contains("metadata.cq4t is 1000 bytes"), ex.getMessage());
        assertEquals(markerIndex + 52, ex.records().size());
    }

    @Test
    void anotherMajorVersionIsRefused() throws Exception
    {
        final long header = JournalFiles.scan(file).bodies.getLong(0);
        pokeInt(header + JournalDescriptor.NODE_OFFSET, 2);
        pokeInt(header + JournalDescriptor.STREAM_OFFSET, 3);
        final JournalException ex = readFails();
        assertEquals("journal " + run + " has format version 2.3; this Framewire reads format 1.x. Read it with the " +
            "Framewire version that wrote it.", ex.getMessage());
        assertNull(ex.readable());
    }

    @Test
    void aNewerMinorVersionIsReadSkippingWhatItAdds() throws Exception
    {
        final long header = JournalFiles.scan(file).bodies.getLong(0);
        pokeInt(header + JournalDescriptor.STREAM_OFFSET, 4);
        poke(markerBody + JournalDescriptor.KIND_OFFSET, (byte)40); // a kind format 1.4 might add
        final JournalReader journal = JournalReader.read(run);
        assertEquals(4, journal.formatMinor());
        assertEquals(markerIndex + 51, journal.records().size());
        assertEquals(List.of("skipped 1 records of kinds format 1.4 has and this reader (format 1.0) does not"),
            journal.notes());
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

        final long header = JournalFiles.scan(file).bodies.getLong(0);
        poke(header + JournalDescriptor.FIXED_LENGTH, (byte)'X'); // the magic
        ex = readFails();
        assertTrue(ex.getMessage().endsWith("is not a Framewire journal: its first record is not a Framewire " +
            "journal header"), ex.getMessage());
    }

    @Test
    void aRootReadsItsNewestRun() throws Exception
    {
        assertEquals(run, JournalReader.latestRun(dir));
        assertEquals(run, JournalReader.read(dir).directory());
        assertFalse(JournalReader.read(dir).records().isEmpty());
    }
}
