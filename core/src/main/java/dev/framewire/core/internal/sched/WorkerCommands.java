package dev.framewire.core.internal.sched;

import org.jctools.queues.MpscLinkedQueue;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Worker}'s command queue: what other threads ask its thread to do (hot-plug's changes to
 * what the worker owns, a local node scheduled from another thread), run at the top of a duty
 * cycle. A JCTools MPSC linked queue, not Agrona's, whose Unsafe access needs a JVM flag a graph of
 * plain packets does not. A command allocates a queue node; commands come per subgraph added or
 * removed, never per packet.
 *
 * <p>Threading: {@link #offer(Runnable)}, {@link #isEmpty()}, {@link #pending()} and {@link #done()}
 * from any thread; {@link #run()} on the worker's thread only.
 */
final class WorkerCommands
{
    private final MpscLinkedQueue<Runnable> commands = new MpscLinkedQueue<>();
    /** Commands submitted, counted before each is offered; any thread (a cold path: control, not packets). */
    private final AtomicLong submitted = new AtomicLong();
    /** Commands run to their end; written by the worker only, after each command's effects. */
    private volatile long done;

    void offer(final Runnable command)
    {
        submitted.incrementAndGet();
        commands.offer(command);
    }

    boolean isEmpty()
    {
        return commands.isEmpty();
    }

    /**
     * The worker, each duty cycle: runs the commands submitted so far, a few at a time.
     *
     * @return how many it ran.
     */
    int run()
    {
        int work = 0;
        Runnable command;
        while (work < 16 && (command = commands.poll()) != null)
        {
            try
            {
                command.run();
            }
            finally
            {
                done = done + 1; // only this thread writes it; the volatile store publishes the effects
            }
            work++;
        }
        return work;
    }

    /**
     * Whether a command submitted has not yet run to its end (one waits in the queue or is
     * running). The count of those done is read first: if it equals the count submitted, read
     * after it, every command submitted before that read has run and its effects are seen.
     */
    boolean pending()
    {
        final long doneSoFar = done;
        return submitted.get() != doneSoFar;
    }

    /** Commands run to their end so far. */
    long done()
    {
        return done;
    }
}
