package dev.framewire.bench.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The host state of one JMH fork, measured beside the contender it runs: the SPSC floor's one-way
 * p50 ({@link SpscHop}, 50,000 closed-loop round trips after 20,000 of warm-up, about 50 ms).
 * These VMs switch between two states (a floor p50 of about 130 ns or about 370 ns, by where the
 * two vCPUs sit); a ratio is only meaningful between numbers measured in the same state, so every
 * fork says which it was in.
 *
 * <p>Written as one line per fork, {@code benchmark contender floorP50Nanos}, appended to
 * {@code host-state.txt} in the suite's latency directory ({@link LatencyLog#DIR_PROP}); the forks
 * of one row follow each other in the order of JMH's per-fork results. Nothing is written when the
 * directory is not set. Called from a trial's setup, before the contender starts its threads, so
 * that it measures the machine, not the contender.
 */
final class HostState
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 50_000;
    /** This fork's floor p50 once {@link #record} ran, else -1: {@link LatencyLog} writes it beside the fork's latency. */
    static volatile long forkFloorP50Nanos = -1;

    private HostState()
    {
    }

    /**
     * Measures the floor and appends it for this fork.
     *
     * @param benchmark the benchmark's short name, for the line.
     * @param contender the contender this fork runs.
     */
    static void record(final String benchmark, final String contender)
    {
        final String dir = System.getProperty(LatencyLog.DIR_PROP);
        if (dir == null)
        {
            return;
        }
        final long p50 = floorP50Nanos();
        forkFloorP50Nanos = p50;
        try
        {
            final Path path = Paths.get(dir);
            Files.createDirectories(path);
            Files.write(path.resolve("host-state.txt"),
                (benchmark + ' ' + contender + ' ' + p50 + '\n').getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot write the host state to " + dir, ex);
        }
    }

    /** The SPSC floor's one-way p50 on this fork, in nanoseconds. */
    static long floorP50Nanos()
    {
        final Arrivals arrivals = new Arrivals();
        try (Hop hop = Hop.create("SPSC/BUSY_SPIN", arrivals))
        {
            long n = 0;
            for (int i = 0; i < WARM_UP + MEASURED; i++)
            {
                if (i == WARM_UP)
                {
                    arrivals.histogram().reset(); // nothing in flight: the last one arrived
                }
                final long now = System.nanoTime();
                while (!hop.offer(now, ++n))
                {
                    Thread.onSpinWait();
                }
                arrivals.spinUntil(n);
            }
            return arrivals.histogram().getValueAtPercentile(50);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("the host-state floor did not run", ex);
        }
    }
}
