package dev.framewire.core.internal.sched;

import dev.framewire.core.Backpressure;
import dev.framewire.core.QueueOverflowException;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.queue.HeldBackAdder;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.Schedulable;
import dev.framewire.core.internal.stream.GraphInput;

import dev.framewire.core.jfr.ReportEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a run's graph is idle, and what follows when it is: the idle waiters return, and if
 * sources or graph inputs are held back by full queues that is a deadlock, reported or resolved by
 * raising the queues' limits (MediaPipe's deadlock avoidance). Also the question a simulated clock
 * asks: is the graph idle but for calls that sleep on the clock ({@link #idleButSleepers}).
 *
 * <p>No counter of busy nodes is kept (it was a graph-wide atomic written twice per node run, a
 * line every worker and graph input bounced): the checks scan the workers and the nodes' states,
 * and look twice, with counts of what the run did ({@link #activity()}) unchanged in between, where
 * a passing state must not be taken for idle.
 *
 * <p>Threading: any thread; {@link #checkDeadlock()} under the scheduler's idle lock. Never on the
 * per-packet path.
 */
final class IdleCheck
{
    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final Scheduler scheduler;

    IdleCheck(final Scheduler scheduler)
    {
        this.scheduler = scheduler;
    }

    /**
     * Whether no node is queued or running and no {@code max_in_flight} call is in flight. A scan of
     * the nodes' states, for the idle waiters, the deadlock check and the guard.
     */
    boolean isIdle()
    {
        return idleButFor(null);
    }

    /**
     * {@link #isIdle()}, but a node whose call is in progress on a worker of {@code sleeping} counts
     * as idle; null for none.
     */
    private boolean idleButFor(final Worker[] sleeping)
    {
        final List<Worker> workers = scheduler.workers;
        // indexed: no iterator, since the timeout guard asks every tick for the life of the run
        for (int i = 0, n = workers.size(); i < n; i++)
        {
            // first: a worker schedules a node before it marks its input seen, or counts a command done
            final Worker worker = workers.get(i);
            if (worker.hasUnseenInput() || worker.hasPendingCommands())
            {
                return false;
            }
        }
        for (final Node node : scheduler.nodes)
        {
            if ((node.state() != Node.IDLE || node.callsInFlight() != 0) && !sleepsIn(node, sleeping))
            {
                return false;
            }
        }
        return true;
    }

    private static boolean sleepsIn(final Node node, final Worker[] sleeping)
    {
        if (sleeping != null)
        {
            for (final Worker worker : sleeping)
            {
                if (worker != null && worker.current() == node)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the graph has nothing to run but calls that sleep on the workers in {@code sleeping}
     * (their entries null for a worker that does not): looked at twice, with nothing done in
     * between, so that a node between two steps, or an add between its push and its schedule, is
     * not taken for idle.
     */
    boolean idleButSleepers(final Worker[] sleeping)
    {
        if (scheduler.isStopping())
        {
            return true;
        }
        final long before = activity();
        return before >= 0 && idleButFor(sleeping) && activity() == before && idleButFor(sleeping);
    }

    /**
     * Whether work is pending: a node queued or running, an adder waiting for room, or a source
     * held back at the memory soft limit (if nothing frees memory, a calculator keeping its frames,
     * the scheduler idles with no queue full). The timeout guard's question.
     */
    boolean hasPendingWork()
    {
        return !isIdle() || scheduler.inputWaiters.get() > 0 || scheduler.memory.holdsSources();
    }

    /** Whether a source or graph input is held back, so that an idle graph may be a deadlock. */
    boolean hasHeldBackSources()
    {
        if (scheduler.inputWaiters.get() > 0)
        {
            return true;
        }
        for (final Node node : scheduler.sourceNodes)
        {
            if (node.lifecycle == Node.OPEN && scheduler.sourceTurns.active(node) && node.isThrottled())
            {
                return true;
            }
        }
        if (scheduler.config.backpressure() == Backpressure.ALL_NODES)
        {
            for (final InputQueue queue : scheduler.queues)
            {
                if (queue.consumer != null && queue.isFull())
                {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Under the idle lock: if the whole graph is idle while sources are held back by full queues,
     * that is a deadlock: report it, or raise the full queues' limits (MediaPipe's deadlock
     * avoidance).
     */
    void checkDeadlock()
    {
        if (!isIdle() || scheduler.isStopping() || fullQueuesHoldingBack().isEmpty())
        {
            return;
        }
        // Looked at twice, with nothing done in between: an adder that has pushed a packet and
        // not yet scheduled the consumer, or a node that ran while the nodes were read one by
        // one, makes a passing state look like a deadlock (and deadlock avoidance then raised
        // limits of a graph that was running: HotplugTest saw a queue of 8 grow to 399).
        final long before = activity();
        if (before < 0 || !isIdle())
        {
            return;
        }
        final List<InputQueue> full = fullQueuesHoldingBack();
        if (full.isEmpty() || activity() != before)
        {
            return;
        }
        if (scheduler.config.reportDeadlock())
        {
            reportDeadlock(full);
            return;
        }
        for (final InputQueue queue : full)
        {
            final int raised = queue.size() + 1;
            if (raised > queue.capacity())
            {
                scheduler.fail("graph", Timestamp.UNSET, new QueueOverflowException("deadlock avoidance cannot " +
                    "raise the limit of " + queue + " to " + raised + ": past its hard cap of " + queue.capacity() +
                    " packets; the graph waits on itself (a join whose other input never settles?)"));
                return;
            }
            LOG.warn("Resolved a deadlock by raising max_queue_size of {} from {} to {}", queue, queue.limit, raised);
            ReportEvent.emit("deadlock-resolved", "raised max_queue_size of " + queue + " from " + queue.limit +
                " to " + raised);
            queue.raiseLimit(raised);
        }
    }

    private void reportDeadlock(final List<InputQueue> full)
    {
        final StringBuilder sb = new StringBuilder("deadlock: the graph is idle while sources wait on full queues:");
        for (final InputQueue queue : full)
        {
            sb.append("\n  ").append(queue);
            if (queue.consumer != null && !"factory".equals(((Node)queue.consumer).config.calculator()))
            {
                // the calculator too, as MediaPipe's report names it (its node names are calculator names)
                sb.append(" (").append(((Node)queue.consumer).config.calculator()).append(')');
            }
            sb.append(": ").append(queue.size()).append(" queued, limit ").append(queue.limit);
        }
        sb.append("\nraise max_queue_size of these streams, or turn report_deadlock off to raise them as needed");
        ReportEvent.emit("deadlock", sb.toString());
        scheduler.fail("graph", Timestamp.UNSET, new IllegalStateException(sb.toString()));
    }

    /** The full queues that hold back a source or graph input still open. */
    private List<InputQueue> fullQueuesHoldingBack()
    {
        final List<InputQueue> full = new ArrayList<>();
        for (final InputQueue queue : scheduler.queues)
        {
            // A poller's queue is drained by a thread outside the scheduler: full, it holds
            // sources back, but an idle scheduler is not a deadlock while it waits on it.
            if (queue.consumer != null && queue.isFull() && heldBack(queue))
            {
                full.add(queue);
            }
        }
        return full;
    }

    /**
     * A count of what the run has done (node runs and commands finished on every worker, adds
     * finished on every graph input), or -1 while an add is in progress. Equal before and after a
     * look at the nodes and queues, nothing moved while they were read.
     */
    private long activity()
    {
        long sum = 0;
        for (final GraphInput input : scheduler.runState.graphInputs())
        {
            final long adds = input.activity();
            if (adds < 0)
            {
                return -1;
            }
            sum += adds;
        }
        final List<Worker> workers = scheduler.workers;
        for (int i = 0, n = workers.size(); i < n; i++)
        {
            sum += workers.get(i).activity();
        }
        return sum;
    }

    private static boolean heldBack(final InputQueue queue)
    {
        for (final Schedulable node : queue.wakeOnRoom)
        {
            if (((Node)node).lifecycle == Node.OPEN)
            {
                return true;
            }
        }
        for (final HeldBackAdder input : queue.wakeInputsOnRoom)
        {
            if (!input.isClosed())
            {
                return true;
            }
        }
        return false;
    }
}
