package dev.framewire.core.internal.handler;

import dev.framewire.core.InputPolicy;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Validation of the options of the mux, timestamp-align and barrier policies against a node's
 * inputs, before a run: each error names the node, the option and what would be valid.
 *
 * <p>Threading: stateless.
 */
public final class PolicyChecks
{
    private PolicyChecks()
    {
    }

    /**
     * Checks a node's policy against its inputs.
     *
     * @param where  the node, for messages.
     * @param policy its policy.
     * @param specs  its inputs (null entries are inputs that did not parse, reported elsewhere).
     * @param errors where problems go.
     */
    public static void check(
        final String where, final InputPolicy policy, final StreamSpec[] specs, final List<String> errors)
    {
        switch (policy.kind())
        {
            case MUX:
                if (specs.length < 2)
                {
                    errors.add(where + ": MuxInputStreamHandler needs a SELECT input and at least one data input; " +
                        "it has " + specs.length + " input(s)");
                }
                return;
            case BARRIER:
                if (specs.length == 0)
                {
                    errors.add(where + ": BarrierInputStreamHandler needs at least one input; it has none");
                }
                return;
            case TIMESTAMP_ALIGN:
                checkBase(where, policy.timestampBaseTagIndex(), specs, errors);
                return;
            default:
                return;
        }
    }

    private static void checkBase(
        final String where, final String baseTagIndex, final StreamSpec[] specs, final List<String> errors)
    {
        final List<String> valid = new ArrayList<>();
        for (final StreamSpec spec : specs)
        {
            if (spec == null)
            {
                continue;
            }
            if (TimestampAlignSync.matches(spec, baseTagIndex))
            {
                return;
            }
            valid.add(spec.tag.isEmpty() ? ":" + spec.index : spec.tag + ":" + spec.index);
        }
        errors.add(where + ": TimestampAlignInputStreamHandler option timestamp_base_tag_index '" + baseTagIndex +
            "' names none of its inputs; valid are " + valid + " (TAG:index, TAG for index 0, :index untagged, " +
            "or a stream name)");
    }
}
