package dev.framewire.journal;

import org.agrona.MutableDirectBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The journal's record layout: one Chronicle document per record. Little-endian, as Chronicle
 * writes it. The ASYNC ring holds the same bytes without the checksum (there the kind is also the
 * ring's message type); the journal agent adds it as it appends.
 *
 * <pre>
 *   0        1        2        4                8                12               16
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   | kind   | aux    | 0 (16) | worker (int)   | node (int)     | stream (int)   |
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   16                          24                               32                               40
 *   +---------------------------+--------------------------------+--------------------------------+
 *   | nanos (long)              | timestamp (long)               | value (long)                   |
 *   +---------------------------+--------------------------------+--------------------------------+
 *   40: tail, by kind: HEADER magic + pid; RUN_START names and config; GRAPH_INPUT with a
 *       captured payload: length + bytes; ERROR, NOTE and RUN_END: text; CALL: end nanos (long);
 *       SUBGRAPH_ADDED: name, template, parameters, bindings, node and stream ids and names;
 *       SUBGRAPH_REMOVED: name, cancel deadline (long); SUBGRAPH_LEFT: name.
 *       text = int length + UTF-8.
 *   n - 4: CRC32C (int) of bytes 0 .. n - 4 of the record, since format 1.1  (n = the record's length)
 *
 *   a fixed-size record, format 1.1:   0 ............................. 40 +----------+ 44
 *                                      | the 40 bytes above             | CRC32C   |
 *                                      +--------------------------------+----------+
 *
 *   CALL (kind 12, since 1.2; ASYNC, one per call of a worker on its own ring):
 *   0        1        2        4                8                12               16
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   | 12     | value  | 0 (16) | worker (int)   | node (int)     | emit stream    |
 *   |        | kind   |        |                |                | (int), -1 none |
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   16                          24                               32               40               48         52
 *   +---------------------------+--------------------------------+----------------+----------------+----------+
 *   | begin nanos (long)        | input timestamp (long)         | emit value     | end nanos      | CRC32C   |
 *   +---------------------------+--------------------------------+----------------+----------------+----------+
 *   = PROCESS_BEGIN (begin nanos), then, if emit stream is not -1, EMIT (stream, value kind, value,
 *     timestamp = the input timestamp, nanos = begin nanos), then PROCESS_END (end nanos)
 *
 *   BATCH (kind 14, since 1.4; ASYNC, the journal agent's appends): several records in one document
 *   0        1        2        4                8
 *   +--------+--------+--------+----------------+--------------------+-- ... --+--------------------+----------+
 *   | 14     | 0      | 0 (16) | count (int)    | length (int), then | ...     | length, then the   | CRC32C   |
 *   |        |        |        |                | a record's bytes   |         | last record's bytes| of all   |
 *   +--------+--------+--------+----------------+--------------------+-- ... --+--------------------+----------+
 *   each record as above without its own checksum; the document's one checksum covers them all
 *
 *   CALLS (kind 18, since 1.6; ASYNC, a worker's calls as it staged them, alone or in a BATCH): one
 *   worker's calls in a row
 *   0        1        2        4                8                12               16                24
 *   +--------+--------+--------+----------------+----------------+----------------+----------------+-- ... --+----------+
 *   | 18     | 0      | 0 (16) | worker (int)   | count (int)    | 0 (int)        | end nanos      | count   | CRC32C   |
 *   |        |        |        |                |                |                | (long)         | entries |          |
 *   +--------+--------+--------+----------------+----------------+----------------+----------------+-- ... --+----------+
 *   an entry, 32 bytes:
 *   0                            4                8                16               24               32
 *   +----------------------------+----------------+----------------+----------------+----------------+
 *   | node (24 bits), value kind | emit stream    | input          | emit value     | begin nanos    |
 *   | (8 bits, high)             | (int), -1 none | timestamp      | (long)         | (long)         |
 *   +----------------------------+----------------+----------------+----------------+----------------+
 *   = per entry, as CALL: PROCESS_BEGIN, EMIT if emit stream is not -1 (nanos = the call's begin),
 *     PROCESS_END. A call ends where the next entry's call begins (the worker went from one to the
 *     next without idling: a worker's staged calls go when it idles), the last one at the record's
 *     end nanos, read when the worker let them go; so a call's end includes the engine's moments
 *     before the next call. Begins are read when the call begins: a consumer's begin comes after
 *     the emit of the packet it takes, on any thread, as the post-mortem needs
 *
 *   PACKED_CALLS (kind 19, since 1.7; ASYNC, what CALLS became): one worker's calls in a row
 *   0        1        2        4                8                12               16
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   | 19     | 0      | 0 (16) | worker (int)   | count (int)    | 0 (int)        |
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   16                          24                               32                               40
 *   +---------------------------+--------------------------------+--------------------------------+-- ... --+----------+
 *   | end nanos (long)          | first begin nanos (long)       | first input timestamp (long)   | count   | CRC32C   |
 *   |                           |                                |                                | entries |          |
 *   +---------------------------+--------------------------------+--------------------------------+-- ... --+----------+
 *   (a header of a fixed record's 40 bytes, so that a record of one call is as long as the
 *   shortest record a damaged file's reader looks for), then count entries of 3 to 41 bytes each,
 *   each field a varint (7 bits a byte, low bits first, the high bit set on every byte but the
 *   last) and every number but the node and the stream a difference from the entry before (the
 *   first entry's timestamp and nanos from the header's, its value from 0):
 *     varint  node (as an unsigned int) &lt;&lt; 1 | 1 if a packet is folded in
 *     if folded in: value kind (byte), varint emit stream, zigzag varint emit value - the last
 *                   folded-in value of the record
 *     zigzag varint  input timestamp - the entry before's
 *     varint         begin nanos - the entry before's (as an unsigned long)
 *   zigzag: (v &lt;&lt; 1) ^ (v &gt;&gt; 63), so that small negative differences are short too. The
 *   differences wrap as longs, so every value, Long.MIN_VALUE included, reads back exactly. In a
 *   chain an entry is 4 to 8 bytes: a node, a stream, a value, a timestamp and nanos that each
 *   moved a little since the call before. The entries fill the record exactly; one that runs past
 *   its end, or bytes left after the last, is a corrupt record. Read as CALLS.
 *
 *   PACKED_INPUTS (kind 20, since 1.8; ASYNC, the journal agent's): graph inputs in a row, as the
 *   agent took them off the shared ring (each a GRAPH_INPUT without a captured payload)
 *   0        1        2        4                8                12               16
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   | 20     | 0      | 0 (16) | -1 (int)       | count (int)    | 0 (int)        |
 *   +--------+--------+--------+----------------+----------------+----------------+
 *   16                          24                               32                               40
 *   +---------------------------+--------------------------------+--------------------------------+-- ... --+----------+
 *   | first nanos (long)        | first timestamp (long)         | first value (long)             | count   | CRC32C   |
 *   |                           |                                |                                | entries |          |
 *   +---------------------------+--------------------------------+--------------------------------+-- ... --+----------+
 *   then count entries (at least 2: one input is written as its GRAPH_INPUT record) of 4 to 36
 *   bytes each, the first entry's numbers differences from the header's:
 *     varint         stream (as an unsigned int)
 *     byte           value kind
 *     zigzag varint  value - the entry before's
 *     zigzag varint  timestamp - the entry before's
 *     zigzag varint  nanos - the entry before's (adders on several threads may go back a little)
 *   = per entry, GRAPH_INPUT (worker -1, node -1, aux the value kind). The entries fill the record
 *   exactly, as PACKED_CALLS's.
 *
 *   PACKED_EMITS (kind 23, since 1.10; ASYNC, the journal agent's): one worker's packets that were
 *   not folded into a call (at the RUNS, IO and SAMPLED levels, every packet on an end stream) and
 *   its streams' bounds, in a row as the agent took them off the worker's ring: PACKED_INPUTS'
 *   layout with the worker at 4 (the header's int after the kind), each entry's value kind byte
 *   0x80 for a bound, and each entry's node + 1 (varint, as an unsigned int) after that byte, 5 to
 *   41 bytes an entry
 *   = per entry, EMIT (that worker and node, aux the value kind), or for 0x80 BOUND (that worker,
 *     node -1, aux 0, the bound as its timestamp, value 0).
 *
 *   DENSE_CALLS (kind 21, since 1.9; ASYNC, what PACKED_CALLS became): one worker's calls in a row,
 *   the header as PACKED_CALLS's (kind 21), then count entries of 1 to 42 bytes each, a field
 *   left out when it repeats:
 *     varint  head = zigzag32(node - the entry before's node (the first: 0)) &lt;&lt; 5 | flags
 *             flags: 1 FOLDED         a packet is folded in
 *                    2 SAME_STREAM    (FOLDED only) its value kind and stream are those of the
 *                                     record's last entry of this node with a packet folded in
 *                    4 SAME_VALUE     (FOLDED only) its value is the record's last folded value
 *                    8 SAME_TIMESTAMP its input timestamp is the entry before's (the first: the header's)
 *                   16 SAME_NANOS     its begin nanos are the entry before's (the first: the header's)
 *     if FOLDED and not SAME_STREAM: value kind (byte), varint emit stream
 *     if FOLDED and not SAME_VALUE:  zigzag varint emit value - the record's last folded value (0 before the first)
 *     if not SAME_TIMESTAMP:         zigzag varint input timestamp - the entry before's
 *     if not SAME_NANOS:             varint begin nanos - the entry before's (as an unsigned long)
 *   zigzag32 folds the node's difference as an int (it wraps as one). A chain's call is 1 to 4
 *   bytes: the next node, the same stream as that node's last call, the same value and timestamp
 *   as the call before and, at a reading handed over, the same nanos. A SAME_STREAM or SAME_VALUE
 *   flag without FOLDED, a SAME_STREAM for a node with no folded entry before it in the record, or
 *   a node difference of more than 32 bits is a corrupt record, as are entries that do not fill
 *   the record exactly. Read as CALLS.
 * </pre>
 *
 * <p>The checksum is CRC32C (Castagnoli; {@link java.util.zip.CRC32C}, as any CRC32C library
 * computes it), stored in full: a CRC detects every single-bit error (and every burst of up to 32
 * bits) in a message of any length, and CRC32C is one instruction per 8 bytes on x86 and ARM.
 * A 16-bit checksum in the zero field at byte 2 was not enough: a CRC truncated to 16 bits no
 * longer detects every single-bit flip, and a 16-bit CRC computed in software would be slow over
 * captured frames. Format 1.0 journals have no checksum; their field at byte 2 stays zero in 1.1.
 *
 * <p>The first 40 bytes of the HEADER record are frozen across format versions (kind 1 at 0,
 * major at 8, minor at 12, magic at 40), so that any reader can tell a journal and its version.
 * A new minor version may add kinds and tail fields; tail fields go before the checksum, which
 * stays last. A new major version may change anything else. Version 1.1 added the checksum; a
 * 1.0 reader reads 1.1 journals, skipping it as trailing bytes. Version 1.2 added {@link #CALL},
 * which a 1.1 reader skips as a kind it does not know (and so misses those calls). Version 1.3
 * added {@link #NOTE}, which older readers skip the same way. Version 1.4 added {@link #BATCH}
 * (one Chronicle document per append of the ASYNC agent rather than one per record: Chronicle's
 * per-document work was most of the agent's cost per record), which a 1.3 reader skips as a kind
 * it does not know, and with it nearly every record of an ASYNC journal: read 1.4 journals with a
 * 1.4 reader. Version 1.5 added {@link #SUBGRAPH_ADDED}, {@link #SUBGRAPH_REMOVED} and
 * {@link #SUBGRAPH_LEFT} (subgraphs added to and removed from a running graph), which a 1.4 reader
 * skips as kinds it does not know; the records of a subgraph's nodes and streams then name ids
 * beyond the run start's, which a 1.4 reader takes for damage. Version 1.6 added {@link #CALLS}
 * (an ASYNC worker's calls, 32 bytes each, staged by the worker and put on its ring in one go,
 * with one clock read a call: the journaled chain's time went to two clock reads and a 60-byte
 * ring message per call), which a 1.5 reader skips as a kind it does not know (and so misses those
 * calls). Version 1.7 writes {@link #PACKED_CALLS} instead (the same calls, each number a varint
 * and most of them differences: the journal agent's cost is in the bytes it copies, and a chain's
 * call went from 32 bytes to 4 to 8), which a 1.6 reader skips the same way; a 1.7 reader still
 * reads CALLS, and CALL, which 1.7 no longer writes either (a node id of any size fits an entry).
 * Version 1.8 adds {@link #PACKED_INPUTS} (the journal agent writes the graph inputs it takes off
 * the shared ring in a row as varint entries, 4 to 8 bytes each for a stream of packets, where
 * each was a 44-byte record in a batch: most of the agent's time went into the kernel zeroing the
 * mapped file's fresh pages, so into bytes written), which a 1.7 reader skips as a kind it does not
 * know (and so misses those inputs). Version 1.9 writes {@link #DENSE_CALLS} instead of
 * PACKED_CALLS (the same calls, a field that repeats the call before's left out: a chain's call
 * went from 6 bytes to 1 to 4, and the journaled chain from about 33 bytes a packet to about 16;
 * the agent's CPU on two cores comes out of the worker's and the adder's), which a 1.8 reader
 * skips as a kind it does not know (and so misses those calls); a 1.9 reader still reads
 * PACKED_CALLS. Version 1.10 adds {@link #PACKED_EMITS} (the agent packs a worker's packets that
 * were not folded into a call as it packs graph inputs: at the IO level a packet on an end stream
 * was a 44-byte EMIT record, so that the lightest level wrote about 49 bytes a packet of B5's chain
 * where CALLS wrote 16), which a 1.9 reader skips as a kind it does not know (and so misses those
 * packets), and {@link #CAPTURED} (a payload captured as a node emitted it, with its frame's shape:
 * PayloadCapture has its layout), which a 1.9 reader skips the same way.
 *
 * <p>This class holds the layout's constants and the encodings every record shares: the fixed
 * part, varints, zigzag and the checksum. The records' parts that have state live beside it:
 * {@link RecordScratch} and {@link RecordBuilder} put a record together and checksum it,
 * {@link DenseCallsEncoder} writes DENSE_CALLS entries, {@link CallEntryCursor} and
 * {@link PacketEntryCursor} read the packed records' entries.
 *
 * <p>Threading: constants and stateless helpers.
 */
final class JournalDescriptor
{
    static final int FORMAT_MAJOR = 1;
    static final int FORMAT_MINOR = 10;
    /** The first minor version whose records end with a CRC32C. */
    static final int CHECKSUM_MINOR = 1;
    /** The first minor version with {@link #CALL} records. */
    static final int CALL_MINOR = 2;
    /** The first minor version with {@link #NOTE} records. */
    static final int NOTE_MINOR = 3;
    /** The first minor version with {@link #BATCH} documents. */
    static final int BATCH_MINOR = 4;
    /** The first minor version with the SUBGRAPH_ADDED, SUBGRAPH_REMOVED and SUBGRAPH_LEFT records. */
    static final int SUBGRAPH_MINOR = 5;
    /** The first minor version with {@link #CALLS} records. */
    static final int CALLS_MINOR = 6;
    /** The first minor version with {@link #PACKED_CALLS} records. */
    static final int PACKED_CALLS_MINOR = 7;
    /** The first minor version with {@link #PACKED_INPUTS} records. */
    static final int PACKED_INPUTS_MINOR = 8;
    /** The first minor version with {@link #DENSE_CALLS} records. */
    static final int DENSE_CALLS_MINOR = 9;
    /** The first minor version with {@link #CAPTURED} records (payloads captured at emit, see PayloadCapture). */
    static final int CAPTURED_MINOR = 10;
    /** The first minor version with {@link #PACKED_EMITS} records. */
    static final int PACKED_EMITS_MINOR = 10;
    /** "FWJOURNL" as it reads in the file. */
    static final long MAGIC = 0x4C4E52554F4A5746L;

    static final int KIND_OFFSET = 0;
    static final int AUX_OFFSET = 1;
    static final int WORKER_OFFSET = 4;
    static final int NODE_OFFSET = 8;
    static final int STREAM_OFFSET = 12;
    static final int NANOS_OFFSET = 16;
    static final int TIMESTAMP_OFFSET = 24;
    static final int VALUE_OFFSET = 32;
    static final int FIXED_LENGTH = 40;
    static final int CHECKSUM_LENGTH = 4;
    /** The HEADER record's length in format 1.0: the fixed part, the magic and the pid, no checksum. */
    static final int HEADER_LENGTH_1_0 = FIXED_LENGTH + 16;
    /** The shortest record with a checksum. */
    static final int MIN_CHECKSUMMED_LENGTH = FIXED_LENGTH + CHECKSUM_LENGTH;

    static final int HEADER = JournalRecord.Kind.HEADER.code;
    static final int RUN_START = JournalRecord.Kind.RUN_START.code;
    static final int GRAPH_INPUT = JournalRecord.Kind.GRAPH_INPUT.code;
    static final int EMIT = JournalRecord.Kind.EMIT.code;
    static final int PROCESS_BEGIN = JournalRecord.Kind.PROCESS_BEGIN.code;
    static final int PROCESS_END = JournalRecord.Kind.PROCESS_END.code;
    static final int DROP = JournalRecord.Kind.DROP.code;
    static final int BOUND = JournalRecord.Kind.BOUND.code;
    static final int ERROR = JournalRecord.Kind.ERROR.code;
    static final int RUN_END = JournalRecord.Kind.RUN_END.code;
    static final int LOST = JournalRecord.Kind.LOST.code;
    /** Since 1.3: a node's note (text tail), which a 1.2 reader skips as a kind it does not know. */
    static final int NOTE = JournalRecord.Kind.NOTE.code;
    /** A payload captured at emit, since 1.10: its shape and bytes (layout in PayloadCapture). */
    static final int CAPTURED = JournalRecord.Kind.CAPTURED.code;
    /** Since 1.5: a subgraph added at run time (its template, parameters, node and stream ids). */
    static final int SUBGRAPH_ADDED = JournalRecord.Kind.SUBGRAPH_ADDED.code;
    /** Since 1.5: a subgraph's removal asked for (its deadlines). */
    static final int SUBGRAPH_REMOVED = JournalRecord.Kind.SUBGRAPH_REMOVED.code;
    /** Since 1.5: a subgraph left the graph (drained or cancelled, its drops). */
    static final int SUBGRAPH_LEFT = JournalRecord.Kind.SUBGRAPH_LEFT.code;
    /**
     * Since 1.2, ASYNC only: a whole call in one record, which the reader gives as the
     * PROCESS_BEGIN, EMIT (when one is folded in) and PROCESS_END it stands for. Not a
     * {@link JournalRecord.Kind}: no reader's caller ever sees one.
     */
    static final int CALL = 12;
    /**
     * Since 1.4, ASYNC only: one Chronicle document holding the records the journal agent took
     * off its rings in one go, each as the ring held it (no checksum of its own), under one
     * checksum of the whole document. Not a {@link JournalRecord.Kind}: the reader gives the
     * records it holds, each with a record number of its own.
     */
    static final int BATCH = 14;
    /** BATCH: the number of records it holds (int). */
    static final int BATCH_COUNT_OFFSET = 4;
    /** BATCH: where its first record's length (int) is; each record's bytes follow their length. */
    static final int BATCH_RECORDS_OFFSET = 8;
    /**
     * Since 1.6, ASYNC only: one worker's calls in a row, as it staged them (see the layout
     * above). Not a {@link JournalRecord.Kind}: the reader gives the PROCESS_BEGIN, EMIT and
     * PROCESS_END each entry stands for, with a record number per entry.
     */
    static final int CALLS = 18;
    /** CALLS: the worker (int). */
    static final int CALLS_WORKER_OFFSET = 4;
    /** CALLS: the number of entries (int). */
    static final int CALLS_COUNT_OFFSET = 8;
    /** CALLS: the last call's end nanos (long). */
    static final int CALLS_END_NANOS_OFFSET = 16;
    /** CALLS: where the first entry is. */
    static final int CALLS_ENTRIES_OFFSET = 24;
    /** CALLS: one entry's length. */
    static final int CALLS_ENTRY_LENGTH = 32;
    /** CALLS entry: the node in the low 24 bits, the emitted value's kind in the high 8 (int). */
    static final int ENTRY_NODE_OFFSET = 0;
    /** CALLS entry: the emitted stream, -1 for none (int). */
    static final int ENTRY_STREAM_OFFSET = 4;
    /** CALLS entry: the input timestamp (long). */
    static final int ENTRY_TIMESTAMP_OFFSET = 8;
    /** CALLS entry: the emitted value (long). */
    static final int ENTRY_VALUE_OFFSET = 16;
    /** CALLS entry: the call's begin nanos (long). */
    static final int ENTRY_BEGIN_NANOS_OFFSET = 24;
    /** CALLS entry: the node's bits (the largest node id an entry holds). */
    static final int ENTRY_MAX_NODE = (1 << 24) - 1;
    /**
     * Since 1.7, ASYNC only: one worker's calls in a row, as CALLS with entries of varints (see the
     * layout above): a chain's call in 4 to 8 bytes rather than 32. Not a
     * {@link JournalRecord.Kind}: the reader gives the records each entry stands for, as CALLS.
     */
    static final int PACKED_CALLS = 19;
    /** The longest varint: 64 bits, 7 a byte. */
    static final int VARINT_MAX_LENGTH = 10;
    /** PACKED_CALLS: the first entry's begin nanos (long), what its difference is from. */
    static final int PACKED_BASE_NANOS_OFFSET = 24;
    /** PACKED_CALLS: the first entry's input timestamp (long), what its difference is from. */
    static final int PACKED_BASE_TIMESTAMP_OFFSET = 32;
    /** PACKED_CALLS: where the first entry is. */
    static final int PACKED_ENTRIES_OFFSET = FIXED_LENGTH;
    /** PACKED_CALLS: an entry's most bytes (node 5, value kind 1, stream 5, value, timestamp and nanos 10 each). */
    static final int PACKED_ENTRY_MAX_LENGTH = 5 + 1 + 5 + 3 * VARINT_MAX_LENGTH;
    /**
     * Since 1.9, ASYNC only: what PACKED_CALLS became, the same header and calls, each entry
     * leaving out what repeats (see the layout above): a chain's call in 1 to 4 bytes rather than
     * 4 to 8. Not a {@link JournalRecord.Kind}: the reader gives the records each entry stands
     * for, as CALLS.
     */
    static final int DENSE_CALLS = 21;
    /** DENSE_CALLS: an entry's most bytes (head 6, value kind 1, stream 5, value, timestamp and nanos 10 each). */
    static final int DENSE_ENTRY_MAX_LENGTH = 6 + 1 + 5 + 3 * VARINT_MAX_LENGTH;
    /** DENSE_CALLS entry flag: a packet is folded in. */
    static final int DENSE_FOLDED = 1;
    /** DENSE_CALLS entry flag: the packet's kind and stream are the node's last folded ones in the record. */
    static final int DENSE_SAME_STREAM = 2;
    /** DENSE_CALLS entry flag: the packet's value is the record's last folded value. */
    static final int DENSE_SAME_VALUE = 4;
    /** DENSE_CALLS entry flag: the input timestamp is the entry before's. */
    static final int DENSE_SAME_TIMESTAMP = 8;
    /** DENSE_CALLS entry flag: the begin nanos are the entry before's. */
    static final int DENSE_SAME_NANOS = 16;
    /** DENSE_CALLS: the head's bits below the node's difference. */
    static final int DENSE_FLAG_BITS = 5;
    /**
     * Since 1.8, ASYNC only: graph inputs in a row, as the journal agent took them off the shared
     * ring, each a varint entry (see the layout above). Not a {@link JournalRecord.Kind}: the
     * reader gives a GRAPH_INPUT per entry.
     */
    static final int PACKED_INPUTS = 20;
    /** PACKED_INPUTS: the number of entries (int). */
    static final int INPUTS_COUNT_OFFSET = NODE_OFFSET;
    /** PACKED_INPUTS: an entry's most bytes (stream 5, value kind 1, value, timestamp and nanos 10 each). */
    static final int PACKED_INPUT_MAX_LENGTH = 5 + 1 + 3 * VARINT_MAX_LENGTH;
    /**
     * Since 1.10, ASYNC only: one worker's packets on streams that were not folded into a call (at
     * the lighter levels, every packet on an end stream) in a row, as the journal agent took them off
     * the worker's ring: PACKED_INPUTS' layout with the worker in the header and each entry's node
     * after its value kind. Not a {@link JournalRecord.Kind}: the reader gives an EMIT per entry.
     */
    static final int PACKED_EMITS = 23;
    /** PACKED_EMITS: the value-kind byte of an entry that is a BOUND (aux 0, value 0; its timestamp the bound). */
    static final int PACKED_BOUND = 0x80;
    /** PACKED_EMITS: an entry's most bytes (a PACKED_INPUTS entry's and a node of up to 5). */
    static final int PACKED_EMIT_MAX_LENGTH = PACKED_INPUT_MAX_LENGTH + 5;
    /** CALL: the call's end nanos, after the fixed part. */
    static final int CALL_END_NANOS_OFFSET = FIXED_LENGTH;
    /** CALL's length without its checksum. */
    static final int CALL_LENGTH = FIXED_LENGTH + 8;

    static
    {
        // Chronicle writes in the platform's order and the reader reads little-endian: refuse
        // rather than write journals no other machine could read.
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
        {
            throw new ExceptionInInitializerError("the Framewire journal needs a little-endian platform");
        }
    }

    private JournalDescriptor()
    {
    }

    /** Writes the fixed part into a buffer (the ASYNC ring) at {@code index}. */
    static void putFixed(
        final MutableDirectBuffer buffer,
        final int index,
        final int kind,
        final int aux,
        final int worker,
        final int node,
        final int stream,
        final long nanos,
        final long timestamp,
        final long value)
    {
        buffer.putByte(index + KIND_OFFSET, (byte)kind);
        buffer.putByte(index + AUX_OFFSET, (byte)aux);
        buffer.putShort(index + AUX_OFFSET + 1, (short)0);
        buffer.putInt(index + WORKER_OFFSET, worker);
        buffer.putInt(index + NODE_OFFSET, node);
        buffer.putInt(index + STREAM_OFFSET, stream);
        buffer.putLong(index + NANOS_OFFSET, nanos);
        buffer.putLong(index + TIMESTAMP_OFFSET, timestamp);
        buffer.putLong(index + VALUE_OFFSET, value);
    }

    /**
     * Writes a varint: 7 bits a byte, low bits first, the high bit set on every byte but the last
     * (1 byte below 128, 10 for a negative value).
     *
     * @param bytes where to write; room for {@link #VARINT_MAX_LENGTH} bytes at {@code index}.
     * @param index where the varint starts.
     * @param value the bits, taken as an unsigned long.
     * @return the index after it.
     */
    static int putVarint(final byte[] bytes, final int index, final long value)
    {
        int at = index;
        long rest = value;
        while ((rest & ~0x7FL) != 0)
        {
            bytes[at++] = (byte)(rest | 0x80);
            rest >>>= 7;
        }
        bytes[at++] = (byte)rest;
        return at;
    }

    /**
     * {@link #putVarint(byte[], int, long)} into a buffer (the journal agent's batch, direct memory).
     *
     * @param buffer where to write; room for {@link #VARINT_MAX_LENGTH} bytes at {@code index}.
     * @param index  where the varint starts.
     * @param value  the bits, taken as an unsigned long.
     * @return the index after it.
     */
    static int putVarint(final MutableDirectBuffer buffer, final int index, final long value)
    {
        int at = index;
        long rest = value;
        while ((rest & ~0x7FL) != 0)
        {
            buffer.putByte(at++, (byte)(rest | 0x80));
            rest >>>= 7;
        }
        buffer.putByte(at++, (byte)rest);
        return at;
    }

    /**
     * A signed difference folded so that small negative ones make short varints too.
     *
     * @param value a signed long.
     * @return {@code (value << 1) ^ (value >> 63)}.
     */
    static long zigzag(final long value)
    {
        return value << 1 ^ value >> 63;
    }

    /**
     * The inverse of {@link #zigzag}.
     *
     * @param value a zigzag-folded long.
     * @return the signed long it folds.
     */
    static long unzigzag(final long value)
    {
        return value >>> 1 ^ -(value & 1);
    }

    /**
     * CRC32C of a range of a direct buffer, allocation-free ({@link CRC32C#update(ByteBuffer)} on a
     * direct buffer reads it in place, through the JVM's intrinsic).
     *
     * @param crc    the calling thread's instance, reset here.
     * @param direct a direct buffer; its position and limit are changed.
     * @param index  where the range starts.
     * @param length how many bytes.
     * @return the checksum's 32 bits.
     */
    static int checksum(final CRC32C crc, final ByteBuffer direct, final int index, final int length)
    {
        crc.reset();
        direct.limit(index + length).position(index);
        crc.update(direct);
        return (int)crc.getValue();
    }

    /**
     * CRC32C of a range of a byte array.
     *
     * @param bytes  the array.
     * @param offset where the range starts.
     * @param length how many bytes.
     * @return the checksum's 32 bits.
     */
    static int checksum(final byte[] bytes, final int offset, final int length)
    {
        final CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return (int)crc.getValue();
    }
}
