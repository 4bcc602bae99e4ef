package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import static dev.framewire.journal.ScanWindow.END_OF_FILE;
import static dev.framewire.journal.ScanWindow.LENGTH_MASK;
import static dev.framewire.journal.ScanWindow.META_DATA;
import static dev.framewire.journal.ScanWindow.NOT_COMPLETE;
import static dev.framewire.journal.ScanWindow.next;

/**
 * Walks one Chronicle {@code .cq4} file with plain reads (never mapped: a mapped read past the
 * end of a cut file is a SIGBUS, which the JVM turns into an asynchronous {@link InternalError}),
 * from one document to the next by Chronicle's 4-byte headers (length and flags, bodies padded to 4
 * bytes), handing each record to a {@link Visitor} and reporting damage where it finds it.
 *
 * <p>Data ends at a zero header with nothing intact after it (never written; or the document a
 * writer is appending, or was when it died: Chronicle writes a document's header last), at an
 * end-of-file marker (the file rolled) or at a header still marked incomplete with nothing intact
 * after it (older Chronicle versions mark the document being appended so). Anything else that stops the walk is damage, and in a checksummed
 * journal (format 1.1 on) the walk goes on after it:
 * <ul>
 *   <li>a record failing its CRC32C whose header leads to an intact next document: its bytes
 *       are damaged; it is skipped;</li>
 *   <li>a header whose flags or length are wrong, but which with one bit flipped back starts a
 *       record whose checksum holds: the header is damaged; the record is read;</li>
 *   <li>otherwise (a zeroed region, garbage, a header whose length leads nowhere) the walk searches
 *       forward, 4 bytes at a time, for the next intact record, and reports the bytes skipped.</li>
 * </ul>
 * An intact record is one whose Chronicle header is complete with a plausible length and whose
 * body starts like a Framewire record and ends with its CRC32C: a false match is a 1 in 2^32
 * event per position searched. Format 1.0 records have no checksum, so there the walk reports the
 * first damage it finds in Chronicle's headers past a zeroed header, finds where records start again
 * by their shape alone (three record-like documents in a row), and stops at other damage to
 * Chronicle's headers.
 *
 * <p>A journal being written can be read: before taking a zero or incomplete header for damage
 * (or repairing it), the walk reads that header again, and goes on if the writer completed the
 * document meanwhile (a writer completes one document before it starts the next); and before
 * taking a record that fails its checksum for damaged, it reads the record again (a read that
 * raced the writer can hold the new header with part of the old body).
 *
 * <p>Parts: {@link ScanWindow} reads the file and says whether an intact record starts at a
 * position; {@link ScanRepair} decides what the walk does where none does (a live journal's end, a
 * repair, a skip, a search); {@link ScanOutput} hands the visitor the records, numbered, and the damage.
 *
 * <p>Threading: one thread; not thread-safe.
 */
final class JournalScanner implements AutoCloseable
{
    /** How a file's data ended. */
    enum End
    {
        /** At a zero header with only zeros after it: the data ends there. */
        CLEAN,
        /** At Chronicle's end-of-file marker: the queue rolled to the next file. */
        ROLLED,
        /** At a header still marked incomplete, nothing intact after it: the writer died mid-append. */
        INCOMPLETE,
        /** The file ends before its data does. */
        TRUNCATED,
        /** Damage the walk could not get past. */
        UNREADABLE
    }

    /** Gets the records and the damage, in file order. */
    interface Visitor
    {
        /**
         * An intact record (or, in a format 1.0 journal, any data document).
         *
         * @param body     the record's bytes, from its kind, without the checksum; valid during the call only.
         * @param length   their count.
         * @param position the byte offset of its Chronicle header.
         * @param sequence its Chronicle sequence number in the file, -1 when unknown.
         */
        void record(DirectBuffer body, int length, long position, long sequence);

        /**
         * Damage.
         *
         * @param kind        what was wrong.
         * @param position    where it starts.
         * @param length      bytes it covers, -1 if unknown.
         * @param sequence    the Chronicle sequence number of a damaged record, -1 if unknown or not one record.
         * @param oneRecord   true when the damage is one record, false for a region of bytes.
         * @param skipped     true when that record is skipped (it takes a record number but is not read);
         *                    false when it is read next (its header was damaged, not its bytes).
         * @param description what was wrong, in a sentence.
         */
        void damage(JournalDamage.Kind kind, long position, long length, long sequence, boolean oneRecord,
            boolean skipped, String description);
    }

    private final ScanWindow file;
    private final ScanOutput out;
    private final ScanRepair repair;
    private final boolean checksummed;
    /** The file's length when the walk began (a journal being written grows as Chronicle maps more of it). */
    private final long length;

    JournalScanner(final Path file, final boolean checksummed) throws IOException
    {
        this.file = new ScanWindow(file, checksummed);
        this.out = new ScanOutput(this.file);
        this.repair = new ScanRepair(this.file, out);
        this.checksummed = checksummed;
        this.length = this.file.length();
    }

    @Override
    public void close() throws IOException
    {
        file.close();
    }

    // ---------------------------------------------------------------- the walk

    /**
     * Walks the file from its start.
     *
     * @param visitor gets the records and the damage.
     * @return how the data ended.
     */
    End walk(final Visitor visitor) throws IOException
    {
        long pos = 0;
        out.begin(visitor);
        while (true)
        {
            if (!file.ensure(pos, 4))
            {
                if (file.grew())
                {
                    return End.INCOMPLETE; // a journal being written: the read ends where its snapshot did
                }
                out.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the file ends at byte " +
                    length + " before its data does (at byte " + pos + "): it was truncated");
                return End.TRUNCATED;
            }
            final int h = file.intAt(pos);
            if (h == 0)
            {
                if (file.firstNonZero(pos) < 0)
                {
                    return End.CLEAN;
                }
                pos = repair.endingHeader(pos, h);
                if (pos < 0)
                {
                    return repair.end();
                }
                continue;
            }
            if (h == END_OF_FILE)
            {
                return End.ROLLED;
            }
            final int len = h & LENGTH_MASK;
            final long body = pos + 4;
            if ((h & NOT_COMPLETE) != 0)
            {
                pos = repair.notComplete(pos, h, len);
                if (pos < 0)
                {
                    return repair.end();
                }
                continue;
            }
            if (body + len > length)
            {
                if (file.grew())
                {
                    return End.INCOMPLETE; // a record written after the read began, in a part mapped since
                }
                if (!checksummed)
                {
                    out.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the record at byte " +
                        pos + " claims " + len + " bytes but the file ends at byte " + length + ": it was " +
                        "truncated, or the record header is damaged");
                    return End.TRUNCATED;
                }
                pos = repair.lost(pos, h);
                if (pos < 0)
                {
                    return repair.end();
                }
                continue;
            }
            if ((h & META_DATA) != 0)
            {
                if (checksummed && file.intact(body, len))
                {
                    out.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4L + len, out.sequence(), true, false, String.format(
                        Locale.ROOT, "Chronicle's header 0x%08x marks Chronicle's own meta-data, but the document is an " +
                        "intact Framewire record (its checksum holds): the header is damaged; the record is read", h));
                    out.record(pos, body, len);
                }
                pos = next(body, len);
                continue;
            }
            if (!checksummed || file.intact(body, len) || file.intactReadAgain(body, len))
            {
                out.record(pos, body, len);
                pos = next(body, len);
                continue;
            }
            pos = repair.lost(pos, h);
            if (pos < 0)
            {
                return repair.end();
            }
        }
    }

    // ---------------------------------------------------------------- probes

    /**
     * Whether a journal's records carry checksums (format 1.1 on), from its first file: its first
     * data document is an intact checksummed record, or is not a format 1.0 header and an intact
     * checksummed record is found further on (a 1.1 journal whose start is damaged). A format 1.0
     * header is exactly 56 bytes with minor version 0 and no checksum.
     */
    static boolean checksummed(final Path firstFile) throws IOException
    {
        try (ScanWindow file = new ScanWindow(firstFile, true))
        {
            long pos = 0;
            for (int step = 0; step < 64 && file.ensure(pos, 4); step++)
            {
                final int h = file.intAt(pos);
                final int len = h & LENGTH_MASK;
                if (h == 0 || (h & NOT_COMPLETE) != 0 || pos + 4 + len > file.length())
                {
                    break;
                }
                if ((h & META_DATA) != 0)
                {
                    pos = next(pos + 4, len);
                    continue;
                }
                if (file.intact(pos + 4, len))
                {
                    return true;
                }
                if (len == JournalDescriptor.HEADER_LENGTH_1_0 && file.ensure(pos + 4, len) &&
                    file.byteAt(pos + 4) == JournalDescriptor.HEADER &&
                    file.intAt(pos + 4 + JournalDescriptor.STREAM_OFFSET) < JournalDescriptor.CHECKSUM_MINOR)
                {
                    return false;
                }
                break;
            }
            return file.resync(0) >= 0;
        }
    }

    /** What a structural walk finds: the data documents' body offsets and lengths (for tests and tools). */
    static final class Documents
    {
        final LongArrayList bodies = new LongArrayList();
        final IntArrayList lengths = new IntArrayList();
    }

    /** The data documents of an undamaged file, by Chronicle's headers alone. */
    static Documents documents(final Path path) throws IOException
    {
        final Documents documents = new Documents();
        try (ScanWindow file = new ScanWindow(path, false))
        {
            long pos = 0;
            while (file.ensure(pos, 4))
            {
                final int h = file.intAt(pos);
                final int len = h & LENGTH_MASK;
                if (h == 0 || (h & NOT_COMPLETE) != 0 || pos + 4 + len > file.length())
                {
                    break;
                }
                if ((h & META_DATA) == 0)
                {
                    documents.bodies.addLong(pos + 4);
                    documents.lengths.addInt(len);
                }
                pos = next(pos + 4, len);
            }
        }
        return documents;
    }
}
