package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.framewire.journal.JournalCallsTest.WORKER;
import static dev.framewire.journal.JournalCallsTest.begins;
import static dev.framewire.journal.JournalCallsTest.firstRecordOfKind;
import static dev.framewire.journal.JournalCallsTest.onTheWorkersThread;
import static dev.framewire.journal.JournalCallsTest.recordLength;
import static dev.framewire.journal.JournalCallsTest.wide;
import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The calls records' entries, encoded and read back: a chain's calls after a packet's first take a
 * byte each, extreme numbers and numbers either side of a one-byte varint read back exactly through
 * the writer, and random DENSE_CALLS and PACKED_CALLS entries round-trip through the codec, a record
 * cut short by a byte never read past its end.
 */
@Timeout(120)
class JournalCallsCodecTest
{
    @Test
    void aChainsCallsAfterAPacketsFirstTakeAByteEach(@TempDir final Path chain) throws Exception
    {
        // a four-node chain on one worker, as B5 runs it: each node emits the packet it took, at
        // its timestamp, onto a stream of its own; the first call of a packet reads the clock,
        // the other three begin at that reading
        final Path chainRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(chain, JournalConfig.Mode.ASYNC)))
        {
            chainRun = writer.runDirectory();
            final String[] nodeNames = {"a", "b", "c", "d"};
            final String[] streamNames = {"in", "out", "s0", "s1", "s2", "s3"};
            writer.runStart("node { calculator: \"X\" }", 42L, "0.1.0-test", nodeNames, streamNames,
                JournalRoundTripTest.WORKERS, new int[nodeNames.length][0]);
            final WorkerJournal worker = writer.worker(WORKER);
            final int[] emitted = {2, 3, 4, 5}; // not "out": the config checksums it
            onTheWorkersThread(() ->
            {
                for (long packet = 0; packet < 16; packet++)
                {
                    for (int node = 0; node < 4; node++)
                    {
                        if (node == 0)
                        {
                            worker.processBegin(node, packet);
                        }
                        else
                        {
                            worker.processBeginSameWorker(node, packet);
                        }
                        worker.emit(node, emitted[node], packet, JournalSink.LONG, 1000 + packet);
                        worker.processEnd(node, packet);
                    }
                }
            });
            writer.runEnd("done");
        }
        final Path file = JournalFiles.cycleFiles(chainRun).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        assertEquals(64, bytes.readInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET));
        // entry by entry: a packet's first call is its head (2 bytes: a step of -3; 1 for the
        // first packet), its value's and timestamp's steps (1 byte each, none for the first
        // packet) and its clock reading's step (up to 10 bytes); each of the three others is its
        // head alone, 1 byte; each node's first packet adds its kind and stream (2 bytes)
        final int length = recordLength(bytes, calls);
        final CallEntryCursor entries = new CallEntryCursor();
        entries.reset(new UnsafeBuffer(bytes.read(calls[0], length)), length, true);
        for (int call = 0; call < 64; call++)
        {
            final int from = entries.position;
            assertTrue(entries.next(), "call " + call + ": " + entries.fault);
            final int taken = entries.position - from - (call < 4 ? 2 : 0);
            if (call % 4 != 0)
            {
                assertEquals(1, taken, "call " + call + ", a chain's call after the packet's first");
            }
            else
            {
                assertTrue(taken >= 1 && taken <= (call == 0 ? 1 : 4) + JournalDescriptor.VARINT_MAX_LENGTH,
                    "call " + call + ", a packet's first: " + taken + " bytes");
            }
        }
        assertEquals(length, entries.position, "the 64 entries fill the record");
        final JournalReader reader = JournalReader.read(chainRun);
        assertFalse(reader.isDamaged());
        int emits = 0;
        for (final JournalRecord r : reader.records())
        {
            if (r.kind() == EMIT)
            {
                final long packet = r.timestamp();
                assertEquals(1000 + packet, r.value(), r::toString);
                assertEquals("s" + emits % 4, r.streamName(), r::toString);
                assertEquals(emits / 4, packet, r::toString);
                emits++;
            }
        }
        assertEquals(64, emits);
    }

    @Test
    void extremeNumbersReadBackExactly(@TempDir final Path extreme) throws Exception
    {
        // timestamps and values whose differences overflow a long, both value kinds, and calls
        // with and without a packet folded in, in one staging
        final long[] timestamps = {Long.MIN_VALUE, Long.MAX_VALUE, -1, 0, Long.MIN_VALUE + 1, 1L << 62, -(1L << 62), 7};
        final long[] values = {Long.MAX_VALUE, Long.MIN_VALUE, 0, -1, Double.doubleToRawLongBits(-0.5),
            Double.doubleToRawLongBits(Double.NaN), 1, Long.MIN_VALUE};
        final Path extremeRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(extreme, JournalConfig.Mode.ASYNC)))
        {
            extremeRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            onTheWorkersThread(() ->
            {
                for (int i = 0; i < timestamps.length; i++)
                {
                    writer.processBegin(WORKER, i % 3, timestamps[i]);
                    if (i != 3)
                    {
                        writer.emit(WORKER, i % 3, i % 4, timestamps[i], i % 2 == 0 ? JournalSink.LONG : JournalSink.DOUBLE,
                            values[i]);
                    }
                    writer.processEnd(WORKER, i % 3, timestamps[i]);
                }
            });
            writer.runEnd("done");
        }
        final JournalReader reader = JournalReader.read(extremeRun);
        assertFalse(reader.isDamaged());
        final List<JournalRecord> emits = new ArrayList<>();
        final List<JournalRecord> begins = new ArrayList<>();
        for (final JournalRecord r : reader.records())
        {
            if (r.worker() == WORKER && r.kind() == EMIT)
            {
                emits.add(r);
            }
            if (r.worker() == WORKER && r.kind() == PROCESS_BEGIN)
            {
                begins.add(r);
            }
        }
        assertEquals(timestamps.length, begins.size());
        assertEquals(timestamps.length - 1, emits.size());
        for (int i = 0, e = 0; i < timestamps.length; i++)
        {
            assertEquals(timestamps[i], begins.get(i).timestamp(), "call " + i);
            assertEquals(i % 3, begins.get(i).node(), "call " + i);
            if (i != 3)
            {
                final JournalRecord emit = emits.get(e++);
                assertEquals(values[i], emit.value(), "call " + i);
                assertEquals(timestamps[i], emit.timestamp(), "call " + i);
                assertEquals(i % 4, emit.stream(), "call " + i);
                assertEquals(i % 2 == 0 ? JournalRecord.VALUE_LONG : JournalRecord.VALUE_DOUBLE, emit.valueKind(),
                    "call " + i);
            }
        }
    }

    @Test
    void entriesEitherSideOfOneByteVarintsReadBackExactly(@TempDir final Path edges) throws Exception
    {
        // a folded entry's varints through the writer (WorkerRing.stage) and back, each of its
        // numbers just under and just over a byte's reach: stream 127 and 128, value and timestamp
        // steps of 63, 64, -64 and -65 (zigzag 126, 128, 127 and 129), node steps of 63, 1, -63
        // and 62 (a head of 1 or 2 bytes: 2 from a step of 2 on); the calls begin at the worker's
        // reading, so their nanos steps are 0 (left out)
        final int[] nodes = {0, 63, 64, 1, 63, 2, 0, 64, 5};
        final int[] streams = {0, 127, 128, 5, 127, 1, 128, 0, 3};
        final long[] timestampSteps = {0, 64, -64, -65, 1, 63, -65, 64, 63};
        final long[] valueSteps = {0, 64, -65, 63, 1, -65, -64, 64, -64};
        final int calls = nodes.length;
        final long[] timestamps = new long[calls];
        final long[] values = new long[calls];
        for (int i = 0; i < calls; i++)
        {
            timestamps[i] = (i == 0 ? 1000 : timestamps[i - 1]) + timestampSteps[i];
            values[i] = (i == 0 ? 0 : values[i - 1]) + valueSteps[i];
        }
        final Path edgesRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(edges, JournalConfig.Mode.ASYNC)))
        {
            edgesRun = writer.runDirectory();
            final String[] nodeNames = new String[65];
            final String[] streamNames = new String[129];
            Arrays.setAll(nodeNames, n -> "node" + n);
            Arrays.setAll(streamNames, n -> "stream" + n);
            streamNames[126] = "in"; // the streams the config captures and checksums, neither emitted here
            streamNames[125] = "out";
            writer.runStart("node { calculator: \"X\" }", 42L, "0.1.0-test", nodeNames, streamNames,
                JournalRoundTripTest.WORKERS, new int[nodeNames.length][0]);
            onTheWorkersThread(() ->
            {
                for (int i = 0; i < calls; i++)
                {
                    writer.processBeginSameWorker(WORKER, nodes[i], timestamps[i]);
                    writer.emit(WORKER, nodes[i], streams[i], timestamps[i], JournalSink.LONG, values[i]);
                    writer.processEnd(WORKER, nodes[i], timestamps[i]);
                }
            });
            writer.runEnd("done");
        }
        final JournalReader reader = JournalReader.read(edgesRun);
        assertFalse(reader.isDamaged());
        final List<JournalRecord> emits = new ArrayList<>();
        for (final JournalRecord r : reader.records())
        {
            if (r.worker() == WORKER && r.kind() == EMIT)
            {
                emits.add(r);
            }
        }
        assertEquals(calls, emits.size());
        for (int i = 0; i < calls; i++)
        {
            final JournalRecord emit = emits.get(i);
            assertEquals(nodes[i], emit.node(), "call " + i);
            assertEquals(streams[i], emit.stream(), "call " + i);
            assertEquals(timestamps[i], emit.timestamp(), "call " + i);
            assertEquals(values[i], emit.value(), "call " + i);
        }
    }

    @Test
    void randomDenseEntriesRoundTripThroughTheCodec()
    {
        // the writer's encoder against the reader's cursor, on entries that repeat the one before
        // (or a node's last stream) half the time, so that every flag is set and left out
        final Random random = new Random(20261128L);
        final byte[] bytes =
            new byte[JournalDescriptor.PACKED_ENTRIES_OFFSET + 64 * JournalDescriptor.DENSE_ENTRY_MAX_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final DenseCallsEncoder encoder = new DenseCallsEncoder();
        final CallEntryCursor entries = new CallEntryCursor();
        for (int round = 0; round < 2_000; round++)
        {
            final int n = 1 + random.nextInt(64);
            final int[] nodes = new int[n];
            final int[] streams = new int[n];
            final int[] kinds = new int[n];
            final long[] values = new long[n];
            final long[] timestamps = new long[n];
            final long[] nanos = new long[n];
            final long baseTimestamp = wide(random);
            final long baseNanos = wide(random);
            buffer.putLong(JournalDescriptor.PACKED_BASE_TIMESTAMP_OFFSET, baseTimestamp);
            buffer.putLong(JournalDescriptor.PACKED_BASE_NANOS_OFFSET, baseNanos);
            encoder.reset(baseTimestamp, baseNanos);
            int at = JournalDescriptor.PACKED_ENTRIES_OFFSET;
            for (int i = 0; i < n; i++)
            {
                final boolean repeat = i > 0 && random.nextBoolean();
                nodes[i] = repeat ? nodes[i - 1 - random.nextInt(i)] :
                    random.nextBoolean() ? random.nextInt(130) : random.nextInt() | random.nextInt(2) << 31;
                streams[i] = random.nextInt(3) == 0 ? -1 : repeat && random.nextBoolean() ? lastStream(nodes, streams, i) :
                    random.nextBoolean() ? random.nextInt(8) : random.nextInt(Integer.MAX_VALUE);
                kinds[i] = streams[i] < 0 ? 0 : 1 + random.nextInt(2);
                values[i] = streams[i] < 0 ? 0 : repeat && i > 0 ? values[i - 1] : wide(random);
                timestamps[i] = repeat ? (i == 0 ? baseTimestamp : timestamps[i - 1]) : wide(random);
                nanos[i] = repeat && random.nextBoolean() ? (i == 0 ? baseNanos : nanos[i - 1]) : wide(random);
                final int before = at;
                at = encoder.put(bytes, at, nodes[i], streams[i], kinds[i], values[i], timestamps[i], nanos[i]);
                assertTrue(at - before >= 1 && at - before <= JournalDescriptor.DENSE_ENTRY_MAX_LENGTH);
            }
            entries.reset(buffer, at, true);
            for (int i = 0; i < n; i++)
            {
                assertTrue(entries.next(), "entry " + i + ": " + entries.fault);
                assertEquals(nodes[i], entries.node);
                assertEquals(streams[i], entries.stream);
                assertEquals(kinds[i], entries.valueKind);
                assertEquals(values[i], entries.value);
                assertEquals(timestamps[i], entries.timestamp);
                assertEquals(nanos[i], entries.beginNanos);
            }
            assertEquals(at, entries.position, "round " + round + ": the entries fill the record exactly");
            assertCutShortReadsAllButTheLast(entries, buffer, at, n, true, round);
        }
        // a node's difference of more than 32 bits: corrupt, not wrapped
        final int at = JournalDescriptor.putVarint(bytes, JournalDescriptor.PACKED_ENTRIES_OFFSET,
            (1L << 33) << JournalDescriptor.DENSE_FLAG_BITS | JournalDescriptor.DENSE_SAME_TIMESTAMP |
                JournalDescriptor.DENSE_SAME_NANOS);
        entries.reset(buffer, at, true);
        assertFalse(entries.next());
        assertEquals("has a node difference of more than 32 bits", entries.fault);
    }

    /** The stream of the last entry before {@code i} of {@code nodes[i]}'s node that folded a packet in; -1 if none. */
    private static int lastStream(final int[] nodes, final int[] streams, final int i)
    {
        for (int j = i - 1; j >= 0; j--)
        {
            if (nodes[j] == nodes[i] && streams[j] >= 0)
            {
                return streams[j];
            }
        }
        return -1;
    }

    @Test
    void randomPackedEntriesRoundTripThroughTheCodec()
    {
        // format 1.7's and 1.8's encoding (as their JournalWriter.stage wrote it, kept here as the
        // one writer of PACKED_CALLS) against the reader's cursor
        final Random random = new Random(20261127L);
        final byte[] bytes =
            new byte[JournalDescriptor.PACKED_ENTRIES_OFFSET + 64 * JournalDescriptor.PACKED_ENTRY_MAX_LENGTH];
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final CallEntryCursor entries = new CallEntryCursor();
        for (int round = 0; round < 2_000; round++)
        {
            final int n = 1 + random.nextInt(64);
            final int[] nodes = new int[n];
            final int[] streams = new int[n];
            final long[] values = new long[n];
            final long[] timestamps = new long[n];
            final long[] nanos = new long[n];
            int at = JournalDescriptor.PACKED_ENTRIES_OFFSET;
            long lastValue = 0;
            long lastTimestamp = wide(random);
            long lastNanos = wide(random);
            buffer.putLong(JournalDescriptor.PACKED_BASE_TIMESTAMP_OFFSET, lastTimestamp);
            buffer.putLong(JournalDescriptor.PACKED_BASE_NANOS_OFFSET, lastNanos);
            for (int i = 0; i < n; i++)
            {
                nodes[i] = random.nextBoolean() ? random.nextInt(8) : random.nextInt();
                streams[i] = random.nextInt(3) == 0 ? -1 :
                    random.nextBoolean() ? random.nextInt(8) : random.nextInt(Integer.MAX_VALUE);
                values[i] = streams[i] < 0 ? 0 : wide(random);
                timestamps[i] = wide(random);
                nanos[i] = wide(random);
                at = JournalDescriptor.putVarint(bytes, at, (nodes[i] & 0xFFFF_FFFFL) << 1 | (streams[i] < 0 ? 0 : 1));
                if (streams[i] >= 0)
                {
                    bytes[at++] = (byte)JournalRecord.VALUE_LONG;
                    at = JournalDescriptor.putVarint(bytes, at, streams[i]);
                    at = JournalDescriptor.putVarint(bytes, at, JournalDescriptor.zigzag(values[i] - lastValue));
                    lastValue = values[i];
                }
                at = JournalDescriptor.putVarint(bytes, at, JournalDescriptor.zigzag(timestamps[i] - lastTimestamp));
                at = JournalDescriptor.putVarint(bytes, at, nanos[i] - lastNanos);
                lastTimestamp = timestamps[i];
                lastNanos = nanos[i];
            }
            entries.reset(buffer, at, false);
            for (int i = 0; i < n; i++)
            {
                assertTrue(entries.next(), "round " + round + ", entry " + i);
                assertEquals(nodes[i], entries.node);
                assertEquals(streams[i], entries.stream);
                assertEquals(streams[i] < 0 ? 0 : JournalRecord.VALUE_LONG, entries.valueKind);
                assertEquals(values[i], entries.value);
                assertEquals(timestamps[i], entries.timestamp);
                assertEquals(nanos[i], entries.beginNanos);
            }
            assertEquals(at, entries.position, "round " + round + ": the entries fill the record exactly");
            assertCutShortReadsAllButTheLast(entries, buffer, at, n, false, round);
        }
    }

    /**
     * The {@code n} entries ending at {@code end}, read again cut short by one byte: the last
     * runs past the end, and the reader never reads beyond it.
     */
    private static void assertCutShortReadsAllButTheLast(
        final CallEntryCursor entries, final UnsafeBuffer buffer, final int end, final int n,
        final boolean dense, final int round)
    {
        entries.reset(buffer, end - 1, dense);
        int read = 0;
        while (read < n && entries.next())
        {
            read++;
        }
        assertEquals(n - 1, read, "round " + round + ": cut short by a byte, the last entry runs past the end");
    }
}
