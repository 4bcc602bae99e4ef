package dev.framewire.journal;

import java.io.IOException;
import java.util.Locale;

import static dev.framewire.journal.JournalDescriptor.CHECKSUM_LENGTH;
import static dev.framewire.journal.JournalDescriptor.MIN_CHECKSUMMED_LENGTH;
import static dev.framewire.journal.ScanWindow.END_OF_FILE;
import static dev.framewire.journal.ScanWindow.LENGTH_MASK;
import static dev.framewire.journal.ScanWindow.META_DATA;
import static dev.framewire.journal.ScanWindow.NOT_COMPLETE;
import static dev.framewire.journal.ScanWindow.next;

/**
 * What {@link JournalScanner}'s walk does where the next document is not an intact record: tells
 * a journal still being written (a zero or incomplete header the writer is about to complete) from
 * damage; repairs a header one bit flip away from an intact record's; skips a record that fails its
 * checksum when its header leads to an intact next document; otherwise finds the next intact record
 * and reports the bytes skipped (a zeroed region, a damaged header, or unreadable bytes), or ends
 * the walk when none follows. Each method returns where the walk goes on, or -1 when it ends,
 * {@link #end()} then saying how.
 *
 * <p>Threading: one thread; not thread-safe.
 */
final class ScanRepair
{
    /** A zero run at least this long in skipped bytes makes them a zeroed region rather than garbage. */
    private static final int ZEROED_MIN = 64;

    private final ScanWindow file;
    private final ScanOutput out;
    /** How the walk ended when a method here returned -1. */
    private JournalScanner.End end = JournalScanner.End.UNREADABLE;

    ScanRepair(final ScanWindow file, final ScanOutput out)
    {
        this.file = file;
        this.out = out;
    }

    /** How the walk ended when a method here returned -1. */
    JournalScanner.End end()
    {
        return end;
    }

    /**
     * A header marking a record still being written: the record a writer is appending, or a damaged header.
     *
     * @return where the walk goes on, or -1 when it ends.
     */
    long notComplete(final long pos, final int h, final int len) throws IOException
    {
        if (!file.checksummed())
        {
            if (len != 0)
            {
                out.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4, -1, false, false, String.format(Locale.ROOT,
                    "Chronicle's header 0x%08x marks a record still being written yet gives its length, " +
                    "which Chronicle never does: the header is damaged; format 1.0 records have no " +
                    "checksums, so the reader cannot find where records start again after it", h));
                end = JournalScanner.End.UNREADABLE;
                return -1;
            }
            end = JournalScanner.End.INCOMPLETE;
            return -1;
        }
        return endingHeader(pos, h);
    }

    /**
     * A header that would end the data, zero or marking a record still being written, with bytes
     * after it: the document a writer is appending, or was when it was killed, unless intact records
     * follow it, when the header (or more) is damaged. (Chronicle writes a document's header when the
     * document is complete; older versions marked it incomplete until then.)
     *
     * @return where the walk goes on, or -1 when it ends.
     */
    long endingHeader(final long pos, final int h) throws IOException
    {
        if (file.freshIntAt(pos) != h)
        {
            return pos; // the writer completed it after the window was read
        }
        if (file.checksummed())
        {
            final long repaired = repair(pos, h);
            if (repaired >= 0)
            {
                return repaired;
            }
        }
        final long next = file.resync(pos + 4);
        if (next < 0)
        {
            end = JournalScanner.End.INCOMPLETE;
            return -1;
        }
        if (file.freshIntAt(pos) != h)
        {
            return pos; // the writer completed it while the rest was read: a live journal
        }
        if (h == 0)
        {
            region(pos, next, h, "; the reader goes on at the " + (file.checksummed() ? "intact record" :
                "record (found by its shape: format 1.0 records have no checksums)") + " at byte " + next);
        }
        else
        {
            out.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, next - pos, -1, false, false, String.format(
                Locale.ROOT, "Chronicle's header 0x%08x marks a record still being written, but intact records " +
                "follow from byte %d: the header is damaged (a killed writer leaves nothing intact after it); bytes " +
                "%d to %d hold no intact record; the reader goes on at the intact record at byte %d", h, next, pos,
                next, next));
        }
        out.lostCount();
        return next;
    }

    /**
     * The walk lost its way at {@code pos}: the header there (h) is damaged, or the record it
     * starts, or there is no record there at all. Tries, in order: repairing the header; skipping
     * the record when its header leads to an intact next document; finding the next intact
     * record. Reports what it did.
     *
     * @return where the walk goes on, or -1 when nothing more can be read.
     */
    long lost(final long pos, final int h) throws IOException
    {
        final long repaired = repair(pos, h);
        if (repaired >= 0)
        {
            return repaired;
        }
        final long length = file.length();
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
                    final long stored = file.intAt(body + len - CHECKSUM_LENGTH) & 0xFFFF_FFFFL;
                    what = String.format(Locale.ROOT, "the record's CRC32C does not match its bytes (stored " +
                        "0x%08x, computed 0x%08x): some of its %d bytes changed; it is skipped", stored,
                        file.checksum(body, len - CHECKSUM_LENGTH) & 0xFFFF_FFFFL, len);
                }
                out.damage(len < MIN_CHECKSUMMED_LENGTH ? JournalDamage.Kind.CORRUPT_RECORD :
                    JournalDamage.Kind.CHECKSUM_MISMATCH, pos, 4L + len, out.sequence(), true, true, what);
                out.skipped();
                return next;
            }
        }
        final long next = file.resync(body);
        if (next < 0)
        {
            if (complete && body + len > length)
            {
                out.damage(JournalDamage.Kind.TRUNCATED, pos, length - pos, -1, false, false, "the record at byte " + pos +
                    " claims " + len + " bytes but the file ends at byte " + length + ": it was truncated, or the " +
                    "record header is damaged");
                end = JournalScanner.End.TRUNCATED;
            }
            else
            {
                region(pos, file.lastNonZero(pos) + 1, h, "; no intact record follows in the file");
                end = JournalScanner.End.UNREADABLE;
            }
            return -1;
        }
        region(pos, next, h, "; the reader goes on at the intact record at byte " + next);
        out.lostCount();
        return next;
    }

    /**
     * Tries each header that differs from {@code h} in one bit: one that starts an intact record
     * means the header was damaged and the record was not. Reads the record.
     *
     * @return where the walk goes on after the record read, or -1 when no such header was found.
     */
    private long repair(final long pos, final int h) throws IOException
    {
        final long body = pos + 4;
        if (!file.ensure(body, 4) || !file.startsLikeARecord(body))
        {
            return -1;
        }
        for (int bit = 0; bit < 32; bit++)
        {
            final int candidate = h ^ (1 << bit);
            final int len = candidate & LENGTH_MASK;
            if ((candidate & (NOT_COMPLETE | META_DATA)) != 0 || len < MIN_CHECKSUMMED_LENGTH ||
                body + len > file.length())
            {
                continue;
            }
            if (file.intact(body, len))
            {
                if (h == 0 && file.firstNonZero(next(body, len)) < 0)
                {
                    // nothing after it: the record a writer is appending (Chronicle writes the header
                    // last), complete but for its header, whose length here happens to be one bit
                    // (a power of two, as a batch's may be); not damage but the end of a live journal
                    return -1;
                }
                out.damage(JournalDamage.Kind.DAMAGED_HEADER, pos, 4L + len, out.sequence(), true, false, String.format(
                    Locale.ROOT, "Chronicle's header reads 0x%08x, but with bit %d flipped back (0x%08x) it starts an " +
                    "intact record (its checksum holds): the header is damaged; the record is read", h, bit,
                    candidate));
                out.record(pos, body, len);
                return next(body, len);
            }
        }
        return -1;
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
            if (!file.ensure(pos, 4))
            {
                return false;
            }
            final int h = file.intAt(pos);
            if (h == 0)
            {
                return file.resync(pos + 4) < 0; // the end of the data, or a document being appended: no record after
            }
            if (h == END_OF_FILE || h == NOT_COMPLETE)
            {
                return true; // the end of a rolled file, or the record a killed writer was appending
            }
            final int len = h & LENGTH_MASK;
            if ((h & NOT_COMPLETE) != 0 || pos + 4 + len > file.length())
            {
                return false;
            }
            if ((h & META_DATA) == 0)
            {
                return file.intact(pos + 4, len);
            }
            pos = next(pos + 4, len);
        }
        return false;
    }

    /**
     * Reports bytes skipped: a zeroed region when a long run of zeros is in them; a damaged header
     * when the header at their start is zero or claims more than the file has; else unreadable bytes.
     */
    private void region(final long from, final long to, final int h, final String tail) throws IOException
    {
        final long[] run = file.longestZeroRun(from, to);
        final int len = h & LENGTH_MASK;
        final long length = file.length();
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
        out.damage(kind, from, to - from, -1, false, false, what + tail);
    }
}
