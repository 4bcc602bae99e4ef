package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.CRC32C;

import static dev.framewire.journal.JournalDescriptor.CHECKSUM_LENGTH;
import static dev.framewire.journal.JournalDescriptor.MIN_CHECKSUMMED_LENGTH;

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
 * <p>Threading: one thread; not thread-safe.
 */
final class JournalScanner implements AutoCloseable
{
    /** Chronicle's document header: bit 31 not complete, bit 30 meta-data, the rest the length. */
    static final int NOT_COMPLETE = 0x8000_0000;
    static final int META_DATA = 0x4000_0000;
    static final int LENGTH_MASK = 0x3FFF_FFFF;
    /** Written at the end of a cycle's data when the queue rolls to the next. */
    static final int END_OF_FILE = NOT_COMPLETE | META_DATA;
    /** Read a MiB at a time: one read per MiB, not per record. */
    private static final int WINDOW = 1 << 20;
    /** A zero run at least this long in skipped bytes makes them a zeroed region rather than garbage. */
    private static final int ZEROED_MIN = 64;

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

    private final Path file;
    private final FileChannel channel;
    /** The file's length when the walk began (a journal being written grows as Chronicle maps more of it). */
    private final long length;
    private final boolean checksummed;
    private final CRC32C crc = new CRC32C();
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private byte[] window = new byte[WINDOW];
    private ByteBuffer windowBuffer = ByteBuffer.wrap(window);
    private long windowStart;
    private int windowLength;
    /** Known: bytes [zeroFrom, zeroTo) are zero and zeroTo is the file's end or a non-zero byte. */
    private long zeroFrom = -1;
    private long zeroTo = -1;
    /** The next data document's Chronicle sequence number; -1 once records may have been lost uncounted. */
    private long sequence;
    /** Where the walk goes on after a header was repaired. */
    private long resumeAt;
    /** How the file ended when {@link #lost} found nothing more. */
    private End lostEnd = End.UNREADABLE;
    /** How the walk ended when {@link #zeroHeader} or {@link #notComplete} ended it. */
    private End walkEnd = End.UNREADABLE;

    JournalScanner(final Path file, final boolean checksummed) throws IOException
    {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.length = channel.size();
        this.checksummed = checksummed;
    }

    long length()
    {
        return length;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
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
        sequence = 0;
        while (true)
        {
            if (!ensure(pos, 4))
            {
                if (grew())
                {
                    return End.INCOMPLETE; // a journal being written: the read ends where its snapshot did
                }
                visitor.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the file ends at byte " +
                    length + " before its data does (at byte " + pos + "): it was truncated");
                return End.TRUNCATED;
            }
            final int h = intAt(pos);
            if (h == 0)
            {
                if (firstNonZero(pos) < 0)
                {
                    return End.CLEAN;
                }
                pos = zeroHeader(visitor, pos, h);
                if (pos < 0)
                {
                    return walkEnd;
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
                pos = notComplete(visitor, pos, h, len);
                if (pos < 0)
                {
                    return walkEnd;
                }
                continue;
            }
            if (body + len > length)
            {
                if (grew())
                {
                    return End.INCOMPLETE; // a record written after the read began, in a part mapped since
                }
                if (!checksummed)
                {
                    visitor.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the record at byte " +
                        pos + " claims " + len + " bytes but the file ends at byte " + length + ": it was " +
                        "truncated, or the record header is damaged");
                    return End.TRUNCATED;
                }
                pos = lost(visitor, pos, h);
                if (pos < 0)
                {
                    return lostEnd;
                }
                continue;
            }
            if ((h & META_DATA) != 0)
            {
                if (checksummed && intact(body, len))
                {
                    visitor.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4L + len, sequence, true, false, String.format(
                        Locale.ROOT, "Chronicle's header 0x%08x marks Chronicle's own meta-data, but the document is an " +
                        "intact Framewire record (its checksum holds): the header is damaged; the record is read", h));
                    record(visitor, pos, body, len);
                }
                pos = next(body, len);
                continue;
            }
            if (!checksummed || intact(body, len) || intactReadAgain(body, len))
            {
                record(visitor, pos, body, len);
                pos = next(body, len);
                continue;
            }
            pos = lost(visitor, pos, h);
            if (pos < 0)
            {
                return lostEnd;
            }
        }
    }

    /**
     * A zero header with bytes after it: a record being appended, or damage.
     *
     * @return where the walk goes on, or -1 when it ends ({@link #walkEnd} says how).
     */
    private long zeroHeader(final Visitor visitor, final long pos, final int h) throws IOException
    {
        // Chronicle writes a document's header when the document is complete: a zero header with
        // bytes after it is the document a writer is appending (a live journal), or was when it
        // was killed; unless intact records follow it, when the header or more was zeroed
        if (freshIntAt(pos) != 0)
        {
            return pos; // the writer completed it after the window was read
        }
        if (checksummed && repair(visitor, pos, h))
        {
            return resumeAt;
        }
        final long next = resync(pos + 4);
        if (next < 0)
        {
            walkEnd = End.INCOMPLETE;
            return -1;
        }
        if (freshIntAt(pos) != 0)
        {
            return pos; // the writer completed it while the rest was read
        }
        region(visitor, pos, next, h, "; the reader goes on at the " + (checksummed ? "intact record" :
            "record (found by its shape: format 1.0 records have no checksums)") + " at byte " + next);
        sequence = -1;
        return next;
    }

    /**
     * A header marking a record still being written: the record a writer is appending, or a damaged header.
     *
     * @return where the walk goes on, or -1 when it ends ({@link #walkEnd} says how).
     */
    private long notComplete(final Visitor visitor, final long pos, final int h, final int len) throws IOException
    {
        if (!checksummed)
        {
            if (len != 0)
            {
                visitor.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4, -1, false, false, String.format(Locale.ROOT,
                    "Chronicle's header 0x%08x marks a record still being written yet gives its length, " +
                    "which Chronicle never does: the header is damaged; format 1.0 records have no " +
                    "checksums, so the reader cannot find where records start again after it", h));
                walkEnd = End.UNREADABLE;
                return -1;
            }
            walkEnd = End.INCOMPLETE;
            return -1;
        }
        if (freshIntAt(pos) != h)
        {
            return pos; // the writer completed it after the window was read
        }
        if (repair(visitor, pos, h))
        {
            return resumeAt;
        }
        final long next = resync(pos + 4);
        if (next < 0)
        {
            walkEnd = End.INCOMPLETE;
            return -1;
        }
        if (freshIntAt(pos) != h)
        {
            return pos; // the record being appended was completed while the rest was read: a live journal
        }
        visitor.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, next - pos, -1, false, false, String.format(Locale.ROOT,
            "Chronicle's header 0x%08x marks a record still being written, but intact records follow from " +
            "byte %d: the header is damaged (a killed writer leaves nothing intact after it); bytes %d to %d " +
            "hold no intact record; the reader goes on at the intact record at byte %d", h, next, pos, next, next));
        sequence = -1;
        return next;
    }

    private void record(final Visitor visitor, final long pos, final long body, final int len) throws IOException
    {
        final int recordLength = checksummed ? len - CHECKSUM_LENGTH : len;
        if (len <= window.length)
        {
            ensure(body, len);
            view.wrap(window, (int)(body - windowStart), recordLength);
        }
        else
        {
            final byte[] bytes = new byte[recordLength];
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            if (readFully(buffer, body) < recordLength)
            {
                throw new IOException("short read of " + file + " at byte " + body);
            }
            view.wrap(bytes);
        }
        visitor.record(view, recordLength, pos, sequence);
        if (sequence >= 0)
        {
            sequence++;
        }
    }

    /**
     * The walk lost its way at {@code pos}: the header there (h) is damaged, or the record it
     * starts, or there is no record there at all. Tries, in order: repairing the header; skipping
     * the record when its header leads to an intact next document; finding the next intact
     * record. Reports what it did.
     *
     * @return where the walk goes on, or -1 when nothing more can be read ({@link #lostEnd} says how it ended).
     */
    private long lost(final Visitor visitor, final long pos, final int h) throws IOException
    {
        if (repair(visitor, pos, h))
        {
            return resumeAt;
        }
        final int len = h & LENGTH_MASK;
        final long body = pos + 4;
        final boolean complete = h != 0 && (h & NOT_COMPLETE) == 0;
        final boolean data = complete && (h & META_DATA) == 0;
        if (data && body + len <= length)
        {
            final long next = next(body, len);
            if (synced(next))
            {
                // the header holds (the next document is where it says): the record's bytes are damaged
                final String what;
                if (len < MIN_CHECKSUMMED_LENGTH)
                {
                    what = "the record is " + len + " bytes, shorter than the " + MIN_CHECKSUMMED_LENGTH + " every " +
                        "record has: its bytes are damaged; it is skipped";
                }
                else
                {
                    final long stored = intAt(body + len - CHECKSUM_LENGTH) & 0xFFFF_FFFFL;
                    what = String.format(Locale.ROOT, "the record's CRC32C does not match its bytes (stored " +
                        "0x%08x, computed 0x%08x): some of its %d bytes changed; it is skipped", stored,
                        checksum(body, len - CHECKSUM_LENGTH) & 0xFFFF_FFFFL, len);
                }
                visitor.damage(len < MIN_CHECKSUMMED_LENGTH ? JournalDamage.Kind.CORRUPT_RECORD :
                    JournalDamage.Kind.CHECKSUM_MISMATCH, pos, 4L + len, sequence, true, true, what);
                if (sequence >= 0)
                {
                    sequence++;
                }
                return next;
            }
        }
        final long next = resync(body);
        if (next < 0)
        {
            if (complete && body + len > length)
            {
                visitor.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the record at byte " + pos +
                    " claims " + len + " bytes but the file ends at byte " + length + ": it was truncated, or the " +
                    "record header is damaged");
                lostEnd = End.TRUNCATED;
            }
            else
            {
                region(visitor, pos, lastNonZero(pos) + 1, h, "; no intact record follows in the file");
                lostEnd = End.UNREADABLE;
            }
            return -1;
        }
        region(visitor, pos, next, h, "; the reader goes on at the intact record at byte " + next);
        sequence = -1;
        return next;
    }

    /**
     * Tries each header that differs from {@code h} in one bit: one that starts an intact record
     * means the header was damaged and the record was not. Reads the record.
     */
    private boolean repair(final Visitor visitor, final long pos, final int h) throws IOException
    {
        final long body = pos + 4;
        if (!ensure(body, 4) || !startsLikeARecord(body))
        {
            return false;
        }
        for (int bit = 0; bit < 32; bit++)
        {
            final int candidate = h ^ (1 << bit);
            final int len = candidate & LENGTH_MASK;
            if ((candidate & (NOT_COMPLETE | META_DATA)) != 0 || len < MIN_CHECKSUMMED_LENGTH || body + len > length)
            {
                continue;
            }
            if (intact(body, len))
            {
                if (h == 0 && firstNonZero(next(body, len)) < 0)
                {
                    // nothing after it: the record a writer is appending (Chronicle writes the header
                    // last), complete but for its header, whose length here happens to be one bit
                    // (a power of two, as a batch's may be); not damage but the end of a live journal
                    return false;
                }
                visitor.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4L + len, sequence, true, false, String.format(
                    Locale.ROOT, "Chronicle's header reads 0x%08x, but with bit %d flipped back (0x%08x) it starts an " +
                    "intact record (its checksum holds): the header is damaged; the record is read", h, bit,
                    candidate));
                record(visitor, pos, body, len);
                resumeAt = next(body, len);
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the walk is back on track at {@code pos}: an intact record there (after at most a
     * few of Chronicle's meta-data documents), or the clean end of the data.
     */
    private boolean synced(final long from) throws IOException
    {
        long pos = from;
        for (int step = 0; step < 4; step++)
        {
            if (!ensure(pos, 4))
            {
                return false;
            }
            final int h = intAt(pos);
            if (h == 0)
            {
                return resync(pos + 4) < 0; // the end of the data, or a document being appended: no record after
            }
            if (h == END_OF_FILE || h == NOT_COMPLETE)
            {
                return true; // the end of a rolled file, or the record a killed writer was appending
            }
            final int len = h & LENGTH_MASK;
            if ((h & NOT_COMPLETE) != 0 || pos + 4 + len > length)
            {
                return false;
            }
            if ((h & META_DATA) == 0)
            {
                return intact(pos + 4, len);
            }
            pos = next(pos + 4, len);
        }
        return false;
    }

    /**
     * The first position at or after {@code from} (4-byte aligned) where an intact record starts.
     *
     * @return its header's offset, or -1.
     */
    long resync(final long from) throws IOException
    {
        long pos = (from + 3) & ~3L;
        while (pos + 4 + MIN_CHECKSUMMED_LENGTH <= length)
        {
            ensure(pos, (int)Math.min(window.length, length - pos));
            // scan the window in place; a candidate's check may move the window, then go on from the next position
            final long start = windowStart;
            final byte[] w = window;
            final int end = windowLength - 3;
            boolean moved = false;
            for (int at = (int)(pos - start); at < end && !moved; at += 4, pos += 4)
            {
                final int h = (w[at] & 0xFF) | (w[at + 1] & 0xFF) << 8 | (w[at + 2] & 0xFF) << 16 | (w[at + 3] & 0xFF) << 24;
                if (h == 0 || (h & (NOT_COMPLETE | META_DATA)) != 0)
                {
                    continue;
                }
                final int len = h & LENGTH_MASK;
                if (len < JournalDescriptor.FIXED_LENGTH || pos + 4 + len > length)
                {
                    continue;
                }
                if (checksummed ? intact(pos + 4, len) : shapedLikeRecords(pos))
                {
                    return pos;
                }
                moved = windowStart != start;
            }
        }
        return -1;
    }

    /**
     * Format 1.0, without checksums: three complete data documents in a row, each the length of a
     * record at least, each starting like a record of a kind format 1.0 has; the first at {@code pos}.
     */
    private boolean shapedLikeRecords(final long from) throws IOException
    {
        long pos = from;
        for (int n = 0; n < 3; n++)
        {
            if (!ensure(pos, 8))
            {
                return false;
            }
            final int h = intAt(pos);
            final int len = h & LENGTH_MASK;
            if ((h & (NOT_COMPLETE | META_DATA)) != 0 || len < JournalDescriptor.FIXED_LENGTH ||
                pos + 4 + len > length || !startsLikeARecord(pos + 4))
            {
                return false;
            }
            ensure(pos + 4, 1);
            final int kind = window[(int)(pos + 4 - windowStart)] & 0xFF;
            if (kind > JournalDescriptor.LOST)
            {
                return false;
            }
            pos = next(pos + 4, len);
        }
        return true;
    }

    /** A Framewire record starts with a kind that is not 0, an aux byte, then the zero 16-bit field. */
    private boolean startsLikeARecord(final long body) throws IOException
    {
        ensure(body, 4);
        final int at = (int)(body - windowStart);
        return window[at] != 0 && window[at + 2] == 0 && window[at + 3] == 0;
    }

    /** A record's body whose last 4 bytes are the CRC32C of the rest, and which starts like a record. */
    private boolean intact(final long body, final int len) throws IOException
    {
        if (len < MIN_CHECKSUMMED_LENGTH || !startsLikeARecord(body))
        {
            return false;
        }
        final int stored = intAt(body + len - CHECKSUM_LENGTH);
        return checksum(body, len - CHECKSUM_LENGTH) == stored;
    }

    /**
     * {@link #intact} of a record read afresh from the file, not through the window. In a journal
     * being written, a window filled while the writer completed this record can hold its header
     * complete and part of its body from before: a file read copies the bytes in no set order, so
     * seeing the header (written last) does not promise the body it covers. A record that fails its
     * checksum is therefore read again before it is called damaged; a damaged one reads the same.
     */
    private boolean intactReadAgain(final long body, final int len) throws IOException
    {
        windowLength = 0;
        zeroFrom = -1;
        return intact(body, len);
    }

    /** CRC32C of a range of the file, read through the window. */
    private int checksum(final long from, final int count) throws IOException
    {
        crc.reset();
        long pos = from;
        long left = count;
        while (left > 0)
        {
            final int chunk = (int)Math.min(left, window.length);
            if (!ensure(pos, chunk))
            {
                return ~(int)crc.getValue(); // past the end: cannot match
            }
            crc.update(window, (int)(pos - windowStart), chunk);
            pos += chunk;
            left -= chunk;
        }
        return (int)crc.getValue();
    }

    private static long next(final long body, final int len)
    {
        return (body + len + 3) & ~3L;
    }

    /**
     * Reports bytes skipped: a zeroed region when a long run of zeros is in them; a damaged header
     * when the header at their start is zero or claims more than the file has; else unreadable bytes.
     */
    private void region(final Visitor visitor, final long from, final long to, final int h, final String tail)
        throws IOException
    {
        final long[] run = longestZeroRun(from, to);
        final int len = h & LENGTH_MASK;
        final JournalDamage.Kind kind;
        final String what;
        if (run[1] >= ZEROED_MIN)
        {
            kind = JournalDamage.Kind.ZEROED_REGION;
            what = "bytes " + run[0] + " to " + (run[0] + run[1]) + " are zero where records were (pages the OS " +
                "never wrote, or zeroed), and data follows them; bytes " + from + " to " + to + " hold no intact record";
        }
        else if (h == 0)
        {
            kind = JournalDamage.Kind.DAMAGED_HEADER;
            what = "Chronicle's header at byte " + from + " is zero, which would end the data, but data follows it: " +
                "the header is damaged; bytes " + from + " to " + to + " hold no intact record";
        }
        else if ((h & NOT_COMPLETE) == 0 && from + 4 + len > length)
        {
            kind = JournalDamage.Kind.DAMAGED_HEADER;
            what = String.format(Locale.ROOT, "Chronicle's header at byte %d (0x%08x) claims %d bytes, past the " +
                "file's end at byte %d: the header is damaged; bytes %d to %d hold no intact record", from, h, len,
                length, from, to);
        }
        else
        {
            kind = JournalDamage.Kind.UNREADABLE;
            what = String.format(Locale.ROOT, "bytes %d to %d hold no intact record (Chronicle's header at byte %d " +
                "reads 0x%08x)", from, to, from, h);
        }
        visitor.damage(kind, from, to - from, -1, false, false, what + tail);
    }

    /** The longest run of zero bytes in [from, to): {start, length}. */
    private long[] longestZeroRun(final long from, final long to) throws IOException
    {
        long bestStart = from;
        long best = 0;
        long runStart = -1;
        for (long pos = from; pos < to; )
        {
            final int chunk = (int)Math.min(to - pos, window.length);
            ensure(pos, chunk);
            final int base = (int)(pos - windowStart);
            for (int i = 0; i < chunk; i++)
            {
                if (window[base + i] == 0)
                {
                    if (runStart < 0)
                    {
                        runStart = pos + i;
                    }
                }
                else if (runStart >= 0)
                {
                    if (pos + i - runStart > best)
                    {
                        best = pos + i - runStart;
                        bestStart = runStart;
                    }
                    runStart = -1;
                }
            }
            pos += chunk;
        }
        if (runStart >= 0 && to - runStart > best)
        {
            best = to - runStart;
            bestStart = runStart;
        }
        return new long[]{bestStart, best};
    }

    /** The first non-zero byte at or after {@code from}, or -1 when the rest of the file is zero. */
    private long firstNonZero(final long from) throws IOException
    {
        if (from >= zeroFrom && from <= zeroTo && zeroFrom >= 0)
        {
            return zeroTo >= length ? -1 : zeroTo;
        }
        long pos = from;
        while (pos < length)
        {
            final int chunk = (int)Math.min(length - pos, window.length);
            ensure(pos, chunk);
            final int base = (int)(pos - windowStart);
            for (int i = 0; i < chunk; i++)
            {
                if (window[base + i] != 0)
                {
                    zeroFrom = from;
                    zeroTo = pos + i;
                    return zeroTo;
                }
            }
            pos += chunk;
        }
        zeroFrom = from;
        zeroTo = length;
        return -1;
    }

    /** The last non-zero byte at or after {@code from}, or {@code from - 1} when there is none. */
    private long lastNonZero(final long from) throws IOException
    {
        long end = length;
        while (end > from)
        {
            final int chunk = (int)Math.min(end - from, window.length);
            final long pos = end - chunk;
            ensure(pos, chunk);
            final int base = (int)(pos - windowStart);
            for (int i = chunk - 1; i >= 0; i--)
            {
                if (window[base + i] != 0)
                {
                    return pos + i;
                }
            }
            end = pos;
        }
        return from - 1;
    }

    // ---------------------------------------------------------------- reading

    /** Makes the window hold [pos, pos + n); false when the file ends before. */
    private boolean ensure(final long pos, final int n) throws IOException
    {
        if (pos < 0 || n < 0 || pos + n > length)
        {
            return false;
        }
        if (pos >= windowStart && pos + n <= windowStart + windowLength)
        {
            return true;
        }
        if (n > window.length)
        {
            window = new byte[n];
            windowBuffer = ByteBuffer.wrap(window);
        }
        windowBuffer.clear();
        windowStart = pos;
        windowLength = readFully(windowBuffer, pos);
        return windowLength >= n;
    }

    /**
     * Whether the file is longer now than when the walk began: a journal being written, which
     * Chronicle extends as it maps more of it. The walk reads the file as it was (it could chase a
     * writer faster than itself for ever), and ends there.
     */
    private boolean grew() throws IOException
    {
        return channel.size() > length;
    }

    /** The int at {@code pos} as the file holds it now, not as the window read it earlier. */
    private int freshIntAt(final long pos) throws IOException
    {
        windowLength = 0;
        zeroFrom = -1;
        return intAt(pos);
    }

    private int intAt(final long pos) throws IOException
    {
        ensure(pos, 4);
        final int at = (int)(pos - windowStart);
        return (window[at] & 0xFF) | (window[at + 1] & 0xFF) << 8 | (window[at + 2] & 0xFF) << 16 |
            (window[at + 3] & 0xFF) << 24;
    }

    private int readFully(final ByteBuffer buffer, final long position) throws IOException
    {
        int total = 0;
        while (buffer.hasRemaining())
        {
            final int n = channel.read(buffer, position + total);
            if (n < 0)
            {
                break;
            }
            total += n;
        }
        return total;
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
        try (JournalScanner scanner = new JournalScanner(firstFile, true))
        {
            long pos = 0;
            for (int step = 0; step < 64 && scanner.ensure(pos, 4); step++)
            {
                final int h = scanner.intAt(pos);
                final int len = h & LENGTH_MASK;
                if (h == 0 || (h & NOT_COMPLETE) != 0 || pos + 4 + len > scanner.length)
                {
                    break;
                }
                if ((h & META_DATA) != 0)
                {
                    pos = next(pos + 4, len);
                    continue;
                }
                if (scanner.intact(pos + 4, len))
                {
                    return true;
                }
                if (len == JournalDescriptor.HEADER_LENGTH_1_0 && scanner.ensure(pos + 4, len) &&
                    scanner.window[(int)(pos + 4 - scanner.windowStart)] == JournalDescriptor.HEADER &&
                    scanner.intAt(pos + 4 + JournalDescriptor.STREAM_OFFSET) < JournalDescriptor.CHECKSUM_MINOR)
                {
                    return false;
                }
                break;
            }
            return scanner.resync(0) >= 0;
        }
    }

    /** What a structural walk finds: the data documents' body offsets and lengths (for tests and tools). */
    static final class Documents
    {
        final LongArrayList bodies = new LongArrayList();
        final IntArrayList lengths = new IntArrayList();
    }

    /** The data documents of an undamaged file, by Chronicle's headers alone. */
    static Documents documents(final Path file) throws IOException
    {
        final Documents documents = new Documents();
        try (JournalScanner scanner = new JournalScanner(file, false))
        {
            long pos = 0;
            while (scanner.ensure(pos, 4))
            {
                final int h = scanner.intAt(pos);
                final int len = h & LENGTH_MASK;
                if (h == 0 || (h & NOT_COMPLETE) != 0 || pos + 4 + len > scanner.length)
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
