package dev.framewire.bench.journal;

import dev.framewire.bench.suite.Suite;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * B5's chain (four {@code PassThroughCalculator} stages on one parked worker) with an ASYNC journal at
 * its default ring, fed a number of packets as fast as the graph takes them; then the journal is
 * read back and the calls it holds and the ring messages it lost are printed. B5 checks the chain,
 * not the journal: this says how much of the journal a nonstop producer costs. Reads the whole
 * journal into memory (about 1 GB for a million packets: give it {@code -Xmx3g}).
 *
 * <pre>java @.mvn/jvm.config -Xmx3g -cp bench/target/benchmarks.jar dev.framewire.bench.journal.JournalLossCheck 1000000 [LOSE|WAIT]</pre>
 *
 * The second argument is the journal's {@link JournalConfig.RingFull}: LOSE (the default) or WAIT;
 * a third, {@code keep}, leaves the journal where it is and prints its directory (for {@code du -sk}:
 * the bytes a packet costs on disk). A run that lost records also prints each {@code LOST} record's count
 * and when the agent journaled it, in milliseconds after the run's start. {@code -DringCapacity=<bytes>} and
 * {@code -DagentBatchScheduling=false} set those two {@link JournalConfig} settings, and
 * {@code -Dlevel=RUNS|IO|SAMPLED} the journal's {@link JournalConfig.Level} (CALLS by default).
 */
public final class JournalLossCheck
{
    private JournalLossCheck()
    {
    }

    /**
     * Runs the check.
     *
     * @param args the number of packets, and optionally LOSE or WAIT.
     * @throws Exception if the graph or the journal fails.
     */
    public static void main(final String[] args) throws Exception
    {
        final long packets = Long.parseLong(args[0]);
        final JournalConfig.RingFull ringFull = args.length > 1 ? JournalConfig.RingFull.valueOf(args[1]) :
            JournalConfig.RingFull.LOSE;
        final Path root = Files.createTempDirectory("framewire-losscheck");
        final JournalConfig journalConfig = new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
            .onRingFull(ringFull).ringCapacity(Integer.getInteger("ringCapacity", JournalConfig.DEFAULT_RING_CAPACITY))
            .level(JournalConfig.Level.valueOf(System.getProperty("level", JournalConfig.Level.CALLS.name())));
        journalConfig.agentBatchScheduling(Boolean.parseBoolean(
            System.getProperty("agentBatchScheduling", Boolean.toString(journalConfig.agentBatchScheduling()))));
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(1024)
            .queueHardCap(8 * 1024)
            .journal(journalConfig);
        String upstream = "in";
        for (int i = 0; i < 4; i++)
        {
            final String in = upstream;
            final String out = i == 3 ? "out" : "s" + i;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in)
                .outputStream(out).executor(GraphConfig.DEFAULT_EXECUTOR));
            upstream = out;
        }
        final long start;
        final long end;
        try (Graph graph = new Graph(builder.build()))
        {
            graph.start();
            start = System.nanoTime();
            for (long i = 0; i < packets; i++)
            {
                while (!graph.tryAddPacket("in", i, i))
                {
                    Thread.onSpinWait();
                }
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            end = System.nanoTime();
        }
        final JournalReader journal = JournalReader.read(root);
        final Map<JournalRecord.Kind, Long> counts = new EnumMap<>(JournalRecord.Kind.class);
        final StringBuilder losses = new StringBuilder();
        long runStart = 0;
        for (final JournalRecord r : journal.records())
        {
            counts.merge(r.kind(), 1L, Long::sum);
            if (r.kind() == JournalRecord.Kind.RUN_START)
            {
                runStart = r.nanos();
            }
            else if (r.kind() == JournalRecord.Kind.LOST)
            {
                losses.append(String.format(" %d at %.1f ms;", r.value(), (r.nanos() - runStart) / 1e6));
            }
        }
        final long calls = counts.getOrDefault(JournalRecord.Kind.PROCESS_END, 0L);
        System.out.printf("format 1.%d: %d packets in %.2f s (%.0f/s); records read %d %s; ring messages lost %d; " +
            "calls journaled %d of %d (%.1f %%)%n",
            journal.formatMinor(), packets, (end - start) / 1e9, packets / ((end - start) / 1e9),
            journal.records().size(), counts, journal.lostRecords(), calls, 4 * packets + 8,
            100.0 * calls / (4 * packets + 8));
        if (losses.length() > 0)
        {
            System.out.println("lost (count, and when the agent journaled it, after the run's start):" + losses);
        }
        if (args.length > 2 && "keep".equals(args[2]))
        {
            System.out.println("journal kept in " + root);
            return;
        }
        Suite.deleteTree(root);
    }
}
