package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.scenario.Scenarios.awaitCondition;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code STEALING} executor is a pool (MediaPipe's thread pool): a node ready while its worker
 * is blocked in another node's call runs on an idle sibling; a node still never runs on two threads
 * at once, and its calls stay in timestamp order. A {@code PINNED} executor keeps each node on its
 * worker (docs/EXECUTORS.md).
 */
class WorkStealingTest
{
    private static final long AWAIT_MS = 20_000;

    /**
     * Two workers, four independent nodes (two per worker, whichever the placement): one blocks in
     * {@code process}; the other three, each given a packet while it blocks, all run, so the one
     * that shares the blocked node's worker ran on the other worker. Parked workers are woken to
     * steal; yielding ones poll their graph inputs, and a thief polls its victim's.
     */
    @ParameterizedTest
    @EnumSource(value = IdleKind.class, names = {"PARK", "YIELD"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aReadyNodeRunsOnTheIdleWorkerWhileItsOwnIsBlocked(final IdleKind idle) throws Exception
    {
        final CountDownLatch blocked = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Map<String, String> ranOn = new ConcurrentHashMap<>();
        final CountDownLatch othersRan = new CountDownLatch(3);
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, idle).scheduling(Scheduling.STEALING))
            .inputStream("a", "b", "c", "d")
            .outputStream("oa", "ob", "oc", "od");
        builder.node("blocker", n -> n.calculator(() -> new Calculator()
        {
            @Override
            public void process(final CalculatorContext ctx) throws Exception
            {
                ranOn.put("blocker", Thread.currentThread().getName());
                blocked.countDown();
                assertTrue(release.await(AWAIT_MS, TimeUnit.MILLISECONDS), "the test never released the blocker");
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }
        }).inputStream("a").outputStream("oa"));
        for (final String in : List.of("b", "c", "d"))
        {
            builder.node("free_" + in, n -> n.calculator(() -> new Calculator()
            {
                @Override
                public void process(final CalculatorContext ctx)
                {
                    ranOn.put(in, Thread.currentThread().getName());
                    othersRan.countDown();
                    ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
                }
            }).inputStream(in).outputStream("o" + in));
        }
        try (Graph graph = new Graph(builder.build()))
        {
            graph.start();
            graph.addPacket("a", 1L, 0);
            assertTrue(blocked.await(AWAIT_MS, TimeUnit.MILLISECONDS), "the blocker never ran");
            for (final String in : List.of("b", "c", "d"))
            {
                graph.addPacket(in, 2L, 0);
            }
            assertTrue(othersRan.await(AWAIT_MS, TimeUnit.MILLISECONDS),
                "a node stayed queued behind the blocked call; ran so far: " + ranOn + "\n" + graph.report());
            for (final String in : List.of("b", "c", "d"))
            {
                assertNotEquals(ranOn.get("blocker"), ranOn.get(in), "node free_" + in + " ran on the blocked thread");
            }
            release.countDown();
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
    }

    /**
     * Two chains and a gate on one {@code STEALING} executor of two workers. Each round the gate
     * blocks in a call while the chains take a few hundred packets: the chain nodes placed on the
     * gate's worker (at least two of the six) can only run on the other one meanwhile. Every node
     * checks that no other thread is in it and that its timestamps ascend; every packet comes out,
     * once and in order.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNodeNeverRunsOnTwoThreadsAtOnceAndKeepsItsOrder() throws Exception
    {
        final int rounds = 20;
        final int perRound = 300;
        final List<String> errors = syncList();
        final Map<String, Set<String>> threads = new ConcurrentHashMap<>();
        final Semaphore gateEntered = new Semaphore(0);
        final Semaphore gateRelease = new Semaphore(0);
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, IdleKind.PARK).scheduling(Scheduling.STEALING))
            .maxQueueSize(16)
            .inputStream("in1", "in2", "g")
            .outputStream("out1", "out2", "og");
        chain(builder, "in1", "p", "out1", errors, threads);
        chain(builder, "in2", "q", "out2", errors, threads);
        builder.node("gate", n -> n.calculator(() -> new Calculator()
        {
            @Override
            public void process(final CalculatorContext ctx) throws Exception
            {
                gateEntered.release();
                if (!gateRelease.tryAcquire(AWAIT_MS, TimeUnit.MILLISECONDS))
                {
                    errors.add("gate never released");
                }
                ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
            }
        }).inputStream("g").outputStream("og"));
        final AtomicLong out1 = new AtomicLong();
        final AtomicLong out2 = new AtomicLong();
        final String report;
        try (Graph graph = new Graph(builder.build()))
        {
            graph.observe("out1", p -> expectNext(out1, p.timestamp(), errors, "out1"));
            graph.observe("out2", p -> expectNext(out2, p.timestamp(), errors, "out2"));
            graph.start();
            for (int r = 0; r < rounds; r++)
            {
                graph.addPacket("g", (long)r, r);
                assertTrue(gateEntered.tryAcquire(AWAIT_MS, TimeUnit.MILLISECONDS), "the gate never ran");
                final long upTo = (long)(r + 1) * perRound;
                for (long ts = (long)r * perRound; ts < upTo; ts++)
                {
                    graph.addPacket("in1", ts, ts);
                    graph.addPacket("in2", ts, ts);
                }
                awaitCondition("round " + r + "'s packets through both chains while the gate blocks", AWAIT_MS,
                    () -> out1.get() == upTo && out2.get() == upTo);
                gateRelease.release();
            }
            report = graph.report();
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors);
        assertEquals((long)rounds * perRound, out1.get());
        assertEquals((long)rounds * perRound, out2.get());
        int awayFromHome = 0;
        for (final Map.Entry<String, Set<String>> e : threads.entrySet())
        {
            final String home = homeWorker(report, e.getKey());
            if (e.getValue().stream().anyMatch(thread -> !thread.equals(home)))
            {
                awayFromHome++;
            }
        }
        assertTrue(awayFromHome >= 2, "the gate's worker holds at least two of the six chain nodes, which ran on the " +
            "other worker while it blocked; threads by node: " + threads + "\n" + report);
    }

    /**
     * A {@code max_in_flight} node (its steps and calls on the executor's shared queues) between
     * stealable nodes on one {@code STEALING} executor: every packet comes out once and in order.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void maxInFlightNodesAndStolenNodesShareAnExecutor() throws Exception
    {
        final int packets = 5_000;
        final List<String> errors = syncList();
        final AtomicLong out = new AtomicLong();
        final GraphConfig config = GraphConfig.builder()
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(2, IdleKind.PARK).scheduling(Scheduling.STEALING))
            .maxQueueSize(8)
            .inputStream("in")
            .outputStream("out")
            .node("first", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("a"))
            .node("wide", n -> n.calculator("PassThroughCalculator").inputStream("a").outputStream("b").maxInFlight(2))
            .node("last", n -> n.calculator("PassThroughCalculator").inputStream("b").outputStream("out"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.observe("out", p -> expectNext(out, p.timestamp(), errors, "out"));
            graph.start();
            for (long ts = 0; ts < packets; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        assertEquals(List.of(), errors);
        assertEquals(packets, out.get());
    }

    /** {@code in} through three checking stages {@code prefix0..2} to {@code out}. */
    private static void chain(
        final GraphConfig.Builder builder, final String in, final String prefix, final String out,
        final List<String> errors, final Map<String, Set<String>> threads)
    {
        String upstream = in;
        for (int i = 0; i < 3; i++)
        {
            final String from = upstream;
            final String to = i == 2 ? out : prefix + i;
            final String name = prefix + "stage" + i;
            builder.node(name, n -> n.calculator(() -> checking(name, errors, threads)).inputStream(from).outputStream(to));
            upstream = to;
        }
    }

    /** A pass-through that fails the test if two threads are in it at once or its timestamps do not ascend. */
    private static Calculator checking(final String name, final List<String> errors, final Map<String, Set<String>> threads)
    {
        final Set<String> seen = threads.computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet());
        return new Calculator()
        {
            private final AtomicInteger inside = new AtomicInteger();
            private long last = Long.MIN_VALUE;

            @Override
            public void process(final CalculatorContext ctx)
            {
                if (inside.incrementAndGet() != 1)
                {
                    errors.add(name + ": two threads at once");
                }
                final long ts = ctx.inputTimestamp();
                if (ts <= last)
                {
                    errors.add(name + ": " + ts + " after " + last);
                }
                last = ts;
                seen.add(Thread.currentThread().getName());
                for (int spin = 0; spin < 200; spin++)
                {
                    Thread.onSpinWait(); // widens the window in which a second thread could enter
                }
                ctx.output(0).addLong(ctx.input(0).getLong(), ts);
                inside.decrementAndGet();
            }
        };
    }

    /** The worker {@code node} is placed on, from the report's line {@code   node [..., worker NAME]}. */
    private static String homeWorker(final String report, final String node)
    {
        for (final String line : report.split("\n"))
        {
            final String trimmed = line.trim();
            final int at = trimmed.indexOf(", worker ");
            if (trimmed.startsWith(node + " [") && at > 0)
            {
                return trimmed.substring(at + ", worker ".length(), trimmed.indexOf(']', at));
            }
        }
        throw new AssertionError("no line for node " + node + " in\n" + report);
    }

    private static void expectNext(final AtomicLong count, final long timestamp, final List<String> errors, final String stream)
    {
        if (timestamp != count.get())
        {
            errors.add(stream + ": " + timestamp + " where " + count.get() + " was due");
        }
        count.incrementAndGet();
    }

    /** The default stays pinned: each node runs on the one worker it was placed on. */
    @Test
    void executorsArePinnedUnlessSetOtherwise()
    {
        assertEquals(Scheduling.PINNED, ExecutorConfig.of(2, IdleKind.PARK).scheduling());
        assertEquals(Scheduling.STEALING, ExecutorConfig.of(2, IdleKind.PARK).scheduling(Scheduling.STEALING).scheduling());
        assertNotEquals(ExecutorConfig.of(2, IdleKind.PARK), ExecutorConfig.of(2, IdleKind.PARK).scheduling(Scheduling.STEALING));
    }
}
