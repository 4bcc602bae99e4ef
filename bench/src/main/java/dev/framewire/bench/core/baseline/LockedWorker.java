package dev.framewire.bench.core.baseline;

import dev.framewire.core.IdleKind;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scheduler queue with its own thread, as BMF's {@code SchedulerQueue} and MediaPipe's
 * {@code SchedulerQueue} on its {@code ThreadPool} are built: a {@link PriorityQueue} of ready
 * nodes guarded by a {@link ReentrantLock}, and a {@link Condition} the thread waits on when it
 * is empty, signalled by every producer that adds a node.
 *
 * <p>How the thread waits: {@link IdleKind#PARK} (and BACKOFF) on the condition, which is the
 * seeds' design; YIELD and BUSY_SPIN release the lock and yield or spin on a volatile copy of the
 * queue's size until it is non-zero, to compare with Framewire's workers on the same idle
 * strategy without hammering the lock.
 *
 * <p>Threading: {@link #schedule} from any thread; {@link #run} on the worker's thread.
 */
final class LockedWorker implements Runnable
{
    /** MediaPipe's order: priority, then node id. */
    private static final Comparator<LockedStage> ORDER = (a, b) ->
        a.priority != b.priority ? Integer.compare(a.priority, b.priority) : Integer.compare(a.id, b.id);

    private final LockedEngine engine;
    private final IdleKind idle;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final PriorityQueue<LockedStage> queue;
    private volatile boolean running = true;
    /** The queue's size, written under the lock, so a spinning or yielding thread can look without it. */
    private volatile int queueSize;

    LockedWorker(final LockedEngine engine, final int capacity, final IdleKind idle)
    {
        this.engine = engine;
        this.idle = idle;
        this.queue = new PriorityQueue<>(Math.max(1, capacity), ORDER);
    }

    /** Any thread: queues a node once until it is taken. */
    void schedule(final LockedStage stage)
    {
        final ReentrantLock lock = this.lock;
        lock.lock();
        try
        {
            if (!stage.queued)
            {
                stage.queued = true;
                queue.add(stage);
                queueSize = queue.size();
                notEmpty.signal();
            }
        }
        finally
        {
            lock.unlock();
        }
    }

    void stop()
    {
        running = false;
        lock.lock();
        try
        {
            notEmpty.signalAll();
        }
        finally
        {
            lock.unlock();
        }
    }

    @Override
    public void run()
    {
        final ReentrantLock lock = this.lock;
        try
        {
            while (true)
            {
                LockedStage stage;
                lock.lock();
                try
                {
                    while ((stage = queue.poll()) == null)
                    {
                        if (!running)
                        {
                            return;
                        }
                        if (idle == IdleKind.PARK || idle == IdleKind.BACKOFF)
                        {
                            notEmpty.await();
                        }
                        else
                        {
                            lock.unlock();
                            try
                            {
                                while (queueSize == 0 && running)
                                {
                                    if (idle == IdleKind.YIELD)
                                    {
                                        Thread.yield();
                                    }
                                    else
                                    {
                                        Thread.onSpinWait();
                                    }
                                }
                            }
                            finally
                            {
                                lock.lock();
                            }
                        }
                    }
                    stage.queued = false;
                    queueSize = queue.size();
                }
                finally
                {
                    lock.unlock();
                }
                stage.run();
            }
        }
        catch (final Throwable t)
        {
            engine.fail(t);
        }
    }
}
