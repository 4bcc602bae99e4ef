package dev.framewire.journal;

import dev.framewire.core.Timestamp;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Post-mortems of synthetic journals: a run killed while a node was stuck, a clean run, a journal
 * without topology.
 */
@Timeout(60)
class PostmortemTest
{
    static final String[] NODES = {"source", "detector", "sink"};
    static final String[] STREAMS = {"in", "frames", "dets"};
    static final String[] WORKERS = {"w0", "w1"};
    static final int[][] INPUTS = {{0}, {1}, {2}};

    @TempDir
    Path dir;

    /** 30 inputs; detector takes 13 frames, drops 2, and is stuck in the 13th; sink failed once. */
    private Path stuckRun(final boolean topology) throws Exception
    {
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            writer.runStart("cfg", 1, "test", NODES, STREAMS, WORKERS, topology ? INPUTS : null);
            for (int ts = 0; ts < 30; ts++)
            {
                writer.graphInput(0, ts, JournalWriter.LONG, ts);
                writer.processBegin(0, 0, ts);
                writer.emit(0, 0, 1, ts, JournalWriter.LONG, ts);
                writer.processEnd(0, 0, ts);
            }
            for (int ts = 0; ts < 12; ts++)
            {
                writer.processBegin(1, 1, ts);
                writer.emit(1, 1, 2, ts, (long)ts);
                writer.processEnd(1, 1, ts);
                writer.processBegin(1, 2, ts);
                if (ts == 5)
                {
                    writer.error(1, 2, 5, "node 'sink' failed at 5: boom.\n\tat Sink.process");
                }
                writer.processEnd(1, 2, ts);
            }
            writer.drop(1, 1, 1, 13, JournalRecord.POLICY);
            writer.drop(1, 1, 1, 14, JournalRecord.POLICY);
            writer.drop(1, 1, -1, 11, JournalRecord.FLOW_LIMIT); // a whole input set: not counted in flight
            writer.processBegin(1, 1, 12);
            Thread.sleep(120);
            writer.bound(0, 0, 31); // the journal's last record, 120 ms later
            // no runEnd: the process "died" here
            return writer.runDirectory();
        }
    }

    @Test
    void aStuckNodeWithItsQueueAndTheLastError() throws Exception
    {
        final Postmortem pm = Postmortem.of(JournalReader.read(stuckRun(true)));

        final Postmortem.NodeState detector = pm.node("detector");
        assertTrue(detector.inProcess());
        assertEquals(12, detector.timestamp());
        assertTrue(detector.inProcessNanos() >= 120_000_000L, () -> "" + detector.inProcessNanos());
        assertEquals("w1", detector.worker());
        assertEquals(13, detector.calls());
        assertEquals(3, detector.drops());
        assertEquals(15, detector.queued());
        assertFalse(pm.node("source").inProcess());
        assertFalse(pm.node("sink").inProcess());
        assertEquals(Timestamp.UNSET, pm.node("sink").timestamp());

        final Postmortem.StreamState frames = pm.stream("frames");
        assertEquals("source", frames.producer());
        assertEquals(30, frames.emitted());
        assertEquals(29, frames.lastEmitted());
        assertEquals(12, frames.lastConsumed());
        assertEquals(15, frames.inFlight());
        assertEquals(13, frames.consumers().get(0).consumed());
        assertEquals(2, frames.consumers().get(0).dropped());
        final Postmortem.StreamState in = pm.stream("in");
        assertEquals("graph input", in.producer());
        assertEquals(0, in.inFlight());
        assertEquals(29, in.lastConsumed());
        assertEquals(12, pm.stream("dets").emitted());
        assertEquals(0, pm.stream("dets").inFlight());
        assertEquals(11, pm.stream("dets").lastConsumed());

        assertEquals(5, pm.lastError().timestamp());
        final String verdict = pm.verdict();
        assertTrue(verdict.startsWith("The journal has no end of run: the process died or was killed, or is still " +
            "running after 0."), verdict);
        final String seconds = Postmortem.seconds(detector.inProcessNanos());
        assertTrue(verdict.contains("Node `detector` had been in process for timestamp 12 for " + seconds +
            " when the journal ends (on w1); 15 packets were queued on its inputs (`frames`: 15)."), verdict);
        assertTrue(verdict.contains("The last error: node `sink` at timestamp 5: node 'sink' failed at 5: boom."),
            verdict);
        assertFalse(verdict.contains("Sink.process"), "only the first line of the error");
        assertTrue(pm.report().contains("frames: 30 emitted by source, last emitted 29, last consumed 12\n" +
            "    to detector: 13 consumed, 2 dropped, 15 in flight"), pm.report());
    }

    @Test
    void withoutTopologyNothingIsCountedInFlightAndItSaysSo() throws Exception
    {
        final Postmortem pm = Postmortem.of(JournalReader.read(stuckRun(false)));
        assertTrue(pm.node("detector").inProcess());
        assertEquals(0, pm.stream("frames").inFlight());
        assertTrue(pm.verdict().contains("when the journal ends (on w1). ") &&
            pm.verdict().contains("does not say which node consumes which stream"), pm.verdict());
    }

    @Test
    void aCleanRunSaysSo() throws Exception
    {
        final Path run;
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            run = writer.runDirectory();
            writer.runStart("cfg", 1, "test", NODES, STREAMS, WORKERS, INPUTS);
            for (int ts = 0; ts < 3; ts++)
            {
                writer.graphInput(0, ts, 1.5, 0);
                for (int n = 0; n < 3; n++)
                {
                    writer.processBegin(0, n, ts);
                    if (n < 2)
                    {
                        writer.emit(0, n, n + 1, ts, "x");
                    }
                    writer.processEnd(0, n, ts);
                }
            }
            writer.processBegin(0, 2, Timestamp.DONE);
            writer.processEnd(0, 2, Timestamp.DONE);
            writer.runEnd("done");
        }
        final Postmortem pm = Postmortem.of(JournalReader.read(run));
        assertNull(pm.lastError());
        assertTrue(pm.verdict().matches("The run ended done after \\d+\\.\\d s\\. No node was in process\\. No packet " +
            "was in flight\\. No error was journaled\\."), pm.verdict());
        assertEquals(4, pm.node("sink").calls());
    }
}
