package dev.framewire.bench.suite;

import java.util.concurrent.ThreadPoolExecutor;

/**
 * A one-thread {@link ThreadPoolExecutor} on a {@code LinkedBlockingQueue}: each value is a task
 * given to {@code execute}. Tasks are reusable carriers ({@link Suite.Carriers}), so the only
 * allocation per hop is the queue's own node.
 */
final class ExecutorHop implements Hop
{
    private final ThreadPoolExecutor executor = Suite.executor("tpe-hop");
    private final Suite.Carriers<Task> tasks;
    private final Arrivals arrivals;
    private long sent;

    /** One value in flight. */
    static final class Task implements Runnable
    {
        Arrivals arrivals;
        long value;

        @Override
        public void run()
        {
            arrivals.acceptSentAt(value);
        }
    }

    ExecutorHop(final Arrivals arrivals)
    {
        this.arrivals = arrivals;
        this.tasks = new Suite.Carriers<>(Task::new);
    }

    @Override
    public boolean offer(final long value, final long timestamp)
    {
        if (sent - arrivals.count() >= Suite.IN_FLIGHT)
        {
            return false;
        }
        final Task task = tasks.next();
        task.arrivals = arrivals;
        task.value = value;
        sent++;
        executor.execute(task);
        return true;
    }

    @Override
    public void close() throws Exception
    {
        Suite.shutdown(executor);
    }
}
