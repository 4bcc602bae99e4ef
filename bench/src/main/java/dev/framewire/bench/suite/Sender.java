package dev.framewire.bench.suite;

/**
 * The benchmark thread's side of a throughput scenario: sends packet n (n = 1, 2, 3...) as the
 * value {@code 3n + 1} at timestamp n, yielding while the line refuses it, and keeps the count and
 * the sum that {@link Arrivals#verify} checks at the end of each iteration.
 *
 * <p>Threading: the benchmark thread only.
 */
public final class Sender
{
    /** Where packets go: true when taken, false when the line is full. */
    @FunctionalInterface
    public interface Offer
    {
        boolean offer(long value, long timestamp);
    }

    private final Offer line;
    private long sent;
    private long expectedSum;

    public Sender(final Offer line)
    {
        this.line = line;
    }

    /**
     * Sends the next packet, yielding until the line takes it.
     *
     * @return its number, for the benchmark to return.
     */
    public long send()
    {
        final long n = ++sent;
        final long value = n * 3 + 1;
        expectedSum += value;
        while (!line.offer(value, n))
        {
            Thread.yield();
        }
        return n;
    }

    /** Packets sent so far. */
    public long sent()
    {
        return sent;
    }

    /**
     * Waits for every packet sent to arrive, then checks the count and the sum.
     *
     * @param arrivals what arrived.
     * @param what     the scenario, for the message.
     */
    public void verify(final Arrivals arrivals, final String what)
    {
        arrivals.verify(what, sent, expectedSum);
    }
}
