package dev.framewire.journal;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import static dev.framewire.journal.JournalDescriptor.CHECKSUM_LENGTH;
import static dev.framewire.journal.JournalDescriptor.MIN_CHECKSUMMED_LENGTH;

/**
 * One Chronicle {@code .cq4} file as {@link JournalScanner} reads it: through a window of plain
 * reads (never mapped: a mapped read past the end of a cut file is a SIGBUS, which the JVM turns
 * into an asynchronous {@link InternalError}), a MiB at a time, with what the walk asks of the bytes:
 * whether an intact record starts at a position, where the next one is, where zeros run.
 *
 * <p>Chronicle's document header, 4 bytes little-endian before each document (bodies padded to 4 bytes):
 * <pre>
 *   bit 31     bit 30      bits 29..0
 * +----------+-----------+------------------------+
 * | not      | meta-data | the body's length      |
 * | complete |           |                        |
 * +----------+-----------+------------------------+
 * </pre>
 *
 * <p>Threading: one thread; not thread-safe.
 */
final class ScanWindow implements AutoCloseable
{
    /** Chronicle's document header: bit 31 not complete, bit 30 meta-data, the rest the length. */
    static final int NOT_COMPLETE = 0x8000_0000;
    static final int META_DATA = 0x4000_0000;
    static final int LENGTH_MASK = 0x3FFF_FFFF;
    /** Written at the end of a cycle's data when the queue rolls to the next. */
    static final int END_OF_FILE = NOT_COMPLETE | META_DATA;
    /** Read a MiB at a time: one read per MiB, not per record. */
    private static final int WINDOW = 1 << 20;

    private final Path file;
    private final FileChannel channel;
    /** The file's length when the walk began (a journal being written grows as Chronicle maps more of it). */
    private final long length;
    private final boolean checksummed;
    private final CRC32C crc = new CRC32C();
    private byte[] window = new byte[WINDOW];
    private ByteBuffer windowBuffer = ByteBuffer.wrap(window);
    private long windowStart;
    private int windowLength;
    /** Known: bytes [zeroFrom, zeroTo) are zero and zeroTo is the file's end or a non-zero byte. */
    private long zeroFrom = -1;
    private long zeroTo = -1;

    ScanWindow(final Path file, final boolean checksummed) throws IOException
    {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.length = channel.size();
        this.checksummed = checksummed;
    }

    /** The file's length when it was opened. */
    long length()
    {
        return length;
    }

    /** Whether its records carry checksums (format 1.1 on). */
    boolean checksummed()
    {
        return checksummed;
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }

    /** Where the document whose body starts at {@code body} and has {@code len} bytes ends: the next header. */
    static long next(final long body, final int len)
    {
        return (body + len + 3) & ~3L;
    }

    // ---------------------------------------------------------------- reading

    /** Makes the window hold [pos, pos + n); false when the file ends before. */
    boolean ensure(final long pos, final int n) throws IOException
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
    boolean grew() throws IOException
    {
        return channel.size() > length;
    }

    /** The int at {@code pos} as the file holds it now, not as the window read it earlier. */
    int freshIntAt(final long pos) throws IOException
    {
        forget();
        return intAt(pos);
    }

    int intAt(final long pos) throws IOException
    {
        ensure(pos, 4);
        final int at = (int)(pos - windowStart);
        return (window[at] & 0xFF) | (window[at + 1] & 0xFF) << 8 | (window[at + 2] & 0xFF) << 16 |
            (window[at + 3] & 0xFF) << 24;
    }

    byte byteAt(final long pos) throws IOException
    {
        ensure(pos, 1);
        return window[(int)(pos - windowStart)];
    }

    /**
     * Makes {@code view} show a record's bytes: {@code count} bytes from {@code body}, of a document
     * {@code len} bytes long; in the window, or in an array of its own when the document is longer.
     */
    void wrap(final UnsafeBuffer view, final long body, final int len, final int count) throws IOException
    {
        if (len <= window.length)
        {
            ensure(body, len);
            view.wrap(window, (int)(body - windowStart), count);
        }
        else
        {
            final byte[] bytes = new byte[count];
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            if (readFully(buffer, body) < count)
            {
                throw new IOException("short read of " + file + " at byte " + body);
            }
            view.wrap(bytes);
        }
    }

    /** Forgets what was read: the next read goes to the file. */
    private void forget()
    {
        windowLength = 0;
        zeroFrom = -1;
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

    // ---------------------------------------------------------------- records

    /** A Framewire record starts with a kind that is not 0, an aux byte, then the zero 16-bit field. */
    boolean startsLikeARecord(final long body) throws IOException
    {
        ensure(body, 4);
        final int at = (int)(body - windowStart);
        return window[at] != 0 && window[at + 2] == 0 && window[at + 3] == 0;
    }

    /** A record's body whose last 4 bytes are the CRC32C of the rest, and which starts like a record. */
    boolean intact(final long body, final int len) throws IOException
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
    boolean intactReadAgain(final long body, final int len) throws IOException
    {
        forget();
        return intact(body, len);
    }

    /** CRC32C of a range of the file, read through the window. */
    int checksum(final long from, final int count) throws IOException
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
            final int kind = byteAt(pos + 4) & 0xFF;
            if (kind > JournalDescriptor.LOST)
            {
                return false;
            }
            pos = next(pos + 4, len);
        }
        return true;
    }

    // ---------------------------------------------------------------- zeros

    /** The longest run of zero bytes in [from, to): {start, length}. */
    long[] longestZeroRun(final long from, final long to) throws IOException
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
    long firstNonZero(final long from) throws IOException
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
    long lastNonZero(final long from) throws IOException
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
}
