package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static dev.framewire.journal.JournalRecord.Kind.DROP;
import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.ERROR;
import static dev.framewire.journal.JournalRecord.Kind.GRAPH_INPUT;
import static dev.framewire.journal.JournalRecord.Kind.HEADER;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_END;
import static dev.framewire.journal.JournalRecord.Kind.RUN_END;
import static dev.framewire.journal.JournalRecord.Kind.RUN_START;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A synthetic run's records through {@link JournalWriter}, in both modes, read back exactly (an
 * ASYNC journal's ring full: {@link JournalRingFullTest}).
 */
@Timeout(60)
class JournalRoundTripTest
{
    static final String[] NODES = {"source", "detector", "sink"};
    static final String[] STREAMS = {"in", "frames", "out", "count"};
    static final String[] WORKERS = {"framewire-default-0", "framewire-default-1"};
    static final int[][] INPUTS = {{0}, {1}, {2, 3}};

    @TempDir
    Path dir;

    static JournalConfig config(final Path dir, final JournalConfig.Mode mode)
    {
        return new JournalConfig().directory(dir).mode(mode).captureStreams("in").checksumStreams("out")
            .blockSize(1 << 20);
    }

    static void start(final JournalWriter writer)
    {
        writer.runStart("node { calculator: \"X\" }", 42L, "0.1.0-test", NODES, STREAMS, WORKERS, INPUTS);
    }

    /** One expected record: the fields a test checks. */
    record Expected(JournalRecord.Kind kind, int worker, int node, int stream, long timestamp, int valueKind, long value,
                    String text)
    {
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void everyRecordKindReadsBackExactly(final JournalConfig.Mode mode) throws Exception
    {
        final byte[] frame = new byte[1000];
        for (int i = 0; i < frame.length; i++)
        {
            frame[i] = (byte)(i * 7 + 3);
        }
        final long frameSum = PayloadChecksum.of(new UnsafeBuffer(frame), 0, frame.length);
        final List<Expected> expected = new ArrayList<>();
        final long before = System.nanoTime();
        final Path run;
        try (PayloadPool pool = new PayloadPool(); JournalWriter writer = JournalWriter.open(config(dir, mode)))
        {
            run = writer.runDirectory();
            start(writer);
            final Payload captured = pool.acquire(frame.length);
            captured.mutableBuffer().putBytes(0, frame);
            writer.graphInput(0, 1000, captured, 0);
            expected.add(new Expected(GRAPH_INPUT, -1, -1, 0, 1000, JournalRecord.VALUE_CAPTURED, frameSum, null));
            writer.graphInput(3, 1000, JournalWriter.LONG, -5);
            expected.add(new Expected(GRAPH_INPUT, -1, -1, 3, 1000, JournalRecord.VALUE_LONG, -5, null));
            writer.graphInput(3, 1001, JournalWriter.DOUBLE, Double.doubleToRawLongBits(2.5));
            expected.add(new Expected(GRAPH_INPUT, -1, -1, 3, 1001, JournalRecord.VALUE_DOUBLE,
                Double.doubleToRawLongBits(2.5), null));
            writer.graphInput(3, 1002, "text", 0);
            expected.add(new Expected(GRAPH_INPUT, -1, -1, 3, 1002, JournalRecord.VALUE_NONE, 0, null));

            writer.processBegin(0, 0, Timestamp.UNSTARTED);
            expected.add(new Expected(PROCESS_BEGIN, 0, 0, -1, Timestamp.UNSTARTED, 0, 0, null));
            writer.processEnd(0, 0, Timestamp.UNSTARTED);
            expected.add(new Expected(PROCESS_END, 0, 0, -1, Timestamp.UNSTARTED, 0, 0, null));
            // as the engine's worker does when it runs out of work: ASYNC, its staged calls go now,
            // the last one ending at this moment (else at the worker's next record or call, which
            // this thread, acting as two workers, makes only after worker 1's)
            writer.workerIdle(0);
            writer.processBegin(1, 1, 1000);
            expected.add(new Expected(PROCESS_BEGIN, 1, 1, -1, 1000, 0, 0, null));
            writer.emit(1, 1, 2, 1000, captured);
            expected.add(new Expected(EMIT, 1, 1, 2, 1000, JournalRecord.VALUE_CHECKSUM, frameSum, null));
            writer.emit(1, 1, 1, 1000, captured);
            expected.add(new Expected(EMIT, 1, 1, 1, 1000, JournalRecord.VALUE_PAYLOAD, frame.length, null));
            writer.emit(1, 1, 3, 1000, 77L);
            expected.add(new Expected(EMIT, 1, 1, 3, 1000, JournalRecord.VALUE_LONG, 77, null));
            writer.emit(1, 1, 3, 1001, 0.25d);
            expected.add(new Expected(EMIT, 1, 1, 3, 1001, JournalRecord.VALUE_DOUBLE, Double.doubleToRawLongBits(0.25),
                null));
            writer.emit(1, 1, 3, 1002, JournalWriter.LONG, 99);
            expected.add(new Expected(EMIT, 1, 1, 3, 1002, JournalRecord.VALUE_LONG, 99, null));
            writer.emit(1, 1, 3, 1003, JournalWriter.LONG);
            expected.add(new Expected(EMIT, 1, 1, 3, 1003, JournalRecord.VALUE_NONE, 0, null));
            writer.emit(1, 1, 3, 1004, "object");
            expected.add(new Expected(EMIT, 1, 1, 3, 1004, JournalRecord.VALUE_NONE, 0, null));
            writer.processEnd(1, 1, 1000);
            expected.add(new Expected(PROCESS_END, 1, 1, -1, 1000, 0, 0, null));
            final int[] reasons = {JournalRecord.POLICY, JournalRecord.FLOW_LIMIT, JournalRecord.MEMORY,
                JournalRecord.FAILURE, JournalRecord.CLOSE};
            for (final int reason : reasons)
            {
                writer.drop(0, 2, reason == JournalRecord.FAILURE ? -1 : 2, 2000 + reason, reason);
                expected.add(new Expected(DROP, 0, 2, reason == JournalRecord.FAILURE ? -1 : 2, 2000 + reason, 0, reason,
                    null));
            }
            writer.bound(0, 2, Timestamp.DONE);
            expected.add(new Expected(JournalRecord.Kind.BOUND, 0, -1, 2, Timestamp.DONE, 0, 0, null));
            writer.error(1, 1, 1000, "node 'detector' failed at 1000: boom – ünïcode");
            expected.add(new Expected(ERROR, 1, 1, -1, 1000, 0, 0, "node 'detector' failed at 1000: boom – ünïcode"));
            writer.error(-1, -1, Timestamp.UNSET, null);
            expected.add(new Expected(ERROR, -1, -1, -1, Timestamp.UNSET, 0, 0, ""));
            captured.release();
            writer.runEnd("done");
            expected.add(new Expected(RUN_END, -1, -1, -1, Timestamp.UNSET, 0, 0, "done"));
            assertEquals(0, writer.failures(), () -> String.valueOf(writer.firstFailure()));
            assertEquals(0, writer.lostRecords());
        }
        final long after = System.nanoTime();

        final JournalReader journal = JournalReader.read(run);
        assertRunStartAsWritten(journal);
        final List<JournalRecord> records = new ArrayList<>(journal.records());
        assertEquals(HEADER, records.get(0).kind());
        assertEquals(RUN_START, records.get(1).kind());
        assertEquals(expected.size() + 2, records.size(), records::toString);
        if (mode == JournalConfig.Mode.ASYNC)
        {
            // each ring in its order, the rings appended in turn: one thread's order is nanos order
            records.sort(Comparator.comparingLong(JournalRecord::nanos));
        }
        assertRecordsAsWritten(expected, records, mode, before, after);
        final ByteBuffer bytes = records.get(2).payload();
        final byte[] read = new byte[bytes.remaining()];
        bytes.get(read);
        assertArrayEquals(frame, read);
        assertNull(records.get(3).payload());
        assertEquals("done", journal.runEnd().text());
        assertEquals(0, journal.lostRecords());
    }

    /** The header's and the run start's fields, as {@link #start} wrote them. */
    private static void assertRunStartAsWritten(final JournalReader journal)
    {
        assertEquals(1, journal.formatMajor());
        assertEquals(JournalDescriptor.FORMAT_MINOR, journal.formatMinor());
        assertFalse(journal.isDamaged());
        assertEquals("0.1.0-test", journal.engineVersion());
        assertEquals("node { calculator: \"X\" }", journal.configText());
        assertEquals(42L, journal.configHash());
        assertEquals(List.of(NODES), journal.nodeNames());
        assertEquals(List.of(STREAMS), journal.streamNames());
        assertEquals(List.of(WORKERS), journal.workerNames());
        assertArrayEquals(new int[]{2, 3}, journal.nodeInputs(2));
        assertEquals(java.util.Set.of("in"), journal.captureStreams());
        assertEquals(java.util.Set.of("out"), journal.checksumStreams());
        assertFalse(journal.endsIncomplete());
        assertTrue(journal.notes().isEmpty(), journal.notes()::toString);
    }

    /** Each record after the header and run start: the expected fields, names and nanos. */
    private static void assertRecordsAsWritten(final List<Expected> expected, final List<JournalRecord> records,
        final JournalConfig.Mode mode, final long before, final long after)
    {
        long previous = before;
        for (int i = 0; i < expected.size(); i++)
        {
            final Expected e = expected.get(i);
            final JournalRecord r = records.get(i + 2);
            final String where = "record " + (i + 2) + ": " + r;
            if (mode == JournalConfig.Mode.SYNC)
            {
                assertEquals(i + 2, r.index(), where);
            }
            assertEquals(e.kind(), r.kind(), where);
            assertEquals(e.worker(), r.worker(), where);
            assertEquals(e.node(), r.node(), where);
            assertEquals(e.stream(), r.stream(), where);
            assertEquals(e.timestamp(), r.timestamp(), where);
            if (e.kind() == DROP)
            {
                assertEquals(e.value(), r.reason(), where);
            }
            else if (e.kind() != RUN_END)
            {
                assertEquals(e.valueKind(), r.valueKind(), where);
                assertEquals(e.value(), r.value(), where);
            }
            assertEquals(e.text(), r.text(), where);
            assertEquals(e.worker() < 0 ? JournalReader.CALLER : WORKERS[e.worker()], r.workerName(), where);
            assertEquals(e.node() < 0 ? null : NODES[e.node()], r.nodeName(), where);
            assertEquals(e.stream() < 0 ? null : STREAMS[e.stream()], r.streamName(), where);
            assertTrue(r.nanos() >= previous && r.nanos() <= after, where); // one thread: nanos never go back
            previous = r.nanos();
        }
    }

    /**
     * A journal read while its writer appends: never damage, whatever the reader catches the
     * writer doing (a document whose header is not written yet, a file Chronicle has just extended);
     * what it reads is a prefix of what was written, in order (in ASYNC mode less what a full ring
     * lost, which the journal counts, perhaps after the snapshot a read takes).
     */
    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aJournalBeingWrittenReadsWithoutDamage(final JournalConfig.Mode mode) throws Exception
    {
        final int iterations = 100_000;
        try (JournalWriter writer = JournalWriter.open(config(dir, mode).ringCapacity(1 << 22)))
        {
            start(writer);
            final Thread appender = new Thread(() ->
            {
                for (long i = 0; i < iterations; i++)
                {
                    writer.processBegin(0, 1, i);
                    writer.error(0, 1, i, i % 7 == 0 ? "a longer record, " + "x".repeat((int)(i % 300)) : "e");
                }
            }, "appender");
            appender.start();
            int reads = 0;
            try
            {
                do
                {
                    final JournalReader journal = JournalReader.read(writer.runDirectory()); // throws on damage
                    long previous = -1;
                    for (final JournalRecord r : journal.records().subList(2, journal.records().size()))
                    {
                        if (r.kind() == PROCESS_BEGIN)
                        {
                            if (mode == JournalConfig.Mode.SYNC)
                            {
                                assertEquals(previous + 1, r.timestamp(), r::toString);
                            }
                            assertTrue(r.timestamp() > previous, r::toString);
                            previous = r.timestamp();
                        }
                    }
                    reads++;
                }
                while (appender.isAlive());
            }
            finally
            {
                appender.join();
            }
            System.out.println(mode + ": read the journal " + reads + " times while it was written");
            writer.runEnd("done");
        }
    }

    /**
     * A captured payload larger than a lane's scratch: its CRC32C is computed over copies of it a
     * chunk at a time, and must match what the reader computes over the record in the file.
     */
    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aCapturedPayloadLargerThanTheScratchIsChecksummedWhole(final JournalConfig.Mode mode) throws Exception
    {
        final int length = 3 * RecordScratch.LENGTH + 1234;
        final byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)(i * 31 + (i >> 9));
        }
        final Path run;
        try (PayloadPool pool = new PayloadPool(); JournalWriter writer = JournalWriter.open(config(dir, mode)))
        {
            run = writer.runDirectory();
            start(writer);
            final Payload payload = pool.acquire(length);
            payload.mutableBuffer().putBytes(0, bytes);
            writer.graphInput(0, 5, payload, 0);
            payload.release();
            writer.runEnd("done");
        }
        final JournalReader journal = JournalReader.read(run); // throws on a checksum mismatch
        final ByteBuffer read = journal.records().get(2).payload();
        final byte[] copy = new byte[read.remaining()];
        read.get(copy);
        assertArrayEquals(bytes, copy);
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void concurrentWorkersEachKeepTheirOrder(final JournalConfig.Mode mode) throws Exception
    {
        final int perWorker = 5_000;
        final Path run;
        try (JournalWriter writer = JournalWriter.open(config(dir, mode).ringCapacity(4 << 20)))
        {
            run = writer.runDirectory();
            start(writer);
            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            final List<Throwable> errors = new ArrayList<>();
            for (int w = 0; w < WORKERS.length; w++)
            {
                final int worker = w;
                final Thread t = new Thread(() ->
                {
                    try
                    {
                        go.await();
                        for (int i = 0; i < perWorker; i++)
                        {
                            writer.processBegin(worker, worker, i);
                            writer.emit(worker, worker, worker + 1, i, JournalWriter.LONG, i * 3L);
                            writer.processEnd(worker, worker, i);
                        }
                    }
                    catch (final Throwable e)
                    {
                        synchronized (errors)
                        {
                            errors.add(e);
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            go.countDown();
            for (final Thread t : threads)
            {
                t.join();
            }
            assertTrue(errors.isEmpty(), errors::toString);
            writer.runEnd("done");
            assertEquals(0, writer.lostRecords());
            assertEquals(0, writer.failures());
        }
        final JournalReader journal = JournalReader.read(run);
        final int[] next = new int[WORKERS.length];
        final int[] phase = new int[WORKERS.length];
        for (final JournalRecord r : journal.records())
        {
            if (r.kind() != PROCESS_BEGIN && r.kind() != EMIT && r.kind() != PROCESS_END)
            {
                continue;
            }
            final int w = r.worker();
            final JournalRecord.Kind want = phase[w] == 0 ? PROCESS_BEGIN : phase[w] == 1 ? EMIT : PROCESS_END;
            assertEquals(want, r.kind(), r::toString);
            assertEquals(next[w], r.timestamp(), r::toString);
            assertEquals(w, r.node());
            if (r.kind() == EMIT)
            {
                assertEquals(next[w] * 3L, r.value());
            }
            if (++phase[w] == 3)
            {
                phase[w] = 0;
                next[w]++;
            }
        }
        for (final int n : next)
        {
            assertEquals(perWorker, n);
        }
    }

    /**
     * ASYNC writes a worker's call as one CALL record (with the packet it emitted at its input
     * timestamp folded in), SYNC as BEGIN, EMIT, END: both read back as the same records, in the
     * same order, whatever else the call journaled (a second emit, a drop, an emit at another
     * timestamp) and with a call still open at the run's end.
     */
    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aCallReadsBackAsItsBeginEmitAndEnd(final JournalConfig.Mode mode) throws Exception
    {
        final List<Expected> expected = new ArrayList<>();
        final Path run;
        try (JournalWriter writer = JournalWriter.open(config(dir, mode)))
        {
            run = writer.runDirectory();
            start(writer);
            writer.processBegin(0, 0, Timestamp.UNSTARTED); // a call that emits nothing
            writer.processEnd(0, 0, Timestamp.UNSTARTED);
            expected.add(new Expected(PROCESS_BEGIN, 0, 0, -1, Timestamp.UNSTARTED, 0, 0, null));
            expected.add(new Expected(PROCESS_END, 0, 0, -1, Timestamp.UNSTARTED, 0, 0, null));
            writer.processBegin(0, 1, 1000); // one packet at its input timestamp: folded
            writer.emit(0, 1, 3, 1000, JournalWriter.LONG, 7);
            writer.processEnd(0, 1, 1000);
            expected.add(new Expected(PROCESS_BEGIN, 0, 1, -1, 1000, 0, 0, null));
            expected.add(new Expected(EMIT, 0, 1, 3, 1000, JournalRecord.VALUE_LONG, 7, null));
            expected.add(new Expected(PROCESS_END, 0, 1, -1, 1000, 0, 0, null));
            writer.processBegin(0, 1, 1001); // two packets: the second is a record of its own
            writer.emit(0, 1, 3, 1001, JournalWriter.DOUBLE, Double.doubleToRawLongBits(0.5));
            writer.emit(0, 1, 2, 1001, 9L);
            writer.processEnd(0, 1, 1001);
            expected.add(new Expected(PROCESS_BEGIN, 0, 1, -1, 1001, 0, 0, null));
            expected.add(new Expected(EMIT, 0, 1, 3, 1001, JournalRecord.VALUE_DOUBLE, Double.doubleToRawLongBits(0.5),
                null));
            expected.add(new Expected(EMIT, 0, 1, 2, 1001, JournalRecord.VALUE_LONG, 9, null));
            expected.add(new Expected(PROCESS_END, 0, 1, -1, 1001, 0, 0, null));
            writer.processBegin(0, 2, 1002); // a drop, then a packet
            writer.drop(0, 2, 3, 1002, JournalRecord.POLICY);
            writer.emit(0, 2, 3, 1002, JournalWriter.LONG, 10);
            writer.processEnd(0, 2, 1002);
            expected.add(new Expected(PROCESS_BEGIN, 0, 2, -1, 1002, 0, 0, null));
            expected.add(new Expected(DROP, 0, 2, 3, 1002, 0, JournalRecord.POLICY, null));
            expected.add(new Expected(EMIT, 0, 2, 3, 1002, JournalRecord.VALUE_LONG, 10, null));
            expected.add(new Expected(PROCESS_END, 0, 2, -1, 1002, 0, 0, null));
            writer.processBegin(0, 1, 1003); // a packet at another timestamp (an offset)
            writer.emit(0, 1, 3, 1004, JournalWriter.LONG, 11);
            writer.processEnd(0, 1, 1003);
            expected.add(new Expected(PROCESS_BEGIN, 0, 1, -1, 1003, 0, 0, null));
            expected.add(new Expected(EMIT, 0, 1, 3, 1004, JournalRecord.VALUE_LONG, 11, null));
            expected.add(new Expected(PROCESS_END, 0, 1, -1, 1003, 0, 0, null));
            writer.processBegin(1, 2, 1005); // still in its call at the run's end
            writer.emit(1, 2, 2, 1005, JournalWriter.LONG, 12);
            expected.add(new Expected(PROCESS_BEGIN, 1, 2, -1, 1005, 0, 0, null));
            expected.add(new Expected(EMIT, 1, 2, 2, 1005, JournalRecord.VALUE_LONG, 12, null));
            writer.runEnd("done");
            expected.add(new Expected(RUN_END, -1, -1, -1, Timestamp.UNSET, 0, 0, "done"));
            assertEquals(0, writer.failures(), () -> String.valueOf(writer.firstFailure()));
        }
        final JournalReader journal = JournalReader.read(run);
        assertFalse(journal.isDamaged());
        final List<JournalRecord> records = journal.records();
        assertEquals(expected.size() + 2, records.size(), records::toString);
        for (int i = 0; i < expected.size(); i++)
        {
            final Expected e = expected.get(i);
            final JournalRecord r = records.get(i + 2);
            final String where = "record " + (i + 2) + ": " + r;
            assertEquals(e.kind(), r.kind(), where);
            assertEquals(e.worker(), r.worker(), where);
            assertEquals(e.node(), r.node(), where);
            assertEquals(e.stream(), r.stream(), where);
            assertEquals(e.timestamp(), r.timestamp(), where);
            if (e.kind() == DROP)
            {
                assertEquals(e.value(), r.reason(), where);
            }
            else if (e.kind() != RUN_END)
            {
                assertEquals(e.valueKind(), r.valueKind(), where);
                assertEquals(e.value(), r.value(), where);
            }
            assertEquals(e.stream() < 0 ? null : STREAMS[e.stream()], r.streamName(), where);
        }
        // the folded call: one record (its number shared) in ASYNC, three in SYNC; the EMIT
        // carries the call's begin nanos in ASYNC, its own in SYNC; the end comes after the begin
        final JournalRecord begin = records.get(4);
        final JournalRecord emit = records.get(5);
        final JournalRecord end = records.get(6);
        if (mode == JournalConfig.Mode.ASYNC)
        {
            assertEquals(begin.index(), emit.index());
            assertEquals(begin.index(), end.index());
            assertEquals(begin.nanos(), emit.nanos());
            assertEquals(begin.index() + 1, records.get(7).index());
        }
        else
        {
            assertEquals(begin.index() + 2, end.index());
        }
        assertTrue(end.nanos() >= emit.nanos() && emit.nanos() >= begin.nanos(), records::toString);
        final Postmortem pm = Postmortem.of(journal);
        assertEquals(3, pm.nodes().get(1).calls());
        assertEquals(2, pm.nodes().get(2).calls());
        assertFalse(pm.nodes().get(1).inProcess());
        assertTrue(pm.nodes().get(2).inProcess(), "the call open at the run's end");
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void aCaptureTooLargeForOneChronicleDocumentIsRecordedByLength(final JournalConfig.Mode mode) throws Exception
    {
        final int fits = (1 << 20) / 4 - 4096; // a quarter of the 1 MiB block, less room for the record
        final Path run;
        try (PayloadPool pool = new PayloadPool(); JournalWriter writer = JournalWriter.open(config(dir, mode)))
        {
            run = writer.runDirectory();
            start(writer);
            for (final int length : new int[]{fits, fits + 1})
            {
                final Payload frame = pool.acquire(length);
                frame.mutableBuffer().setMemory(0, length, (byte)length);
                writer.graphInput(0, length, frame, 0);
                frame.release();
            }
            writer.runEnd("done");
            assertEquals(0, writer.failures(), () -> String.valueOf(writer.firstFailure()));
        }
        final List<JournalRecord> records = JournalReader.read(run).records();
        assertEquals(JournalRecord.VALUE_CAPTURED, records.get(2).valueKind());
        assertEquals(fits, records.get(2).payload().remaining());
        assertEquals(JournalRecord.VALUE_PAYLOAD, records.get(3).valueKind());
        assertEquals(fits + 1, records.get(3).value());
        assertNull(records.get(3).payload());
    }

    @Test
    void unknownCaptureStreamIsRefusedNamingTheStreams() throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).captureStreams("camra")))
        {
            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> start(writer));
            assertTrue(ex.getMessage().contains("'camra'") && ex.getMessage().contains("[in, frames, out, count]"),
                ex.getMessage());
        }
    }

    @Test
    void checksumIsXxHash64() throws Exception
    {
        // vectors from the reference implementation (python xxhash 3.x, xxh64, seed 0) of bytes (i * 31 + 7) & 0xFF
        final int[] lengths = {0, 1, 3, 4, 7, 8, 9, 31, 32, 33, 63, 64, 100, 1000};
        final long[] sums = {0xef46db3751d8e999L, 0xa96c7f0ce858bbb7L, 0x56e6957632a487f9L, 0xc60d15b1e3ff8f04L,
            0xafbefc3d6c6f9a8eL, 0x3da5c7aa269683e0L, 0x4b17a9ba9e215c09L, 0x4a74f3a1a39ad4a1L, 0x8d57d6a4671cc43dL,
            0x62c9fd21ed857664L, 0x5c320a0d2707057fL, 0x7bbabbc45729d17eL, 0xefa0ad2d3e70c151L, 0x99594f4828043d35L};
        for (int k = 0; k < lengths.length; k++)
        {
            final byte[] data = new byte[lengths[k] + 5];
            for (int i = 0; i < lengths[k]; i++)
            {
                data[i + 5] = (byte)(i * 31 + 7);
            }
            assertEquals(sums[k], PayloadChecksum.of(new UnsafeBuffer(data), 5, lengths[k]), "length " + lengths[k]);
            final UnsafeBuffer offHeap = new UnsafeBuffer(ByteBuffer.allocateDirect(data.length));
            offHeap.putBytes(0, data);
            assertEquals(sums[k], PayloadChecksum.of(offHeap, 5, lengths[k]), "off heap, length " + lengths[k]);
        }
    }
}
