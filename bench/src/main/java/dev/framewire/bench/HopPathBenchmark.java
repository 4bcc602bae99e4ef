package dev.framewire.bench;


import dev.framewire.bench.suite.Suite;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.run.Run;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.journal.JournalConfig;
import org.HdrHistogram.Histogram;
import org.jctools.queues.SpscArrayQueue;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The engine's own work in one B1 hop, measured on one thread: add a packet to the graph input,
 * then run the worker's duty cycle that takes it, calls the node and hands its output to the
 * observer, all on the benchmark's thread ({@link Run#startWithoutWorkerThreads()}). B1 measures
 * this work together with the transfers of cache lines between the cores, which put B1's floor at
 * about 115 ns or about 460 ns a hop as the host's two states come and go; here nothing crosses a
 * core, so the number is the instructions and stalls of the engine's path alone. Beside it, the
 * floor: one offer to and one poll from a JCTools SPSC queue, B1's floor on one thread. And the
 * same hop with the ASYNC journal, whose agent runs on a thread of its own, as in a real run: what
 * journaling adds to the adder's and the worker's path.
 *
 * <p>Two measures: {@link #hop()}, the whole of the work, what a change that removes work shows
 * in; and {@link #toObserver()}, the part before the observer's call, which is what B1's latency
 * waits for: a change that only moves work past the observer shows there alone. Its times are
 * printed per iteration, as {@code (to observer, ...: p50 ..., mean ...)}.
 *
 * <p>It drives the runtime ({@code dev.framewire.core.internal.*}) directly: a {@code Run} (what a
 * {@code Graph} is a facade over) started without worker threads, its worker's duty cycle, and a
 * graph input's add, the work a {@code GraphInputHandle.tryAddPacket} does. Core exports those
 * packages to this module alone ({@code dev.framewire.bench}, the jar's automatic name); on the
 * class path, where the benchmarks jar runs, they are public classes.
 *
 * <p>Run {@code hop} with JMH's {@code -gc true} as well: the collection before each iteration
 * promotes the graph to the old generation, as a service's first collections do, and there G1's
 * card-marking barrier fences each reference store on the path whose value lies in another region
 * (see docs/ARCHITECTURE.md, "Rules the code keeps"). {@link #idleCycle()} is one duty cycle of
 * an idle worker. With {@code -p stages=4} the graph is B2's 4-stage chain on one worker, and a
 * hop is a packet's way through all four: three of its nodes go through the worker's heap.
 *
 * <pre>
 *   java @.mvn/jvm.config -jar bench/target/benchmarks.jar HopPathBenchmark -jvmArgsPrepend @.mvn/jvm.config
 *   java @.mvn/jvm.config -jar bench/target/benchmarks.jar HopPathBenchmark.hop -gc true -jvmArgsPrepend @.mvn/jvm.config
 *   java @.mvn/jvm.config -jar bench/target/benchmarks.jar HopPathBenchmark.hop -p contender=FRAMEWIRE -p stages=4 -gc true \
 *       -jvmArgsPrepend @.mvn/jvm.config
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(3)
public class HopPathBenchmark
{
    /** SPSC: the floor; FRAMEWIRE: the B1 hop's graph; ASYNC_JOURNAL: the same with an ASYNC journal. */
    @Param({"SPSC", "FRAMEWIRE", "ASYNC_JOURNAL"})
    public String contender;

    /**
     * Nodes in the chain, all on the one worker: 1 is B1's hop; 4 is B2's chain, where the first
     * node is polled and the other three are queued on the worker's heap by the node before
     * (SPSC's row ignores it).
     */
    @Param({"1"})
    public int stages;

    private Run graph;
    private GraphInput in;
    private Worker worker;
    private Path journalRoot;
    private final SpscArrayQueue<long[]> queue = new SpscArrayQueue<>(1024);
    private final long[] carrier = new long[1];
    private long timestamp;
    /** What the observer saw last: written by the worker's duty cycle, which runs on this thread. */
    private long seen;
    /** Whether the observer reads the clock: only for {@link #toObserver()}. */
    private boolean stamps;
    /** When the observer saw it, for {@link #toObserver()}. */
    private long seenAt;
    /** {@link #toObserver()}'s times, ns; printed and reset at the end of each iteration. */
    private final Histogram toObserver = new Histogram(TimeUnit.MILLISECONDS.toNanos(10), 3);

    @Setup(Level.Trial)
    public void setUp(final BenchmarkParams params) throws IOException
    {
        stamps = params.getBenchmark().endsWith(".toObserver");
        if ("SPSC".equals(contender))
        {
            return;
        }
        if (stages < 1)
        {
            throw new IllegalArgumentException("stages " + stages + ": at least 1");
        }
        final GraphConfig.Builder builder = GraphConfig.builder().inputStream("in");
        String upstream = "in";
        for (int i = 0; i < stages; i++)
        {
            final String from = upstream;
            final String to = i == stages - 1 ? "out" : "s" + i;
            builder.node(i == 0 ? "hop" : "hop" + i, n -> n.calculator("PassThroughCalculator").inputStream(from).outputStream(to));
            upstream = to;
        }
        builder.outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.BUSY_SPIN))
            .maxQueueSize(1024)
            .queueHardCap(4096);
        if ("ASYNC_JOURNAL".equals(contender))
        {
            journalRoot = Files.createTempDirectory("framewire-hop-path");
            builder.journal(new JournalConfig().directory(journalRoot).mode(JournalConfig.Mode.ASYNC));
        }
        else if (!"FRAMEWIRE".equals(contender))
        {
            throw new IllegalArgumentException("unknown contender '" + contender + "': use SPSC, FRAMEWIRE or ASYNC_JOURNAL");
        }
        graph = new Run(builder.build(), null);
        graph.observe("out", packet ->
        {
            seen = packet.getLong();
            if (stamps)
            {
                seenAt = System.nanoTime();
            }
        });
        final List<Worker> workers = graph.startWithoutWorkerThreads();
        worker = workers.get(0);
        worker.onStart();
        in = graph.inputs.graphInput("in");
    }

    /**
     * One hop: the add, then duty cycles until the observer has the packet (one, when the node is
     * idle and open: the cycle polls the input, queues the node and runs it).
     */
    @Benchmark
    public long hop()
    {
        if (graph == null)
        {
            return spscHop();
        }
        final long ts = ++timestamp;
        Run.tryAdd(in, ts, InputQueue.LONG, ts);
        while (seen != ts)
        {
            worker.doWork();
        }
        return seen;
    }

    /**
     * The part of a hop that comes before the packet reaches the observer, which is what B1's
     * latency waits for: from before the add to the observer's call, one clock read each, recorded
     * per hop (the clock reads' own cost is in every row alike, SPSC's too). The work after the
     * observer (the node's return, its idle check) is in {@link #hop()}'s time and not in this one,
     * so a change that moves work past the observer shows here and not there.
     */
    @Benchmark
    public long toObserver()
    {
        final long ts = ++timestamp;
        final long began = System.nanoTime();
        if (graph == null)
        {
            spscHop(ts);
            seenAt = System.nanoTime();
        }
        else
        {
            Run.tryAdd(in, ts, InputQueue.LONG, ts);
            while (seen != ts)
            {
                worker.doWork();
            }
        }
        toObserver.recordValue(Math.min(seenAt - began, toObserver.getHighestTrackableValue()));
        return seen;
    }

    /**
     * One duty cycle of an idle worker, the loop B1's worker spins in between packets: a packet
     * waits for half of it on average before the worker sees it. SPSC's row is one poll of its
     * empty queue.
     */
    @Benchmark
    public long idleCycle()
    {
        if (graph == null)
        {
            return queue.poll() == null ? 0 : 1;
        }
        return worker.doWork();
    }

    private long spscHop()
    {
        return spscHop(++timestamp);
    }

    private long spscHop(final long ts)
    {
        carrier[0] = ts;
        queue.offer(carrier);
        long[] polled;
        while ((polled = queue.poll()) == null)
        {
            Thread.onSpinWait();
        }
        seen = polled[0];
        return seen;
    }

    @TearDown(Level.Iteration)
    public void printToObserver()
    {
        if (stamps && toObserver.getTotalCount() > 0)
        {
            System.out.printf("%n(to observer, %s: p50 %d ns, mean %.1f ns, %d hops)%n", contender,
                toObserver.getValueAtPercentile(50), toObserver.getMean(), toObserver.getTotalCount());
            toObserver.reset();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        if (graph == null)
        {
            return;
        }
        try
        {
            graph.inputs.closeInput(in);
            for (int cycles = 0; cycles < 1_000_000 && !graph.awaitDone(0, TimeUnit.NANOSECONDS); cycles++)
            {
                worker.doWork();
            }
            if (!graph.awaitDone(0, TimeUnit.NANOSECONDS))
            {
                throw new IllegalStateException("the hop's graph did not finish:\n" + graph.report());
            }
            graph.waitUntilDone();
        }
        finally
        {
            graph.close();
            if (journalRoot != null)
            {
                Suite.deleteTree(journalRoot);
            }
        }
    }
}
