package dev.framewire.journal;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Timestamp;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Post-mortems of nodes with {@code max_in_flight} above 1, whose calls overlap on several workers:
 * an END closes only its own worker's call, a node is in process while any call is open (the
 * longest-running one named, the open calls counted), and a packet counts as consumed once even
 * when a later timestamp's BEGIN came first. First on synthetic journals, then on the journal of a
 * real graph whose calls are made to overlap.
 */
@Timeout(60)
class PostmortemMaxInFlightTest
{
    static final String[] NODES = {"detector", "sink"};
    static final String[] STREAMS = {"frames", "dets"};
    static final String[] WORKERS = {"w0", "w1", "w2"};
    static final int[][] INPUTS = {{0}, {1}};
    static final int DETECTOR = 0;
    static final int SINK = 1;
    static final int FRAMES = 0;
    static final int DETS = 1;

    @TempDir
    Path dir;

    /**
     * Frames 1 to 7. The detector's calls overlap on three workers: 2 ends while 1 runs, 4 begins
     * before 3, 5 ends while 4 runs, 6 is dropped; the journal ends in the call at 4 (and, with
     * {@code seventh}, in one at 7 too). The sink's call at 2 begins before its call at 1, and it
     * is called twice at 3.
     */
    private Path overlappingCalls(final boolean seventh) throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            writer.runStart("cfg", 1, "test", NODES, STREAMS, WORKERS, INPUTS);
            for (int ts = 1; ts <= 7; ts++)
            {
                writer.graphInput(FRAMES, ts, JournalWriter.LONG, ts);
            }
            writer.processBegin(0, DETECTOR, 1);
            writer.processBegin(1, DETECTOR, 2);
            writer.processEnd(1, DETECTOR, 2);
            writer.processBegin(1, DETECTOR, 4); // before 3's BEGIN: the call at 3 starts late on w2
            writer.processBegin(2, DETECTOR, 3);
            writer.processEnd(0, DETECTOR, 1);
            writer.emit(0, DETECTOR, DETS, 1, JournalWriter.LONG, 1); // w0 retires 1 and 2
            writer.emit(0, DETECTOR, DETS, 2, JournalWriter.LONG, 2);
            writer.processEnd(2, DETECTOR, 3);
            writer.emit(2, DETECTOR, DETS, 3, JournalWriter.LONG, 3); // 4 still runs: nothing later retires
            writer.processBegin(2, SINK, 2);
            writer.processBegin(0, SINK, 1);
            writer.processEnd(0, SINK, 1);
            writer.processEnd(2, SINK, 2);
            writer.processBegin(0, DETECTOR, 5);
            writer.drop(0, DETECTOR, FRAMES, 6, JournalRecord.POLICY);
            writer.processEnd(0, DETECTOR, 5); // a later call ends while the one at 4 runs on
            for (int twice = 0; twice < 2; twice++)
            {
                writer.processBegin(2, SINK, 3);
                writer.processEnd(2, SINK, 3);
            }
            if (seventh)
            {
                writer.processBegin(2, DETECTOR, 7);
            }
            // no runEnd: the process "died" here
            return writer.runDirectory();
        }
    }

    @Test
    void anEndClosesOnlyItsWorkersCallAndOutOfOrderBeginsCountOnce() throws Exception
    {
        final JournalReader journal = JournalReader.read(overlappingCalls(false));
        final Postmortem pm = Postmortem.of(journal);

        final Postmortem.NodeState detector = pm.node("detector");
        assertTrue(detector.inProcess(), "the END at 5 (w0) does not close the call at 4 (w1)");
        assertEquals(4, detector.timestamp());
        assertEquals("w1", detector.worker());
        assertEquals(1, detector.openCalls());
        assertEquals(inProcessNanos(journal, 4), detector.inProcessNanos());
        assertEquals(5, detector.calls());
        assertEquals(1, detector.drops());
        assertEquals(1, detector.queued());
        final Postmortem.NodeState sink = pm.node("sink");
        assertFalse(sink.inProcess());
        assertEquals(0, sink.openCalls());
        assertEquals(Timestamp.UNSET, sink.timestamp());
        assertEquals(4, sink.calls());

        assertAccounted(pm);
        final Postmortem.Consumer atDetector = pm.stream("frames").consumers().get(0);
        assertEquals(7, pm.stream("frames").emitted());
        assertEquals(5, atDetector.consumed(), "1 to 5, 3 though its BEGIN came after 4's");
        assertEquals(1, atDetector.dropped());
        assertEquals(1, atDetector.inFlight(), "7");
        assertEquals(5, atDetector.lastConsumed());
        assertEquals(5, pm.stream("frames").lastConsumed());
        final Postmortem.Consumer atSink = pm.stream("dets").consumers().get(0);
        assertEquals(3, pm.stream("dets").emitted());
        assertEquals(3, atSink.consumed(), "1 though its BEGIN came after 2's, and 3 once though called twice");
        assertEquals(0, atSink.inFlight());
        assertEquals(3, pm.stream("dets").lastConsumed());

        final String seconds = Postmortem.seconds(detector.inProcessNanos());
        assertTrue(pm.verdict().contains("Node `detector` had been in process for timestamp 4 for " + seconds +
            " when the journal ends (on w1); 1 packet was queued on its inputs (`frames`: 1)."), pm.verdict());
        assertTrue(pm.report().contains("\n  detector: 5 calls, 1 drops, in process for timestamp 4 for " + seconds +
            " on w1\n  sink: 4 calls, 0 drops\n"), pm.report());
    }

    @Test
    void withTwoCallsOpenTheLongestRunningIsNamedAndTheyAreCounted() throws Exception
    {
        final JournalReader journal = JournalReader.read(overlappingCalls(true));
        final Postmortem pm = Postmortem.of(journal);

        final Postmortem.NodeState detector = pm.node("detector");
        assertTrue(detector.inProcess());
        assertEquals(2, detector.openCalls(), "4 on w1 and 7 on w2");
        assertEquals(4, detector.timestamp(), "the longest-running");
        assertEquals("w1", detector.worker());
        assertEquals(inProcessNanos(journal, 4), detector.inProcessNanos());
        assertEquals(6, detector.calls());
        assertEquals(0, detector.queued());

        assertAccounted(pm);
        final Postmortem.Consumer atDetector = pm.stream("frames").consumers().get(0);
        assertEquals(6, atDetector.consumed());
        assertEquals(1, atDetector.dropped());
        assertEquals(0, atDetector.inFlight());
        assertEquals(7, atDetector.lastConsumed());

        final String seconds = Postmortem.seconds(detector.inProcessNanos());
        assertTrue(pm.verdict().contains("Node `detector` had been in process for timestamp 4 for " + seconds +
            " when the journal ends (on w1, the longest of its 2 calls in process); 0 packets were queued on its " +
            "inputs."), pm.verdict());
        assertTrue(pm.report().contains("\n  detector: 6 calls, 1 drops, in process for timestamp 4 for " + seconds +
            " on w1 (the longest of its 2 calls in process)\n"), pm.report());
    }

    /** From the detector's BEGIN at a timestamp to the journal's last record. */
    private static long inProcessNanos(final JournalReader journal, final long timestamp)
    {
        long begin = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        for (final JournalRecord r : journal.records())
        {
            if (r.kind() == JournalRecord.Kind.HEADER)
            {
                continue;
            }
            end = Math.max(end, r.nanos());
            if (r.kind() == JournalRecord.Kind.PROCESS_BEGIN && r.node() == DETECTOR && r.timestamp() == timestamp)
            {
                begin = r.nanos();
            }
        }
        return end - begin;
    }

    /** Every packet emitted on a stream is, at each consumer, consumed, dropped or in flight. */
    private static void assertAccounted(final Postmortem pm)
    {
        for (final Postmortem.StreamState s : pm.streams())
        {
            for (final Postmortem.Consumer c : s.consumers())
            {
                assertEquals(s.emitted(), c.consumed() + c.dropped() + c.inFlight(), s.name() + " at " + c.node());
            }
        }
    }

    /**
     * Odd timestamps wait until the call at the next (even) timestamp has run, which only a second
     * call at once allows (otherwise the wait times out and fails the run); each call emits its
     * input timestamp.
     */
    static final class Overlapping implements Calculator
    {
        static final long WAIT_SECONDS = 10;

        final Map<Long, CountDownLatch> ran = new ConcurrentHashMap<>();

        private CountDownLatch ran(final long timestamp)
        {
            return ran.computeIfAbsent(timestamp, k -> new CountDownLatch(1));
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            final long ts = ctx.inputTimestamp();
            try
            {
                if (ts % 2 == 1 && !ran(ts + 1).await(WAIT_SECONDS, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException("the call at " + ts + " never overlapped the one at " + (ts + 1));
                }
                ctx.output(0).addLong(ts, ts);
            }
            finally
            {
                ran(ts).countDown();
            }
        }
    }

    /**
     * A real run: node {@code slow} ({@code max_in_flight} 2, on an executor of two parking
     * workers) has two calls at once for every pair of timestamps, so its journal has overlapping
     * calls; the run ends done, and the post-mortem finds no call open and every packet consumed.
     */
    @Test
    void aRunWithOverlappingCallsIsFullyAccounted() throws Exception
    {
        final int packets = 200;
        final Overlapping slow = new Overlapping();
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .executor("pool", ExecutorConfig.of(2, IdleKind.PARK))
            .node("slow", n -> n.calculator(() -> slow).inputStream("in").outputStream("mid").executor("pool")
                .maxInFlight(2))
            .node("sink", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out")
                .executor("pool"))
            .journal(new JournalConfig().directory(dir))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 1; ts <= packets; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader journal = JournalReader.read(JournalReader.latestRun(dir));

        // the journal has what this test is about: the call at an even timestamp began before the
        // call at the odd one before it ended (the odd one waited for it)
        final List<JournalRecord> records = journal.records();
        for (long odd = 1; odd < packets; odd += 2)
        {
            final int evenBegins = indexOf(records, JournalRecord.Kind.PROCESS_BEGIN, "slow", odd + 1);
            final int oddEnds = indexOf(records, JournalRecord.Kind.PROCESS_END, "slow", odd);
            assertTrue(evenBegins >= 0 && evenBegins < oddEnds, "the calls at " + odd + " and " + (odd + 1) +
                " overlap in the journal");
        }

        final Postmortem pm = Postmortem.of(journal);
        for (final Postmortem.NodeState n : pm.nodes())
        {
            assertFalse(n.inProcess(), n.name());
            assertEquals(0, n.openCalls(), n.name());
            assertEquals(0, n.queued(), n.name());
            assertEquals(0, n.drops(), n.name());
            assertEquals(packets + 2, n.calls(), n.name() + ": open, every timestamp, close");
        }
        assertAccounted(pm);
        for (final String name : List.of("in", "mid"))
        {
            final Postmortem.StreamState s = pm.stream(name);
            assertEquals(packets, s.emitted(), name);
            assertEquals(packets, s.lastEmitted(), name);
            assertEquals(packets, s.lastConsumed(), name);
            assertEquals(0, s.inFlight(), name);
            assertEquals(1, s.consumers().size(), name);
            assertEquals(packets, s.consumers().get(0).consumed(), name);
            assertEquals(0, s.consumers().get(0).dropped(), name);
            assertEquals(0, s.consumers().get(0).inFlight(), name);
        }
        assertEquals("graph input", pm.stream("in").producer());
        assertEquals("slow", pm.stream("mid").producer());
        assertEquals(packets, pm.stream("out").emitted());
        assertTrue(pm.verdict().matches("The run ended done after \\d+\\.\\d s\\. No node was in process\\. No packet " +
            "was in flight\\. No error was journaled\\."), pm.verdict());
    }

    private static int indexOf(
        final List<JournalRecord> records, final JournalRecord.Kind kind, final String node, final long timestamp)
    {
        for (int i = 0; i < records.size(); i++)
        {
            final JournalRecord r = records.get(i);
            if (r.kind() == kind && node.equals(r.nodeName()) && r.timestamp() == timestamp)
            {
                return i;
            }
        }
        return -1;
    }
}
