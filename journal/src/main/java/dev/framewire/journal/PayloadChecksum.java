package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;

/**
 * The 64-bit checksum the journal records for payloads of checksum streams and captured graph
 * inputs, so that replays compare outputs without storing them: XXH64 with seed 0 (Yann Collet's
 * xxHash, the 64-bit variant), so any xxHash library gives the same number for the same bytes.
 *
 * <p>It reads the bytes in place, 8 at a time after one bounds check for the whole range, and
 * allocates nothing.
 *
 * <p>Threading: stateless; the caller must hold a reference to the bytes while they are read.
 */
public final class PayloadChecksum
{
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;
    private static final boolean BIG_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

    private PayloadChecksum()
    {
    }

    /**
     * XXH64 (seed 0) of a range of a buffer.
     *
     * @param buffer the bytes, on or off heap.
     * @param offset where the range starts.
     * @param length how many bytes.
     * @return the checksum.
     */
    public static long of(final DirectBuffer buffer, final int offset, final int length)
    {
        // one bounds check for the range, then plain loads: per-access checks halve the speed
        buffer.boundsCheck(offset, length);
        final byte[] array = buffer.byteArray();
        final long base = buffer.addressOffset() + offset;
        final long end = base + length;
        long p = base;
        long h;
        if (length >= 32)
        {
            long v1 = P1 + P2;
            long v2 = P2;
            long v3 = 0;
            long v4 = -P1;
            final long limit = end - 32;
            do
            {
                v1 = round(v1, getLong(array, p));
                v2 = round(v2, getLong(array, p + 8));
                v3 = round(v3, getLong(array, p + 16));
                v4 = round(v4, getLong(array, p + 24));
                p += 32;
            }
            while (p <= limit);
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        }
        else
        {
            h = P5;
        }
        h += length;
        while (p + 8 <= end)
        {
            h ^= round(0, getLong(array, p));
            h = Long.rotateLeft(h, 27) * P1 + P4;
            p += 8;
        }
        if (p + 4 <= end)
        {
            h ^= (getInt(array, p) & 0xFFFF_FFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            p += 4;
        }
        while (p < end)
        {
            h ^= (UnsafeApi.getByte(array, p) & 0xFFL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            p++;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    /** XXH64 reads little-endian lanes; the JIT folds the branch away on a little-endian machine. */
    private static long getLong(final byte[] array, final long address)
    {
        final long v = UnsafeApi.getLong(array, address);
        return BIG_ENDIAN ? Long.reverseBytes(v) : v;
    }

    private static int getInt(final byte[] array, final long address)
    {
        final int v = UnsafeApi.getInt(array, address);
        return BIG_ENDIAN ? Integer.reverseBytes(v) : v;
    }

    private static long round(final long acc, final long lane)
    {
        return Long.rotateLeft(acc + lane * P2, 31) * P1;
    }

    private static long merge(final long h, final long v)
    {
        return (h ^ round(0, v)) * P1 + P4;
    }
}
