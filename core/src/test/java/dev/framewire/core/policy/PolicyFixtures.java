package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Graph;
import dev.framewire.core.Input;
import dev.framewire.core.Timestamp;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Shared pieces of the input-policy tests. Everything goes through the public API, as an embedding
 * user would: these tests live outside {@code dev.framewire.core} on purpose.
 *
 * <p>An input set is recorded as text, exactly: {@code "ts: x0 x1 ..."} where each input is
 * {@code value@timestamp} when it holds a packet, or {@code _@timestamp} when it is empty (the
 * timestamp an empty input carries is the highest one settled on its stream). Payload values are
 * the {@code long} written at offset 0 of a 4x4 GRAY8 frame, so every test moves off-heap memory
 * and {@link Graph#close()} (which closes the graph's own pool) is the leak check.
 */
final class PolicyFixtures
{
    /** How long any wait on the graph may take before the test fails: far above any real run. */
    static final long WAIT_MILLIS = 10_000;

    private PolicyFixtures()
    {
    }

    /** A 4x4 GRAY8 frame from the graph's pool holding {@code value} at offset 0. */
    static Payload frame(final Graph graph, final long value)
    {
        final Payload frame = graph.pool().acquireFrame(4, 4, PixelFormat.GRAY8);
        frame.mutableBuffer().putLong(0, value);
        return frame;
    }

    /** Adds a frame holding {@code timestamp} to a graph input at {@code timestamp}. */
    static void addFrame(final Graph graph, final String stream, final long timestamp) throws InterruptedException
    {
        graph.addPacket(stream, frame(graph, timestamp), timestamp);
    }

    /** Adds a frame holding {@code value} to a graph input at {@code timestamp}. */
    static void addFrame(final Graph graph, final String stream, final long value, final long timestamp)
        throws InterruptedException
    {
        graph.addPacket(stream, frame(graph, value), timestamp);
    }

    /** A packet's value as text: a frame's long, a boxed primitive, or the object. */
    static String valueOf(final Object value)
    {
        if (value instanceof Payload)
        {
            return Long.toString(((Payload)value).buffer().getLong(0));
        }
        return String.valueOf(value);
    }

    /** One input of the current input set as text. */
    static String show(final Input input)
    {
        return (input.isEmpty() ? "_" : valueOf(input.value())) + "@" + Timestamp.toString(input.timestamp());
    }

    /** The current input set as text: {@code "ts: x0 x1 ..."}. */
    static String show(final CalculatorContext ctx)
    {
        final StringBuilder sb = new StringBuilder().append(Timestamp.toString(ctx.inputTimestamp())).append(':');
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            sb.append(' ').append(show(ctx.input(i)));
        }
        return sb.toString();
    }

    /** A list calculators add to on their workers and the test reads. */
    static <T> List<T> syncList()
    {
        return Collections.synchronizedList(new ArrayList<>());
    }

    /** A copy of a synchronized list, taken under its lock. */
    static <T> List<T> snapshot(final List<T> list)
    {
        synchronized (list)
        {
            return new ArrayList<>(list);
        }
    }

    /** Takes (and removes) what a synchronized list holds. */
    static <T> List<T> drain(final List<T> list)
    {
        synchronized (list)
        {
            final List<T> copy = new ArrayList<>(list);
            list.clear();
            return copy;
        }
    }

    /** Waits for a condition, polling every millisecond, failing with {@code what} after {@link #WAIT_MILLIS}. */
    static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after " + WAIT_MILLIS + " ms waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** Takes the next value a node reported, failing after {@link #WAIT_MILLIS}. */
    static long next(final BlockingQueue<Long> reports, final String what) throws InterruptedException
    {
        final Long value = reports.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        if (value == null)
        {
            fail("timed out after " + WAIT_MILLIS + " ms waiting for " + what);
        }
        return value;
    }

    /**
     * Waits until every worker of the graph is paused (a worker pauses after its current call), so
     * that packets added now queue up untouched until {@link Graph#resume()}.
     */
    static void pauseAndWait(final Graph graph)
    {
        graph.pause();
        await("every worker to pause", () -> allWorkersPaused(graph.report()));
    }

    private static boolean allWorkersPaused(final String report)
    {
        final int at = report.indexOf("workers:\n");
        assertTrue(at >= 0, report);
        int workers = 0;
        int paused = 0;
        for (final String line : report.substring(at + "workers:\n".length()).split("\n"))
        {
            if (line.startsWith("  framewire-"))
            {
                workers++;
                paused += line.contains("[paused]") ? 1 : 0;
            }
        }
        return workers > 0 && workers == paused;
    }

    /** Asserts the recorded lines and forgets them, so the next step checks only what it caused. */
    static void assertDrained(final List<String> expected, final List<String> log, final String when)
    {
        assertEquals(expected, drain(log), when);
    }

    /**
     * A calculator that records every input set ({@link #show(CalculatorContext)}) and its close
     * ("close"), and optionally passes input {@code i} to output {@code i} (payloads by reference).
     */
    static class Recorder implements Calculator
    {
        private final List<String> log;
        private boolean forward;
        private boolean offset;
        private boolean processBounds;

        Recorder(final List<String> log)
        {
            this.log = log;
        }

        /** Passes input i to output i. */
        Recorder forwarding()
        {
            this.forward = true;
            return this;
        }

        /** Declares offset 0 (output bounds follow input bounds). */
        Recorder withOffset()
        {
            this.offset = true;
            return this;
        }

        /** Asks for bound-only calls (MediaPipe's ProcessTimestampBounds). */
        Recorder processingBounds()
        {
            this.processBounds = true;
            return this;
        }

        @Override
        public void contract(final Contract contract)
        {
            contract.processTimestampBounds(processBounds);
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            if (offset)
            {
                ctx.setOffset(0);
            }
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            log.add(show(ctx));
            if (forward)
            {
                for (int i = 0; i < ctx.inputCount(); i++)
                {
                    final Input input = ctx.input(i);
                    if (!input.isEmpty())
                    {
                        ctx.output(i).add(input.value(), input.timestamp());
                    }
                }
            }
        }

        @Override
        public void close(final CalculatorContext ctx)
        {
            log.add("close");
        }
    }

    /**
     * A slow stage: reports each input timestamp it starts on, then waits for a permit before
     * passing input 0 on at the input timestamp (or, for timestamps in {@code lose}, emitting
     * nothing at all: neither a packet nor a bound). The test decides how slow it is by handing out
     * permits; a permit that never comes fails the run after {@link #WAIT_MILLIS}.
     */
    static final class GatedStage implements Calculator
    {
        private final Semaphore permits;
        private final BlockingQueue<Long> entered;

        GatedStage(final Semaphore permits, final BlockingQueue<Long> entered)
        {
            this.permits = permits;
            this.entered = entered;
        }

        static BlockingQueue<Long> reports()
        {
            return new LinkedBlockingQueue<>();
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            entered.add(ctx.inputTimestamp());
            if (!permits.tryAcquire(WAIT_MILLIS, TimeUnit.MILLISECONDS))
            {
                throw new IllegalStateException("no permit for timestamp " + ctx.inputTimestamp());
            }
            if (!ctx.input(0).isEmpty())
            {
                ctx.output(0).add(ctx.input(0).value(), ctx.inputTimestamp());
            }
        }
    }
}
