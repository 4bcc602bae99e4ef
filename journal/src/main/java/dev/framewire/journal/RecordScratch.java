package dev.framewire.journal;

import net.openhft.chronicle.bytes.Bytes;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import static dev.framewire.journal.JournalDescriptor.FIXED_LENGTH;
import static dev.framewire.journal.JournalDescriptor.MIN_CHECKSUMMED_LENGTH;
import static dev.framewire.journal.JournalDescriptor.checksum;
import static dev.framewire.journal.JournalDescriptor.putFixed;

/**
 * One thread's room to put a record together and checksum it before it is copied into
 * Chronicle in one write: allocation-free on the hot path (the CRC is computed over this
 * direct buffer, which the JVM can do in place; over the mapped file it could not without a
 * {@link ByteBuffer} per record).
 *
 * <p>Threading: one thread at a time.
 */
final class RecordScratch
{
    /** Large enough for any fixed-size record; a captured payload passes through it in chunks. */
    static final int LENGTH = 64 * 1024;

    final ByteBuffer bytes = ByteBuffer.allocateDirect(LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    final CRC32C crc = new CRC32C();

    /**
     * Puts a fixed-size record and its checksum at the start of the scratch and appends them.
     *
     * @param out the Chronicle document's bytes.
     */
    void appendFixed(
        final Bytes<?> out,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        putFixed(buffer, 0, kind, aux, worker, node, stream, nanos, timestamp, value);
        buffer.putInt(FIXED_LENGTH, checksum(crc, bytes, 0, FIXED_LENGTH), ByteOrder.LITTLE_ENDIAN);
        out.unsafeWrite(buffer.addressOffset(), MIN_CHECKSUMMED_LENGTH);
    }
}
