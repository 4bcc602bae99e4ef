package dev.framewire.journal;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.JournalSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static dev.framewire.journal.JournalRecord.Kind.EMIT;
import static dev.framewire.journal.JournalRecord.Kind.GRAPH_INPUT;
import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link JournalConfig.ClockReads}: under HAND_OVER (the default) an ASYNC worker's call that no
 * other thread handed a packet begins at the worker's last clock reading, a call handed a packet
 * reads the clock, and so does the first call after the worker idled; under EVERY_CALL every call
 * reads it. In a real graph only the nodes fed from their own worker share a reading, and a
 * packet's consumer on another worker never begins before the emit that made it.
 */
@Timeout(60)
class JournalClockReadsTest
{
    private static final int WORKER = 0;

    @TempDir
    Path dir;

    @Test
    void aCallFedFromItsOwnWorkerBeginsAtTheWorkersLastReading() throws Exception
    {
        final List<JournalRecord> begins = beginsOfWorker(JournalConfig.ClockReads.HAND_OVER, writer ->
        {
            writer.processBegin(WORKER, 0, 10);
            writer.emit(WORKER, 0, 1, 10, JournalSink.LONG, 10);
            writer.processEnd(WORKER, 0, 10);
            clockMoves();
            writer.processBeginSameWorker(WORKER, 1, 10);
            writer.processEnd(WORKER, 1, 10);
        });
        assertEquals(2, begins.size(), begins::toString);
        assertEquals(begins.get(0).nanos(), begins.get(1).nanos(), begins::toString);
    }

    @Test
    void afterTheWorkerIdledItsNextCallReadsTheClock() throws Exception
    {
        final List<JournalRecord> begins = beginsOfWorker(JournalConfig.ClockReads.HAND_OVER, writer ->
        {
            // no reading yet: the worker's first call reads the clock even when fed from its worker
            writer.processBeginSameWorker(WORKER, 1, 10);
            writer.processEnd(WORKER, 1, 10);
            writer.workerIdle(WORKER);
            clockMoves();
            writer.processBeginSameWorker(WORKER, 1, 11);
            writer.processEnd(WORKER, 1, 11);
        });
        assertEquals(2, begins.size(), begins::toString);
        assertTrue(begins.get(0).nanos() > 0, begins::toString);
        assertTrue(begins.get(1).nanos() > begins.get(0).nanos(), begins::toString);
    }

    @Test
    void aRunOfCallsFedFromTheWorkerMovesOnWhenItsStagedCallsGo() throws Exception
    {
        final int calls = 200; // three stagings of 64 go on the ring, each at a clock reading
        final List<JournalRecord> begins = beginsOfWorker(JournalConfig.ClockReads.HAND_OVER, writer ->
        {
            writer.processBegin(WORKER, 0, 0);
            writer.processEnd(WORKER, 0, 0);
            for (int i = 1; i < calls; i++)
            {
                clockMoves();
                writer.processBeginSameWorker(WORKER, 1, i);
                writer.processEnd(WORKER, 1, i);
            }
        });
        assertEquals(calls, begins.size());
        int readings = 1;
        for (int i = 1; i < calls; i++)
        {
            final long before = begins.get(i - 1).nanos();
            final long now = begins.get(i).nanos();
            assertTrue(now >= before, () -> "call " + begins + " went back in time");
            if (now > before)
            {
                readings++;
            }
        }
        // the first call's reading, then one each time 64 calls went, and never one a call
        assertEquals(1 + (calls - 1) / 64, readings, begins::toString);
    }

    @Test
    void underEveryCallEachCallReadsTheClock() throws Exception
    {
        final List<JournalRecord> begins = beginsOfWorker(JournalConfig.ClockReads.EVERY_CALL, writer ->
        {
            writer.processBegin(WORKER, 0, 10);
            writer.processEnd(WORKER, 0, 10);
            clockMoves();
            writer.processBeginSameWorker(WORKER, 1, 10);
            writer.processEnd(WORKER, 1, 10);
        });
        assertEquals(2, begins.size(), begins::toString);
        assertTrue(begins.get(1).nanos() > begins.get(0).nanos(), begins::toString);
    }

    @Test
    void aConfigWithoutClockReadsNamesTheValidOnes()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new JournalConfig().directory(dir).clockReads(null).validate());
        assertTrue(e.getMessage().contains("clockReads") && e.getMessage().contains("HAND_OVER") &&
            e.getMessage().contains("EVERY_CALL"), e.getMessage());
    }

    /**
     * A graph input feeds {@code a}; {@code a} feeds {@code b} on the same worker; {@code b} feeds
     * {@code c} on another. Only {@code b} is fed from its own worker: it begins at {@code a}'s
     * reading (unless 64 staged calls went between them), {@code a} and {@code c} read the clock; and
     * {@code c} begins after {@code b} emitted what it takes, {@code a} after its packet was added.
     */
    @Test
    void inAGraphOnlyCallsFedFromTheirOwnWorkerShareAReadingAndNanosStayCausal() throws Exception
    {
        final int packets = 300;
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .executor("other", ExecutorConfig.of(1, IdleKind.PARK))
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("ab"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("ab").outputStream("bc"))
            .node("c", n -> n.calculator("PassThroughCalculator").inputStream("bc").outputStream("out").executor("other"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).mode(JournalConfig.Mode.ASYNC))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < packets; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader reader = JournalReader.read(JournalReader.latestRun(dir));
        assertEquals(0, reader.lostRecords());
        final Map<String, long[]> begin = new HashMap<>();
        final long[] emittedByB = new long[packets];
        final long[] added = new long[packets];
        for (final String node : List.of("a", "b", "c"))
        {
            begin.put(node, new long[packets]);
        }
        for (final JournalRecord r : reader.records())
        {
            if (r.timestamp() < 0 || r.timestamp() >= packets)
            {
                continue;
            }
            if (r.kind() == PROCESS_BEGIN)
            {
                begin.get(r.nodeName())[(int)r.timestamp()] = r.nanos();
            }
            else if (r.kind() == GRAPH_INPUT)
            {
                added[(int)r.timestamp()] = r.nanos();
            }
            else if (r.kind() == EMIT && "b".equals(r.nodeName()))
            {
                emittedByB[(int)r.timestamp()] = r.nanos();
            }
        }
        int bAtAsReading = 0;
        for (int t = 0; t < packets; t++)
        {
            final long a = begin.get("a")[t];
            final long b = begin.get("b")[t];
            final long c = begin.get("c")[t];
            final int ts = t;
            assertTrue(a >= added[t], () -> "at " + ts + ": the packet was added at " + added[ts] + ", a (fed by the " +
                "graph input) began at " + a);
            assertTrue(b >= a, () -> "at " + ts + ": a began at " + a + ", b at " + b);
            assertTrue(c >= emittedByB[t] && c >= b, () -> "at " + ts + ": b emitted at " + emittedByB[ts] +
                ", c (another worker) began at " + c);
            if (b == a)
            {
                bAtAsReading++;
            }
        }
        // a's call reads the clock, then b's follows it with no read in between, except where the
        // worker idled between the two or let 64 staged calls go
        assertTrue(bAtAsReading > packets / 2, "b began at a's reading for " + bAtAsReading + " of " + packets);
    }

    /**
     * A graph input feeds {@code a}, whose worker is paused while the packets are added. Once it
     * resumes, the call that takes the first packet reads the clock and finds the packets queued
     * behind it published: the calls that take them begin at that reading (or at a later one, as
     * staged calls go), not at one each, and never before their packet was added. Under
     * EVERY_CALL each of those calls reads the clock.
     */
    @Test
    void callsTakingPacketsQueuedBeforeTheirWorkersReadingShareIt() throws Exception
    {
        final int packets = 200;
        final long[] handOver = beginsOfQueuedCalls(JournalConfig.ClockReads.HAND_OVER, packets);
        final long[] everyCall = beginsOfQueuedCalls(JournalConfig.ClockReads.EVERY_CALL, packets);
        final long readingsHandOver = Arrays.stream(handOver).distinct().count();
        final long readingsEveryCall = Arrays.stream(everyCall).distinct().count();
        // the first call's reading, then one each time 64 staged calls went (a's and b's: every 32
        // packets), and a few more should the worker have begun before the pause held it
        assertTrue(readingsHandOver <= packets / 8, () -> "a's " + packets + " calls began at " +
            readingsHandOver + " readings, the first 16: " + Arrays.toString(Arrays.copyOf(handOver, 16)));
        assertTrue(readingsEveryCall > packets / 2, () -> "under EVERY_CALL a's " + packets + " calls began at " +
            readingsEveryCall + " readings");
    }

    /**
     * A graph input feeds {@code a}, {@code a} feeds {@code b} on the same worker; the packets are
     * added while the worker is paused. Returns {@code a}'s begin nanos by timestamp, having checked
     * that none began before its packet was added.
     */
    private long[] beginsOfQueuedCalls(final JournalConfig.ClockReads clockReads, final int packets) throws Exception
    {
        final Path journal = dir.resolve(clockReads.name());
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .maxQueueSize(packets)
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("ab"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("ab").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(journal).mode(JournalConfig.Mode.ASYNC).clockReads(clockReads))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.pause();
            for (long ts = 0; ts < packets; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.resume();
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader reader = JournalReader.read(JournalReader.latestRun(journal));
        assertEquals(0, reader.lostRecords());
        final long[] begins = new long[packets];
        final long[] added = new long[packets];
        for (final JournalRecord r : reader.records())
        {
            if (r.timestamp() < 0 || r.timestamp() >= packets)
            {
                continue;
            }
            if (r.kind() == PROCESS_BEGIN && "a".equals(r.nodeName()))
            {
                begins[(int)r.timestamp()] = r.nanos();
            }
            else if (r.kind() == GRAPH_INPUT)
            {
                added[(int)r.timestamp()] = r.nanos();
            }
        }
        for (int t = 0; t < packets; t++)
        {
            final int ts = t;
            assertTrue(added[t] > 0 && begins[t] >= added[t], () -> clockReads + ", at " + ts + ": the packet was added at " +
                added[ts] + ", a began at " + begins[ts]);
        }
        return begins;
    }

    /** Runs {@code calls} on a thread of its own (the owner of worker 0's ring), and returns its calls' begins. */
    private List<JournalRecord> beginsOfWorker(
        final JournalConfig.ClockReads clockReads, final Consumer<JournalWriter> calls) throws Exception
    {
        final Path run;
        try (JournalWriter writer = JournalWriter.open(
            JournalRoundTripTest.config(dir, JournalConfig.Mode.ASYNC).clockReads(clockReads)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final Thread worker = new Thread(() -> calls.accept(writer), "worker-0");
            worker.setUncaughtExceptionHandler((t, e) -> failed.set(e));
            worker.start();
            worker.join();
            assertNull(failed.get());
            writer.runEnd("done");
        }
        final List<JournalRecord> begins = new ArrayList<>();
        for (final JournalRecord r : JournalReader.read(run).records())
        {
            if (r.kind() == PROCESS_BEGIN && r.worker() == WORKER)
            {
                begins.add(r);
            }
        }
        return begins;
    }

    /** Waits until the clock has moved on by 10 µs, so that two readings either side of it differ. */
    private static void clockMoves()
    {
        final long from = System.nanoTime();
        while (System.nanoTime() - from < 10_000)
        {
            Thread.onSpinWait();
        }
    }
}
