package dev.framewire.journal;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * Unpacks the records that pack many packets (format 1.8's PACKED_INPUTS, 1.10's PACKED_EMITS):
 * each entry is rebuilt as the GRAPH_INPUT, EMIT or BOUND record it stands for, in a buffer of its
 * own reused for every entry, and given to an {@link EntrySink}, so it gets a number of its own and
 * every check such a record gets. A first pass checks that the count of entries, at least two,
 * fills the record exactly (its checksum held, so one that does not is the writer's fault:
 * reported, and the record skipped). Allocates nothing.
 *
 * <p>Threading: confined to the reading thread.
 */
final class PackedInputsDecoder
{
    /** The reader of PACKED_INPUTS and PACKED_EMITS entries. */
    private final PacketEntryCursor inputs = new PacketEntryCursor();
    /** The GRAPH_INPUT, EMIT or BOUND record an entry is read as. */
    private final UnsafeBuffer input = new UnsafeBuffer(new byte[JournalDescriptor.FIXED_LENGTH]);

    /**
     * The entries of a PACKED_INPUTS or PACKED_EMITS ({@code emits}) record, each given to
     * {@code sink} as the record it stands for.
     */
    void unpack(final DirectBuffer body, final int length, final boolean emits, final EntrySink sink)
    {
        final int count = length >= JournalDescriptor.FIXED_LENGTH ?
            body.getInt(JournalDescriptor.INPUTS_COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
        final PacketEntryCursor entries = inputs;
        int read = 0;
        if (count >= 2)
        {
            entries.reset(body, length, emits);
            while (read < count && entries.next())
            {
                read++;
            }
        }
        if (count < 2 || read != count || entries.position != length)
        {
            sink.skip(1, "a " + (emits ? "PACKED_EMITS" : "PACKED_INPUTS") + " record of " + length +
                " bytes claims " + count + (emits ? " packets, " : " graph inputs, ") +
                (count < 2 ? "but a record holds at least two" : read < count ?
                "but its entries run past its end after " + read : "but they end at byte " + entries.position));
            return;
        }
        final int worker = emits ? body.getInt(JournalDescriptor.WORKER_OFFSET, ByteOrder.LITTLE_ENDIAN) : -1;
        entries.reset(body, length, emits);
        for (int i = 0; i < count; i++)
        {
            entries.next();
            final boolean bound = emits && entries.valueKind == JournalDescriptor.PACKED_BOUND;
            final int kind = bound ? JournalDescriptor.BOUND : emits ? JournalDescriptor.EMIT :
                JournalDescriptor.GRAPH_INPUT;
            JournalDescriptor.putFixed(input, 0, kind, bound ? 0 : entries.valueKind, worker, entries.node,
                entries.stream, entries.nanos, entries.timestamp, entries.value);
            sink.one(input, JournalDescriptor.FIXED_LENGTH);
        }
    }
}
