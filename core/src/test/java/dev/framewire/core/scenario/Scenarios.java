package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.Input;
import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Shared pieces of the scenario tests. Everything here goes through the public API only, as an
 * embedding user would: that is why the scenario tests live outside {@code dev.framewire.core}.
 */
final class Scenarios
{
    private Scenarios()
    {
    }

    /** Waits for a condition by polling it every millisecond, failing with {@code what} after the timeout. */
    static void awaitCondition(final String what, final long timeoutMillis, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** Waits until every worker of the graph reports itself paused (a worker pauses after its current call). */
    static void awaitPaused(final Graph graph)
    {
        awaitCondition("every worker to pause", 5_000, () -> allWorkers(graph.report(), "[paused]"));
    }

    private static boolean allWorkers(final String report, final String state)
    {
        final int at = report.indexOf("workers:\n");
        assertTrue(at >= 0, report);
        int workers = 0;
        int matching = 0;
        for (final String line : report.substring(at + "workers:\n".length()).split("\n"))
        {
            if (line.startsWith("  framewire-"))
            {
                workers++;
                if (line.contains(state))
                {
                    matching++;
                }
            }
        }
        return workers > 0 && workers == matching;
    }

    /** One input as text: its value, or "-" when empty in this input set. */
    static String show(final Input input)
    {
        return input.isEmpty() ? "-" : String.valueOf(input.value());
    }

    /** An input set as text: {@code "ts:v0,v1"}. */
    static String show(final CalculatorContext ctx)
    {
        final StringBuilder sb = new StringBuilder().append(Timestamp.toString(ctx.inputTimestamp())).append(':');
        for (int i = 0; i < ctx.inputCount(); i++)
        {
            sb.append(i == 0 ? "" : ",").append(show(ctx.input(i)));
        }
        return sb.toString();
    }

    /** A thread-safe list for calculators to record into and the test to read. */
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

    /** A calculator that records every input set as text and emits nothing. */
    static Supplier<Calculator> recorder(final List<String> sets)
    {
        return () -> ctx -> sets.add(show(ctx));
    }

    /**
     * A calculator that records every input set as text and emits, on output 0, a long at the
     * input timestamp: the number of non-empty inputs.
     */
    static Supplier<Calculator> recordingJoin(final List<String> sets)
    {
        return () -> ctx ->
        {
            sets.add(show(ctx));
            long present = 0;
            for (int i = 0; i < ctx.inputCount(); i++)
            {
                present += ctx.input(i).isEmpty() ? 0 : 1;
            }
            ctx.output(0).addLong(present, ctx.inputTimestamp());
        };
    }

    /** A calculator forwarding input 0's long value to output 0 at the same timestamp. */
    static Supplier<Calculator> forwardLong()
    {
        return () -> ctx -> ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
    }

    /** Adds a long packet, returning false instead of throwing once the run has ended (after a failure). */
    static boolean addUnlessEnded(final Graph graph, final String stream, final long value, final long timestamp)
        throws InterruptedException
    {
        try
        {
            graph.addPacket(stream, value, timestamp);
            return true;
        }
        catch (final IllegalStateException ended)
        {
            return false;
        }
    }

    /** A fixed-size list of expected strings, for assertEquals against recorded input sets. */
    static List<String> list(final String... items)
    {
        return List.of(items);
    }

    /** Runs a task in a new daemon thread, returning the thread. */
    static Thread startThread(final String name, final ThrowingRunnable task, final List<Throwable> errors)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                task.run();
            }
            catch (final Throwable t)
            {
                errors.add(t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** A runnable that may throw. */
    @FunctionalInterface
    interface ThrowingRunnable
    {
        void run() throws Exception;
    }
}
