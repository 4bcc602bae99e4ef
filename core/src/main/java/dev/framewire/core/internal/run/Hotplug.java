package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRemoval;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.OutputStream;

import dev.framewire.core.journal.JournalSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A running graph's subgraphs added at run time ({@link Graph#addSubgraph},
 * {@link Graph#removeSubgraph}): it checks an addition against the graph as it would be after it,
 * places the subgraph's nodes on the workers, builds its nodes, streams and queues, publishes them
 * into the graph's copy-on-write node, source and graph input lists, and, when the subgraph is
 * removed or its nodes all close, unbinds it, detaches it from its workers and takes it out. One
 * per graph, made by the graph's constructor; the graph's public methods delegate to it. See
 * {@code docs/HOTPLUG.md}.
 *
 * <p>Threading: {@link #add}, {@link #remove} and {@link #names} are called from any thread
 * (the application's); the changes they make are made one at a time under the hot-plug lock, the
 * monitor of {@link #subgraphs}, which no worker ever takes. {@link #onSubgraphClosed} is called
 * by the worker of a subgraph's last node to close; it and what follows from it (unbinding on the
 * bound streams' producers' threads, detaching on each node's worker) hand the steps that take the
 * hot-plug lock ({@link #leave}, {@link #endSubgraphFutures}) to {@link OffWorker}, so a worker
 * never waits for an addition being validated. {@link #onRunFinished} is called by whichever
 * thread ends the run. Nothing here is on the per-packet path.
 */
public final class Hotplug
{
    /** Graph's logger, as before the hot-plug code left Graph: a user's logging set-up names that category. */
    private static final Logger LOG = LoggerFactory.getLogger("dev.framewire.core.Graph"); // the name users know
    private final Run graph;
    private final GraphConfig config;
    /** The graph's own streams' producers: what a subgraph's bound input may consume. Read only after the start. */
    private final Map<String, OutputStream> producers;
    /**
     * The run's workers, nodes, sources and queues: a subgraph's nodes and queues are added and
     * removed under the hot-plug lock.
     */
    private final Scheduler scheduler;
    /** Places a subgraph on the workers and makes its nodes, streams and queues. */
    private final SubgraphBuilder builder;
    /**
     * The subgraphs added at run time, by name, until they have left. Its monitor is the hot-plug
     * lock: additions and removals are made one at a time under it, and it guards the graph's
     * copy-on-write node, source and graph input lists, {@link #nextNodeId}, {@link Worker#placed}
     * and {@link Subgraph#removal}.
     */
    private final Map<String, Subgraph> subgraphs = new LinkedHashMap<>();
    /** The id the next hot-plugged node gets: ids are never reused in a run. */
    private int nextNodeId;
    /** Set before the first subgraph is published; {@link #onRunFinished()} then ends the subgraphs' futures. */
    private volatile boolean hotplugged;
    /** Numbers and records the subgraphs added at run time when the run is journaled; under the hot-plug lock. */
    private final SubgraphJournal subgraphJournal;
    /** The analysis of the graph with its subgraphs as it is now; null until one is added. */
    private volatile PlanAnalysis currentAnalysis;

    /**
     * The graph's constructor, once the graph's own nodes are made.
     *
     * @param streamIds the graph's stream name to journal stream id map, which the subgraphs' streams join.
     * @param assembler the run's assembler, which makes a subgraph's nodes and streams as it made the graph's.
     */
    public Hotplug(
        final Run graph, final GraphConfig config, final GraphPlan plan, final Node[] ownNodes,
        final Map<String, OutputStream> producers, final Scheduler scheduler, final Map<String, Integer> streamIds,
        final RunAssembler assembler)
    {
        this.graph = graph;
        this.config = config;
        this.producers = producers;
        this.scheduler = scheduler;
        this.nextNodeId = plan.nodeCount;
        this.builder = new SubgraphBuilder(graph, config, plan, ownNodes, producers, scheduler, assembler);
        this.subgraphJournal = new SubgraphJournal(streamIds);
    }

    /** Any thread: {@link Graph#addSubgraph(String, GraphConfig, Map, Map, Map)}. */
    public CompletableFuture<Void> add(
        final String name, final GraphConfig template, final Map<String, ?> params,
        final Map<String, PacketObserver> observers, final Map<String, String> bind)
    {
        java.util.Objects.requireNonNull(bind, "bind");
        java.util.Objects.requireNonNull(template, "template");
        java.util.Objects.requireNonNull(params, "params");
        java.util.Objects.requireNonNull(observers, "observers");
        if (name == null || !SubgraphExpander.INSTANCE_NAME.matcher(name).matches())
        {
            throw new IllegalArgumentException("subgraph name '" + name + "' is invalid: it prefixes the names of " +
                "the subgraph's nodes and streams (name__node), so it must match [a-z_][a-z0-9_]*");
        }
        final Subgraph subgraph;
        synchronized (subgraphs)
        {
            checkRunning("addSubgraph");
            if (subgraphs.containsKey(name))
            {
                throw new IllegalArgumentException("addSubgraph(): the graph has a subgraph named '" + name + "'" +
                    (subgraphs.get(name).removal != null ? ", still being removed" : "") + "; its subgraphs are " +
                    subgraphs.keySet() + "; give another name, or remove it first");
            }
            final SubgraphExpander.Instance instance = SubgraphExpander.instantiate(name, template, params, bind);
            checkBindings(name, instance);
            for (final String stream : observers.keySet())
            {
                if (!instance.outputs.contains(name + SubgraphExpander.SEPARATOR + stream))
                {
                    throw new IllegalArgumentException("addSubgraph(): subgraph '" + name + "' has no output stream '" +
                        stream + "' to observe; its output streams are " + template.outputStreams());
                }
            }
            final GraphConfig after = topologyWith(instance, null);
            final PlanAnalysis analysisAfter = new PlanAnalysis(new GraphPlan(after, true));
            final GraphPlan alone;
            try
            {
                final List<String> aloneInputs = new ArrayList<>(instance.inputs);
                aloneInputs.addAll(instance.bound); // seen from inside, a bound stream is an input like the others
                alone = new GraphPlan(config.withTopology(aloneInputs, instance.outputs, instance.nodes,
                    instance.queueSizes), graph.pool());
            }
            catch (final GraphConfigException ex)
            {
                final List<String> errors = new ArrayList<>();
                for (final String error : ex.errors())
                {
                    errors.add("subgraph '" + name + "': " + error);
                }
                throw new GraphConfigException(errors);
            }
            subgraph = new Subgraph(graph, name, instance, alone);
            final Map<Worker, Integer> placement = builder.place(subgraph);
            builder.build(subgraph, placement, observers, nextNodeId);
            if (!graph.end.reserve(alone.nodeCount))
            {
                throw new IllegalStateException("addSubgraph(): " + (graph.isFinished() || graph.isStopping() ?
                    "this graph's run is " + graph.runState() : "every node of the graph has closed, so its run is " +
                    "ending") + "; subgraphs join a run while at least one of its nodes is open");
            }
            placement.forEach((worker, count) -> worker.placed += count);
            hotplugged = true;
            final JournalSink journal = graph.runState.journal;
            if (journal != null)
            {
                subgraphJournal.added(journal, subgraph, template, params, bind); // before any record names its ids
            }
            publish(subgraph, analysisAfter);
        }
        if (graph.isFinished())
        {
            // the run ended (a failure, a cancel) as this was published: its futures end with it
            OffWorker.run(this::endSubgraphFutures);
        }
        for (final Node source : subgraph.sources)
        {
            source.worker.submit(() -> Worker.of(source).addSourceNow(source));
        }
        // the graph's own sources learn of the new queues they must not overfill before the queues are fed
        subgraph.nodeThrottles.forEach((node, queues) -> node.worker.submit(() -> node.addThrottles(queues)));
        subgraph.inputThrottles.forEach(GraphInput::addThrottles);
        for (final Subgraph.Binding binding : subgraph.bindings)
        {
            binding.attach();
        }
        for (final Node node : subgraph.nodes)
        {
            node.schedule(); // its worker opens it: the enqueue publishes the node to the worker
        }
        return subgraph.opened.copy();
    }

    /** Any thread: {@link Graph#removeSubgraph(String, java.time.Duration, java.time.Duration)}. */
    public CompletableFuture<SubgraphRemoval> remove(
        final String name, final java.time.Duration drainDeadline, final java.time.Duration cancelDeadline)
    {
        if (drainDeadline.isNegative() || cancelDeadline.isNegative())
        {
            throw new IllegalArgumentException("removeSubgraph(): deadlines are zero or more, were " + drainDeadline +
                " and " + cancelDeadline);
        }
        final Subgraph subgraph;
        final CompletableFuture<SubgraphRemoval> removal = new CompletableFuture<>();
        synchronized (subgraphs)
        {
            checkRunning("removeSubgraph");
            subgraph = subgraphs.get(name);
            if (subgraph == null)
            {
                throw new IllegalArgumentException("removeSubgraph(): the graph has no subgraph '" + name + "'; its " +
                    "subgraphs are " + subgraphs.keySet());
            }
            if (subgraph.removal != null)
            {
                throw new IllegalStateException("removeSubgraph(): subgraph '" + name + "' is being removed already");
            }
            subgraph.removal = removal;
            final JournalSink journal = graph.runState.journal;
            if (journal != null)
            {
                SubgraphJournal.removed(journal, name, drainDeadline, cancelDeadline);
            }
        }
        if (drainDeadline.isZero())
        {
            cancel(subgraph, cancelDeadline);
        }
        else
        {
            subgraph.draining = true;
            for (final GraphInput input : subgraph.inputs)
            {
                input.close();
            }
            unbind(subgraph); // each bound input closes as its producer lets it go
            java.lang.invoke.VarHandle.fullFence(); // draining before the sources' states: see Node.schedule()
            for (final Node source : subgraph.sources)
            {
                source.schedule();
            }
            OffWorker.unlessDoneWithin(removal, drainDeadline, () -> cancel(subgraph, cancelDeadline));
        }
        return removal.copy();
    }

    /** Any thread: {@link Graph#subgraphs()}, the subgraphs' names in the order they were added. */
    public List<String> names()
    {
        synchronized (subgraphs)
        {
            return List.copyOf(subgraphs.keySet());
        }
    }

    /** Any thread: the analysis of the graph with its subgraphs as it is now; null until one was added. */
    public PlanAnalysis currentAnalysis()
    {
        return currentAnalysis;
    }

    /**
     * The worker of a subgraph's last node to close: its bound inputs go, if a removal did not take
     * them yet, and it leaves the graph once they have.
     */
    void onSubgraphClosed(final Subgraph subgraph)
    {
        unbind(subgraph); // it closed by itself: its bound inputs go, if a removal did not take them yet
        if (subgraph.passGate())
        {
            detach(subgraph);
        }
    }

    /** The thread that ends the run: the futures of additions and removals still waited on end with it. */
    void onRunFinished()
    {
        if (hotplugged) // see add(): one of the two sees the other
        {
            // off the worker: it takes the hot-plug lock
            OffWorker.run(this::endSubgraphFutures);
        }
    }

    /** Any thread: cancels a subgraph being removed, and gives up on it after the deadline. */
    private void cancel(final Subgraph subgraph, final java.time.Duration deadline)
    {
        subgraph.draining = true;
        subgraph.cancelled = true;
        for (final GraphInput input : subgraph.inputs)
        {
            input.close();
        }
        unbind(subgraph);
        java.lang.invoke.VarHandle.fullFence(); // cancelled before the nodes' states: see Node.schedule()
        for (final Node node : subgraph.nodes)
        {
            node.schedule();
        }
        final CompletableFuture<SubgraphRemoval> removal = subgraph.removal;
        OffWorker.unlessDoneWithin(removal, deadline, () -> removal.completeExceptionally(
            new java.util.concurrent.TimeoutException(subgraph.stuckReport(deadline.toMillis()))));
    }

    /** Under the hot-plug lock: an add or remove needs a run that has started and not ended. */
    private void checkRunning(final String what)
    {
        if (!graph.isStarted())
        {
            throw new IllegalStateException(what + "() needs a running graph: call it after start(). A subgraph " +
                "known before the start belongs in the config (a node whose calculator is a registered subgraph " +
                "type, see SubgraphExpander)");
        }
        if (graph.isFinished() || graph.isStopping())
        {
            throw new IllegalStateException(what + "(): this graph's run is " + graph.runState());
        }
    }

    /**
     * Under the hot-plug lock: each bound stream is the graph's own (not another subgraph's, whose
     * life is shorter) and its producer runs one call at a time, so one thread owns its consumers.
     */
    private void checkBindings(final String name, final SubgraphExpander.Instance instance)
    {
        final List<String> errors = new ArrayList<>();
        for (final String stream : instance.bound)
        {
            final OutputStream producer = producers.get(stream);
            if (producer == null)
            {
                errors.add("subgraph '" + name + "': an input stream is bound to '" + stream + "', which is not a " +
                    "stream of the graph's own config (a subgraph consumes streams the graph was made with, not " +
                    "another subgraph's); the graph's streams are " + new java.util.TreeSet<>(producers.keySet()));
            }
            else if (producer.node != null && producer.node.shared != null)
            {
                errors.add("subgraph '" + name + "': an input stream is bound to '" + stream + "', produced by node '" +
                    producer.node.name + "' with max_in_flight " + producer.node.config.maxInFlight() + "; a bound " +
                    "stream's producer must run one call at a time (max_in_flight 1)");
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
    }

    /**
     * The graph's topology with every present subgraph, plus {@code adding}, less {@code leaving}:
     * what validation and the analyser look at before a change is made.
     */
    private GraphConfig topologyWith(final SubgraphExpander.Instance adding, final Subgraph leaving)
    {
        final List<String> in = new ArrayList<>(config.inputStreams());
        final List<String> out = new ArrayList<>(config.outputStreams());
        final List<NodeConfig> all = new ArrayList<>(config.nodes());
        final Map<String, Integer> sizes = new LinkedHashMap<>(config.streamQueueSizes());
        final List<SubgraphExpander.Instance> instances = new ArrayList<>();
        for (final Subgraph present : subgraphs.values())
        {
            if (present != leaving)
            {
                instances.add(present.instance);
            }
        }
        if (adding != null)
        {
            instances.add(adding);
        }
        for (final SubgraphExpander.Instance instance : instances)
        {
            in.addAll(instance.inputs);
            out.addAll(instance.outputs);
            all.addAll(instance.nodes);
            sizes.putAll(instance.queueSizes);
        }
        return config.withTopology(in, out, all, sizes);
    }

    /** Under the hot-plug lock: the subgraph becomes part of the graph. */
    private void publish(final Subgraph subgraph, final PlanAnalysis analysisAfter)
    {
        nextNodeId += subgraph.nodes.length;
        final Node[] before = scheduler.nodes;
        final Node[] sourcesBefore = scheduler.sourceNodes;
        final Node[] all = Arrays.copyOf(before, before.length + subgraph.nodes.length);
        System.arraycopy(subgraph.nodes, 0, all, before.length, subgraph.nodes.length);
        final Node[] sources = Arrays.copyOf(sourcesBefore, sourcesBefore.length + subgraph.sources.length);
        System.arraycopy(subgraph.sources, 0, sources, sourcesBefore.length, subgraph.sources.length);
        if (subgraph.plan.recordsGraphInputArrivals())
        {
            graph.recordGraphInputArrivals();
        }
        scheduler.queues.addAll(subgraph.queues);
        graph.inputs.publish(subgraph.inputs);
        scheduler.sourceNodes = sources;
        scheduler.nodes = all;
        subgraphs.put(subgraph.name, subgraph);
        currentAnalysis = analysisAfter;
    }

    /**
     * Any thread, once: each producer of a bound stream lets the subgraph's queue go (on its own
     * thread) and closes it; then the graph's own sources stop obeying the subgraph's queues.
     */
    private void unbind(final Subgraph subgraph)
    {
        if (!subgraph.startUnbinding())
        {
            return;
        }
        if (subgraph.bindings.isEmpty())
        {
            onUnbound(subgraph);
            return;
        }
        final AtomicInteger left = new AtomicInteger(subgraph.bindings.size());
        for (final Subgraph.Binding binding : subgraph.bindings)
        {
            binding.detach(() ->
            {
                if (left.decrementAndGet() == 0)
                {
                    onUnbound(subgraph);
                }
            });
        }
    }

    /** Every producer of a bound stream has let the subgraph go: nothing outside feeds it any more. */
    private void onUnbound(final Subgraph subgraph)
    {
        subgraph.nodeThrottles.forEach((node, queues) -> node.worker.submit(() -> node.removeThrottles(queues)));
        if (!subgraph.inputThrottles.isEmpty())
        {
            OffWorker.run(() -> subgraph.inputThrottles.forEach(GraphInput::removeThrottles));
        }
        if (subgraph.passGate())
        {
            detach(subgraph);
        }
    }

    /**
     * The worker of a subgraph's last node to close: every node has closed, so nothing is emitted
     * into its queues any more. Each node's worker releases what is left there and forgets the
     * node; the last to do so takes the subgraph out of the graph.
     */
    private void detach(final Subgraph subgraph)
    {
        final AtomicInteger pending = new AtomicInteger(subgraph.nodes.length);
        for (final Node node : subgraph.nodes)
        {
            final Worker worker = Worker.of(node);
            worker.submit(() ->
            {
                node.releaseAfterRemoval();
                worker.forgetNow(node);
                if (node.isSource)
                {
                    worker.removeSourceNow(node);
                }
                if (pending.decrementAndGet() == 0)
                {
                    // off the worker: leave() takes the hot-plug lock, which an addition holds while it validates
                    OffWorker.run(() -> leave(subgraph));
                }
            });
        }
    }

    /** Once every node was detached, off the workers: the subgraph leaves the graph; its removal completes. */
    private void leave(final Subgraph subgraph)
    {
        synchronized (subgraphs)
        {
            final Set<Node> leaving = Set.of(subgraph.nodes);
            scheduler.nodes = Arrays.stream(scheduler.nodes).filter(n -> !leaving.contains(n)).toArray(Node[]::new);
            scheduler.sourceNodes =
                Arrays.stream(scheduler.sourceNodes).filter(n -> !leaving.contains(n)).toArray(Node[]::new);
            graph.inputs.remove(subgraph.inputs);
            scheduler.queues.removeAll(subgraph.queues);
            for (final Node node : subgraph.nodes)
            {
                Worker.of(node).placed--;
            }
            PlanAnalysis analysisAfter = null;
            try
            {
                analysisAfter = new PlanAnalysis(new GraphPlan(topologyWith(null, subgraph), true));
            }
            catch (final GraphConfigException ex)
            {
                // cannot happen: a graph less a self-contained subgraph is the graph it was before
                LOG.warn("subgraph '{}' left; the graph without it did not validate: {}", subgraph.name, ex.getMessage());
            }
            currentAnalysis = analysisAfter;
            subgraphs.remove(subgraph.name);
            final JournalSink journal = graph.runState.journal;
            if (journal != null)
            {
                subgraphJournal.left(journal, subgraph); // before the name can be taken again
            }
        }
        final CompletableFuture<SubgraphRemoval> removal = subgraph.removal;
        if (removal != null)
        {
            removal.complete(new SubgraphRemoval(subgraph.name, !subgraph.cancelled, subgraph.droppedPackets()));
        }
    }

    /** The run has ended: a subgraph's add or removal still waited on will not complete otherwise. */
    private void endSubgraphFutures()
    {
        final List<Subgraph> present;
        synchronized (subgraphs)
        {
            present = new ArrayList<>(subgraphs.values());
        }
        for (final Subgraph subgraph : present)
        {
            if (!subgraph.opened.isDone())
            {
                OffWorker.complete(subgraph.opened, null, new IllegalStateException("the run ended (" + graph.runState() +
                    ") before every node of subgraph '" + subgraph.name + "' opened"));
            }
            final CompletableFuture<SubgraphRemoval> removal = subgraph.removal;
            if (removal != null && !removal.isDone() && subgraph.openNodes() == 0)
            {
                // the run ended as the subgraph's last node closed, before its workers detached it
                OffWorker.complete(removal, new SubgraphRemoval(subgraph.name, !subgraph.cancelled,
                    subgraph.droppedPackets()), null);
            }
            else if (removal != null && !removal.isDone())
            {
                OffWorker.complete(removal, null, new IllegalStateException("the run ended (" + graph.runState() +
                    ") before subgraph '" + subgraph.name + "' left the graph; " + subgraph.openNodes() +
                    " of its nodes had not closed, and the end of the run released what they held"));
            }
        }
    }
}
