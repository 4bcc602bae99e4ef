package dev.framewire.journal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The damage tests' hands on a journal file: read and write its bytes where a record lies, as a
 * disk fault or a careless tool would, and re-make a record's checksum after a change made on
 * purpose (damage the checksum cannot see). Little-endian, as the journal is.
 */
final class JournalFileBytes
{
    private final Path file;

    JournalFileBytes(final Path file)
    {
        this.file = file;
    }

    byte[] read(final long position, final int length) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r"))
        {
            final byte[] b = new byte[length];
            raf.seek(position);
            raf.readFully(b);
            return b;
        }
    }

    int readInt(final long position) throws IOException
    {
        return ByteBuffer.wrap(read(position, 4)).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    long readLong(final long position) throws IOException
    {
        return ByteBuffer.wrap(read(position, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    void poke(final long position, final byte... bytes) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw"))
        {
            raf.seek(position);
            raf.write(bytes);
        }
    }

    void pokeInt(final long position, final int value) throws IOException
    {
        poke(position, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
    }

    void flip(final long position, final int bit) throws IOException
    {
        poke(position, (byte)(read(position, 1)[0] ^ (1 << bit)));
    }

    /** Rewrites the CRC32C of the document whose body starts at {@code body}, after its bytes were changed. */
    void fixChecksum(final long body) throws IOException
    {
        final int length = readInt(body - 4) & 0x3FFF_FFFF; // Chronicle's header: the length in the low 30 bits
        final CRC32C crc = new CRC32C();
        crc.update(read(body, length - 4));
        pokeInt(body + length - 4, (int)crc.getValue());
    }
}
