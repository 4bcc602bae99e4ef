package dev.framewire.core.internal.run;

import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SubgraphState;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.OutputStream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subgraph added to a running graph ({@link Graph#addSubgraph}): its nodes, its graph inputs and
 * queues, and where it is in its life: opening, running, draining, cancelled, detached.
 *
 * <p>It is self-contained: its boundary inputs are graph input streams of its own and its boundary
 * outputs graph output streams of its own, so no stream of the rest of the graph gains or loses a
 * consumer, no node of the rest gains or loses an input, and backpressure, bounds and failures
 * stay inside it. What the running graph shares with it is its workers and its node list.
 *
 * <p>Threading: made and published by the thread calling {@code addSubgraph}, under the graph's
 * hot-plug lock, before any of its nodes is scheduled (the nodes' first enqueue, a CAS on an MPSC
 * inbox, publishes it to their workers). {@link #draining} and {@link #cancelled} are set by the
 * removing thread and read by the nodes' workers; the counters are touched by the workers as nodes
 * open and close; {@link #removal} is guarded by the hot-plug lock.
 */
public final class Subgraph extends SubgraphState
{
    public final String name;
    public final Run graph;
    public final SubgraphExpander.Instance instance;
    /** The subgraph alone, its boundary streams as graph streams: its calculators, specs and order. */
    public final GraphPlan plan;
    public Node[] nodes;
    public Node[] sources;
    public GraphInput[] inputs;
    public final List<InputQueue> queues = new ArrayList<>();
    /** Completes once every node has opened (or was cancelled before it could). */
    public final CompletableFuture<Void> opened = new CompletableFuture<>();
    /** Set by {@link Graph#removeSubgraph}, under the hot-plug lock; null while not being removed. */
    public CompletableFuture<SubgraphRemoval> removal;
    /** Template inputs bound to streams of the graph's own: each producer gains a queue while the subgraph is in. */
    public final List<Binding> bindings = new ArrayList<>();
    /** Nodes of the graph's own held back by this subgraph's queues too (upstream of a binding), and by which. */
    public final java.util.Map<Node, InputQueue[]> nodeThrottles = new java.util.HashMap<>();
    /** Graph inputs of the graph's own whose adders this subgraph's queues hold back too, and by which. */
    public final java.util.Map<GraphInput, InputQueue[]> inputThrottles = new java.util.HashMap<>();
    private final java.util.concurrent.atomic.AtomicBoolean unbinding = new java.util.concurrent.atomic.AtomicBoolean();
    /** Counts down two events, every node closed and every binding undone: then it can leave. */
    private final AtomicInteger gate = new AtomicInteger(2);
    private final AtomicInteger unopened;
    private final AtomicInteger open;

    public Subgraph(final Run graph, final String name, final SubgraphExpander.Instance instance, final GraphPlan plan)
    {
        this.graph = graph;
        this.name = name;
        this.instance = instance;
        this.plan = plan;
        this.unopened = new AtomicInteger(plan.nodeCount);
        this.open = new AtomicInteger(plan.nodeCount);
    }

    /** A node's worker: the node opened, or counts as opened (failed or cancelled before). */
    public void onNodeOpened()
    {
        if (unopened.decrementAndGet() == 0)
        {
            allOpened = true;
            for (final Node source : sources)
            {
                source.schedule();
            }
            if (cancelled)
            {
                OffWorker.complete(opened, null, new IllegalStateException("subgraph '" + name + "' was " +
                    "removed before all its nodes opened"));
            }
            else
            {
                OffWorker.complete(opened, null, null);
            }
        }
    }

    /**
     * A node's worker: the node closed (or failed, or was cancelled).
     *
     * @return true if it was the subgraph's last open node.
     */
    public boolean onNodeClosed()
    {
        return open.decrementAndGet() == 0;
    }

    /** Whether this call is the first to start undoing the bindings. */
    boolean startUnbinding()
    {
        return unbinding.compareAndSet(false, true);
    }

    /** Whether this event (all closed, or all unbound) was the second: the subgraph may leave. */
    boolean passGate()
    {
        return gate.decrementAndGet() == 0;
    }

    /** Nodes not closed yet. */
    int openNodes()
    {
        return open.get();
    }

    /** Packets its nodes dropped, counted so far. */
    public long droppedPackets()
    {
        long dropped = 0;
        for (final Node node : nodes)
        {
            dropped += node.drops;
        }
        return dropped;
    }

    /**
     * Any thread, after the cancel deadline passed: why the subgraph is still there, node by node.
     */
    String stuckReport(final long deadlineMillis)
    {
        final StringBuilder sb = new StringBuilder("subgraph '").append(name).append("' was not removed within its ")
            .append(deadlineMillis).append(" ms cancel deadline:");
        for (final Node node : nodes)
        {
            if (node.lifecycle == Node.CLOSED || node.lifecycle >= Node.FAILED)
            {
                continue;
            }
            final Worker worker = Worker.of(node);
            final Node current = worker.current();
            sb.append("\n  node '").append(node.name).append("' ");
            if (current == node)
            {
                sb.append("is in a call (input timestamp ").append(Timestamp.toString(node.inputTimestamp))
                    .append(") on worker ").append(worker.name).append(" that has not returned");
            }
            else
            {
                sb.append("is ").append(node.lifecycle == Node.UNOPENED ? "not opened yet" : "open").append(", waiting ")
                    .append("for worker ").append(worker.name).append(current == null ? "" :
                    ", which is in a call of " + current);
            }
        }
        sb.append("\nThe subgraph stays cancelled: each node closes at its next step, and the subgraph leaves the " +
            "graph (its name becomes free) once the last has. A calculator whose calls can block should return " +
            "when CalculatorContext.isCancelled() says so.");
        return sb.toString();
    }

    /**
     * A template input bound to a stream of the graph's own: its producer (a node's output, or a
     * graph input's stream, then {@code input} is that graph input) and the queue it feeds.
     */
    public static final class Binding
    {
        public final OutputStream producer;
        public final GraphInput input;
        public final InputQueue queue;

        Binding(final OutputStream producer, final GraphInput input, final InputQueue queue)
        {
            this.producer = producer;
            this.input = input;
            this.queue = queue;
        }

        /**
         * The adding thread, after the subgraph is published: the producer starts feeding the
         * queue. A node's output is changed by the node's worker (a command), a graph input's
         * stream under its guard, here: done before any {@link #detach} can be asked for.
         */
        public void attach()
        {
            if (input != null)
            {
                input.attachMirror(queue);
            }
            else
            {
                producer.node.worker.submit(() -> producer.attachMirror(queue));
            }
        }

        /**
         * Any thread: the producer stops feeding the queue and closes it, then {@code then} runs.
         * After {@link #attach} in every case: a node's commands run in order, and a graph input's
         * attach was done when the subgraph was added.
         */
        public void detach(final Runnable then)
        {
            if (input != null)
            {
                CompletableFuture.runAsync(() -> // the guard is a spin lock: never taken on a worker
                {
                    input.detachMirror(queue);
                    then.run();
                }, OffWorker.EXECUTOR);
            }
            else
            {
                producer.node.worker.submit(() ->
                {
                    producer.detachMirror(queue);
                    then.run();
                });
            }
        }
    }

    @Override
    public String toString()
    {
        return "subgraph '" + name + "'";
    }
}
