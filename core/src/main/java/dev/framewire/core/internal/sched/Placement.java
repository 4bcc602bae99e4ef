package dev.framewire.core.internal.sched;

import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.Scheduling;
import dev.framewire.core.internal.node.Lanes;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.NodeFeeds;
import dev.framewire.core.internal.node.SharedCalls;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.queue.Schedulable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a run's nodes run, decided before the start: each executor's workers (no more than its
 * nodes can keep busy), each node's worker (round robin in topological order), the queues the
 * busy-spinning and yielding workers poll, the executor's shared queues for {@code max_in_flight}
 * nodes, the siblings a {@code STEALING} executor's workers take nodes from and the nodes they may
 * take, and the nodes whose scheduling state may be local to their worker.
 *
 * <p>Threading: the thread that builds the run, before the workers start; {@link #markStealable}
 * also under the hot-plug lock, before a subgraph's nodes are published.
 */
final class Placement
{
    private Placement()
    {
    }

    /**
     * Makes each executor's workers and pins the graph's own nodes to them round-robin in
     * topological order; then each busy-spinning or yielding worker polls the graph-input queues
     * into its nodes itself.
     */
    static void makeWorkers(final Scheduler scheduler)
    {
        final Node[] nodes = scheduler.nodes;
        final Map<String, ExecutorConfig> executors = new LinkedHashMap<>();
        executors.put(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK));
        executors.putAll(scheduler.config.executors());
        for (final Map.Entry<String, ExecutorConfig> e : executors.entrySet())
        {
            final List<Node> members = new ArrayList<>();
            for (final int v : scheduler.topoOrder)
            {
                if (nodes[v].config.executor().equals(e.getKey()))
                {
                    members.add(nodes[v]);
                }
            }
            if (!members.isEmpty())
            {
                placeExecutor(scheduler, e.getKey(), e.getValue(), members);
            }
        }
        for (final InputQueue queue : scheduler.queues)
        {
            final Node consumer = (Node)queue.consumer;
            if (queue.producer == null && consumer != null && consumer.shared == null && Worker.of(consumer).polls())
            {
                Worker.of(consumer).poll(queue);
            }
        }
    }

    /** One executor's workers, and its nodes dealt to them. */
    private static void placeExecutor(
        final Scheduler scheduler, final String name, final ExecutorConfig executor, final List<Node> members)
    {
        int calls = 0; // a max_in_flight node may keep that many workers busy
        for (final Node member : members)
        {
            calls += member.config.maxInFlight();
        }
        final int count = Math.min(executor.workers(), calls);
        final int[] cpus = executor.cpus();
        final Worker[] group = new Worker[count];
        for (int w = 0; w < count; w++)
        {
            group[w] = new Worker(scheduler, scheduler.workers.size(), "framewire-" + name + "-" + w, name,
                members.size(), executor, w < cpus.length ? cpus[w] : -1);
            scheduler.workers.add(group[w]);
        }
        for (int m = 0; m < members.size(); m++)
        {
            final Node member = members.get(m);
            final Worker worker = group[m % count];
            member.worker = worker;
            worker.placed++;
            member.runningOn = worker;
            if (member.isSource)
            {
                worker.addSource(member);
            }
        }
        bindLanes(members, group);
        if (count == 1)
        {
            group[0].steals = false; // no sibling to lend to or borrow from: as PINNED, at no cost
        }
        else if (executor.scheduling() == Scheduling.STEALING)
        {
            for (final Worker worker : group)
            {
                final List<Worker> others = new ArrayList<>(List.of(group));
                others.remove(worker);
                worker.siblings = others.toArray(new Worker[0]);
                worker.fruitless = new long[worker.siblings.length];
            }
            members.forEach(Placement::markStealable);
        }
    }

    /**
     * A node of a {@code STEALING} executor, before it runs: a sibling of its worker may run it,
     * unless it is a source (its retries are its worker's) or has {@code max_in_flight} (its steps
     * go through the executor's shared queues already).
     */
    static void markStealable(final Node node)
    {
        final Worker worker = Worker.of(node);
        node.stealable = worker != null && worker.steals && !node.isSource && node.shared == null;
    }

    /**
     * Gives each {@code max_in_flight} node its lanes, and the executor's workers the queues they
     * share for those nodes' steps and calls.
     */
    private static void bindLanes(final List<Node> members, final Worker[] group)
    {
        int nodes = 0;
        int lanes = 0;
        for (final Node member : members)
        {
            if (member.config.maxInFlight() > 1)
            {
                nodes++;
                lanes += member.config.maxInFlight();
            }
        }
        if (nodes == 0)
        {
            return;
        }
        final SharedCalls shared = new SharedCalls(group, nodes, lanes);
        for (final Worker worker : group)
        {
            worker.shared = shared;
        }
        for (final Node member : members)
        {
            final int calls = member.config.maxInFlight();
            if (calls > 1)
            {
                member.shared = shared;
                member.lanes = new Lanes(member, shared, calls);
            }
        }
    }

    /**
     * Before the workers start, once backpressure is wired: the nodes that only their own worker
     * schedules get a local state, with no atomic operation per run ({@code ScheduleState.makeLocal()});
     * and the nodes fed only from their own worker are marked for the journal
     * ({@link NodeFeeds#inputsAllFromItsWorker}). A stealable node is neither: it may run on a sibling.
     */
    static void makeLocalNodes(final Scheduler scheduler)
    {
        final Set<Node> heldBack = Collections.newSetFromMap(new IdentityHashMap<>());
        for (final InputQueue queue : scheduler.queues)
        {
            for (final Schedulable node : queue.wakeOnRoom)
            {
                heldBack.add((Node)node);
            }
        }
        for (final Node node : scheduler.nodes)
        {
            if (node.stealable)
            {
                continue;
            }
            if (NodeFeeds.schedulesOnlyFromItsWorker(node, heldBack))
            {
                node.makeLocal();
            }
            node.inputsFromItsWorker = NodeFeeds.inputsAllFromItsWorker(node);
            node.oneInputHandedOver = NodeFeeds.oneInputFromAnotherThread(node);
        }
    }
}
