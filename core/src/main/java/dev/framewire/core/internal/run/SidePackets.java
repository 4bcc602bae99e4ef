package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Timestamp;
import dev.framewire.core.internal.node.Node;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A run's output side packets, as MediaPipe's {@code OutputSidePacketImpl}s: which node produces
 * each, the values calculators set ({@code CalculatorContext.setOutputSidePacket}), and the nodes
 * that wait for them. A node whose input side packets include one produced by a node is not opened
 * until every such side packet is set (MediaPipe's {@code InputSidePacketsReady}); meanwhile it
 * counts as opened for the sources' turn, so that a source may produce what it waits for, as
 * MediaPipe's scheduler runs sources while such a node waits. A producer that closes without setting
 * a side packet some node waits for fails the run, naming both. Each side packet is set at most
 * once per run; a new run (a new {@link Run}) starts with none set.
 *
 * <p>Threading: {@link #set} on the producer's worker; {@link #readyToOpen} and
 * {@link #countedEarly} on the waiting node's worker; {@link #get} from any thread. Values are in a
 * concurrent map; a producer schedules each consumer after its put, so a consumer that looked
 * before the put runs again and sees it (the schedule's full fence, as for packets).
 */
public final class SidePackets
{
    /** Produced side packet name to its producer's node name, in config order. */
    private final Map<String, String> producers = new LinkedHashMap<>();
    /** Produced side packet name to the nodes that take it as an input side packet. */
    private final Map<String, List<Node>> consumers = new HashMap<>();
    /** Node to the produced side packets it takes; nodes taking none are absent. Read-only once made. */
    private final Map<Node, List<String>> waits = new IdentityHashMap<>();
    /** The values set so far. */
    private final Map<String, Object> values = new ConcurrentHashMap<>();
    /** Nodes that waited and were counted as opened for the sources' turn then. */
    private final Set<Node> counted = ConcurrentHashMap.newKeySet();
    private final Run run;

    /**
     * Maps producers and consumers of a graph's own nodes.
     *
     * @throws GraphConfigException naming both nodes if two nodes produce one side packet.
     */
    SidePackets(final Run run, final GraphConfig config, final Node[] nodes)
    {
        this.run = run;
        final List<String> errors = new ArrayList<>();
        for (final NodeConfig node : config.nodes())
        {
            for (final String spec : node.outputSidePackets())
            {
                final StreamSpec parsed = StreamSpec.parse(spec);
                final String name = parsed == null ? spec : parsed.name;
                final String before = producers.putIfAbsent(name, node.name());
                if (before != null)
                {
                    errors.add("output side packet '" + name + "' is set by both node '" + before + "' and node '" +
                        node.name() + "'; give each side packet one producer");
                }
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        for (final Node node : nodes)
        {
            final List<String> produced = new ArrayList<>();
            for (final String spec : node.config.inputSidePackets())
            {
                final String name = StreamSpec.parse(spec).name;
                if (producers.containsKey(name))
                {
                    produced.add(name);
                    consumers.computeIfAbsent(name, n -> new ArrayList<>()).add(node);
                }
            }
            if (!produced.isEmpty())
            {
                waits.put(node, List.copyOf(produced));
            }
        }
    }

    /**
     * The start: gives each node its input side packets' values, from {@code given} by name.
     *
     * @throws IllegalArgumentException naming each node and side packet that has no value (neither
     *         given nor set by a node), or a side packet both given and set by a node.
     */
    void giveInputs(final Node[] nodes, final Map<String, ?> given)
    {
        final List<String> missing = new ArrayList<>();
        RunAssembler.giveSidePackets(nodes, given, this::produces, missing);
        if (!missing.isEmpty())
        {
            throw new IllegalArgumentException("missing side packets: " + String.join("; ", missing) +
                "; given were " + given.keySet());
        }
        checkGiven(given.keySet());
    }

    /** Whether a node of the graph produces the side packet. */
    boolean produces(final String name)
    {
        return producers.containsKey(name);
    }

    /**
     * At the start: refuses side packets given to {@code start} that a node also sets, as MediaPipe
     * refuses a side packet both provided and generated.
     *
     * @throws IllegalArgumentException naming each such side packet and its producer.
     */
    void checkGiven(final Set<String> given)
    {
        final List<String> errors = new ArrayList<>();
        for (final Map.Entry<String, String> e : producers.entrySet())
        {
            if (given.contains(e.getKey()))
            {
                errors.add("side packet '" + e.getKey() + "' is given to start() and also set by node '" + e.getValue() +
                    "'; give it one source");
            }
        }
        if (!errors.isEmpty())
        {
            throw new IllegalArgumentException(String.join("; ", errors));
        }
    }

    /**
     * The node's worker, before opening it: whether every side packet it takes from a node is set;
     * if so they join its side packets. The first time not, it counts as opened for the sources' turn.
     */
    boolean readyToOpen(final Node node)
    {
        final List<String> needs = waits.get(node);
        if (needs == null)
        {
            return true;
        }
        for (final String name : needs)
        {
            if (!values.containsKey(name))
            {
                if (counted.add(node))
                {
                    run.end.onNodeOpened(node);
                }
                return false;
            }
        }
        final Map<String, Object> merged = new HashMap<>(node.sidePackets);
        for (final String name : needs)
        {
            merged.put(name, values.get(name));
        }
        node.sidePackets = merged;
        return true;
    }

    /**
     * For reports, any thread: what an unopened node waits for, {@code " waiting for side packet
     * 'x' of node 'p'"} per side packet not set yet, or "".
     */
    String waitedFor(final Node node)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String name : waits.getOrDefault(node, List.of()))
        {
            if (!values.containsKey(name))
            {
                sb.append(" waiting for side packet '").append(name).append("' of node '").append(producers.get(name))
                    .append('\'');
            }
        }
        return sb.toString();
    }

    /** The node's worker, as it opens: whether it was counted as opened already while it waited. */
    boolean countedEarly(final Node node)
    {
        return counted.contains(node);
    }

    /**
     * The producer's worker, in its calculator's call: sets an output side packet by its tag or name
     * in the node's {@code output_side_packet} list, and schedules the nodes waiting for it.
     *
     * @throws IllegalArgumentException if the node declares no such side packet, or for a null value.
     * @throws IllegalStateException if it was set before in this run.
     */
    public void set(final Node node, final String tagOrName, final Object value)
    {
        final String name = outputName(node, tagOrName);
        if (value == null)
        {
            throw new IllegalArgumentException("node '" + node.name + "': output side packet '" + name +
                "' needs a value, not null");
        }
        if (values.putIfAbsent(name, value) != null)
        {
            throw new IllegalStateException("node '" + node.name + "': output side packet '" + name +
                "' was already set in this run; a side packet is set once per run");
        }
        for (final Node consumer : consumers.getOrDefault(name, List.of()))
        {
            consumer.schedule();
        }
    }

    private static String outputName(final Node node, final String tagOrName)
    {
        for (final String spec : node.config.outputSidePackets())
        {
            final StreamSpec parsed = StreamSpec.parse(spec);
            if (parsed != null && (parsed.name.equals(tagOrName) || parsed.matches(tagOrName)))
            {
                return parsed.name;
            }
        }
        throw new IllegalArgumentException("node '" + node.name + "' declares no output side packet '" + tagOrName +
            "'; it declares " + node.config.outputSidePackets());
    }

    /**
     * The node's worker, as it closes (or is isolated): a side packet it produces and has not set,
     * which a node still waits for, fails the run, naming both (unless the run is stopping already).
     */
    void onNodeClosed(final Node node)
    {
        if (run.runState.stopping)
        {
            return;
        }
        for (final Map.Entry<String, String> e : producers.entrySet())
        {
            if (e.getValue().equals(node.name) && !values.containsKey(e.getKey()))
            {
                for (final Node consumer : consumers.getOrDefault(e.getKey(), List.of()))
                {
                    run.failureHandling.fail(node.name, Timestamp.DONE, new IllegalStateException("node '" + node.name +
                        "' closed without setting output side packet '" + e.getKey() + "', which node '" +
                        consumer.name + "' takes as input side packet and waits for; set it with " +
                        "setOutputSidePacket in open, process or close"));
                    return;
                }
            }
        }
    }

    /**
     * The API graph's {@code outputSidePacket}: the value a node set.
     *
     * @throws IllegalArgumentException if no node produces it, naming those that are produced.
     * @throws IllegalStateException if it is not set (yet, or the run ended without it).
     */
    public Object get(final String name, final String runState)
    {
        final String producer = producers.get(name);
        if (producer == null && values.containsKey(name))
        {
            return values.get(name); // set by a node of a subgraph added at run time
        }
        if (producer == null)
        {
            throw new IllegalArgumentException("no node sets output side packet '" + name +
                "'; the graph's output side packets are " + producers.keySet());
        }
        final Object value = values.get(name);
        if (value == null)
        {
            throw new IllegalStateException("output side packet '" + name + "' is unavailable: node '" + producer +
                "' has not set it; this graph's run is " + runState);
        }
        return value;
    }
}
