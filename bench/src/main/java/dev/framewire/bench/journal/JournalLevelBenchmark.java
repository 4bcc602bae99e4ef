package dev.framewire.bench.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * What a journaled call costs the worker at each journal level ({@link JournalConfig.Level}), as
 * {@code JournalBenchmark.callWorkerJournal} measures it for every call: an ASYNC journal, a call
 * through the worker's journal (begin on the same worker, an emit on an inner stream, end), and
 * the worker idling once every 64 calls (a run of calls, for RUNS). At the end the journal is read
 * and its calls counted against what the level promises (all; one per run; none; one in 64).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = "-XX:MaxDirectMemorySize=2g")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 200, timeUnit = TimeUnit.MILLISECONDS)
public class JournalLevelBenchmark
{
    private static final int RUN = 64;

    @Param({"CALLS", "RUNS", "IO", "SAMPLED"})
    public String level;

    private Path root;
    private JournalWriter writer;
    private WorkerJournal worker;
    private long ops;

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        root = Files.createTempDirectory("framewire-journal-level-bench");
        writer = JournalWriter.open(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
            .ringCapacity(1 << 29).level(JournalConfig.Level.valueOf(level)).sampleEvery(RUN));
        // stream 1 is an inner stream (node 1 takes it), stream 2 an end stream
        writer.runStart("bench", 1, "bench", new String[]{"source", "detector"}, new String[]{"in", "frames", "out"},
            new String[]{"worker-0"}, new int[][]{{0}, {1}});
        worker = writer.worker(0);
    }

    @TearDown(Level.Iteration)
    public void drain()
    {
        if (!writer.flush(TimeUnit.SECONDS.toNanos(120)))
        {
            throw new IllegalStateException("the journal agent did not drain the ring in 120 s");
        }
    }

    @Benchmark
    public void call()
    {
        final long ts = ops++;
        final WorkerJournal worker = this.worker;
        worker.processBeginSameWorker(1, ts);
        worker.emit(1, 1, ts, JournalWriter.LONG, ts);
        worker.processEnd(1, ts);
        if ((ts & (RUN - 1)) == RUN - 1)
        {
            worker.idle();
        }
    }

    @TearDown(Level.Trial)
    public void checkJournal() throws Exception
    {
        writer.runEnd("done");
        final long lost = writer.lostRecords();
        final Path run = writer.runDirectory();
        writer.close();
        if ("CALLS".equals(level))
        {
            // hundreds of millions of calls do not fit a JournalReader's heap: this is the path
            // JournalBenchmark.callWorkerJournal measures, whose trial counts them record by record
            System.out.printf("%n  CALLS: %,d calls made, %,d records lost%n", ops, lost);
            delete(run);
            return;
        }
        long calls = 0;
        for (final JournalRecord r : JournalReader.read(run).records())
        {
            calls += r.kind() == JournalRecord.Kind.PROCESS_BEGIN ? 1 : 0;
        }
        final long expected = switch (level)
        {
            case "IO" -> 0;
            default -> ops / RUN; // RUNS: a run per 64 calls; SAMPLED: one call in 64
        };
        System.out.printf("%n  %s: %,d calls made, %,d in the journal (%,d expected), %,d records lost%n", level, ops,
            calls, expected, lost);
        if (lost == 0 && Math.abs(calls - expected) > 1)
        {
            throw new IllegalStateException(level + ": the journal holds " + calls + " calls, expected " + expected);
        }
        delete(run);
    }

    private void delete(final Path run) throws IOException
    {
        try (var files = Files.walk(run))
        {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.deleteIfExists(root);
    }
}
