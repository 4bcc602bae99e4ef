package dev.framewire.core.internal.run;

import dev.framewire.core.Contract;
import dev.framewire.core.NodeConfig;
import dev.framewire.core.Options;

import java.util.List;

/**
 * Runs a calculator's {@link Contract.NodeCheck}s at validation, once the node's options are valid:
 * each problem becomes a configuration error after the node's name; a check that throws is one too.
 *
 * <p>Threading: the validating thread.
 */
final class NodeChecks
{
    private NodeChecks()
    {
    }

    static void run(
        final NodeConfig node, final Contract contract, final Options options, final String where,
        final List<String> errors)
    {
        for (final Contract.NodeCheck check : contract.checks())
        {
            try
            {
                final String problem = check.problem(node, options);
                if (problem != null)
                {
                    errors.add(where + ": " + problem);
                }
            }
            catch (final RuntimeException ex)
            {
                errors.add(where + ": its calculator's check of the config failed: " + ex);
            }
        }
    }
}
