package dev.framewire.bench.core.baseline;

import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;

/**
 * The baseline engine: a line of pass-through {@link LockedStage}s from a graph input to a sink,
 * on {@link LockedWorker}s (lock, priority queue, condition). Stages go to workers round-robin in
 * line order, as Framewire assigns nodes to an executor's workers. The graph input is held back
 * while any queue downstream of it is at the limit (MediaPipe's backpressure on graph inputs).
 *
 * <p>Threading: {@link #tryAdd} from one producer thread; {@link #close()} from the owner.
 */
public final class LockedEngine implements AutoCloseable
{
    /** Marks a {@code long} packet; its value is in the word. */
    public static final Object LONG = new Object();

    /** Receives each packet at the end of the line; a payload is released after it returns. */
    @FunctionalInterface
    public interface PacketSink
    {
        /**
         * One packet.
         *
         * @param timestamp the packet's timestamp.
         * @param value     {@link #LONG} or a {@link Payload}.
         * @param word      the long value for {@link #LONG}.
         * @throws Exception to fail the run.
         */
        void onPacket(long timestamp, Object value, long word) throws Exception;
    }

    final PacketSink sink;
    private final LockedStage[] stages;
    private final LockedWorker[] workers;
    private final Thread[] threads;
    private final int limit;
    private volatile Throwable failure;

    /**
     * Builds and starts the engine.
     *
     * @param stageCount  pass-through stages in the line.
     * @param workerCount worker threads (at most one per stage is used).
     * @param idle        how workers wait; PARK waits on the condition.
     * @param queueLimit  queue size at which the graph input is held back.
     * @param hardCap     capacity of each queue.
     * @param sink        the end of the line.
     */
    public LockedEngine(
        final int stageCount,
        final int workerCount,
        final IdleKind idle,
        final int queueLimit,
        final int hardCap,
        final PacketSink sink)
    {
        this.sink = sink;
        this.limit = queueLimit;
        this.workers = new LockedWorker[Math.min(workerCount, stageCount)];
        for (int w = 0; w < workers.length; w++)
        {
            workers[w] = new LockedWorker(this, stageCount, idle);
        }
        this.stages = new LockedStage[stageCount];
        for (int i = 0; i < stageCount; i++)
        {
            stages[i] = new LockedStage(this, i, -i, new LockedQueue(hardCap));
            stages[i].worker = workers[i % workers.length];
            if (i > 0)
            {
                stages[i - 1].next = stages[i];
            }
        }
        this.threads = new Thread[workers.length];
        for (int w = 0; w < workers.length; w++)
        {
            threads[w] = new Thread(workers[w], "locked-worker-" + w);
            threads[w].setDaemon(true);
            threads[w].start();
        }
    }

    /**
     * Adds a packet at the head of the line unless a queue is at the limit.
     *
     * @return false if refused; the caller keeps a payload's reference.
     * @throws IllegalStateException if the run failed.
     */
    public boolean tryAdd(final long timestamp, final Object value, final long word)
    {
        if (failure != null)
        {
            throw new IllegalStateException("locked engine failed", failure);
        }
        final LockedStage[] stages = this.stages;
        for (final LockedStage stage : stages)
        {
            if (stage.input.size() >= limit)
            {
                return false;
            }
        }
        final LockedStage first = stages[0];
        if (!first.input.push(timestamp, value, word))
        {
            return false;
        }
        first.worker.schedule(first);
        return true;
    }

    void fail(final Throwable t)
    {
        failure = t;
    }

    /** Stops the workers, releases queued payloads, and throws the run's failure if any. */
    @Override
    public void close() throws InterruptedException
    {
        for (final LockedWorker worker : workers)
        {
            worker.stop();
        }
        for (final Thread thread : threads)
        {
            thread.join(10_000);
        }
        for (final LockedStage stage : stages)
        {
            stage.input.drainAndRelease();
        }
        if (failure != null)
        {
            throw new IllegalStateException("locked engine failed", failure);
        }
    }
}
