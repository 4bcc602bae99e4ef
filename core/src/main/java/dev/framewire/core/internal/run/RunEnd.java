package dev.framewire.core.internal.run;

import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.sched.Scheduler;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * When and how a run ends: its open nodes, the subgraphs' too, counted down as they close (the run is over
 * when none is left), and the latch its waiters wait on. A node's opening and closing is routed here
 * to its subgraph or to the scheduler's source turns; a subgraph joining reserves its nodes' count
 * first, unless the run has ended. One per {@link Run}.
 *
 * <p>Threading: {@link #onNodeOpened} and {@link #onNodeClosed} on the node's worker;
 * {@link #reserve} under the hot-plug lock; {@link #finish} from whichever thread ends the run (the
 * last node's worker, a failure, a cancel); {@link #start} by the run's owner before any worker runs;
 * the rest from any thread. Also whether and why it was cancelled, for its
 * messages and its journal's end of run.
 */
final class RunEnd
{
    /** Nodes not closed yet, the subgraphs' too: the run ends when none is left. */
    private final AtomicInteger openNodes = new AtomicInteger();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean finished;
    private volatile boolean cancelled;
    /** Why the run was cancelled, for its journal's end of run, or null. */
    private volatile String cancelReason;
    private final RunState runState;
    private final Scheduler scheduler;
    private final Hotplug hotplug;

    RunEnd(final RunState runState, final Scheduler scheduler, final Hotplug hotplug)
    {
        this.runState = runState;
        this.scheduler = scheduler;
        this.hotplug = hotplug;
    }

    /** The run's owner, before its workers start: the graph's own {@code count} nodes are open. */
    void start(final int count)
    {
        openNodes.set(count);
    }

    /** A node's worker: the node has opened. */
    void onNodeOpened(final Node node)
    {
        if (node.subgraph != null)
        {
            ((Subgraph)node.subgraph).onNodeOpened();
            return;
        }
        scheduler.onOwnNodeOpened();
    }

    /** A node's worker: the node has closed; the last one to close ends the run. */
    void onNodeClosed(final Node node)
    {
        final Subgraph subgraph = (Subgraph)node.subgraph;
        if (subgraph != null && subgraph.onNodeClosed())
        {
            hotplug.onSubgraphClosed(subgraph); // before the count below, which may end the run
        }
        if (node.isSource && subgraph == null)
        {
            scheduler.onOwnSourceClosed(node);
        }
        if (openNodes.decrementAndGet() == 0)
        {
            finish();
        }
    }

    /**
     * Under the hot-plug lock, as a subgraph joins: counts {@code count} more open nodes, unless
     * the run has ended (no node open).
     */
    boolean reserve(final int count)
    {
        int open;
        do
        {
            open = openNodes.get();
            if (open == 0 || finished || runState.stopping)
            {
                return false;
            }
        }
        while (!openNodes.compareAndSet(open, open + count));
        return true;
    }

    /** Any thread: the run is over; its waiters go on, and the subgraphs' futures end. */
    void finish()
    {
        finished = true;
        done.countDown();
        hotplug.onRunFinished();
    }

    /**
     * Any thread: the run is cancelled, for {@code reason} if it is the first given (null for none),
     * unless it has ended.
     *
     * @return whether the run is to stop (it had not ended).
     */
    boolean cancel(final String reason)
    {
        if (!finished && cancelReason == null)
        {
            cancelReason = reason;
        }
        if (!finished)
        {
            cancelled = true;
            return true;
        }
        return false;
    }

    /** Whether the run was cancelled. */
    boolean isCancelled()
    {
        return cancelled;
    }

    /** The run's state, for messages: running, or how it ended ({@code failed}: whether it failed). */
    String describe(final boolean failed, final boolean closed)
    {
        if (!finished)
        {
            return cancelled ? "being cancelled" : runState.stopping ? "failing" : "running";
        }
        return (failed ? "over: it failed" : cancelled ? "over: it was cancelled" :
            "over: it is done") + (closed ? ", and the graph is closed" : "");
    }

    /** The journal's end of run: failed, cancelled (and why), or done. */
    String ending(final boolean failed)
    {
        return failed ? "failed" : cancelled ? (cancelReason != null ? "cancelled: " + cancelReason : "cancelled") :
            "done";
    }

    /** Whether the run has finished. */
    boolean isFinished()
    {
        return finished;
    }

    /** Waits for the run's end. */
    void await() throws InterruptedException
    {
        done.await();
    }

    /** Waits up to a timeout for the run's end, and says whether it came. */
    boolean await(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return done.await(timeout, unit);
    }
}
