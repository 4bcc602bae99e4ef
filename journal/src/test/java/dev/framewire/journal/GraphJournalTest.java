package dev.framewire.journal;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's journal wiring: a run of a real graph leaves, for every packet, its whole life —
 * the graph input, each node's call at its timestamp (begin and end), each emit — and the run's
 * start and end; in both modes (ASYNC stages a worker's calls and writes them together, read back
 * as the same records), and the post-mortem accounts for every packet. A worker that idles lets its
 * staged calls go: they are in the journal while the run goes on.
 */
class GraphJournalTest
{
    @Test
    @Timeout(60)
    void anIdleWorkersCallsAreInTheJournalBeforeTheRunEnds(@TempDir final Path dir) throws Exception
    {
        final int packets = 10;
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("out"))
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
            graph.waitUntilIdle();
            // fewer calls than a staging holds: only the worker's going idle lets them go before the
            // run's end; the agent appends them within its longest park (1 ms by default)
            final Path run = JournalReader.latestRun(dir);
            final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            long ends;
            while ((ends = JournalReader.read(run).records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.PROCESS_END && "a".equals(r.nodeName()) && r.timestamp() >= 0)
                .count()) < packets &&
                System.nanoTime() < deadline)
            {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
            assertEquals(packets, ends, "the calls journaled while the graph runs");
        }
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    @Timeout(60)
    void everyPacketsLifeIsInTheJournal(final JournalConfig.Mode mode, @TempDir final Path dir) throws Exception
    {
        final int packets = 50;
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).mode(mode))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < packets; ts++)
            {
                graph.addPacket("in", ts * 7, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader reader = JournalReader.read(JournalReader.latestRun(dir));
        assertEquals(List.of("a", "b"), reader.nodeNames());
        assertTrue(reader.configText().contains("PassThroughCalculator"), reader.configText());
        final List<JournalRecord> records = reader.records();
        for (long ts = 0; ts < packets; ts++)
        {
            final long t = ts;
            assertEquals(1, count(records, JournalRecord.Kind.GRAPH_INPUT, null, "in", t), "input " + t);
            for (final String node : List.of("a", "b"))
            {
                assertEquals(1, count(records, JournalRecord.Kind.PROCESS_BEGIN, node, null, t), node + " begin " + t);
                assertEquals(1, count(records, JournalRecord.Kind.PROCESS_END, node, null, t), node + " end " + t);
            }
            assertEquals(1, count(records, JournalRecord.Kind.EMIT, "a", "mid", t), "a emit " + t);
            assertEquals(1, count(records, JournalRecord.Kind.EMIT, "b", "out", t), "b emit " + t);
        }
        assertEquals("done", reader.runEnd().text());
        assertEquals(0, reader.lostRecords());
        if (mode == JournalConfig.Mode.ASYNC)
        {
            // the worker owned its ring: each call was one CALL record, its BEGIN, EMIT and END one record
            // number (but the last packet's, whose call also moves the closed stream's bound: a BOUND
            // inside the call puts its BEGIN in the ring first)
            for (final JournalRecord r : records)
            {
                if (r.kind() == JournalRecord.Kind.PROCESS_BEGIN && r.timestamp() >= 0 && r.timestamp() < packets - 1)
                {
                    final long index = r.index();
                    assertEquals(3, records.stream().filter(x -> x.index() == index).count(), r::toString);
                }
            }
        }
        final Postmortem pm = Postmortem.of(reader);
        for (final Postmortem.StreamState stream : pm.streams())
        {
            for (final Postmortem.Consumer consumer : stream.consumers())
            {
                assertEquals(packets, consumer.consumed(), stream.name() + " at " + consumer.node());
                assertEquals(0, consumer.inFlight(), stream.name() + " at " + consumer.node());
            }
        }
        for (final Postmortem.NodeState node : pm.nodes())
        {
            assertTrue(!node.inProcess(), node.name());
        }
    }

    /**
     * B5's chain fed as fast as it takes packets, into an ASYNC journal whose ring holds about 80
     * records, with {@link JournalConfig.RingFull#WAIT}: the worker and the adder wait for the agent,
     * and the journal holds every call of every node and every graph input.
     */
    @Test
    @Timeout(120)
    void anAsyncJournalThatWaitsForRoomKeepsEveryCallOfAFastChain(@TempDir final Path dir) throws Exception
    {
        final int packets = 20_000;
        final int stages = 4;
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).mode(JournalConfig.Mode.ASYNC).ringCapacity(4096)
                .onRingFull(JournalConfig.RingFull.WAIT));
        String upstream = "in";
        for (int i = 0; i < stages; i++)
        {
            final String in = upstream;
            final String out = i == stages - 1 ? "out" : "s" + i;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out));
            upstream = out;
        }
        try (Graph graph = new Graph(builder.build()))
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
        assertEquals(0, reader.runEnd().value(), "RUN_END counts no record lost");
        // a call at every timestamp of every stage (the last one's may show its BEGIN twice: see above)
        final java.util.BitSet[] called = new java.util.BitSet[stages];
        final java.util.BitSet input = new java.util.BitSet(packets);
        for (int i = 0; i < stages; i++)
        {
            called[i] = new java.util.BitSet(packets);
        }
        for (final JournalRecord r : reader.records())
        {
            if (r.kind() == JournalRecord.Kind.PROCESS_BEGIN && r.timestamp() >= 0 && r.timestamp() < packets)
            {
                called[Integer.parseInt(r.nodeName().substring("stage".length()))].set((int)r.timestamp());
            }
            else if (r.kind() == JournalRecord.Kind.GRAPH_INPUT)
            {
                input.set((int)r.timestamp());
            }
        }
        assertEquals(packets, input.cardinality());
        for (int i = 0; i < stages; i++)
        {
            assertEquals(packets, called[i].cardinality(), "timestamps stage" + i + " was called at");
        }
    }

    private static long count(
        final List<JournalRecord> records, final JournalRecord.Kind kind, final String node, final String stream,
        final long ts)
    {
        return records.stream().filter(r -> r.kind() == kind && r.timestamp() == ts &&
            (node == null || node.equals(r.nodeName())) && (stream == null || stream.equals(r.streamName()))).count();
    }
}
