package dev.framewire.bench.suite;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * B2's chain measured by CPU time, not by throughput: the worker threads' and the adding thread's
 * CPU nanoseconds per packet (ThreadMXBean), round by round. On a loaded two-vCPU machine B2's
 * packets per second spread sevenfold from fork to fork with the scheduler; CPU time per packet
 * spreads a few percent, so it shows what a change to the per-packet path does to the path itself.
 * What it does not show: time lost waiting for the other thread.
 *
 * <pre>
 *   java @.mvn/jvm.config -Dstages=4 -Drun=1 -Dspin=0 -cp bench/target/benchmarks.jar \
 *       dev.framewire.bench.suite.ChainCpuPerPacket 1 6 2000000
 * </pre>
 * Arguments: workers (1, or 2 for B2's /2 split), rounds, packets per round. Properties: {@code stages}
 * (4), {@code run} ({@code input_sets_per_run}, 1), {@code batch} ({@code room_batch}, 1), {@code spin} (spin before park in µs, 15;
 * 0 keeps an idle worker's spinning out of its CPU time), {@code journal} ({@code SYNC} or
 * {@code ASYNC}: a journal in a temporary directory, deleted at the end; the ASYNC journal agent's
 * CPU per packet is printed apart from the workers'), {@code clockReads} ({@code HAND_OVER}, the default, or
 * {@code EVERY_CALL}: which journaled calls read the clock), {@code agentBatchScheduling}
 * ({@code false}: the ASYNC agent under the default policy, not {@code SCHED_BATCH}, see
 * {@link JournalConfig#agentBatchScheduling}), {@code gc} ({@code true}: a
 * {@code System.gc()} before each round, so that the graph runs from the old generation, as a
 * service's does after its first collections and as JMH's {@code -gc true} makes it).
 */
public final class ChainCpuPerPacket
{
    private ChainCpuPerPacket()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int groups = Integer.parseInt(args[0]);
        final int rounds = Integer.parseInt(args[1]);
        final long packets = Long.parseLong(args[2]);
        final int stages = Integer.getInteger("stages", 4);
        final ExecutorConfig executor = ExecutorConfig.of(1, IdleKind.PARK).spinBeforeParkMicros(Integer.getInteger("spin", 15));
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputSetsPerRun(Integer.getInteger("run", 1))
            .roomBatch(Integer.getInteger("batch", 1))
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, executor)
            .maxQueueSize(Suite.IN_FLIGHT)
            .queueHardCap(8 * Suite.IN_FLIGHT);
        if (groups == 2)
        {
            builder.executor("second", executor);
        }
        final String journalMode = System.getProperty("journal");
        if (journalMode != null && !journalMode.equals("SYNC") && !journalMode.equals("ASYNC"))
        {
            throw new IllegalArgumentException("-Djournal=" + journalMode + ": SYNC or ASYNC, or leave it out for none");
        }
        final Path journalRoot = journalMode == null ? null : Files.createTempDirectory("framewire-chain-cpu");
        if (journalMode != null)
        {
            final JournalConfig journal = new JournalConfig().directory(journalRoot).mode(JournalConfig.Mode.valueOf(journalMode))
                .clockReads(JournalConfig.ClockReads.valueOf(System.getProperty("clockReads", "HAND_OVER")));
            journal.agentBatchScheduling(Boolean.parseBoolean(
                System.getProperty("agentBatchScheduling", Boolean.toString(journal.agentBatchScheduling()))));
            builder.journal(journal);
        }
        String upstream = "in";
        for (int i = 0; i < stages; i++)
        {
            final String in = upstream;
            final String out = i == stages - 1 ? "out" : "s" + i;
            final String on = groups == 2 && i >= stages / 2 ? "second" : GraphConfig.DEFAULT_EXECUTOR;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out).executor(on));
            upstream = out;
        }
        final Graph graph = new Graph(builder.build());
        final AtomicLong arrived = new AtomicLong();
        graph.observe("out", packet -> arrived.lazySet(arrived.get() + 1));
        graph.start();
        final dev.framewire.core.GraphInputHandle in = graph.input("in");
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long timestamp = 0;
        final boolean collect = Boolean.getBoolean("gc");
        for (int r = 0; r < rounds; r++)
        {
            if (collect)
            {
                System.gc();
            }
            final long[] workers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("framewire-") && !t.getName().contains("guard") &&
                    !t.getName().equals("framewire-journal"))
                .mapToLong(Thread::getId).toArray();
            final long[] agent = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("framewire-journal"))
                .mapToLong(Thread::getId).toArray();
            final long workers0 = cpu(threads, workers);
            final long agent0 = cpu(threads, agent);
            final long adder0 = threads.getCurrentThreadCpuTime();
            final long wall0 = System.nanoTime();
            final long target = arrived.get() + packets;
            for (long i = 0; i < packets; i++)
            {
                timestamp++;
                while (!in.tryAddPacket(timestamp * 3 + 1, timestamp))
                {
                    Thread.yield();
                }
            }
            while (arrived.get() < target)
            {
                Thread.onSpinWait();
            }
            final long wall = System.nanoTime() - wall0;
            System.out.printf("round %d: %.2f M packets/s, workers %.1f ns CPU per packet, adder %.1f ns%s%n", r,
                packets * 1e3 / wall, (cpu(threads, workers) - workers0) / (double)packets,
                (threads.getCurrentThreadCpuTime() - adder0) / (double)packets,
                agent.length == 0 ? "" :
                    String.format(", journal agent %.1f ns", (cpu(threads, agent) - agent0) / (double)packets));
        }
        graph.close();
        if (journalRoot != null)
        {
            Suite.deleteTree(journalRoot);
        }
        System.exit(0);
    }

    private static long cpu(final ThreadMXBean threads, final long[] ids)
    {
        long sum = 0;
        for (final long id : ids)
        {
            sum += threads.getThreadCpuTime(id);
        }
        return sum;
    }
}
