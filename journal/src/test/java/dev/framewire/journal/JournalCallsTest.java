package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import dev.framewire.core.journal.WorkerJournal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * past its end (the damaged records: {@link JournalCallsDamageTest}; the entries' encoding:
 * {@link JournalCallsCodecTest}).
 */
@Timeout(120)
class JournalCallsTest extends JournalCallsRun
{
    /** More than two stagings' worth, so that one goes out full. */
    static final int CALLS = 150;
    /** The call after which the worker drops a packet: its staged calls go before the drop. */
    private static final int DROP_AFTER = 100;
    /** The call after which the worker idles: its staged calls go. */
    private static final int IDLE_AFTER = 120;
    static final int WORKER = 0;
    static final int NODE = 1;
    static final int STREAM = 2;

    /**
     * An ASYNC run in {@code dir} whose worker 0 makes {@link #runCalls}, ended "done".
     *
     * @return the run's directory.
     */
    static Path writeCallsJournal(final Path dir) throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC)))
        {
            JournalRoundTripTest.start(writer);
            // worker 0's thread: the first to journal with its id, so the owner of its ring
            onTheWorkersThread(() -> runCalls(writer));
            // the calls after the idle are still staged: the run's end journals them
            writer.runEnd("done");
            return writer.runDirectory();
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


    /**
     * Runs a worker's journal calls on a thread of their own (its ring's one producer), waits for it
     * and fails the test with whatever the calls threw.
     */
    static void onTheWorkersThread(final Runnable calls) throws InterruptedException
    {
        final AtomicReference<Throwable> failed = new AtomicReference<>();
        final Thread worker = new Thread(calls, "calls");
        worker.setUncaughtExceptionHandler((t, e) -> failed.set(e));
        worker.start();
        worker.join();
        assertNull(failed.get());
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
    static Path formatOneSix(final Path dir) throws IOException
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

    static long begins(final List<JournalRecord> records)
    {
        return records.stream().filter(r -> r.kind() == PROCESS_BEGIN).count();
    }
}
