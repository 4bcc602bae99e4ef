package dev.framewire.core.internal.run;

import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;
import dev.framewire.core.internal.stream.StreamSpec;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The start-time check of the memory budget against the frames nodes declare
 * ({@link Contract#outputFrame(Contract.FrameRule)}, {@link Contract#outputFrameBytes(Contract.FrameSize)}).
 * Frames are followed from the sources down the edges in topological order, so that a transform's
 * output (a resize, a colour conversion) is derived from its input's, and a node that passes its input
 * frame on (its rule returns its input itself) takes no slot. A node holds its input frame while it
 * fills its output frame, and each takes a whole slot of the pool (a power of two), so the budget's
 * hard limit must hold, for each node, the slot of its largest known input frame plus the slots of its
 * output frame and of the frames it keeps ({@link Contract#keptFrames(int)}); and no frame may be
 * larger than the pool's largest slot. The figures are those of the pool the graph runs over: a given
 * one, or one made as the graph makes its own from the config (no memory is taken before an acquire).
 * Nodes whose sizes are unknown before they run are skipped, and so are the nodes below them, so the
 * check never refuses a graph that could run; it is a lower bound (docs/CONFIG.md, "memory").
 *
 * <p>Threading: used on the validating thread only.
 */
final class FrameBudgetCheck
{
    private FrameBudgetCheck()
    {
    }

    /** A stream's frame as known before the run: its shape (null for a bytes-only declaration) and bytes. */
    private record Known(Contract.FrameShape shape, long bytes, String stream)
    {
    }

    /** What a node holds at once: its input's slot (0 if unknown), its output's and those of the frames it keeps. */
    private record Need(NodeConfig node, Known in, long inSlot, Known out, long outSlot, int kept)
    {
        long bytes()
        {
            return inSlot + outSlot * (1L + kept);
        }
    }

    /**
     * Adds an error for each node whose frames cannot pass through the budget's hard limit. Runs only
     * on a plan with no errors so far and a topological order: an out-of-range width would make a
     * meaningless frame size.
     *
     * @param plan   the graph's plan, its topological order made.
     * @param given  the pool the graph runs over, or null for one the graph makes from its config.
     * @param errors where the errors go.
     */
    static void check(final GraphPlan plan, final PayloadPool given, final List<String> errors)
    {
        if (!errors.isEmpty())
        {
            return;
        }
        final PayloadPool pool = given != null ? given : configPool(plan.config);
        try
        {
            final Map<String, Known> streams = new HashMap<>();
            final List<Need> needs = new ArrayList<>();
            for (final int i : plan.topoOrder)
            {
                final Need need = checkNode(plan, i, streams);
                if (need == null)
                {
                    continue;
                }
                final String tooLarge = tooLarge(need.out, pool);
                if (tooLarge != null)
                {
                    errors.add("node '" + need.node.name() + "': " + tooLarge);
                }
                else
                {
                    final boolean inFits = need.in != null && tooLarge(need.in, pool) == null;
                    needs.add(new Need(need.node, inFits ? need.in : null, inFits ? slot(pool, need.in) : 0,
                        need.out, slot(pool, need.out), need.kept));
                }
            }
            long most = 0;
            for (final Need need : needs)
            {
                most = Math.max(most, need.bytes());
            }
            for (final Need need : needs)
            {
                if (need.bytes() > pool.budget().hardLimitBytes())
                {
                    errors.add(message(need, most, pool.budget(), given != null));
                }
            }
        }
        finally
        {
            if (given == null)
            {
                pool.close();
            }
        }
    }

    /** A pool of the figures the graph's own pool will have: no memory is taken before its first acquire. */
    private static PayloadPool configPool(final GraphConfig config)
    {
        return new PayloadPool(config.memoryBudgetBytes() > 0 ?
            new PoolContext().maxBytes(config.memoryBudgetBytes()) : new PoolContext());
    }

    /** The node's output frame and its largest known input frame, slots not yet counted; null if its output is unknown. */
    private static Need checkNode(final GraphPlan plan, final int i, final Map<String, Known> streams)
    {
        final NodeConfig node = plan.config.nodes().get(i);
        Known in = null;
        Known firstFrame = null;
        for (int p = 0; p < plan.inputSpecs[i].length; p++)
        {
            final Known known = plan.backEdges[i][p] ? null : streams.get(plan.inputSpecs[i][p].name);
            if (known != null && (in == null || known.bytes > in.bytes))
            {
                in = known;
            }
            if (known != null && known.shape != null && firstFrame == null)
            {
                firstFrame = known;
            }
        }
        final Contract contract = plan.contracts[i];
        final Options options = plan.options[i];
        if (contract == null || options == null)
        {
            return null;
        }
        final StreamSpec[] outputs = plan.outputSpecs[i];
        final Known out = declared(node, contract, options, firstFrame, outputs);
        if (out == null)
        {
            return null;
        }
        if (firstFrame != null && out.shape == firstFrame.shape)
        {
            streams.put(outputs[0].name, out); // its input frame itself, passed on: no new slot
            return null;
        }
        if (contract.outputFrame() != null)
        {
            streams.put(outputs[0].name, out);
        }
        else
        {
            for (final StreamSpec spec : outputs)
            {
                streams.put(spec.name, new Known(null, out.bytes, spec.name));
            }
        }
        return new Need(node, in, 0, out, 0, contract.outputFrame() == null ? 0 : contract.keptFrames());
    }

    /** The node's output frame: from its rule, else from its bytes, else null. */
    private static Known declared(final NodeConfig node, final Contract contract, final Options options,
        final Known input, final StreamSpec[] outputs)
    {
        if (outputs.length == 0)
        {
            return null;
        }
        try
        {
            if (contract.outputFrame() != null)
            {
                final Contract.FrameShape shape =
                    contract.outputFrame().output(node, options, input == null ? null : input.shape);
                return shape == null ? null : new Known(shape, shape.bytes(), outputs[0].name);
            }
            final long bytes = contract.outputFrameBytes() == null ? -1 : contract.outputFrameBytes().bytes(node, options);
            return bytes <= 0 ? null : new Known(null, bytes, outputs[0].name);
        }
        catch (final RuntimeException ex)
        {
            return null; // the node's own checks report bad options; this check only skips
        }
    }

    /** The slot a frame takes in the pool. */
    private static long slot(final PayloadPool pool, final Known frame)
    {
        return pool.slotBytesFor((int)frame.bytes);
    }

    /** The error of a frame larger than the pool's largest slot, or null. */
    private static String tooLarge(final Known frame, final PayloadPool pool)
    {
        final long largest = pool.slotBytes(pool.sizeClassCount() - 1);
        if (frame.bytes <= largest)
        {
            return null;
        }
        return "one frame on stream '" + frame.stream + "' is " + describe(frame) +
            ", more than the pool's largest slot of " + largest + " bytes; valid is a frame of at most " + largest +
            " bytes, or a pool with larger slots (new Graph(config, new PayloadPool(new PoolContext()" +
            ".maxSlotBytes(...))), a power of two)";
    }

    /** The error of a node whose frames pass the hard limit; {@code most} is the largest need in the graph. */
    private static String message(final Need need, final long most, final MemoryBudget budget, final boolean givenPool)
    {
        final String budgetName = givenPool ? "the pool's budget" : "memory_budget_bytes";
        final double ratio = (double)budget.hardLimitBytes() / budget.maxBytes();
        long validBudget = (long)Math.ceil(most / ratio);
        while ((long)(validBudget * ratio) < most)
        {
            validBudget++;
        }
        final Known in = need.in;
        return "node '" + need.node.name() + "': one frame on stream '" + need.out.stream + "' is " + describe(need.out) +
            " (a " + need.outSlot + " byte slot of the pool)" +
            (in == null ? "" : ", held with its input frame on stream '" + in.stream + "' of " + describe(in) + " (a " +
                need.inSlot + " byte slot)") +
            (need.kept == 0 ? "" : ", with the " + need.kept + " more it keeps for the run") +
            (in == null && need.kept == 0 ? "" : ", " + need.bytes() + " bytes at once") +
            ", but " + budgetName + " " + budget.maxBytes() + " gives a hard limit of " + budget.hardLimitBytes() +
            " bytes (" + Math.round(ratio * 100) + " %); valid is " + budgetName + " of at least " + validBudget +
            (most > need.bytes() ? " (for every node of the graph)" : "") + ", or smaller frames";
    }

    private static String describe(final Known known)
    {
        return known.shape == null ? known.bytes + " bytes" : known.bytes + " bytes (" + known.shape + ")";
    }
}
