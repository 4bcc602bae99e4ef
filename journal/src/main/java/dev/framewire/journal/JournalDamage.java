package dev.framewire.journal;

import java.nio.file.Path;
import java.util.Locale;

/**
 * One place where a journal's files are damaged, as {@link JournalReader} found it: where (the
 * file, the byte offset, Chronicle's index of the record when known, the journal's record number)
 * and what was wrong. Damage is in the files (a flipped bit, a page of zeros, a cut file); it is
 * not how the run ended, which a killed run's journal says by having no
 * {@link JournalRecord.Kind#RUN_END}.
 *
 * <p>Threading: immutable.
 */
public final class JournalDamage
{
    /** What was wrong. */
    public enum Kind
    {
        /** A record whose CRC32C does not match its bytes (format 1.1 on): some of them changed. */
        CHECKSUM_MISMATCH("checksum mismatch"),
        /** A record of a kind its format version does not have. */
        UNKNOWN_KIND("unknown kind"),
        /** A record whose fields make no sense: a field past its end, an id out of range, a bad captured payload. */
        CORRUPT_RECORD("corrupt record"),
        /** Chronicle's 4-byte document header, or the journal's header record, is damaged. */
        DAMAGED_HEADER("damaged header"),
        /** A run of zero bytes where records were (a page the OS never wrote, or zeroed), with data after it. */
        ZEROED_REGION("zeroed region"),
        /** A file that ends before its data does: cut short, or a record header claiming more than the file has. */
        TRUNCATED("truncated"),
        /** Bytes that hold no record the reader could find. */
        UNREADABLE("unreadable bytes"),
        /** Chronicle's {@code metadata.cq4t} is damaged (the records do not depend on it). */
        METADATA("damaged metadata");

        private final String label;

        Kind(final String label)
        {
            this.label = label;
        }

        /**
         * The kind in words, as the tools print it.
         *
         * @return e.g. "checksum mismatch".
         */
        public String label()
        {
            return label;
        }
    }

    private final Kind kind;
    private final Path file;
    private final long byteOffset;
    private final long length;
    private final long chronicleIndex;
    private final long recordIndex;
    private final boolean oneRecord;
    private final String description;

    JournalDamage(
        final Kind kind,
        final Path file,
        final long byteOffset,
        final long length,
        final long chronicleIndex,
        final long recordIndex,
        final boolean oneRecord,
        final String description)
    {
        this.kind = kind;
        this.file = file;
        this.byteOffset = byteOffset;
        this.length = length;
        this.chronicleIndex = chronicleIndex;
        this.recordIndex = recordIndex;
        this.oneRecord = oneRecord;
        this.description = description;
    }

    /**
     * What was wrong.
     *
     * @return the kind.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * The damaged file.
     *
     * @return its path.
     */
    public Path file()
    {
        return file;
    }

    /**
     * Where in the file the damage starts: a record's Chronicle header, or the first byte of a
     * damaged region.
     *
     * @return the byte offset, or -1 when it concerns the whole file.
     */
    public long byteOffset()
    {
        return byteOffset;
    }

    /**
     * How many bytes the damage covers (a record with its Chronicle header, or a region skipped).
     *
     * @return bytes, or -1 when unknown.
     */
    public long length()
    {
        return length;
    }

    /**
     * Chronicle's index of the damaged record (cycle and sequence, as {@code ExcerptTailer.index()}
     * gives it). Counted from the file's start by the walk, so unknown after an unreadable region
     * in the same file, where records may have been lost uncounted.
     *
     * @return the index, or -1 when unknown or when the damage is not one record.
     */
    public long chronicleIndex()
    {
        return chronicleIndex;
    }

    /**
     * The journal's record number: of the damaged record when {@link #isOneRecord()}, else the
     * number the next record read gets (records after the damage keep counting from here).
     *
     * @return the number.
     */
    public long recordIndex()
    {
        return recordIndex;
    }

    /**
     * Whether the damage is one record (skipped, or read after a header was found damaged), as
     * opposed to a region of bytes in which any number of records were lost.
     *
     * @return true for one record.
     */
    public boolean isOneRecord()
    {
        return oneRecord;
    }

    /**
     * What was wrong, in a sentence without the position.
     *
     * @return the description.
     */
    public String description()
    {
        return description;
    }

    /**
     * Where, in words: the file, the byte or bytes, Chronicle's index and the record number.
     *
     * @return e.g. "file 20261125-07F.cq4, byte 65872 (Chronicle index 0x79c5700000065, record #101)".
     */
    public String position()
    {
        final StringBuilder sb = new StringBuilder("file ").append(file == null ? "?" : file.getFileName());
        if (byteOffset >= 0)
        {
            if (oneRecord || length <= 0)
            {
                sb.append(", byte ").append(byteOffset);
            }
            else
            {
                sb.append(", bytes ").append(byteOffset).append(" to ").append(byteOffset + length);
            }
        }
        if (oneRecord)
        {
            sb.append(" (");
            if (chronicleIndex >= 0)
            {
                sb.append("Chronicle index ").append(String.format(Locale.ROOT, "0x%x", chronicleIndex)).append(", ");
            }
            sb.append("record #").append(recordIndex).append(')');
        }
        else if (byteOffset >= 0)
        {
            sb.append(" (before record #").append(recordIndex).append(')');
        }
        return sb.toString();
    }

    /**
     * The damage in one line: position, kind and description.
     *
     * @return e.g. "file 20261125-07F.cq4, byte 65872 (Chronicle index 0x79c5700000065, record #101):
     *     checksum mismatch: ...".
     */
    @Override
    public String toString()
    {
        return position() + ": " + kind.label() + ": " + description;
    }
}
