package dev.framewire.bench.suite;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * B5: journal on vs off. The same chain as B2's {@code FRAMEWIRE/1}: four {@code PassThroughCalculator}
 * nodes on one worker, parked when idle, driven the same way (the benchmark thread offers longs as
 * fast as the chain accepts them, yielding when refused; one op is one packet accepted; after every
 * iteration it waits for all of them at the end and checks the count and the sum).
 *
 * <ul>
 *   <li>{@code FRAMEWIRE/1}: no journal (B2's row, the base of the ratio);</li>
 *   <li>{@code SYNC_JOURNAL/1}: a {@link JournalConfig.Mode#SYNC} journal, the worker appending to
 *       Chronicle itself;</li>
 *   <li>{@code ASYNC_JOURNAL/1}: a {@link JournalConfig.Mode#ASYNC} journal at its default ring
 *       capacity, a journal agent thread draining the ring (a full ring loses records, counted, and
 *       never blocks the worker), reading the clock only for calls another thread handed a packet
 *       ({@link JournalConfig.ClockReads#HAND_OVER}, the default: here the first node's);</li>
 *   <li>{@code ASYNC_OTHER_POLICY_JOURNAL/1}: the same with the agent's thread under Linux's
 *       default policy, not {@code SCHED_BATCH} ({@link JournalConfig#agentBatchScheduling}
 *       false), so that its wake-ups preempt the worker as any thread's do;</li>
 *   <li>{@code ASYNC_EVERY_CALL_JOURNAL/1}: the same reading the clock for every call
 *       ({@link JournalConfig.ClockReads#EVERY_CALL});</li>
 *   <li>{@code ASYNC_WAIT_JOURNAL/1}: the same with {@link JournalConfig.RingFull#WAIT}: a full ring
 *       makes the worker (and the adder) wait for the agent, so the journal keeps every record and the
 *       chain runs at the agent's pace when it is the slower.</li>
 *   <li>{@code ASYNC_RUNS_JOURNAL/1}, {@code ASYNC_IO_JOURNAL/1}, {@code ASYNC_SAMPLED_JOURNAL/1}: the
 *       ASYNC journal at the lighter levels ({@link JournalConfig.Level}): a call per run of calls;
 *       graph inputs and outputs only; and those with one call in 64.</li>
 * </ul>
 * The journal goes to a temporary directory deleted at the end of the trial. The contenders are
 * named so that {@code BenchReport}'s "ratio to Framewire" is the ratio to the journal-off row.
 * Two threads (three with the ASYNC agent), all parked when idle.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B5JournalBenchmark extends PushHarness
{
    static final int STAGES = 4;

    @Param({"FRAMEWIRE/1", "SYNC_JOURNAL/1", "ASYNC_JOURNAL/1", "ASYNC_OTHER_POLICY_JOURNAL/1", "ASYNC_EVERY_CALL_JOURNAL/1",
        "ASYNC_WAIT_JOURNAL/1", "ASYNC_RUNS_JOURNAL/1", "ASYNC_IO_JOURNAL/1", "ASYNC_SAMPLED_JOURNAL/1"})
    public String contender;

    private Path root;
    private Graph graph;

    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        HostState.record("B5Journal", contender);
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
            .maxQueueSize(Suite.IN_FLIGHT)
            .queueHardCap(8 * Suite.IN_FLIGHT);
        switch (contender)
        {
            case "FRAMEWIRE/1":
                break;
            case "SYNC_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.SYNC));
                break;
            case "ASYNC_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC));
                break;
            case "ASYNC_OTHER_POLICY_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
                    .agentBatchScheduling(false));
                break;
            case "ASYNC_EVERY_CALL_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
                    .clockReads(JournalConfig.ClockReads.EVERY_CALL));
                break;
            case "ASYNC_WAIT_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
                    .onRingFull(JournalConfig.RingFull.WAIT));
                break;
            case "ASYNC_RUNS_JOURNAL/1":
            case "ASYNC_IO_JOURNAL/1":
            case "ASYNC_SAMPLED_JOURNAL/1":
                root = Files.createTempDirectory("framewire-b5-journal");
                builder.journal(new JournalConfig().directory(root).mode(JournalConfig.Mode.ASYNC)
                    .level(JournalConfig.Level.valueOf(contender.substring("ASYNC_".length(),
                        contender.indexOf("_JOURNAL")))));
                break;
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
        String upstream = "in";
        for (int i = 0; i < STAGES; i++)
        {
            final String in = upstream;
            final String out = i == STAGES - 1 ? "out" : "s" + i;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in)
                .outputStream(out).executor(GraphConfig.DEFAULT_EXECUTOR));
            upstream = out;
        }
        graph = new Graph(builder.build());
        graph.observe("out", packet -> arrivals.accept(packet.getLong()));
        graph.start();
        final dev.framewire.core.GraphInputHandle in = graph.input("in");
        sender = new Sender(in::tryAddPacket);
    }

    @Override
    String contender()
    {
        return contender;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        try
        {
            Suite.closeGraph(graph);
        }
        finally
        {
            if (root != null)
            {
                Suite.deleteTree(root);
            }
        }
    }
}
