package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.sched.Scheduler;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.OutputStream;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The join side of {@link Hotplug}: places a subgraph's nodes on the workers and makes its nodes,
 * streams and queues with the run's assembler, as the graph's own were made.
 *
 * <p>Threading: under the hot-plug lock ({@link Hotplug}), one subgraph at a time; nothing it
 * makes runs before {@link Hotplug} publishes the subgraph.
 */
final class SubgraphBuilder
{
    private final Run graph;
    private final GraphConfig config;
    /** The graph's own plan. */
    private final GraphPlan plan;
    /** The graph's own nodes, by id. */
    private final Node[] ownNodes;
    /** The graph's own producers by stream name, made before the start. */
    private final Map<String, OutputStream> producers;
    private final Scheduler scheduler;
    /** Makes a subgraph's nodes and streams as it made the graph's own. */
    private final RunAssembler assembler;

    SubgraphBuilder(
        final Run graph, final GraphConfig config, final GraphPlan plan, final Node[] ownNodes,
        final Map<String, OutputStream> producers, final Scheduler scheduler, final RunAssembler assembler)
    {
        this.graph = graph;
        this.config = config;
        this.plan = plan;
        this.ownNodes = ownNodes;
        this.producers = producers;
        this.scheduler = scheduler;
        this.assembler = assembler;
    }

    /**
     * Under the hot-plug lock: each executor's nodes of the subgraph go to that executor's least
     * loaded worker (one worker per executor: a camera's chain hands packets on without a cross-core
     * hop, and cameras spread over the workers).
     *
     * @return the workers chosen and how many nodes each gets.
     * @throws IllegalStateException if an executor has no worker running or no room left.
     */
    Map<Worker, Integer> place(final Subgraph subgraph)
    {
        final GraphPlan plan = subgraph.plan;
        final Map<String, Worker> chosen = new HashMap<>();
        final Map<Worker, Integer> placement = new LinkedHashMap<>();
        for (int i = 0; i < plan.nodeCount; i++)
        {
            final NodeConfig node = plan.config.nodes().get(i);
            if (node.maxInFlight() > 1)
            {
                throw new IllegalStateException("addSubgraph(): node '" + node.name() + "' has max_in_flight " +
                    node.maxInFlight() + "; a subgraph added at run time runs its calls one at a time: give it " +
                    "max_in_flight 1");
            }
            final Worker worker = chosen.computeIfAbsent(node.executor(), this::leastLoaded);
            placement.merge(worker, 1, Integer::sum);
        }
        placement.forEach((worker, count) ->
        {
            if (worker.placed + count > Worker.NODE_SLOTS / 2)
            {
                throw new IllegalStateException("addSubgraph(): worker " + worker.name + " has " + worker.placed +
                    " nodes and subgraph '" + subgraph.name + "' would add " + count + "; a worker takes at most " +
                    Worker.NODE_SLOTS / 2 + ": remove subgraphs, or give the executor more workers");
            }
        });
        return placement;
    }

    private Worker leastLoaded(final String executor)
    {
        Worker best = null;
        for (final Worker worker : scheduler.workers)
        {
            if (worker.executor.equals(executor) && (best == null || worker.placed < best.placed))
            {
                best = worker;
            }
        }
        if (best == null)
        {
            throw new IllegalStateException("addSubgraph(): executor '" + executor + "' has no worker running: a " +
                "graph starts an executor's workers for the nodes of its own config only; give the graph a node on " +
                "executor '" + executor + "', or put the subgraph's nodes on an executor that has one");
        }
        return best;
    }

    /** Under the hot-plug lock: the subgraph's nodes, streams and queues, made by the run's assembler as the graph's were. */
    void build(
        final Subgraph subgraph, final Map<Worker, Integer> placement, final Map<String, PacketObserver> observers,
        final int nextNodeId)
    {
        final GraphPlan plan = subgraph.plan;
        final Map<String, Worker> workerOf = new HashMap<>();
        placement.keySet().forEach(worker -> workerOf.put(worker.executor, worker));
        final Node[] nodes = assembler.nodes(plan, nextNodeId, subgraph);
        // the template's side packets were bound to the parameters by SubgraphExpander.instantiate
        RunAssembler.giveSidePackets(nodes, subgraph.instance.sidePackets, name -> true, new ArrayList<>());
        for (final Node node : nodes)
        {
            node.worker = workerOf.get(node.config.executor());
            node.runningOn = node.worker;
            Scheduler.placedAtRunTime(node); // STEALING: its worker's siblings may run it
        }
        final Map<String, OutputStream> producers = new HashMap<>();
        final java.util.Set<String> bound = new java.util.HashSet<>(subgraph.instance.bound);
        for (final String stream : bound)
        {
            producers.put(stream, this.producers.get(stream)); // the graph's own: made before the start
        }
        final GraphInput[] inputs = assembler.wire(plan, nodes, nextNodeId, producers, bound, (stream, queue, isBound) ->
        {
            if (isBound)
            {
                // attached by the producer's own thread once the subgraph is published (Binding.attach)
                subgraph.queues.add(queue);
                subgraph.bindings.add(new Subgraph.Binding(stream,
                    stream.node == null ? graph.inputs.get(queue.streamName) : null, queue));
            }
            else
            {
                RunAssembler.attach(stream, queue, subgraph.queues);
            }
        });
        observers.forEach((stream, observer) ->
            RunAssembler.observe(producers.get(subgraph.name + SubgraphExpander.SEPARATOR + stream), observer));
        wireBackpressure(subgraph, plan, nodes, inputs);
        subgraph.nodes = nodes;
        subgraph.sources = Arrays.stream(nodes).filter(n -> n.isSource).toArray(Node[]::new);
        subgraph.inputs = Arrays.stream(inputs).filter(java.util.Objects::nonNull).toArray(GraphInput[]::new);
    }

    /**
     * Under the hot-plug lock, before anything of the subgraph runs: who waits on which of its
     * queues, as the run's own queues before its start; but a bound stream (a null in
     * {@code planInputs}) stands for the sources upstream of it in the graph's own plan: those are held
     * back by the subgraph's queues too, which the subgraph remembers ({@link Subgraph#nodeThrottles},
     * {@link Subgraph#inputThrottles}) to tell them when it is published and when it leaves.
     */
    private void wireBackpressure(
        final Subgraph subgraph, final GraphPlan plan, final Node[] planNodes, final GraphInput[] planInputs)
    {
        final GraphInput[] ownInputs = graph.inputs.own(config);
        // a bound stream stands for the sources upstream of it in the graph's own plan
        assembler.holdBack(subgraph.queues, plan, planNodes, planInputs,
            (stream, nodes, inputs) -> RunAssembler.addSources(stream, this.plan, ownNodes, ownInputs, null, nodes, inputs),
            subgraph.nodeThrottles, subgraph.inputThrottles);
    }
}
