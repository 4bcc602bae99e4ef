package dev.framewire.core.internal.run;

import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The start-time check of the memory budget against the frame sizes nodes declare
 * ({@link Contract#outputFrameBytes(Contract.FrameSize)}): a node holds its input frame while it
 * fills its output frame, so the budget's hard limit must hold the largest known input frame of a
 * node plus its output frame. Nodes whose sizes are unknown before they run are skipped, so the
 * check never refuses a graph that could run; it is a lower bound.
 *
 * <p>Threading: used on the validating thread only.
 */
final class FrameBudgetCheck
{
    /** The pool's default budget when the config gives 0 (PoolContext's default). */
    static final long DEFAULT_BUDGET_BYTES = 512L * 1024 * 1024;
    /** The hard limit's share of the budget (PoolContext's default). */
    static final double HARD_LIMIT_RATIO = 0.75;

    private FrameBudgetCheck()
    {
    }

    /**
     * Adds an error for each node whose frames cannot pass through the budget's hard limit. Runs only
     * on a config with no errors so far: an out-of-range width would make a meaningless frame size.
     *
     * @param config    the graph.
     * @param contracts each node's contract, null where it could not be made.
     * @param options   each node's resolved options, null where they are invalid.
     * @param errors    where the errors go.
     */
    static void check(final GraphConfig config, final Contract[] contracts, final Options[] options,
        final List<String> errors)
    {
        if (!errors.isEmpty())
        {
            return;
        }
        final long budget = config.memoryBudgetBytes() > 0 ? config.memoryBudgetBytes() : DEFAULT_BUDGET_BYTES;
        final long hardLimit = (long)(budget * HARD_LIMIT_RATIO);
        final Map<String, Long> streamBytes = new HashMap<>();
        final List<NodeConfig> nodes = config.nodes();
        for (int i = 0; i < nodes.size(); i++)
        {
            final NodeConfig node = nodes.get(i);
            final long out = declared(node, contracts[i], options[i]);
            if (out <= 0)
            {
                continue;
            }
            long in = 0;
            String inStream = null;
            for (final String spec : node.inputStreams())
            {
                final Long bytes = streamBytes.get(streamName(spec));
                if (bytes != null && bytes > in)
                {
                    in = bytes;
                    inStream = streamName(spec);
                }
            }
            for (final String spec : node.outputStreams())
            {
                streamBytes.put(streamName(spec), out);
            }
            if (in + out > hardLimit)
            {
                errors.add(message(node, in, inStream, out, budget, hardLimit));
            }
        }
    }

    private static long declared(final NodeConfig node, final Contract contract, final Options options)
    {
        if (contract == null || options == null || contract.outputFrameBytes() == null)
        {
            return -1;
        }
        try
        {
            return contract.outputFrameBytes().bytes(node, options);
        }
        catch (final RuntimeException ex)
        {
            return -1; // the node's own checks report bad options; this check only skips
        }
    }

    private static String message(final NodeConfig node, final long in, final String inStream, final long out,
        final long budget, final long hardLimit)
    {
        final String outStreams = node.outputStreams().isEmpty() ? "" :
            " on stream '" + streamName(node.outputStreams().get(0)) + "'";
        final long needed = in + out;
        final long validBudget = (long)Math.ceil(needed / HARD_LIMIT_RATIO);
        return "node '" + node.name() + "': one frame" + outStreams + " is " + out + " bytes" +
            (inStream == null ? "" : ", held with its input frame on stream '" + inStream + "' of " + in + " bytes, " +
                needed + " bytes at once") +
            ", but memory_budget_bytes " + budget + " gives a hard limit of " +
            hardLimit + " bytes (75 %); valid is a memory_budget_bytes of at least " + validBudget +
            ", or smaller frames";
    }

    /** The stream's name in a spec {@code TAG:index:name}, {@code TAG:name} or {@code name}. */
    private static String streamName(final String spec)
    {
        return spec.substring(spec.lastIndexOf(':') + 1);
    }
}
