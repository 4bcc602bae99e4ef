package dev.framewire.journal;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Journal levels by cost: a chain of three nodes fed 200 packets, journaled at each level in both
 * modes, holds what its level promises: every call (CALLS); a call per run of calls, paired
 * (RUNS); no calls (IO); one call in N whole (SAMPLED); and at every level each graph input and
 * each packet on the graph's output, so that a replay and a diff of the outputs still work.
 */
class JournalLevelsTest
{
    private static final int PACKETS = 200;
    private static final int EVERY = 8;

    private static JournalReader run(final Path dir, final JournalConfig.Mode mode, final JournalConfig.Level level)
        throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("s1"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("s1").outputStream("s2"))
            .node("c", n -> n.calculator("PassThroughCalculator").inputStream("s2").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).mode(mode).level(level).sampleEvery(EVERY))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < PACKETS; ts++)
            {
                graph.addPacket("in", ts * 3, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        return JournalReader.read(dir);
    }

    private static long count(final JournalReader j, final JournalRecord.Kind kind, final String stream)
    {
        return j.records().stream().filter(r -> r.kind() == kind && (stream == null || stream.equals(r.streamName())))
            .count();
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    @Timeout(60)
    void eachLevelKeepsWhatItPromises(final JournalConfig.Mode mode, @TempDir final Path dir) throws Exception
    {
        final JournalReader calls = run(dir.resolve("calls"), mode, JournalConfig.Level.CALLS);
        final long allCalls = count(calls, JournalRecord.Kind.PROCESS_BEGIN, null);
        assertTrue(allCalls >= 3 * PACKETS, allCalls + " calls");
        assertEquals(PACKETS, count(calls, JournalRecord.Kind.EMIT, "s1"));
        assertTrue(calls.records().stream().noneMatch(r -> r.kind() == JournalRecord.Kind.NOTE));

        for (final JournalConfig.Level level : new JournalConfig.Level[]{JournalConfig.Level.RUNS,
            JournalConfig.Level.IO, JournalConfig.Level.SAMPLED})
        {
            final JournalReader j = run(dir.resolve(level.name()), mode, level);
            assertEquals(PACKETS, count(j, JournalRecord.Kind.GRAPH_INPUT, "in"), level.toString());
            assertEquals(PACKETS, count(j, JournalRecord.Kind.EMIT, "out"), level + ": the graph's outputs, all");
            final List<JournalRecord> notes = j.records().stream().filter(r -> r.kind() == JournalRecord.Kind.NOTE)
                .toList();
            assertEquals(1, notes.size(), level.toString());
            assertTrue(notes.get(0).text().startsWith(JournalWriter.LEVEL_NOTE + level), notes.get(0).text());
            final long begins = count(j, JournalRecord.Kind.PROCESS_BEGIN, null);
            final long ends = count(j, JournalRecord.Kind.PROCESS_END, null);
            assertEquals(begins, ends, level + ": each call journaled whole");
            final long inner = count(j, JournalRecord.Kind.EMIT, "s1") + count(j, JournalRecord.Kind.EMIT, "s2");
            switch (level)
            {
                case IO:
                    assertEquals(0, begins, "no calls");
                    assertEquals(0, inner, "no inner packets");
                    break;
                case SAMPLED:
                    // one outermost call in EVERY per worker (one worker here)
                    assertTrue(begins >= allCalls / EVERY - 2 && begins <= allCalls / EVERY + 2,
                        begins + " of " + allCalls);
                    assertTrue(inner > 0 && inner < 2 * PACKETS, inner + " inner packets");
                    break;
                default: // RUNS: one call per run of calls, at most one per call, at least one
                    assertTrue(begins >= 1 && begins < allCalls, begins + " runs of " + allCalls + " calls");
                    assertEquals(0, inner, "no inner packets");
            }
            // the graph's outputs compare with a run at every call
            final JournalDiff diff = JournalDiff.compare(calls, j);
            assertEquals(List.of("out"), diff.streams().stream().filter(s -> !diff.differences().stream()
                .map(JournalDiff.Difference::stream).toList().contains(s)).toList(), level + ": " + diff);
        }
    }
}
