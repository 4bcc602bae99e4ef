package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.framewire.journal.JournalRecord.Kind.DROP;
import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_END;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ASYNC journals since format 1.6: a worker's calls are staged, 32 bytes each, and go on its ring
 * as one CALLS record when 64 have ended, when another record of the worker comes, when the worker
 * idles and when the run ends; one clock read a call, at its begin, each call ending where the next
 * one begins, the last of a CALLS record when it went. Every call reads back in the worker's order with its fields; a
 * CALLS record whose count lies under an intact checksum is reported, never read past its end.
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
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final Thread worker = new Thread(() -> runCalls(writer), "calls");
            worker.setUncaughtExceptionHandler((t, e) -> failed.set(e));
            worker.start();
            worker.join();
            assertNull(failed.get());
            // the calls after the idle are still staged: the run's end journals them
            writer.runEnd("done");
        }
    }

    private static void runCalls(final JournalWriter writer)
    {
        for (int i = 0; i < CALLS; i++)
        {
            writer.processBegin(WORKER, NODE, i);
            if (i % 2 == 0)
            {
                writer.emit(WORKER, NODE, STREAM, i, JournalSink.LONG, i * 10L);
            }
            writer.processEnd(WORKER, NODE, i);
            if (i == DROP_AFTER)
            {
                writer.drop(WORKER, NODE, STREAM, i, JournalSink.POLICY);
            }
            if (i == IDLE_AFTER)
            {
                writer.workerIdle(WORKER);
            }
        }
    }

    @Test
    void everyCallReadsBackInTheWorkersOrderEachEndingWhereTheNextBegins() throws Exception
    {
        final JournalReader reader = JournalReader.read(run);
        assertEquals(6, reader.formatMinor());
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
    void aCallsRecordWhoseCountLiesIsReportedNotReadPastItsEnd() throws Exception
    {
        final Path file = JournalFiles.cycleFiles(run).get(0);
        final JournalFileBytes bytes = new JournalFileBytes(file);
        final JournalScanner.Documents documents = JournalScanner.documents(file);
        // the first CALLS record: alone in a document, or in a BATCH
        long calls = -1;
        long document = -1;
        for (int d = 0; d < documents.lengths.size() && calls < 0; d++)
        {
            final long body = documents.bodies.getLong(d);
            final int kind = bytes.readInt(body) & 0xFF;
            if (kind == JournalDescriptor.CALLS)
            {
                calls = body;
                document = body;
            }
            else if (kind == JournalDescriptor.BATCH)
            {
                long at = body + JournalDescriptor.BATCH_RECORDS_OFFSET;
                for (int r = 0; r < bytes.readInt(body + JournalDescriptor.BATCH_COUNT_OFFSET) && calls < 0; r++)
                {
                    if ((bytes.readInt(at + 4) & 0xFF) == JournalDescriptor.CALLS)
                    {
                        calls = at + 4;
                        document = body;
                    }
                    at += 4 + bytes.readInt(at);
                }
            }
        }
        assertTrue(calls >= 0, "no CALLS record among " + documents.lengths.size() + " documents");
        final int count = bytes.readInt(calls + JournalDescriptor.CALLS_COUNT_OFFSET);
        assertEquals(64, count, "the first staging went out full");
        bytes.pokeInt(calls + JournalDescriptor.CALLS_COUNT_OFFSET, 1000); // the checksum is made to hold
        bytes.fixChecksum(document);
        final JournalException ex = assertThrows(JournalException.class, () -> JournalReader.read(run));
        assertEquals(1, ex.damage().size(), ex.damage().toString());
        final JournalDamage damage = ex.damage().get(0);
        assertEquals(JournalDamage.Kind.CORRUPT_RECORD, damage.kind());
        assertTrue(damage.toString().contains("a CALLS record of " +
            (JournalDescriptor.CALLS_ENTRIES_OFFSET + 64 * JournalDescriptor.CALLS_ENTRY_LENGTH) +
            " bytes claims 1000 calls"), damage.toString());
        // those 64 calls are lost together, the other calls read
        assertEquals(CALLS - 64, begins(ex.readable().records()));
        assertEquals("done", ex.readable().runEnd().text());
    }

    @Test
    void aRingShorterThanAStagingTakesFewerCallsAtATime(@TempDir final Path small) throws IOException, InterruptedException
    {
        final Path smallRun;
        try (JournalWriter writer = JournalWriter.open(JournalRoundTripTest.config(small, JournalConfig.Mode.ASYNC)
            .ringCapacity(4096).onRingFull(JournalConfig.RingFull.WAIT)))
        {
            smallRun = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            final Thread worker = new Thread(() -> runCalls(writer), "calls");
            worker.start();
            worker.join();
            writer.runEnd("done");
        }
        final JournalReader reader = JournalReader.read(smallRun);
        assertEquals(CALLS, begins(reader.records()), "every call, through a ring whose longest message holds 15");
        assertEquals(0, reader.lostRecords());
    }

    private static long begins(final List<JournalRecord> records)
    {
        return records.stream().filter(r -> r.kind() == PROCESS_BEGIN).count();
    }
}
