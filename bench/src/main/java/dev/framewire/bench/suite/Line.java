package dev.framewire.bench.suite;

/**
 * A pipeline under test for the throughput scenarios (B2, B4): the benchmark thread offers longs,
 * {@link Arrivals#accept(long)} receives what comes out.
 *
 * <p>Threading: {@link #offer} from the one benchmark thread.
 */
interface Line extends AutoCloseable
{
    /** @return false when refused because the line is full; the caller retries. */
    boolean offer(long value, long timestamp);

    @Override
    void close() throws Exception;
}
