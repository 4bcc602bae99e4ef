package dev.framewire.bench.remote;

import dev.framewire.core.Graph;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What a frame benchmark's receiving graph got on its output {@code out}: the last timestamp, and
 * how many frames came out of order or after a gap. The benchmark checks its answer with it; a
 * child process ({@link RemoteFrameSink}) sends it as a line.
 *
 * <p>Threading: counted by the graph's observer (one thread), read by any.
 */
final class FrameArrivals
{
    private final AtomicLong arrived = new AtomicLong(-1);
    private final AtomicLong disorder = new AtomicLong();

    /** Counts what arrives on {@code graph}'s output {@code out}; before {@code start}. */
    void observe(final Graph graph)
    {
        graph.observe("out", p ->
        {
            if (p.timestamp() != arrived.get() + 1)
            {
                disorder.incrementAndGet();
            }
            arrived.lazySet(p.timestamp());
        });
    }

    long arrived()
    {
        return arrived.get();
    }

    long disorder()
    {
        return disorder.get();
    }

    /** As a line: {@code arrived disorder}. */
    String line()
    {
        return arrived.get() + " " + disorder.get();
    }

    /** From a {@link #line()}. */
    static FrameArrivals parse(final String line)
    {
        final String[] parts = line.trim().split(" ");
        final FrameArrivals arrivals = new FrameArrivals();
        arrivals.arrived.set(Long.parseLong(parts[0]));
        arrivals.disorder.set(Long.parseLong(parts[1]));
        return arrivals;
    }

    /**
     * A benchmark's check of its own answer at the end of an iteration: waits (30 s at most) until
     * every frame sent, up to {@code last}, has arrived, then fails if any came out of order or went missing.
     *
     * @param what    the contender, for the message.
     * @param last    the last timestamp sent.
     * @param seen    what arrived, read again while waiting (here, or as a child process says).
     * @param context what to add to a timeout's message (a report, a child's stderr).
     */
    static void awaitAll(final String what, final long last, final Callable<FrameArrivals> seen,
        final Supplier<String> context) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        FrameArrivals arrivals = seen.call();
        while (arrivals.arrived() != last)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException(what + ": sent up to " + last + ", arrived up to " +
                    arrivals.arrived() + context.get());
            }
            Thread.sleep(1);
            arrivals = seen.call();
        }
        if (arrivals.disorder() != 0)
        {
            throw new IllegalStateException(what + ": " + arrivals.disorder() + " frames arrived out of order or missing");
        }
    }
}
