package dev.framewire.core;

import dev.framewire.core.internal.run.GraphPlan;
import dev.framewire.core.internal.run.PlanAnalysis;

import java.util.Collection;
import java.util.List;
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
public final class GraphAnalysis
{
    private final PlanAnalysis analysis;

    private GraphAnalysis(final PlanAnalysis analysis)
    {
        this.analysis = analysis;
    }

    /**
     * Validates a config, throwing as {@code new Graph(config)} would, and analyses it. Validation
     * makes each node's calculator once (by name, class or factory) to read its contract.
     *
     * @param config the graph.
     * @return the analysis.
     * @throws GraphConfigException listing every error found.
     */
    public static GraphAnalysis of(final GraphConfig config)
    {
        return new GraphAnalysis(new PlanAnalysis(new GraphPlan(config)));
    }

    /**
     * Every node's name.
     *
     * @return the names, in config order.
     */
    public List<String> nodes()
    {
        return analysis.nodes();
    }

    /**
     * The source nodes: nodes with no input streams (back edges included: a node whose only
     * inputs are back edges is not a source).
     *
     * @return the names, in config order.
     */
    public List<String> sourceNodes()
    {
        return analysis.sourceNodes();
    }

    /**
     * The sink nodes: nodes with no output streams. A node whose outputs only leave the graph (graph
     * output streams, observers) is not a sink.
     *
     * @return the names, in config order.
     */
    public List<String> sinkNodes()
    {
        return analysis.sinkNodes();
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
        return analysis.strictBlocks();
    }

    /**
     * The strict path of each strict block {@code B}: {@code { P | P ->* B }}, every node
     * {@code B} depends on directly or transitively, and {@code B} itself.
     *
     * @return strict block to its strict path; keys and members in config order.
     */
    public Map<String, Set<String>> strictPaths()
    {
        return analysis.strictPaths();
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
        return analysis.threatenedBlocks();
    }

    /**
     * The criticality score: threatened blocks over all nodes; higher means less fault
     * tolerance. 0 for a graph without nodes.
     *
     * @return a value in {@code [0, 1]}.
     */
    public double criticality()
    {
        return analysis.criticality();
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
        return analysis.layers();
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
        return analysis.longestPath();
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
        return analysis.blockedBy(failed);
    }

    /**
     * A report for people: sources, sinks, layers, the longest path, strict blocks and their paths,
     * threatened blocks with their threats, and the criticality score.
     *
     * @return the report, several lines.
     */
    public String report()
    {
        return analysis.report();
    }
}
