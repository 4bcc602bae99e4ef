package dev.framewire.core.internal.run;

import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.SubgraphRegistry;
import dev.framewire.core.internal.sched.CpuIds;
import dev.framewire.core.internal.sched.Worker;
import dev.framewire.core.internal.stream.StreamSpec;

import java.util.List;
import java.util.Map;

/**
 * The checks of {@link GraphPlan} that need no node made: the graph-wide settings, the graph's
 * stream names, and the one error that lists every unknown calculator.
 *
 * <p>Threading: the thread that makes the {@link GraphPlan}.
 */
final class GraphSettingsChecks
{
    private GraphSettingsChecks()
    {
    }

    /** Adds to {@code errors} what is wrong with the graph-wide settings and the graph's input and output names. */
    static void check(final GraphConfig config, final List<String> errors)
    {
        if (config.maxQueueSize() < -1)
        {
            errors.add("max_queue_size " + config.maxQueueSize() + " is invalid; valid are -1 (no limit), 0 (default " +
                GraphConfig.DEFAULT_MAX_QUEUE_SIZE + ") or a positive limit");
        }
        if (config.inputSetsPerRun() <= 0)
        {
            errors.add("input_sets_per_run " + config.inputSetsPerRun() + " is invalid; valid is 1 (MediaPipe's one " +
                "input set per run, the default) or more");
        }
        if (config.roomBatch() <= 0)
        {
            errors.add("room_batch " + config.roomBatch() + " is invalid; valid is 1 (MediaPipe's rule: room for one " +
                "packet lets held-back sources and graph inputs go on, the default) or more");
        }
        if (config.keptFailures() <= 0)
        {
            errors.add("kept failures " + config.keptFailures() + " is invalid; valid is 1 or more (default 16)");
        }
        if (config.maxShipmentSize() <= 0)
        {
            errors.add("max_shipment_size " + config.maxShipmentSize() + " is invalid; it must be positive (default 64)");
        }
        if (config.maxShipmentBytes() < -1)
        {
            errors.add("max_shipment_bytes " + config.maxShipmentBytes() + " is invalid; give a positive size, 0 " +
                "(the default) to derive it from the memory budget (its hard limit less its soft limit), or -1 for " +
                "no cap");
        }
        if (config.memoryBudgetBytes() < 0)
        {
            errors.add("memory budget " + config.memoryBudgetBytes() + " bytes is invalid; give a positive size, or 0 " +
                "for the pool's default");
        }
        if (config.timeoutGuardNanos() < 0)
        {
            errors.add("watchdog timeout " + config.timeoutGuardNanos() / 1_000_000 + " ms is invalid; give a " +
                "positive timeout, or 0 to turn it off");
        }
        if (config.queueHardCap() <= 0 || config.queueHardCap() > (1 << 24))
        {
            errors.add("queue hard cap " + config.queueHardCap() + " is invalid; valid is 1.." + (1 << 24));
        }
        for (final Map.Entry<String, Integer> e : config.streamQueueSizes().entrySet())
        {
            if (e.getValue() < -1)
            {
                errors.add("max_queue_size " + e.getValue() + " of stream '" + e.getKey() + "' is invalid; valid are " +
                    "-1 (no limit), 0 (default) or a positive limit");
            }
        }
        for (final Map.Entry<String, ExecutorConfig> e : config.executors().entrySet())
        {
            if (e.getValue().workers() < 1)
            {
                errors.add("executor '" + e.getKey() + "' has " + e.getValue().workers() + " workers; it needs at least 1");
            }
            if (e.getValue().spinBeforeParkMicros() < 0)
            {
                errors.add("executor '" + e.getKey() + "' has spin_before_park_us " + e.getValue().spinBeforeParkMicros() +
                    "; valid is 0 (park at once) or more");
            }
            CpuIds.check(e.getKey(), e.getValue().cpus(), errors);
            final String noAffinity = e.getValue().cpus().length > 0 ? Worker.affinityUnavailable() : null;
            if (noAffinity != null)
            {
                errors.add("executor '" + e.getKey() + "' pins its workers to CPUs, which takes OpenHFT affinity " +
                    "(net.openhft:affinity), and " + noAffinity + ": on the module path add it to the module graph " +
                    "(requires affinity; in the application's module-info, or --add-modules affinity), on the class " +
                    "path add its jar; or do not pin");
            }
        }
        for (final String name : config.inputStreams())
        {
            if (StreamSpec.parse(name) == null || name.contains(":"))
            {
                errors.add("graph input stream '" + name + "' is malformed; a graph stream is a name matching " +
                    "[a-z_][a-z0-9_]*");
            }
        }
        for (final String name : config.outputStreams())
        {
            if (StreamSpec.parse(name) == null || name.contains(":"))
            {
                errors.add("graph output stream '" + name + "' is malformed; a graph stream is a name matching " +
                    "[a-z_][a-z0-9_]*");
            }
        }
    }

    /** All unknown calculators in one error, each with the nodes that use it. */
    static void reportUnknownCalculators(final Map<String, List<String>> unknownCalculators, final List<String> errors)
    {
        if (unknownCalculators.isEmpty())
        {
            return;
        }
        if (unknownCalculators.size() == 1 && unknownCalculators.values().iterator().next().size() == 1)
        {
            final Map.Entry<String, List<String>> only = unknownCalculators.entrySet().iterator().next();
            errors.add(0, "node '" + only.getValue().get(0) + "' uses unknown calculator '" + only.getKey() + "'" +
                (SubgraphRegistry.global().contains(only.getKey()) ? ", a registered subgraph: expand it first with " +
                "SubgraphExpander" : "") + "; registered calculators are " + CalculatorRegistry.global().names());
            return;
        }
        final StringBuilder sb = new StringBuilder().append(unknownCalculators.size())
            .append(unknownCalculators.size() == 1 ? " unknown calculator: " : " unknown calculators: ");
        boolean first = true;
        for (final Map.Entry<String, List<String>> e : unknownCalculators.entrySet())
        {
            final boolean subgraph = SubgraphRegistry.global().contains(e.getKey());
            sb.append(first ? "" : "; ").append('\'').append(e.getKey()).append("' (node")
                .append(e.getValue().size() == 1 ? " '" : "s '").append(String.join("', '", e.getValue())).append("'")
                .append(subgraph ? ", a registered subgraph: expand it first with SubgraphExpander" : "").append(')');
            first = false;
        }
        sb.append("; registered calculators are ").append(CalculatorRegistry.global().names());
        errors.add(0, sb.toString());
    }
}
