package dev.framewire.core.internal.run;

import dev.framewire.core.Backpressure;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.PacketObserver;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.node.SubgraphState;
import dev.framewire.core.internal.queue.InputQueue;
import dev.framewire.core.internal.stream.GraphInput;
import dev.framewire.core.internal.stream.InputPort;
import dev.framewire.core.internal.stream.OutputStream;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Makes a plan's nodes, graph inputs, output streams, queues and input ports and wires them to one
 * another: the one way a run is assembled, for the run's own plan before its start ({@link Run}) and
 * for a hot-plugged subgraph's under the hot-plug lock ({@link Hotplug}). What differs between the two
 * comes in as arguments: where node ids start, the subgraph the nodes belong to, the streams a
 * subgraph is bound to (their producers are the graph's own), and where each queue goes
 * ({@link QueueSink}).
 *
 * <p>Threading: the thread that builds the run, or the one holding the hot-plug lock; nothing it makes
 * is shared yet.
 */
final class RunAssembler
{
    /** Where a new queue goes once made: attached to its producer now, or bound later by the producer's thread. */
    interface QueueSink
    {
        /** {@code queue} consumes {@code producer}'s stream; {@code bound} when the producer is the graph's own, running. */
        void add(OutputStream producer, InputQueue queue, boolean bound);
    }

    /** Resolves a bound stream (a graph input of a subgraph's plan that is the graph's own stream) to its sources. */
    interface BoundSources
    {
        /** Adds the nodes and graph inputs upstream of the graph's own {@code stream}. */
        void addSources(String stream, Set<Node> nodes, Set<GraphInput> inputs);
    }

    private final RunState runState;
    private final GraphConfig config;

    /**
     * @param runState what every node and stream is handed of the run.
     * @param config   the graph's config: its queue hard cap and room batch hold for subgraphs too.
     */
    RunAssembler(final RunState runState, final GraphConfig config)
    {
        this.runState = runState;
        this.config = config;
    }

    /** The plan's nodes, with ids from {@code firstId}, belonging to {@code subgraph} (null for the graph's own). */
    Node[] nodes(final GraphPlan plan, final int firstId, final SubgraphState subgraph)
    {
        final Node[] nodes = new Node[plan.nodeCount];
        for (int i = 0; i < plan.nodeCount; i++)
        {
            nodes[i] = new Node(runState, firstId + i, plan.config.nodes().get(i), plan.calculators[i], plan.options[i],
                plan.contracts[i], plan.inputSpecs[i].length == 0, subgraph);
        }
        return nodes;
    }

    /**
     * Makes the plan's graph inputs (but those in {@code bound}, whose producers {@code producers}
     * already holds), the nodes' output streams and, for each node input, its queue and port; then the
     * nodes' input policies and topological indexes.
     *
     * @param producers stream name to producer: filled with what is made here.
     * @return the graph inputs in the plan's order, null for a bound stream.
     */
    GraphInput[] wire(
        final GraphPlan plan, final Node[] nodes, final int firstId, final Map<String, OutputStream> producers,
        final Set<String> bound, final QueueSink sink)
    {
        final GraphInput[] inputs = new GraphInput[plan.config.inputStreams().size()];
        for (int k = 0; k < inputs.length; k++)
        {
            final String stream = plan.config.inputStreams().get(k);
            if (!bound.contains(stream))
            {
                inputs[k] = new GraphInput(runState, stream);
                producers.put(stream, inputs[k].stream);
            }
        }
        for (final Node node : nodes)
        {
            final StreamSpec[] specs = plan.outputSpecs[node.id - firstId];
            node.outputs = new OutputStream[specs.length];
            for (int o = 0; o < specs.length; o++)
            {
                node.outputs[o] = new OutputStream(runState, node, o, specs[o]);
                producers.put(specs[o].name, node.outputs[o]);
            }
        }
        for (final Node node : nodes)
        {
            final int local = node.id - firstId;
            final StreamSpec[] specs = plan.inputSpecs[local];
            node.inputs = new InputPort[specs.length];
            for (int p = 0; p < specs.length; p++)
            {
                final int producer = plan.producers.get(specs[p].name);
                final OutputStream stream = producers.get(specs[p].name);
                final InputQueue queue = new InputQueue(specs[p].name, producer >= 0 ? nodes[producer] : stream.node,
                    node, p, plan.backEdges[local][p], config.queueHardCap(), plan.queueLimit(specs[p].name),
                    config.roomBatch());
                sink.add(stream, queue, bound.contains(specs[p].name));
                node.inputs[p] = new InputPort(node, p, specs[p], queue);
            }
            node.initInputs();
        }
        for (int t = 0; t < plan.topoOrder.length; t++)
        {
            nodes[plan.topoOrder[t]].topoIndex = t;
        }
        return inputs;
    }

    /**
     * Who waits on which of {@code queues}, before any of them is used: each queue holds back the
     * sources upstream of its stream (MediaPipe's rule) and, under {@code ALL_NODES} backpressure, its
     * producer (BMF's). The plan's node {@code i} is {@code planNodes[i]} and its graph input
     * {@code k} is {@code planInputs[k]}, or null for a stream bound to the graph's own, which
     * {@code bound} resolves. A node or graph input of the plan is handed the queues that hold it back
     * now; one outside it (upstream of a bound stream, the graph's own, running) is put in
     * {@code otherNodes} or {@code otherInputs}, for the caller to tell it on its own thread.
     */
    void holdBack(
        final Iterable<InputQueue> queues, final GraphPlan plan, final Node[] planNodes, final GraphInput[] planInputs,
        final BoundSources bound, final Map<Node, InputQueue[]> otherNodes,
        final Map<GraphInput, InputQueue[]> otherInputs)
    {
        final Map<Node, List<InputQueue>> nodeQueues = new LinkedHashMap<>();
        final Map<GraphInput, List<InputQueue>> inputQueues = new LinkedHashMap<>();
        listHeldBack(queues, plan, planNodes, planInputs, bound, nodeQueues, inputQueues);
        final List<Node> ownNodes = Arrays.asList(planNodes);
        final List<GraphInput> ownInputs = Arrays.asList(planInputs);
        nodeQueues.forEach((node, list) ->
        {
            if (ownNodes.contains(node))
            {
                node.throttleQueues = list.toArray(new InputQueue[0]);
            }
            else
            {
                otherNodes.put(node, list.toArray(new InputQueue[0]));
            }
        });
        inputQueues.forEach((input, list) ->
        {
            if (ownInputs.contains(input))
            {
                input.throttleQueues = list.toArray(new InputQueue[0]);
            }
            else
            {
                otherInputs.put(input, list.toArray(new InputQueue[0]));
            }
        });
    }

    /** Tells each queue whom it holds back, and lists the queues by whom they hold back. */
    private void listHeldBack(
        final Iterable<InputQueue> queues, final GraphPlan plan, final Node[] planNodes, final GraphInput[] planInputs,
        final BoundSources bound, final Map<Node, List<InputQueue>> nodeQueues,
        final Map<GraphInput, List<InputQueue>> inputQueues)
    {
        for (final InputQueue queue : queues)
        {
            if (queue.backEdge)
            {
                continue;
            }
            final Set<Node> wakeNodes = new LinkedHashSet<>();
            final Set<GraphInput> wakeInputs = new LinkedHashSet<>();
            addSources(queue.streamName, plan, planNodes, planInputs, bound, wakeNodes, wakeInputs);
            if (config.backpressure() == Backpressure.ALL_NODES && queue.producer != null && !((Node)queue.producer).isSource)
            {
                wakeNodes.add((Node)queue.producer);
            }
            for (final Node node : wakeNodes)
            {
                nodeQueues.computeIfAbsent(node, n -> new ArrayList<>()).add(queue);
            }
            for (final GraphInput input : wakeInputs)
            {
                inputQueues.computeIfAbsent(input, n -> new ArrayList<>()).add(queue);
            }
            queue.holdsBack(wakeNodes.toArray(new Node[0]), wakeInputs.toArray(new GraphInput[0]));
        }
    }

    /** Adds the nodes and graph inputs upstream of {@code stream} in {@code plan} (see {@link #holdBack}). */
    static void addSources(
        final String stream, final GraphPlan plan, final Node[] planNodes, final GraphInput[] planInputs,
        final BoundSources bound, final Set<Node> nodes, final Set<GraphInput> inputs)
    {
        for (final int source : plan.sourcesOfStream(stream))
        {
            if (source >= 0)
            {
                nodes.add(planNodes[source]);
            }
            else if (planInputs[-1 - source] != null)
            {
                inputs.add(planInputs[-1 - source]);
            }
            else
            {
                bound.addSources(plan.config.inputStreams().get(-1 - source), nodes, inputs);
            }
        }
    }

    /**
     * Gives each node the values of its input side packets, from {@code values} by name; a side packet
     * neither there nor {@code available} (set by a node) is listed in {@code missing}.
     */
    static void giveSidePackets(
        final Node[] nodes, final Map<String, ?> values, final Predicate<String> available, final List<String> missing)
    {
        for (final Node node : nodes)
        {
            final Map<String, Object> given = new HashMap<>();
            for (final String spec : node.config.inputSidePackets())
            {
                final String name = StreamSpec.parse(spec).name;
                if (!values.containsKey(name) && !available.test(name))
                {
                    missing.add("node '" + node.name + "' needs side packet '" + name + "', neither given to start() " +
                        "nor set by a node");
                }
                given.put(name, values.get(name));
            }
            node.sidePackets = given;
        }
    }

    /** Before the producer runs: {@code queue} consumes its stream, and joins {@code into}. */
    static void attach(final OutputStream producer, final InputQueue queue, final List<InputQueue> into)
    {
        producer.mirrors = Arrays.copyOf(producer.mirrors, producer.mirrors.length + 1);
        producer.mirrors[producer.mirrors.length - 1] = queue;
        into.add(queue);
    }

    /** Before the producer runs: {@code observer} sees its packets too. */
    static void observe(final OutputStream producer, final PacketObserver observer)
    {
        producer.observers = Arrays.copyOf(producer.observers, producer.observers.length + 1);
        producer.observers[producer.observers.length - 1] = observer;
    }
}
