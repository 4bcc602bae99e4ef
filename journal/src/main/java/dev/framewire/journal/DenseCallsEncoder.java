package dev.framewire.journal;

import java.util.Arrays;

import static dev.framewire.journal.JournalDescriptor.DENSE_FLAG_BITS;
import static dev.framewire.journal.JournalDescriptor.DENSE_FOLDED;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_NANOS;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_STREAM;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_TIMESTAMP;
import static dev.framewire.journal.JournalDescriptor.DENSE_SAME_VALUE;
import static dev.framewire.journal.JournalDescriptor.putVarint;
import static dev.framewire.journal.JournalDescriptor.zigzag;

/**
 * Writes the entries of a {@link JournalDescriptor#DENSE_CALLS} record (its layout is drawn
 * there): remembers what the next entry's fields are differences from, and the value kind and
 * stream each node last folded a packet into (a direct-mapped table of 64 nodes: a node whose
 * slot another took since is written in full, which the format allows).
 *
 * <p>Threading: one thread at a time (a worker's ring's owner, see {@link JournalWriter}).
 */
final class DenseCallsEncoder
{
    private static final int SHAPES = 64;
    /** Per slot: the node it remembers, plus one (0: none yet in this record). */
    private final int[] shapeNode = new int[SHAPES];
    /** Per slot: value kind &lt;&lt; 32 | stream. */
    private final long[] shape = new long[SHAPES];
    private int lastNode;
    private long lastValue;
    private long lastTimestamp;
    private long lastNanos;

    /** A record begins whose header holds {@code timestamp} and {@code nanos}, the first entry's. */
    void reset(final long timestamp, final long nanos)
    {
        lastNode = 0;
        lastValue = 0;
        lastTimestamp = timestamp;
        lastNanos = nanos;
        Arrays.fill(shapeNode, 0);
    }

    /**
     * Writes one call's entry at {@code index}.
     *
     * @param stream the stream of the packet folded in, -1 for none ({@code kind} and
     *               {@code value} are then not read).
     * @return where the next entry goes: at most {@link JournalDescriptor#DENSE_ENTRY_MAX_LENGTH}
     *         bytes on.
     */
    int put(
        final byte[] bytes,
        final int index,
        final int node,
        final int stream,
        final int kind,
        final long value,
        final long timestamp,
        final long nanos)
    {
        int flags = 0;
        boolean sameStream = false;
        if (stream >= 0)
        {
            flags = DENSE_FOLDED;
            final int slot = node & SHAPES - 1;
            final long folded = (long)kind << 32 | stream;
            sameStream = shapeNode[slot] == node + 1 && shape[slot] == folded;
            if (sameStream)
            {
                flags |= DENSE_SAME_STREAM;
            }
            else
            {
                shapeNode[slot] = node + 1;
                shape[slot] = folded;
            }
            if (value == lastValue)
            {
                flags |= DENSE_SAME_VALUE;
            }
        }
        if (timestamp == lastTimestamp)
        {
            flags |= DENSE_SAME_TIMESTAMP;
        }
        if (nanos == lastNanos)
        {
            flags |= DENSE_SAME_NANOS;
        }
        final int step = node - lastNode;
        lastNode = node;
        int at = putVarint(bytes, index, ((step << 1 ^ step >> 31) & 0xFFFF_FFFFL) << DENSE_FLAG_BITS | flags);
        if (stream >= 0)
        {
            if (!sameStream)
            {
                bytes[at++] = (byte)kind;
                at = putVarint(bytes, at, stream);
            }
            if (value != lastValue)
            {
                at = putVarint(bytes, at, zigzag(value - lastValue));
                lastValue = value;
            }
        }
        if (timestamp != lastTimestamp)
        {
            at = putVarint(bytes, at, zigzag(timestamp - lastTimestamp));
            lastTimestamp = timestamp;
        }
        if (nanos != lastNanos)
        {
            at = putVarint(bytes, at, nanos - lastNanos);
            lastNanos = nanos;
        }
        return at;
    }
}
