package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static dev.framewire.journal.JournalRecord.Kind.DROP;
import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_END;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ASYNC journals since format 1.6: a worker's calls are staged and go on its ring as one record
 * when 64 have ended, when another record of the worker comes, when the worker idles and when the
 * run ends; one clock read a call, at its begin, each call ending where the next one begins, the
 * last of a record when it went. Format 1.9 writes them as DENSE_CALLS (varint entries, mostly
 * differences, a field that repeats the entry before's left out); a 1.8 journal's PACKED_CALLS and
 * a 1.6 journal's CALLS (32-byte entries), each kept as a test resource written by that version's
 * writer, still read. Every call reads back in the worker's order with its fields, extreme
 * values exactly; a record whose count lies under an intact checksum is reported, never read
 * past its end.
 */
@Timeout(120)
class JournalCallsTest
{
    /** More than two stagings' worth, so that one goes out full. */
    private static final int CALLS = 150;
    /** The call after which the worker drops a packet: its staged calls go before the drop. */
    private static final int DROP_AFTER = 100;
    /** The call after which the worker idles: its staged calls go. */
    private static final int IDLE_AFTER = 120;
    private static final int WORKER = 0;
    private static final int NODE = 1;
    private static final int STREAM = 2;

    @TempDir
    Path dir;
    Path run;

    @BeforeEach
    void writeJournal() throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            // worker 0's thread: the first to journal with its id, so the owner of its ring
            onTheWorkersThread(() -> runCalls(writer));
            // the calls after the idle are still staged: the run's end journals them
            writer.runEnd("done");
        }
    }

    /** The calls through the writer's methods that take the worker's id. */
    private static void runCalls(final JournalWriter writer)
    {
        runCalls(writer, new WorkerJournal(writer, WORKER), 1);
    }

    /**
     * The calls, call i at timestamp {@code i * stride}, every other one emitting
     * {@code i * 10 * stride}; through {@code worker}, either the writer's own worker journal
     * ({@link JournalWriter#worker}) or the base class, which calls the writer's methods with the
     * worker's id.
     */
    private static void runCalls(final JournalWriter writer, final WorkerJournal worker, final long stride)
    {
        for (int i = 0; i < CALLS; i++)
        {
            final long ts = i * stride;
            worker.processBegin(NODE, ts);
            if (i % 2 == 0)
            {
                worker.emit(NODE, STREAM, ts, JournalSink.LONG, ts * 10);
            }
            worker.processEnd(NODE, ts);
            if (i == DROP_AFTER)
            {
                writer.drop(WORKER, NODE, STREAM, ts, JournalSink.POLICY);
            }
            if (i == IDLE_AFTER)
            {
                worker.idle();
            }
        }
    }

    @Test
    void everyCallReadsBackInTheWorkersOrderEachEndingWhereTheNextBegins() throws Exception
    {
        final JournalReader reader = JournalReader.read(run);
        assertEquals(JournalDescriptor.FORMAT_MINOR, reader.formatMinor());
        assertCallsReadBack(reader);
    }

    /**
     * A run whose worker makes {@link #runCalls} through its own journal ({@link JournalWriter#worker}),
     * after which this thread makes {@code more} through it.
     *
     * @return the run's directory.
     */
    private static Path runThroughItsJournal(
        final Path dir, final JournalConfig.Mode mode, final Consumer<WorkerJournal> more) throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, mode)))
        {
            JournalRoundTripTest.start(writer);
            final WorkerJournal worker = writer.worker(WORKER);
            assertEquals(WORKER, worker.workerId());
            assertEquals(mode == JournalConfig.Mode.ASYNC, PayloadCapture.unwrap(worker).getClass() != WorkerJournal.class,
                "ASYNC: the worker's ring; SYNC: the base class, which calls the writer's methods");
            onTheWorkersThread(() -> runCalls(writer, worker, 1));
            more.accept(worker);
            writer.runEnd("done");
            return writer.runDirectory();
        }
    }

    @Test
    void theWorkersOwnJournalJournalsItsCallsAsTheMethodsWithItsId(@TempDir final Path own) throws Exception
    {
        assertCallsReadBack(JournalReader.read(runThroughItsJournal(own, JournalConfig.Mode.ASYNC, worker -> { })));
    }

    @Test
    void aWorkersJournalUsedFromAnotherThreadJournalsThroughTheSharedRing(@TempDir final Path other) throws Exception
    {
        // the graph's owner closing a node after the workers stopped: the ring has its producer
        final Path otherRun = runThroughItsJournal(other, JournalConfig.Mode.ASYNC, worker ->
        {
            worker.processBegin(NODE, CALLS);
            worker.emit(NODE, STREAM, CALLS, JournalSink.LONG, 7);
            worker.processEnd(NODE, CALLS);
            worker.idle();
        });
        final JournalReader reader = JournalReader.read(otherRun);
        assertFalse(reader.isDamaged());
        assertEquals(0, reader.lostRecords());
        final List<JournalRecord> last = new ArrayList<>();
        for (final JournalRecord r : reader.records())
        {
            if (r.worker() == WORKER && r.timestamp() == CALLS)
            {
                last.add(r);
            }
        }
        assertEquals(List.of(PROCESS_BEGIN, EMIT, PROCESS_END), last.stream().map(JournalRecord::kind).toList(),
            last.toString());
        assertEquals(7, last.get(1).value());
        assertEquals(CALLS + 1, begins(reader.records()), "the worker's calls and the owner's");
    }

    @Test
    void aWorkersJournalAfterTheWriterClosedIgnoresTheCalls(@TempDir final Path closed) throws Exception
    {
        final JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(closed, JournalConfig.Mode.ASYNC));
        JournalRoundTripTest.start(writer);
        final WorkerJournal worker = writer.worker(WORKER);
        // a whole staging's worth, and an idle that lets it go: on the ring if it were drained
        final Runnable calls = () ->
        {
            for (int i = 0; i < CALLS; i++)
            {
                worker.processBeginSameWorker(NODE, 1000 + i);
                worker.emit(NODE, STREAM, 1000 + i, JournalSink.LONG, i);
                worker.processEnd(NODE, 1000 + i);
            }
            worker.idle();
        };
        final CountDownLatch opened = new CountDownLatch(1);
        final CountDownLatch shut = new CountDownLatch(1);
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        // the ring's owner: one call before the close, the calls after it
        final Thread owner = new Thread(() ->
        {
            worker.processBegin(NODE, 1);
            worker.processEnd(NODE, 1);
            worker.idle();
            opened.countDown();
            try
            {
                shut.await();
            }
            catch (final InterruptedException ex)
            {
                throw new IllegalStateException(ex);
            }
            calls.run();
        }, "owner");
        owner.setUncaughtExceptionHandler((t, e) -> failed.set(e));
        owner.start();
        opened.await();
        writer.runEnd("done");
        writer.close();
        shut.countDown();
        owner.join();
        assertNull(failed.get());
        onTheWorkersThread(calls); // neither the ring's owner nor a thread that ever journaled
        calls.run();
        final JournalReader reader = JournalReader.read(writer.runDirectory());
        assertEquals(1, begins(reader.records()), "the call before the close, none after");
        assertEquals("done", reader.runEnd().text());
    }

    @Test
    void aSyncWritersWorkerJournalCallsItsMethods(@TempDir final Path sync) throws Exception
    {
        final JournalReader reader = JournalReader.read(runThroughItsJournal(sync, JournalConfig.Mode.SYNC, worker -> { }));
        assertEquals(CALLS, begins(reader.records()));
        assertEquals(CALLS / 2, reader.records().stream().filter(r -> r.kind() == EMIT).count());
    }

    @Test
    void aFormatOneSixJournalsCallsStillReadBack() throws Exception
    {
        final JournalReader reader = JournalReader.read(formatOneSix(dir.resolve("old")));
        assertEquals(6, reader.formatMinor());
        assertFalse(reader.isDamaged());
        assertCallsReadBack(reader);
    }

    @Test
    void aFormatOneEightJournalsPackedCallsStillReadBack() throws Exception
    {
        final JournalReader reader = JournalReader.read(JournalDamageTest.unzipRun(dir.resolve("old"),
            "/journal/format-1.8.zip"));
        assertEquals(8, reader.formatMinor());
        assertFalse(reader.isDamaged());
        assertCallsReadBack(reader);
    }

    /** The calls {@link #runCalls} made, as read back (1.6's CALLS, 1.8's PACKED_CALLS and 1.9's DENSE_CALLS alike). */
    private static void assertCallsReadBack(final JournalReader reader)
    {
        assertEquals(0, reader.lostRecords());
        final List<JournalRecord> records = new ArrayList<>();
        for (final JournalRecord r : reader.records())
        {
            if (r.worker() == WORKER)
            {
                records.add(r);
            }
        }
        int at = 0;
        long lastEnd = Long.MIN_VALUE;
        long lastDrop = Long.MIN_VALUE;
        for (int i = 0; i < CALLS; i++)
        {
            final JournalRecord begin = records.get(at++);
            assertEquals(PROCESS_BEGIN, begin.kind(), begin::toString);
            assertEquals(i, begin.timestamp(), begin::toString);
            assertEquals("detector", begin.nodeName());
            if (i == 64 || i == DROP_AFTER + 1 || i == IDLE_AFTER + 1)
            {
                // the staged calls went before this one (full, before the drop, at the idle): the
                // last of them ended at a clock read of its own, before this call began
                assertTrue(begin.nanos() >= lastEnd && begin.nanos() >= lastDrop, "call " + i + ": " + begin);
            }
            else if (i > 0)
            {
                assertEquals(lastEnd, begin.nanos(), "call " + (i - 1) + " ends where call " + i + " begins");
            }
            if (i % 2 == 0)
            {
                final JournalRecord emit = records.get(at++);
                assertEquals(EMIT, emit.kind(), emit::toString);
                assertEquals(i, emit.timestamp());
                assertEquals(i * 10L, emit.value());
                assertEquals(JournalRecord.VALUE_LONG, emit.valueKind());
                assertEquals("out", emit.streamName());
                assertEquals(begin.nanos(), emit.nanos());
            }
            final JournalRecord end = records.get(at++);
            assertEquals(PROCESS_END, end.kind(), end::toString);
            assertEquals(i, end.timestamp());
            assertTrue(end.nanos() >= begin.nanos(), end::toString);
            lastEnd = end.nanos();
            if (i == DROP_AFTER)
            {
                final JournalRecord drop = records.get(at++);
                assertEquals(DROP, drop.kind(), "in its place among the calls: " + drop);
                assertEquals(i, drop.timestamp());
                assertTrue(drop.nanos() >= lastEnd, "after the call before it, in nanos too: " + drop);
                lastDrop = drop.nanos();
            }
        }
        assertEquals(records.size(), at, "nothing else of the worker's");
        assertEquals("done", reader.runEnd().text());
    }

    @Test
    void aDenseCallsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        assertEquals(64, bytes.readInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET), "the first staging went out full");
        final int length = recordLength(bytes, calls);

        // more calls than it holds: its entries run out before the count
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 1000); // the checksum is made to hold
        bytes.fixChecksum(calls[1]);
        JournalDamage damage = onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length +
            " bytes claims 1000 calls, but its entries run past its end after 64"), damage.toString());
        // those 64 calls are lost together, the other calls read
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());

        // fewer: bytes are left after the last
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 10);
        bytes.fixChecksum(calls[1]);
        damage = onlyDamage(run);
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length + " bytes claims 10 calls, but they " +
            "end at byte "), damage.toString());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
    }

    @Test
    void aDenseEntryWhoseFlagsDoNotHoldIsReportedAndItsRecordSkipped() throws Exception
    {
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final int length = recordLength(bytes, calls);
        final long head = calls[0] + JournalDescriptor.PACKED_ENTRIES_OFFSET;
        // call 0: node 1 (a step of 1 from 0), a packet folded in (value 0, the record's first),
        // its timestamp and nanos the header's: one byte, its packet's kind and stream after it
        final int first = JournalDescriptor.DENSE_FOLDED | JournalDescriptor.DENSE_SAME_VALUE |
            JournalDescriptor.DENSE_SAME_TIMESTAMP | JournalDescriptor.DENSE_SAME_NANOS;
        assertEquals(2 << JournalDescriptor.DENSE_FLAG_BITS | first, bytes.readInt(head) & 0xFF);

        final int original = bytes.readInt(head);
        bytes.pokeInt(head, original | JournalDescriptor.DENSE_SAME_STREAM);
        bytes.fixChecksum(calls[1]);
        JournalDamage damage = onlyDamage(run);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a DENSE_CALLS record of " + length + " bytes claims 64 calls, but " +
            "its entry 1 repeats the stream of node 1, which folded no packet before it in the record"), damage.toString());
        JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()), "that record's calls skipped together");

        bytes.pokeInt(head, original & ~JournalDescriptor.DENSE_FOLDED);
        bytes.fixChecksum(calls[1]);
        damage = onlyDamage(run);
        assertTrue(damage.toString().contains("its entry 1 has a packet's flags but no packet"), damage.toString());
        ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());
    }

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
    void aCallWhoseNodeTheRunDoesNotHaveIsReportedAndTheOthersInItsRecordRead(@TempDir final Path bad) throws Exception
    {
        final Path badRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(bad, JournalConfig.Mode.ASYNC)))
        {
            badRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            onTheWorkersThread(() ->
            {
                for (int i = 0; i < 3; i++)
                {
                    final int node = i == 1 ? 99 : NODE; // the run has three nodes
                    writer.processBegin(WORKER, node, i);
                    writer.processEnd(WORKER, node, i);
                }
            });
            writer.runEnd("done"); // the three calls go as one record
        }
        final JournalDamage damage = onlyDamage(badRun);
        assertTrue(damage.toString().contains("call 2 of 3 in a DENSE_CALLS record: ") &&
            damage.toString().contains("it is skipped"), damage.toString());
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(badRun));
        final List<Long> read = new ArrayList<>();
        for (final JournalRecord r : ex.readable().records())
        {
            if (r.kind() == PROCESS_BEGIN)
            {
                read.add(r.timestamp());
            }
        }
        assertEquals(List.of(0L, 2L), read, "the calls before and after it");
    }

    @Test
    void aFormatOneSixCallsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path old = formatOneSix(dir.resolve("old"));
        final Path file = JournalFiles.cycleFiles(old).get(0);
        final long[] calls = firstRecordOfKind(file, JournalDescriptor.CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        assertEquals(64, bytes.readInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET), "the first staging went out full");
        bytes.pokeInt(calls[0] + JournalDescriptor.CALLS_COUNT_OFFSET, 1000);
        bytes.fixChecksum(calls[1]);
        final JournalDamage damage = onlyDamage(old);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a CALLS record of " +
            (JournalDescriptor.CALLS_ENTRIES_OFFSET + 64 * JournalDescriptor.CALLS_ENTRY_LENGTH) +
            " bytes claims 1000 calls"), damage.toString());
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(old));
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());
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

    /**
     * Runs a worker's journal calls on a thread of their own (its ring's one producer), waits for it
     * and fails the test with whatever the calls threw.
     */
    private static void onTheWorkersThread(final Runnable calls) throws InterruptedException
    {
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread worker = new Thread(calls, "calls");
        worker.setUncaughtExceptionHandler((t, e) -> failed.set(e));
        worker.start();
        worker.join();
        assertNull(failed.get());
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

    /** A long near 0, near a power of two, or anywhere, either sign. */
    static long wide(final Random random)
    {
        switch (random.nextInt(3))
        {
            case 0:
                return random.nextInt(300) - 150;
            case 1:
                return (1L << random.nextInt(64)) + random.nextInt(3) - 1;
            default:
                return random.nextLong();
        }
    }

    /** A journal written by the format 1.6 writer: {@link #runCalls} and its run's end, kept as a test resource. */
    private static Path formatOneSix(final Path dir) throws IOException
    {
        return JournalDamageTest.unzipRun(dir, "/journal/format-1.6.zip");
    }

    /**
     * The first record of a kind in a file, alone in a document or in a BATCH.
     *
     * @return its position and its document's.
     */
    static long[] firstRecordOfKind(final Path file, final int kind) throws IOException
    {
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final JournalScanner.Documents documents = JournalScanner.documents(file);
        for (int d = 0; d < documents.lengths.size(); d++)
        {
            final long body = documents.bodies.getLong(d);
            final int code = bytes.readInt(body) & 0xFF;
            if (code == kind)
            {
                return new long[] {body, body};
            }
            if (code == JournalDescriptor.BATCH)
            {
                long at = body + JournalDescriptor.BATCH_RECORDS_OFFSET;
                for (int r = 0; r < bytes.readInt(body + JournalDescriptor.BATCH_COUNT_OFFSET); r++)
                {
                    if ((bytes.readInt(at + 4) & 0xFF) == kind)
                    {
                        return new long[] {at + 4, body};
                    }
                    at += 4 + bytes.readInt(at);
                }
            }
        }
        throw new AssertionError("no record of kind " + kind + " among " + documents.lengths.size() + " documents");
    }

    /**
     * The length of a record found by {@link #firstRecordOfKind}: its length in the BATCH, or its
     * document's but the checksum.
     */
    static int recordLength(final JournalFileBytes bytes, final long[] record) throws IOException
    {
        return record[0] != record[1] ? bytes.readInt(record[0] - 4) :
            (bytes.readInt(record[0] - 4) & 0x3FFF_FFFF) - JournalDescriptor.CHECKSUM_LENGTH;
    }

    static JournalDamage onlyDamage(final Path run)
    {
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        return ex.damage().get(0);
    }

    @Test
    void aRingShorterThanAStagingTakesFewerCallsAtATime(@TempDir final Path small) throws IOException, InterruptedException
    {
        // timestamps and values 2^40 apart: 7- and 8-byte varints, so that a staging of 64 calls
        // would not fit a 4 KiB ring's longest message (512 bytes)
        final long stride = 1L << 40;
        final Path smallRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(small, JournalConfig.Mode.ASYNC)
            .ringCapacity(4096).onRingFull(JournalConfig.RingFull.WAIT)))
        {
            smallRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            onTheWorkersThread(() -> runCalls(writer, new WorkerJournal(writer, WORKER), stride));
            writer.runEnd("done");
        }
        final Path file = JournalFiles.cycleFiles(smallRun).get(0);
        final long[] first = firstRecordOfKind(file, JournalDescriptor.DENSE_CALLS);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final int count = bytes.readInt(first[0] + JournalDescriptor.CALLS_COUNT_OFFSET);
        assertTrue(count < 64 && recordLength(bytes, first) <= 512, "the first staging went out at " + count +
            " calls, " + recordLength(bytes, first) + " bytes");
        final JournalReader reader = JournalReader.read(smallRun);
        assertEquals(0, reader.lostRecords());
        final List<JournalRecord> begins = new ArrayList<>();
        for (final JournalRecord r : reader.records())
        {
            if (r.kind() == PROCESS_BEGIN)
            {
                begins.add(r);
            }
        }
        assertEquals(CALLS, begins.size(), "every call, through a ring whose longest message is 512 bytes");
        for (int i = 0; i < CALLS; i++)
        {
            assertEquals(i * stride, begins.get(i).timestamp());
        }
    }

    private static long begins(final List<JournalRecord> records)
    {
        return records.stream().filter(r -> r.kind() == PROCESS_BEGIN).count();
    }
}
