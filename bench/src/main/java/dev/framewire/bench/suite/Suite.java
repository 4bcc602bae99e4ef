package dev.framewire.bench.suite;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.PhasedBackoffWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import dev.framewire.core.Graph;
import dev.framewire.core.IdleKind;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** What the suite's contenders share: events, carriers, thread factories, shutdown. */
public final class Suite
{
    /**
     * Most values a contender without backpressure of its own (the executors) may have in flight:
     * as Framewire's and the baseline's queue limit, so none of them runs on an unbounded queue.
     */
    static final int IN_FLIGHT = 1024;

    private Suite()
    {
    }

    /**
     * Deletes a directory a benchmark made (a journal's, a video file's) and all it holds.
     *
     * @throws IllegalStateException if the directory is still there afterwards.
     */
    public static void deleteTree(final Path root) throws IOException
    {
        try (Stream<Path> files = Files.walk(root))
        {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        if (Files.exists(root))
        {
            throw new IllegalStateException("could not delete " + root + " and all it holds");
        }
    }

    /** A Disruptor event or a carrier: a long, the branches' copies of it (B4), and a count of the stages that saw it (B2). */
    static final class LongEvent
    {
        long value;
        long a;
        long b;
        int stages;
    }

    /**
     * Publishes {@code value} on a Disruptor line of {@link LongEvent}s with the stages' fields
     * cleared, or returns false when the ring is full (so the caller spins, as with every
     * contender). {@code tryPublishEvent} would box the long through its Object argument.
     *
     * @param ring  the line's ring.
     * @param value the value.
     * @return whether it was published.
     */
    static boolean offerLong(final RingBuffer<LongEvent> ring, final long value)
    {
        if (!ring.hasAvailableCapacity(1))
        {
            return false;
        }
        final long sequence = ring.next();
        final LongEvent event = ring.get(sequence);
        event.value = value;
        event.stages = 0;
        event.a = 0;
        event.b = 0;
        ring.publish(sequence);
        return true;
    }

    /**
     * A ring of reusable carriers, four times {@link #IN_FLIGHT}: a carrier is reused only after
     * the value it carried arrived, as long as the producer keeps at most IN_FLIGHT in flight.
     * Threading: the producer only.
     */
    static final class Carriers<T>
    {
        private final Object[] ring = new Object[4 * IN_FLIGHT];
        private int next;

        Carriers(final Supplier<T> factory)
        {
            for (int i = 0; i < ring.length; i++)
            {
                ring[i] = factory.get();
            }
        }

        @SuppressWarnings("unchecked")
        T peek()
        {
            return (T)ring[next];
        }

        T next()
        {
            final T t = peek();
            next = (next + 1) & (ring.length - 1);
            return t;
        }
    }

    /**
     * The Disruptor wait strategy that matches an idle kind. PARK is
     * {@link PhasedBackoffWaitStrategy#withLiteLock}: it spins 10 µs, as a Framewire PARK worker
     * spins its {@code spin_before_park_us} (15 µs), then blocks on a
     * lite lock: like a Framewire worker, a publisher signals only when a consumer is waiting (the
     * plain BlockingWaitStrategy takes the lock and signals on every publish).
     */
    static WaitStrategy waitStrategy(final IdleKind idle)
    {
        switch (idle)
        {
            case BUSY_SPIN:
                return new BusySpinWaitStrategy();
            case YIELD:
                return new YieldingWaitStrategy();
            default:
                // as Framewire's PARK workers (15 µs of spin_before_park_us), spin, then block
                return PhasedBackoffWaitStrategy.withLiteLock(10, 0, TimeUnit.MICROSECONDS);
        }
    }

    /** Daemon threads named {@code prefix-N}. */
    static ThreadFactory daemonThreads(final String prefix)
    {
        final AtomicInteger n = new AtomicInteger();
        return r ->
        {
            final Thread t = new Thread(r, prefix + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }

    /** A one-thread executor on an unbounded {@link LinkedBlockingQueue}, as {@code newFixedThreadPool(1)}. */
    static ThreadPoolExecutor executor(final String name)
    {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), daemonThreads(name));
    }

    /**
     * One-thread executors ({@link #executor}), named {@code prefix0}, {@code prefix1}, ...
     *
     * @param prefix the threads' name prefix.
     * @param count  how many.
     * @return the executors.
     */
    static ThreadPoolExecutor[] executors(final String prefix, final int count)
    {
        final ThreadPoolExecutor[] executors = new ThreadPoolExecutor[count];
        for (int i = 0; i < count; i++)
        {
            executors[i] = executor(prefix + i);
        }
        return executors;
    }

    /**
     * Shuts each executor down and waits for it ({@link #shutdown(ThreadPoolExecutor)}).
     *
     * @param executors the executors.
     * @throws InterruptedException if interrupted while waiting.
     */
    static void shutdown(final ThreadPoolExecutor[] executors) throws InterruptedException
    {
        for (final ThreadPoolExecutor executor : executors)
        {
            shutdown(executor);
        }
    }

    static void shutdown(final ThreadPoolExecutor executor) throws InterruptedException
    {
        executor.shutdown();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("executor did not finish within 10 s");
        }
    }

    /** Closes the inputs, waits for the run (throwing its failure), and closes the graph (throwing on a leak). */
    public static void closeGraph(final Graph graph) throws Exception
    {
        try
        {
            graph.closeAllInputs();
            if (!graph.awaitDone(30, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("graph did not finish within 30 s:\n" + graph.report());
            }
            graph.waitUntilDone();
        }
        finally
        {
            graph.close();
        }
    }
}
