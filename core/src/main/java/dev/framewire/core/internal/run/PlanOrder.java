package dev.framewire.core.internal.run;

import dev.framewire.core.NodeConfig;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The order of a {@link GraphPlan}'s nodes: cycles not broken by a back edge, and the topological
 * order the scheduler uses. Both take, for each node, the nodes feeding it through non-back-edge
 * inputs.
 *
 * <p>Threading: the thread that makes the {@link GraphPlan}.
 */
final class PlanOrder
{
    private PlanOrder()
    {
    }

    /** Tarjan's strongly connected components; any cycle not broken by a back edge is an error. */
    static void checkCycles(final int[][] edgesUp, final List<NodeConfig> nodes, final List<String> errors)
    {
        final int nodeCount = edgesUp.length;
        final int[] index = new int[nodeCount];
        final int[] low = new int[nodeCount];
        final boolean[] onStack = new boolean[nodeCount];
        Arrays.fill(index, -1);
        final ArrayDeque<Integer> stack = new ArrayDeque<>();
        final int[] counter = {0};
        for (int i = 0; i < nodeCount; i++)
        {
            if (index[i] < 0)
            {
                strongConnect(i, edgesUp, index, low, onStack, stack, counter, nodes, errors);
            }
        }
    }

    private static void strongConnect(
        final int v,
        final int[][] edges,
        final int[] index,
        final int[] low,
        final boolean[] onStack,
        final ArrayDeque<Integer> stack,
        final int[] counter,
        final List<NodeConfig> nodes,
        final List<String> errors)
    {
        // Iterative form of Tarjan's algorithm, so a long chain cannot overflow the stack.
        final ArrayDeque<int[]> frames = new ArrayDeque<>();
        frames.push(new int[]{v, 0});
        index[v] = low[v] = counter[0]++;
        stack.push(v);
        onStack[v] = true;
        while (!frames.isEmpty())
        {
            final int[] frame = frames.peek();
            final int node = frame[0];
            if (frame[1] < edges[node].length)
            {
                final int w = edges[node][frame[1]++];
                if (index[w] < 0)
                {
                    index[w] = low[w] = counter[0]++;
                    stack.push(w);
                    onStack[w] = true;
                    frames.push(new int[]{w, 0});
                }
                else if (onStack[w])
                {
                    low[node] = Math.min(low[node], index[w]);
                }
                continue;
            }
            frames.pop();
            if (!frames.isEmpty())
            {
                final int parent = frames.peek()[0];
                low[parent] = Math.min(low[parent], low[node]);
            }
            if (low[node] == index[node])
            {
                final List<String> component = new ArrayList<>();
                int w;
                do
                {
                    w = stack.pop();
                    onStack[w] = false;
                    component.add(nodes.get(w).name());
                }
                while (w != node);
                boolean selfLoop = false;
                for (final int up : edges[node])
                {
                    selfLoop |= up == node;
                }
                if (component.size() > 1 || selfLoop)
                {
                    java.util.Collections.reverse(component);
                    errors.add("cycle through nodes " + component + " has no back edge; declare the input that " +
                        "closes the loop as a back edge (input_stream_info { tag_index: ... back_edge: true })");
                }
            }
        }
    }

    /** Kahn's algorithm, ties broken by config order, so the order is deterministic. */
    static int[] topologicalOrder(final int[][] edgesUp)
    {
        final int nodeCount = edgesUp.length;
        final int[] inDegree = new int[nodeCount];
        final List<List<Integer>> down = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++)
        {
            down.add(new ArrayList<>());
        }
        for (int i = 0; i < nodeCount; i++)
        {
            for (final int up : edgesUp[i])
            {
                inDegree[i]++;
                down.get(up).add(i);
            }
        }
        final java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int i = 0; i < nodeCount; i++)
        {
            if (inDegree[i] == 0)
            {
                ready.add(i);
            }
        }
        final int[] order = new int[nodeCount];
        int n = 0;
        while (!ready.isEmpty())
        {
            final int v = ready.poll();
            order[n++] = v;
            for (final int w : down.get(v))
            {
                if (--inDegree[w] == 0)
                {
                    ready.add(w);
                }
            }
        }
        return order;
    }
}
