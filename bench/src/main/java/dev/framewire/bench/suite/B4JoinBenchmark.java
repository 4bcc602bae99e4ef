package dev.framewire.bench.suite;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * B4: a 2-input join under the default input policy, as a diamond: the value goes to two
 * pass-through branches, and a join node takes both packets of a timestamp together and emits
 * their sum. Throughput, every worker parked when idle; one op is one packet accepted, at most
 * 1024 in flight; after every iteration the sum of the joined values is checked (each is 2v).
 *
 * <ul>
 *   <li>Framewire: nodes {@code a}, {@code b} ({@code PassThroughCalculator}) and {@code join}
 *       (default policy: ready when the timestamp is settled on both inputs), on one worker
 *       ({@code /1}) or two ({@code /2}).</li>
 *   <li>Disruptor: the join is the Disruptor's diamond, {@code handleEventsWith(a, b).then(join)}
 *       (joined by sequence), three threads ({@code /3}); or one handler doing all three
 *       ({@code /1}).</li>
 *   <li>Executor: tasks {@code a} and {@code b}, the last of them to finish (an atomic count)
 *       executes {@code join}; on one executor ({@code /1}) or three ({@code /3}).</li>
 *   <li>The seeds' baseline ({@code LockedEngine}) is a line engine and has no join: not run.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class B4JoinBenchmark
{
    @Param({"FRAMEWIRE/1", "FRAMEWIRE_STEALING/1", "DISRUPTOR/1", "TPE/1", "FRAMEWIRE/2", "FRAMEWIRE_STEALING/2",
        "DISRUPTOR/3", "TPE/3"})
    public String contender;

    private final Arrivals arrivals = new Arrivals();
    private Line line;
    private long sent;
    private long expectedSum;

    @Setup(Level.Trial)
    public void setUp()
    {
        HostState.record("B4Join", contender);
        final int threads = Integer.parseInt(contender.substring(contender.indexOf('/') + 1));
        switch (contender.substring(0, contender.indexOf('/')))
        {
            case "FRAMEWIRE":
                line = new GraphLine(framewireJoin(threads), arrivals);
                break;
            case "FRAMEWIRE_STEALING":
                line = new GraphLine(framewireJoin(threads, Scheduling.STEALING), arrivals);
                break;
            case "DISRUPTOR":
                line = new DisruptorJoin(threads, arrivals);
                break;
            case "TPE":
                line = new ExecutorJoin(threads, arrivals);
                break;
            default:
                throw new IllegalArgumentException("unknown contender " + contender);
        }
    }

    @Benchmark
    public long push()
    {
        final long n = ++sent;
        final long value = n * 3 + 1;
        expectedSum += 2 * value;
        while (!line.offer(value, n))
        {
            Thread.yield();
        }
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        arrivals.verify(contender, sent, expectedSum);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        line.close();
    }

    /** Emits the sum of its two long inputs; fails when one is missing (the default policy never does that here). */
    static final class SumCalculator implements Calculator
    {
        @Override
        public void process(final CalculatorContext ctx)
        {
            if (ctx.input(0).isEmpty() || ctx.input(1).isEmpty())
            {
                throw new IllegalStateException("join at " + ctx.inputTimestamp() + " is missing an input");
            }
            ctx.output(0).addLong(ctx.input(0).getLong() + ctx.input(1).getLong(), ctx.inputTimestamp());
        }
    }

    /** The graph input into two pass-throughs joined by {@link SumCalculator}, on {@code workers} parked workers. */
    static GraphConfig framewireJoin(final int workers)
    {
        return framewireJoin(workers, Scheduling.PINNED);
    }

    /** {@link #framewireJoin(int)} with the executor's workers scheduling as {@code scheduling} says. */
    static GraphConfig framewireJoin(final int workers, final Scheduling scheduling)
    {
        return GraphConfig.builder()
            .inputStream("in")
            .node("a", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("a"))
            .node("b", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("b"))
            .node("join", n -> n.calculator(SumCalculator::new).inputStream("a", "b").outputStream("out"))
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, IdleKind.PARK).scheduling(scheduling))
            .maxQueueSize(Suite.IN_FLIGHT)
            .queueHardCap(8 * Suite.IN_FLIGHT)
            .build();
    }

    static final class DisruptorJoin implements Line
    {
        private final Disruptor<Suite.LongEvent> disruptor;
        private final RingBuffer<Suite.LongEvent> ring;

        DisruptorJoin(final int threads, final Arrivals arrivals)
        {
            disruptor = new Disruptor<>(Suite.LongEvent::new, Suite.IN_FLIGHT, Suite.daemonThreads("disruptor-join"),
                ProducerType.SINGLE, Suite.waitStrategy(IdleKind.PARK));
            if (threads == 1)
            {
                disruptor.handleEventsWith((e, s, end) ->
                {
                    e.a = e.value;
                    e.b = e.value;
                    arrivals.accept(e.a + e.b);
                });
            }
            else
            {
                // a and b write different fields of the event; the join reads both after them.
                disruptor.handleEventsWith((e, s, end) -> e.a = e.value, (e, s, end) -> e.b = e.value)
                    .then((e, s, end) -> arrivals.accept(e.a + e.b));
            }
            ring = disruptor.start();
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

    static final class ExecutorJoin implements Line
    {
        private final ThreadPoolExecutor[] executors;
        private final Suite.Carriers<Diamond> diamonds;
        private final Arrivals arrivals;
        private long sent;

        /** One packet's three tasks, reused. */
        static final class Diamond
        {
            final AtomicInteger pending = new AtomicInteger();
            ThreadPoolExecutor joinExecutor;
            Arrivals arrivals;
            long value;
            long a;
            long b;

            final Runnable join = () -> arrivals.accept(a + b);
            final Runnable taskA = () ->
            {
                a = value;
                arrive();
            };
            final Runnable taskB = () ->
            {
                b = value;
                arrive();
            };

            private void arrive()
            {
                // the decrement publishes a (or b) to whichever branch finishes last
                if (pending.decrementAndGet() == 0)
                {
                    joinExecutor.execute(join);
                }
            }
        }

        ExecutorJoin(final int threads, final Arrivals arrivals)
        {
            this.arrivals = arrivals;
            executors = Suite.executors("tpe-join-", threads);
            diamonds = new Suite.Carriers<>(Diamond::new);
        }

        @Override
        public boolean offer(final long value, final long timestamp)
        {
            if (sent - arrivals.count() >= Suite.IN_FLIGHT)
            {
                return false;
            }
            final Diamond d = diamonds.next();
            d.joinExecutor = executors[executors.length - 1];
            d.arrivals = arrivals;
            d.value = value;
            d.pending.set(2);
            sent++;
            executors[0].execute(d.taskA);
            executors[executors.length > 1 ? 1 : 0].execute(d.taskB);
            return true;
        }

        @Override
        public void close() throws Exception
        {
            Suite.shutdown(executors);
        }
    }
}
