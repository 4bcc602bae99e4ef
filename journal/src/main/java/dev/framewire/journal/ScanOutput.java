package dev.framewire.journal;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;

import static dev.framewire.journal.JournalDescriptor.CHECKSUM_LENGTH;

/**
 * What a walk of one file hands its {@link JournalScanner.Visitor}: the records read, each with its
 * Chronicle sequence number in the file, and the damage found. The walk ({@link JournalScanner})
 * and its repair pass ({@link ScanRepair}) both read records, and a damaged record skipped still
 * takes its number; once records may have been lost uncounted (a region skipped), numbers are unknown.
 *
 * <p>Threading: one thread; not thread-safe.
 */
final class ScanOutput
{
    private final ScanWindow file;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private JournalScanner.Visitor visitor;
    /** The next data document's Chronicle sequence number; -1 once records may have been lost uncounted. */
    private long sequence;

    ScanOutput(final ScanWindow file)
    {
        this.file = file;
    }

    /** Starts a walk from the file's first document. */
    void begin(final JournalScanner.Visitor visitor)
    {
        this.visitor = visitor;
        this.sequence = 0;
    }

    /** The next data document's Chronicle sequence number, -1 when unknown. */
    long sequence()
    {
        return sequence;
    }

    /**
     * Hands the visitor the record whose Chronicle header is at {@code pos}, its body {@code len}
     * bytes from {@code body} (the checksum, in a checksummed journal, not included).
     */
    void record(final long pos, final long body, final int len) throws IOException
    {
        final int recordLength = file.checksummed() ? len - CHECKSUM_LENGTH : len;
        file.wrap(view, body, len, recordLength);
        visitor.record(view, recordLength, pos, sequence);
        skipped();
    }

    /** A damaged record was skipped: it takes its number all the same. */
    void skipped()
    {
        if (sequence >= 0)
        {
            sequence++;
        }
    }

    /** Bytes that may have held records were skipped: the numbers that follow are unknown. */
    void lostCount()
    {
        sequence = -1;
    }

    /** Reports damage; see {@link JournalScanner.Visitor#damage}. */
    void damage(final JournalDamage.Kind kind, final long position, final long length, final long sequence,
        final boolean oneRecord, final boolean skipped, final String description)
    {
        visitor.damage(kind, position, length, sequence, oneRecord, skipped, description);
    }
}
