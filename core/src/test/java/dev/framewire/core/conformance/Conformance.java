package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Graph;
import dev.framewire.core.Input;
import dev.framewire.core.InputPolicy;
import dev.framewire.core.Packet;
import dev.framewire.core.Timestamp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Calculators and recorders shared by the conformance tests: the small calculators MediaPipe's
 * own tests define, written again for Framewire's API, and ways to watch streams. Everything goes
 * through the public API.
 */
final class Conformance
{
    private Conformance()
    {
    }

    /** A thread-safe list for observers and calculators to record into. */
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

    /** A packet as text: {@code value@timestamp}, special timestamps by name. */
    static String show(final Packet packet)
    {
        return packet.value() + "@" + Timestamp.toString(packet.timestamp());
    }

    /** Records every packet of a graph stream as {@code value@timestamp}. */
    static List<String> observe(final Graph graph, final String stream)
    {
        final List<String> seen = syncList();
        graph.observe(stream, p -> seen.add(show(p)));
        return seen;
    }

    /** Records the timestamp of every packet of a graph stream. */
    static List<Long> observeTimestamps(final Graph graph, final String stream)
    {
        final List<Long> seen = syncList();
        graph.observe(stream, p -> seen.add(p.timestamp()));
        return seen;
    }

    /** Waits for a condition by polling it every millisecond, failing with {@code what} after 5 s. */
    static void await(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                fail("timed out after 5 s waiting for " + what);
            }
            LockSupport.parkNanos(1_000_000L);
        }
    }

    /** Forwards input {@code i}'s packet to output {@code i}, keeping a long a long. */
    static void forward(final CalculatorContext ctx, final int i)
    {
        final Input in = ctx.input(i);
        if (in.isLong())
        {
            ctx.output(i).addLong(in.getLong(), in.timestamp());
        }
        else
        {
            ctx.output(i).add(in.value(), in.timestamp());
        }
    }

    /**
     * MediaPipe's test OffsetBoundCalculator: offset 0, emits nothing; its output bound follows its
     * input bound.
     */
    static Supplier<Calculator> offsetBound()
    {
        return () -> new Calculator()
        {
            @Override
            public void open(final CalculatorContext ctx)
            {
                ctx.setOffset(0);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
            }
        };
    }

    /** MediaPipe's test FuturePacketCalculator: each packet again, 3 later. */
    static Supplier<Calculator> futurePacket()
    {
        return () -> ctx -> ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp() + 3);
    }

    /**
     * MediaPipe's test BoundToPacketCalculator: on output {@code i}, at the input timestamp, a
     * packet holding input {@code i}'s timestamp (its packet's, or the settled one when empty).
     */
    static Supplier<Calculator> boundToPacket()
    {
        return () -> ctx ->
        {
            for (int i = 0; i < ctx.outputCount(); i++)
            {
                ctx.output(i).addLong(ctx.input(i).timestamp(), ctx.inputTimestamp());
            }
        };
    }

    /**
     * MediaPipe's test ProcessBoundToPacketCalculator: immediate, called for bounds too; emits
     * input {@code i}'s timestamp on output {@code i} when it is the input timestamp and not
     * below the output's bound.
     */
    static Supplier<Calculator> processBoundToPacket()
    {
        return () -> new Calculator()
        {
            @Override
            public void contract(final Contract contract)
            {
                contract.inputPolicy(InputPolicy.immediate()).processTimestampBounds(true);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                for (int i = 0; i < ctx.outputCount(); i++)
                {
                    final long t = ctx.input(i).timestamp();
                    if (t == ctx.inputTimestamp() && t >= ctx.output(i).nextTimestampBound())
                    {
                        ctx.output(i).addLong(t, t);
                    }
                }
            }
        };
    }

    /**
     * What MediaPipe's {@code ObserveOutputStream(..., observe_bound_updates=true)} sees, as a node:
     * immediate and called for bounds, it records each packet as {@code value@ts} and each bound
     * move without a packet as {@code -@settled}.
     */
    static Supplier<Calculator> boundObserver(final List<String> seen)
    {
        return () -> new Calculator()
        {
            @Override
            public void contract(final Contract contract)
            {
                contract.inputPolicy(InputPolicy.immediate()).processTimestampBounds(true);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                final Input in = ctx.input(0);
                seen.add((in.isEmpty() ? "-" : String.valueOf(in.value())) + "@" + Timestamp.toString(in.timestamp()));
            }
        };
    }
}
