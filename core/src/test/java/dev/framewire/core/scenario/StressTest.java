package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.scenario.Scenarios.startThread;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node state machine and the MPSC hand-off under concurrent producers: several user threads
 * add to several graph inputs at once, feeding nodes spread over two workers, with small queue
 * limits so adders wait and wake often. Every packet must be processed exactly once, and in order
 * per stream. Bounded in time: a few seconds in all.
 */
class StressTest
{
    private static final int STREAMS = 4;

    /** Checks its input is the stream's next value, then passes it on; counts per stream. */
    private static final class InOrder implements Calculator
    {
        private final int stream;
        private final AtomicLongArray processed;
        private final List<String> errors;
        private long expected;

        InOrder(final int stream, final AtomicLongArray processed, final List<String> errors)
        {
            this.stream = stream;
            this.processed = processed;
            this.errors = errors;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long value = ctx.input(0).getLong();
            if (value != expected || ctx.inputTimestamp() != expected)
            {
                errors.add("stream " + stream + ": expected " + expected + ", got " + value + " at " +
                    ctx.inputTimestamp());
            }
            expected = value + 1;
            processed.incrementAndGet(stream);
            if ((value & 63) == 0)
            {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(20_000));
            }
            ctx.output(0).addLong(value, ctx.inputTimestamp());
        }
    }

    /** A default-policy join of every stream: each timestamp must come once, with every stream's packet. */
    private static final class JoinAll implements Calculator
    {
        private final AtomicLong sets;
        private final List<String> errors;
        private long expected;

        JoinAll(final AtomicLong sets, final List<String> errors)
        {
            this.sets = sets;
            this.errors = errors;
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final long ts = ctx.inputTimestamp();
            if (ts != expected)
            {
                errors.add("join: expected input set " + expected + ", got " + ts);
            }
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                if (ctx.input(i).isEmpty() || ctx.input(i).getLong() != ts)
                {
                    errors.add("join: input " + i + " at " + ts + " is " + Scenarios.show(ctx.input(i)));
                }
            }
            expected = ts + 1;
            sets.incrementAndGet();
        }
    }

    private static GraphConfig config(
        final IdleKind idle, final AtomicLongArray processed, final AtomicLong sets, final List<String> errors)
    {
        // Graph inputs have a limit of 4, so adders wait and are woken all the time. The join's
        // queues have none: its inputs are fed by independent threads, and one descheduled adder
        // would otherwise hold the others back until deadlock avoidance raised their limits (as
        // MediaPipe does) towards the hard cap.
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, idle))
            .maxQueueSize(4)
            .queueHardCap(1 << 15);
        final String[] passed = new String[STREAMS];
        for (int s = 0; s < STREAMS; s++)
        {
            final int stream = s;
            passed[s] = "p" + s;
            builder.streamQueueSize("p" + s, -1);
            builder.inputStream("in" + s)
                .node("order" + s, n -> n.calculator(() -> new InOrder(stream, processed, errors))
                    .inputStream("in" + stream).outputStream("p" + stream));
        }
        return builder
            .node("join", n -> n.calculator(() -> new JoinAll(sets, errors)).inputStream(passed))
            .build();
    }

    private static void stress(final IdleKind idle, final int packets) throws Exception
    {
        final AtomicLongArray processed = new AtomicLongArray(STREAMS);
        final AtomicLong sets = new AtomicLong();
        final List<String> errors = syncList();
        final List<Throwable> thrown = syncList();
        try (Graph graph = new Graph(config(idle, processed, sets, errors)))
        {
            graph.start();
            final List<Thread> adders = new ArrayList<>();
            for (int s = 0; s < STREAMS; s++)
            {
                final String stream = "in" + s;
                final boolean refusing = s % 2 == 1;
                adders.add(startThread("adder-" + s, () ->
                {
                    for (long ts = 0; ts < packets; ts++)
                    {
                        if (refusing)
                        {
                            // refuse mode: retry until taken, as a live source dropping nothing would
                            while (!graph.tryAddPacket(stream, ts, ts))
                            {
                                Thread.yield();
                            }
                        }
                        else
                        {
                            graph.addPacket(stream, ts, ts);
                        }
                    }
                    graph.closeInput(stream);
                }, thrown));
            }
            // bounded waits well inside the test's timeout, so that a hang fails here with the
            // graph's report and the adders' stacks (what waits on what), not as a bare timeout
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (final Thread adder : adders)
            {
                adder.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            for (final Thread adder : adders)
            {
                assertTrue(!adder.isAlive(), () -> adder.getName() + " did not finish in 20 s, at " +
                    java.util.Arrays.toString(adder.getStackTrace()) + "\n" + graph.report());
            }
            assertTrue(graph.awaitDone(20, TimeUnit.SECONDS), graph.report());
            graph.waitUntilDone(); // a failed run throws here, with its cause, before the adders' errors
            assertEquals(List.of(), thrown);
        }
        assertEquals(List.of(), errors.size() > 10 ? errors.subList(0, 10) : errors);
        for (int s = 0; s < STREAMS; s++)
        {
            assertEquals(packets, processed.get(s), "stream " + s);
        }
        assertEquals(packets, sets.get());
    }

    @Test
    @Timeout(150)
    void concurrentAddersOnParkingWorkers() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            stress(IdleKind.PARK, 20_000);
        }
    }

    @Test
    @Timeout(150)
    void concurrentAddersOnYieldingWorkers() throws Exception
    {
        for (int round = 0; round < 3; round++)
        {
            stress(IdleKind.YIELD, 20_000);
        }
    }

    @Test
    @Timeout(60)
    void concurrentPayloadAddsAreEachReleasedOnce() throws Exception
    {
        // payloads from several threads through a fan-out of two consumers per stream: every
        // reference counted right, or the pool's close (the leak check) or a double release fails
        final AtomicLong consumed = new AtomicLong();
        final GraphConfig.Builder builder = GraphConfig.builder()
            .executor("default", ExecutorConfig.of(2, IdleKind.PARK))
            .maxQueueSize(4);
        for (int s = 0; s < STREAMS; s++)
        {
            final String in = "in" + s;
            builder.inputStream(in)
                .node("left" + s, n -> n.calculator(() -> ctx ->
                {
                    ctx.input(0).payload().buffer().getLong(0);
                    consumed.incrementAndGet();
                }).inputStream(in))
                .node("right" + s, n -> n.calculator(() -> ctx ->
                {
                    final Payload mine = ctx.input(0).writablePayload();
                    mine.mutableBuffer().putLong(0, -1);
                    consumed.incrementAndGet();
                }).inputStream(in));
        }
        final int packets = 5_000;
        final List<Throwable> thrown = syncList();
        try (Graph graph = new Graph(builder.build()))
        {
            graph.start();
            final List<Thread> adders = new ArrayList<>();
            for (int s = 0; s < STREAMS; s++)
            {
                final String stream = "in" + s;
                adders.add(startThread("adder-" + s, () ->
                {
                    for (long ts = 0; ts < packets; ts++)
                    {
                        final Payload payload = graph.pool().acquire(256);
                        payload.mutableBuffer().putLong(0, ts);
                        graph.addPacket(stream, payload, ts);
                    }
                    graph.closeInput(stream);
                }, thrown));
            }
            for (final Thread adder : adders)
            {
                adder.join(TimeUnit.SECONDS.toMillis(30));
            }
            graph.waitUntilDone();
            assertEquals(List.of(), thrown);
            assertEquals(graph.pool().acquires(), graph.pool().releases(), graph.pool().leakReport());
        }
        assertEquals(2L * STREAMS * packets, consumed.get());
    }
}
