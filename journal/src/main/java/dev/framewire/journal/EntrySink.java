package dev.framewire.journal;

import org.agrona.DirectBuffer;

/**
 * Where the decoder of a record that packs many (CALLS, PACKED_CALLS, DENSE_CALLS, PACKED_INPUTS,
 * PACKED_EMITS) hands each of its entries: {@link RecordWalk} gives each a record number of its
 * own and turns a {@link CorruptRecord} into damage at the document's position.
 *
 * <p>Threading: confined to the reading thread.
 */
interface EntrySink
{
    /**
     * Call {@code i} of the {@code count} in a CALLS, PACKED_CALLS or DENSE_CALLS ({@code what})
     * record, staged in the {@link CallRecordsDecoder}, to be numbered and given as the records it
     * stands for.
     */
    void call(String what, int i, int count);

    /**
     * An entry rebuilt as the record it stands for (a PACKED_INPUTS entry as a GRAPH_INPUT record).
     *
     * @param body the record's bytes.
     * @param length its length.
     */
    void one(DirectBuffer body, int length);

    /**
     * A packing record whose entries do not fit it (its checksum held: the writer's fault):
     * reported, and {@code skipped} record numbers are counted for it.
     *
     * @param what what is wrong.
     */
    void skip(long skipped, String what);
}
