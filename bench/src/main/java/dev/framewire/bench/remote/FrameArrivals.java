package dev.framewire.bench.remote;

import dev.framewire.core.Graph;

import java.util.concurrent.atomic.AtomicLong;

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
}
