package dev.framewire.core.internal.run;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;

import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The static analysis of a graph's structure: sources and sinks, topological
 * layers, a longest path, strict blocks and their strict paths, threatened blocks and the
 * criticality score, and the set of nodes a failure blocks. Used offline by the
 * {@code analyze} tool and at run time by the isolate failure policy.
 *
 * <p>The analysis speaks of blocks, links and sockets. A <em>block</em> is a {@link NodeConfig node};
 * a <em>link</em> is an input stream, whose producer is a node or a graph input. A node's
 * <em>sockets</em> are its inputs grouped by tag: the inputs sharing one TAG
 * ({@code IMAGE:0:a}, {@code IMAGE:1:b}) are one socket with several connections; an untagged input,
 * and a tag used once, is a socket of its own. Back-edge inputs are ignored throughout, as the
 * analysis is over a DAG and a back edge never carries the data a node's run depends on.
 *
 * <p>Liveness: a graph input is always live; a node is live unless it has failed or is
 * blocked. A socket is alive while at least one of its connections comes from a live producer, and a
 * node is blocked when any of its sockets is not alive. Blocked nodes are not live, so blocking
 * propagates breadth first from the failed nodes.
 *
 * <p>Upstream is counted in nodes: a graph input is not an upstream node, so a node fed only by graph
 * inputs has in-degree 0 and sits in layer 0.
 *
 * <p>Threading: immutable once made; every method may be called from any thread.
 */
public final class PlanAnalysis
{
    private final GraphConfig config;
    private final String[] names;
    private final Map<String, Integer> indexByName;
    /** Per node, per socket: its producers, a node index or a negative graph input id (never dead). */
    private final int[][][] sockets;
    /** Per node: the distinct upstream node indexes, ascending (config order). */
    private final int[][] upstream;
    /** Per node: the distinct downstream node indexes, ascending (config order). */
    private final int[][] downstream;
    private final int[] topoOrder;

    private final List<String> nodes;
    private final List<String> sourceNodes;
    private final List<String> sinkNodes;
    private final Set<String> strictBlocks;
    private final Map<String, Set<String>> strictPaths;
    private final Map<String, Set<String>> threatenedBlocks;
    private final List<List<String>> layers;
    private final List<String> longestPath;
    private final double criticality;

    public PlanAnalysis(final GraphPlan plan)
    {
        this.config = plan.config;
        final int n = plan.nodeCount;
        this.names = new String[n];
        this.indexByName = new HashMap<>();
        this.sockets = new int[n][][];
        this.upstream = new int[n][];
        this.downstream = new int[n][];
        this.topoOrder = plan.topoOrder.clone();

        final List<String> nodeNames = new ArrayList<>(n);
        final List<String> sources = new ArrayList<>();
        final List<String> sinks = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            final NodeConfig node = config.nodes().get(i);
            names[i] = node.name();
            indexByName.put(node.name(), i);
            nodeNames.add(node.name());
            if (node.inputStreams().isEmpty())
            {
                sources.add(node.name());
            }
            if (node.outputStreams().isEmpty())
            {
                sinks.add(node.name());
            }
        }
        this.nodes = Collections.unmodifiableList(nodeNames);
        this.sourceNodes = Collections.unmodifiableList(sources);
        this.sinkNodes = Collections.unmodifiableList(sinks);

        buildSockets(plan);

        final BitSet[] ancestors = ancestors();
        this.strictBlocks = computeStrictBlocks();
        final BitSet onStrictPath = new BitSet(n);
        this.strictPaths = computeStrictPaths(ancestors, onStrictPath);
        this.threatenedBlocks = computeThreatenedBlocks(ancestors, onStrictPath);
        this.criticality = n == 0 ? 0.0 : (double)threatenedBlocks.size() / n;
        this.layers = computeLayers();
        this.longestPath = computeLongestPath();
    }

    /**
     * Every node's name.
     *
     * @return the names, in config order.
     */
    public List<String> nodes()
    {
        return nodes;
    }

    /**
     * The source nodes: nodes with no input streams (back edges included: a node whose only
     * inputs are back edges is not a source).
     *
     * @return the names, in config order.
     */
    public List<String> sourceNodes()
    {
        return sourceNodes;
    }

    /**
     * The sink nodes: nodes with no output streams. A node whose outputs only leave the graph (graph
     * output streams, observers) is not a sink.
     *
     * @return the names, in config order.
     */
    public List<String> sinkNodes()
    {
        return sinkNodes;
    }

    /**
     * The strict blocks: nodes with in-degree 1, that is exactly one distinct upstream node
     * (any number of streams from it, plus any graph inputs). If that node fails, a strict block is
     * blocked unless a graph input shares the socket.
     *
     * @return the names, in config order.
     */
    public Set<String> strictBlocks()
    {
        return strictBlocks;
    }

    /**
     * The strict path of each strict block {@code B}: {@code { P | P ->* B }}, every node
     * {@code B} depends on directly or transitively, and {@code B} itself.
     *
     * @return strict block to its strict path; keys and members in config order.
     */
    public Map<String, Set<String>> strictPaths()
    {
        return strictPaths;
    }

    /**
     * The threatened blocks: each node on no strict path that a single upstream failure
     * blocks, with the upstream nodes whose failure alone blocks it (by the socket rule of
     * {@link #blockedBy(Collection)}).
     *
     * <p>The first condition of a threatened block, that such an upstream node {@code U} is "not on a strict path
     * leading to the block", is read as: the block is not reached from {@code U} by a chain of sole
     * dependencies. That already holds for every node on no strict path (such a node has in-degree 0
     * or at least 2, so no strict path ends at it), so it excludes nothing further. The stricter
     * reading, "{@code U} is on no strict path of a node upstream of the block", would contradict the
     * defining example, where {@code Save} is threatened because the failure of {@code Resize}, on
     * the strict path of {@code Enhance}, blocks it. A sole source is a threat to every node below it
     * that is on no strict path, and is listed as one.
     *
     * @return threatened block to its threats; keys and members in config order.
     */
    public Map<String, Set<String>> threatenedBlocks()
    {
        return threatenedBlocks;
    }

    /**
     * The criticality score: threatened blocks over all nodes; higher means less fault
     * tolerance. 0 for a graph without nodes.
     *
     * @return a value in {@code [0, 1]}.
     */
    public double criticality()
    {
        return criticality;
    }

    /**
     * The topological layers: layer 0 holds the nodes with no upstream node (sources, and nodes fed
     * only by graph inputs or back edges); a node's layer is one more than the highest layer of its
     * upstream nodes. Back edges are ignored.
     *
     * @return the layers, from 0; each layer's names in config order.
     */
    public List<List<String>> layers()
    {
        return layers;
    }

    /**
     * A longest path by node count. It starts at a layer-0 node and ends at a node with no downstream
     * node (a sink, or a node whose outputs only leave the graph); among equally long paths, the one
     * whose nodes come first in config order, step by step from the start.
     *
     * @return the names along the path; empty for a graph without nodes.
     */
    public List<String> longestPath()
    {
        return longestPath;
    }

    /**
     * Every node blocked, transitively, when the given nodes have failed. A node is
     * blocked when one of its sockets has no connection left from a live producer (graph inputs are
     * always live); blocked nodes are not live, and the rule is applied breadth first from the
     * failed nodes.
     *
     * @param failed names of failed nodes.
     * @return the blocked nodes, in config order, the failed ones excluded.
     * @throws IllegalArgumentException if a name is not a node of the graph.
     */
    public Set<String> blockedBy(final Collection<String> failed)
    {
        final BitSet failedSet = new BitSet(names.length);
        for (final String name : failed)
        {
            final Integer i = indexByName.get(name);
            if (i == null)
            {
                throw new IllegalArgumentException("'" + name + "' is not a node of the graph; its nodes are " + nodes);
            }
            failedSet.set(i);
        }
        return namesOf(blocked(failedSet));
    }

    /**
     * A report for people: sources, sinks, layers, the longest path, strict blocks and their paths,
     * threatened blocks with their threats, and the criticality score.
     *
     * @return the report, several lines.
     */
    public String report()
    {
        final StringBuilder sb = new StringBuilder(512);
        sb.append("graph: ").append(names.length).append(" nodes, graph inputs ").append(config.inputStreams())
            .append(", graph outputs ").append(config.outputStreams()).append('\n');
        sb.append("sources: ").append(sourceNodes).append('\n');
        sb.append("sinks: ").append(sinkNodes).append('\n');
        sb.append("layers:\n");
        for (int k = 0; k < layers.size(); k++)
        {
            sb.append("  ").append(k).append(": ").append(layers.get(k)).append('\n');
        }
        sb.append("longest path (").append(longestPath.size()).append(" nodes): ")
            .append(String.join(" -> ", longestPath)).append('\n');
        sb.append("strict blocks (").append(strictBlocks.size()).append("), each with its strict path:\n");
        for (final Map.Entry<String, Set<String>> e : strictPaths.entrySet())
        {
            sb.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        sb.append("threatened blocks (").append(threatenedBlocks.size())
            .append("), each with the upstream nodes whose failure alone blocks it:\n");
        for (final Map.Entry<String, Set<String>> e : threatenedBlocks.entrySet())
        {
            sb.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        sb.append("criticality: ").append(threatenedBlocks.size()).append('/').append(names.length).append(" = ")
            .append(String.format(Locale.ROOT, "%.3f", criticality)).append('\n');
        return sb.toString();
    }

    @Override
    public String toString()
    {
        return report();
    }

    private void buildSockets(final GraphPlan plan)
    {
        final int n = names.length;
        final List<List<Integer>> down = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            down.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++)
        {
            final StreamSpec[] specs = plan.inputSpecs[i];
            // Socket key: the tag, or the input's position for an untagged input (a socket of its own).
            final Map<String, List<Integer>> byKey = new LinkedHashMap<>();
            final BitSet up = new BitSet(n);
            for (int p = 0; p < specs.length; p++)
            {
                if (plan.backEdges[i][p])
                {
                    continue;
                }
                final int producer = plan.producers.get(specs[p].name);
                final String key = specs[p].tag.isEmpty() ? "#" + p : specs[p].tag;
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(producer);
                if (producer >= 0)
                {
                    up.set(producer);
                }
            }
            final int[][] nodeSockets = new int[byKey.size()][];
            int s = 0;
            for (final List<Integer> connections : byKey.values())
            {
                nodeSockets[s++] = connections.stream().mapToInt(Integer::intValue).toArray();
            }
            sockets[i] = nodeSockets;
            upstream[i] = up.stream().toArray();
            for (final int u : upstream[i])
            {
                down.get(u).add(i);
            }
        }
        for (int i = 0; i < n; i++)
        {
            downstream[i] = down.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** Per node, its transitive upstream nodes (itself excluded), by topological order. */
    private BitSet[] ancestors()
    {
        final BitSet[] ancestors = new BitSet[names.length];
        for (final int v : topoOrder)
        {
            final BitSet set = new BitSet(names.length);
            for (final int u : upstream[v])
            {
                set.set(u);
                set.or(ancestors[u]);
            }
            ancestors[v] = set;
        }
        return ancestors;
    }

    private Set<String> computeStrictBlocks()
    {
        final BitSet strict = new BitSet(names.length);
        for (int i = 0; i < names.length; i++)
        {
            if (upstream[i].length == 1)
            {
                strict.set(i);
            }
        }
        return namesOf(strict);
    }

    private Map<String, Set<String>> computeStrictPaths(final BitSet[] ancestors, final BitSet onStrictPath)
    {
        final Map<String, Set<String>> paths = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++)
        {
            if (upstream[i].length == 1)
            {
                final BitSet path = (BitSet)ancestors[i].clone();
                path.set(i);
                onStrictPath.or(path);
                paths.put(names[i], namesOf(path));
            }
        }
        return Collections.unmodifiableMap(paths);
    }

    private Map<String, Set<String>> computeThreatenedBlocks(final BitSet[] ancestors, final BitSet onStrictPath)
    {
        final int n = names.length;
        final BitSet[] threats = new BitSet[n];
        final BitSet single = new BitSet(n);
        for (int u = 0; u < n; u++)
        {
            single.clear();
            single.set(u);
            final BitSet blocked = blocked(single);
            for (int b = blocked.nextSetBit(0); b >= 0; b = blocked.nextSetBit(b + 1))
            {
                if (!onStrictPath.get(b) && ancestors[b].get(u))
                {
                    if (threats[b] == null)
                    {
                        threats[b] = new BitSet(n);
                    }
                    threats[b].set(u);
                }
            }
        }
        final Map<String, Set<String>> threatened = new LinkedHashMap<>();
        for (int b = 0; b < n; b++)
        {
            if (threats[b] != null)
            {
                threatened.put(names[b], namesOf(threats[b]));
            }
        }
        return Collections.unmodifiableMap(threatened);
    }

    private List<List<String>> computeLayers()
    {
        final int[] layer = new int[names.length];
        int maxLayer = -1;
        for (final int v : topoOrder)
        {
            int l = 0;
            for (final int u : upstream[v])
            {
                l = Math.max(l, layer[u] + 1);
            }
            layer[v] = l;
            maxLayer = Math.max(maxLayer, l);
        }
        final List<List<String>> result = new ArrayList<>(maxLayer + 1);
        for (int k = 0; k <= maxLayer; k++)
        {
            result.add(new ArrayList<>());
        }
        for (int i = 0; i < names.length; i++)
        {
            result.get(layer[i]).add(names[i]);
        }
        for (int k = 0; k <= maxLayer; k++)
        {
            result.set(k, Collections.unmodifiableList(result.get(k)));
        }
        return Collections.unmodifiableList(result);
    }

    private List<String> computeLongestPath()
    {
        final int n = names.length;
        // length[v]: nodes on the longest path starting at v; a node with an upstream node always has
        // a shorter one than that upstream node, so the longest of all starts in layer 0.
        final int[] length = new int[n];
        int start = -1;
        for (int k = n - 1; k >= 0; k--)
        {
            final int v = topoOrder[k];
            int l = 1;
            for (final int w : downstream[v])
            {
                l = Math.max(l, length[w] + 1);
            }
            length[v] = l;
        }
        for (int i = 0; i < n; i++)
        {
            if (start < 0 || length[i] > length[start])
            {
                start = i;
            }
        }
        final List<String> path = new ArrayList<>();
        int v = start;
        while (v >= 0)
        {
            path.add(names[v]);
            int next = -1;
            for (final int w : downstream[v])
            {
                if (length[w] == length[v] - 1)
                {
                    next = w;
                    break;
                }
            }
            v = next;
        }
        return Collections.unmodifiableList(path);
    }

    /** The breadth-first search of {@link #blockedBy}: the nodes blocked when {@code failed} have failed, the failed ones excluded. */
    private BitSet blocked(final BitSet failed)
    {
        final BitSet dead = (BitSet)failed.clone();
        final int[] queue = new int[names.length];
        int head = 0;
        int tail = 0;
        for (int i = failed.nextSetBit(0); i >= 0; i = failed.nextSetBit(i + 1))
        {
            queue[tail++] = i;
        }
        while (head < tail)
        {
            final int u = queue[head++];
            for (final int d : downstream[u])
            {
                if (!dead.get(d) && hasDeadSocket(d, dead))
                {
                    dead.set(d);
                    queue[tail++] = d;
                }
            }
        }
        dead.andNot(failed);
        return dead;
    }

    private boolean hasDeadSocket(final int node, final BitSet dead)
    {
        for (final int[] socket : sockets[node])
        {
            boolean alive = false;
            for (final int producer : socket)
            {
                if (producer < 0 || !dead.get(producer))
                {
                    alive = true;
                    break;
                }
            }
            if (!alive)
            {
                return true;
            }
        }
        return false;
    }

    private Set<String> namesOf(final BitSet set)
    {
        final Set<String> result = new LinkedHashSet<>();
        for (int i = set.nextSetBit(0); i >= 0; i = set.nextSetBit(i + 1))
        {
            result.add(names[i]);
        }
        return Collections.unmodifiableSet(result);
    }
}
