package dev.framewire.bench.suite;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.framewire.bench.core.baseline.LockedEngine;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;
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

import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * B2: throughput of a chain of four pass-through stages, every worker parked when idle. The
 * benchmark thread offers longs as fast as the chain accepts them (yielding when refused: at most
 * 1024 in flight in every contender); one op is one packet accepted; after every iteration it
 * waits for all of them at the end and checks the count and the sum.
 *
 * <ul>
 *   <li>{@code /1}, fused: all four stages on one worker. Framewire: four nodes on one worker,
 *       each hop through the node's input queue. Disruptor: one handler running the four stages
 *       in turn. Baseline: {@link LockedEngine} with four stages on one worker. Executor: one
 *       thread, each stage a task {@code execute}d after the previous one.</li>
 *   <li>{@code /2}: stages 0 and 1 on one worker, 2 and 3 on another, one thread boundary.
 *       Framewire: two executors of one worker. Disruptor: two handlers, the second after the
 *       first. Baseline: two {@link LockedEngine}s, the first's sink adding to the second.
 *       Executor: two one-thread executors.</li>
 * </ul>
 * Three threads at most, two of them parked when idle.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B2ChainThroughputBenchmark extends PushHarness
{
    static final int STAGES = 4;

    @Param({"FRAMEWIRE/1", "FRAMEWIRE_RUN16/1", "FRAMEWIRE_BATCH128/1", "DISRUPTOR/1", "LOCKED/1", "TPE/1",
        "FRAMEWIRE/2", "FRAMEWIRE_RUN16/2", "FRAMEWIRE_BATCH128/2", "DISRUPTOR/2", "LOCKED/2", "TPE/2"})
    public String contender;

    private Line line;

    @Setup(Level.Trial)
    public void setUp()
    {
        HostState.record("B2ChainThroughput", contender);
        final int groups = Integer.parseInt(contender.substring(contender.indexOf('/') + 1));
        switch (contender.substring(0, contender.indexOf('/')))
        {
            case "FRAMEWIRE":
                line = new GraphLine(framewireChain(groups, 1, 1), arrivals);
                break;
            case "FRAMEWIRE_STEALING":
                line = new GraphLine(framewireChain(groups, 1, 1, Scheduling.STEALING), arrivals);
                break;
            case "FRAMEWIRE_RUN16":
                line = new GraphLine(framewireChain(groups, 16, 1), arrivals);
                break;
            case "FRAMEWIRE_BATCH128":
                line = new GraphLine(framewireChain(groups, 1, Suite.IN_FLIGHT / 8), arrivals);
                break;
            case "DISRUPTOR":
                line = new DisruptorChain(groups, arrivals);
                break;
            case "LOCKED":
                line = new LockedChain(groups, arrivals);
                break;
            case "TPE":
                line = new ExecutorChain(groups, arrivals);
                break;
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
        sender = new Sender(line::offer);
    }

    @Override
    String contender()
    {
        return contender;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        line.close();
    }

    /**
     * Four {@code PassThroughCalculator} nodes; {@code /2} puts two on each of two executors.
     * {@code FRAMEWIRE} runs with MediaPipe's one input set per run; {@code FRAMEWIRE_RUN16} lets a
     * node process up to 16 ready input sets per run ({@code input_sets_per_run});
     * {@code FRAMEWIRE_BATCH128} runs MediaPipe's scheduling but hands the held-back adder room
     * once per 128 packets, not once per packet ({@code room_batch}, an eighth of the queue limit).
     */
    static GraphConfig framewireChain(final int groups, final int inputSetsPerRun, final int roomBatch)
    {
        return framewireChain(groups, inputSetsPerRun, roomBatch, Scheduling.PINNED);
    }

    /**
     * {@link #framewireChain(int, int, int)} on executors of {@code scheduling}, placed as with
     * {@code PINNED}; {@code FRAMEWIRE_STEALING} (for {@code -p}, not in the list: its executors
     * have one worker each, which run as {@code PINNED}; docs/results/executors.md).
     */
    static GraphConfig framewireChain(
        final int groups, final int inputSetsPerRun, final int roomBatch, final Scheduling scheduling)
    {
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputSetsPerRun(inputSetsPerRun)
            .roomBatch(roomBatch)
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK).scheduling(scheduling))
            .maxQueueSize(Suite.IN_FLIGHT)
            .queueHardCap(8 * Suite.IN_FLIGHT);
        if (groups == 2)
        {
            builder.executor("second", ExecutorConfig.of(1, IdleKind.PARK).scheduling(scheduling));
        }
        String upstream = "in";
        for (int i = 0; i < STAGES; i++)
        {
            final String in = upstream;
            final String out = i == STAGES - 1 ? "out" : "s" + i;
            final String executor = groups == 2 && i >= STAGES / 2 ? "second" : GraphConfig.DEFAULT_EXECUTOR;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in)
                .outputStream(out).executor(executor));
            upstream = out;
        }
        return builder.build();
    }

    /** One handler running the stages {@code from} to {@code to - 1}; the last one ends the line. */
    static final class DisruptorChain implements Line
    {
        private final Disruptor<Suite.LongEvent> disruptor;
        private final RingBuffer<Suite.LongEvent> ring;

        DisruptorChain(final int groups, final Arrivals arrivals)
        {
            disruptor = new Disruptor<>(Suite.LongEvent::new, Suite.IN_FLIGHT, Suite.daemonThreads("disruptor-chain"),
                ProducerType.SINGLE, Suite.waitStrategy(IdleKind.PARK));
            if (groups == 1)
            {
                disruptor.handleEventsWith((e, s, end) -> finish(e, stages(e, STAGES), arrivals));
            }
            else
            {
                disruptor.handleEventsWith((e, s, end) -> stages(e, STAGES / 2))
                    .then((e, s, end) -> finish(e, stages(e, STAGES / 2), arrivals));
            }
            ring = disruptor.start();
        }

        /** The stages' work: pass the value on, counting that each stage saw it. */
        private static Suite.LongEvent stages(final Suite.LongEvent event, final int count)
        {
            for (int i = 0; i < count; i++)
            {
                event.stages++;
            }
            return event;
        }

        private static void finish(final Suite.LongEvent event, final Suite.LongEvent same, final Arrivals arrivals)
        {
            if (event.stages != STAGES)
            {
                throw new IllegalStateException(event.stages + " stages saw value " + event.value);
            }
            arrivals.accept(event.value);
        }

        @Override
        public boolean offer(final long value, final long timestamp)
        {
            return Suite.offerLong(ring, value);
        }

        @Override
        public void close() throws Exception
        {
            disruptor.shutdown(10, TimeUnit.SECONDS);
        }
    }

    /** The seeds' design: one {@link LockedEngine} of four stages, or two of two chained. */
    static final class LockedChain implements Line
    {
        private final LockedEngine first;
        private final LockedEngine second;

        LockedChain(final int groups, final Arrivals arrivals)
        {
            final int limit = Suite.IN_FLIGHT;
            if (groups == 1)
            {
                second = null;
                first = new LockedEngine(STAGES, 1, IdleKind.PARK, limit, 8 * limit,
                    (timestamp, value, word) -> arrivals.accept(word));
            }
            else
            {
                second = new LockedEngine(STAGES / 2, 1, IdleKind.PARK, limit, 8 * limit,
                    (timestamp, value, word) -> arrivals.accept(word));
                first = new LockedEngine(STAGES / 2, 1, IdleKind.PARK, limit, 8 * limit,
                    (timestamp, value, word) ->
                    {
                        while (!second.tryAdd(timestamp, LockedEngine.LONG, word))
                        {
                            Thread.yield();
                        }
                    });
            }
        }

        @Override
        public boolean offer(final long value, final long timestamp)
        {
            return first.tryAdd(timestamp, LockedEngine.LONG, value);
        }

        @Override
        public void close() throws Exception
        {
            try
            {
                first.close();
            }
            finally
            {
                if (second != null)
                {
                    second.close();
                }
            }
        }
    }

    /** One-thread executors; a packet is a reusable task {@code execute}d once per stage. */
    static final class ExecutorChain implements Line
    {
        private final ThreadPoolExecutor[] executors;
        private final Suite.Carriers<Task> tasks;
        private final Arrivals arrivals;
        private long sent;

        static final class Task implements Runnable
        {
            ThreadPoolExecutor[] executors;
            Arrivals arrivals;
            long value;
            int stage;

            @Override
            public void run()
            {
                // the stage's work: pass the value on
                final int next = ++stage;
                if (next == STAGES)
                {
                    arrivals.accept(value);
                }
                else
                {
                    executors[next * executors.length / STAGES].execute(this);
                }
            }
        }

        ExecutorChain(final int groups, final Arrivals arrivals)
        {
            this.arrivals = arrivals;
            executors = Suite.executors("tpe-chain-", groups);
            tasks = new Suite.Carriers<>(Task::new);
        }

        @Override
        public boolean offer(final long value, final long timestamp)
        {
            if (sent - arrivals.count() >= Suite.IN_FLIGHT)
            {
                return false;
            }
            final Task task = tasks.next();
            task.executors = executors;
            task.arrivals = arrivals;
            task.value = value;
            task.stage = 0;
            sent++;
            executors[0].execute(task);
            return true;
        }

        @Override
        public void close() throws Exception
        {
            Suite.shutdown(executors);
        }
    }
}
