package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;

import java.util.Collection;
import java.util.function.Supplier;

/**
 * What {@code journal replay} puts in place of a remote publisher ({@value #REPLACES}): a sink that
 * takes every packet and sends nothing. A replay reproduces one process's journal; the packets its
 * publisher sent are not part of it (they are the other process's graph inputs, which that
 * process's replay gives back from its own journal), and a replay must not send to a subscriber
 * that may be running, nor need the link's key, which {@code demo --split} deletes after the run.
 * It declares the publisher's options, not its checks (the key file), and is registered under the
 * publisher's name while the replay runs.
 *
 * <p>Threading: the node's calls, one at a time; {@link #inPlaceOfPublishers} and its close on the
 * replay's thread, before the graph starts and after it is done.
 */
final class ReplayPublisherCalculator implements Calculator
{
    /** The calculator it stands in for. */
    static final String REPLACES = DemoSplit.PUBLISHER;

    private final Calculator publisher;

    private ReplayPublisherCalculator(final Calculator publisher)
    {
        this.publisher = publisher;
    }

    /**
     * Puts a counting sink in place of every remote publisher of a replay's graph and subgraphs.
     *
     * @param config    the replay's config.
     * @param templates the templates of the subgraphs it adds.
     * @param counted   receives how many publisher nodes there are ([0]).
     * @return puts the publisher back; close it after the replay's graph is closed.
     */
    static ReplayTailCalculator.Registration inPlaceOfPublishers(
        final GraphConfig config, final Collection<GraphConfig> templates, final int[] counted)
    {
        int nodes = count(config);
        for (final GraphConfig template : templates)
        {
            nodes += count(template);
        }
        counted[0] = nodes;
        final CalculatorRegistry registry = CalculatorRegistry.global();
        final Supplier<? extends Calculator> original = registry.lookup(REPLACES);
        if (nodes == 0 || original == null)
        {
            return () -> { };
        }
        registry.register(REPLACES, () -> new ReplayPublisherCalculator(original.get()));
        return () -> registry.register(REPLACES, original);
    }

    private static int count(final GraphConfig config)
    {
        int n = 0;
        for (final NodeConfig node : config.nodes())
        {
            n += REPLACES.equals(node.calculator()) ? 1 : 0;
        }
        return n;
    }

    @Override
    public void contract(final Contract contract)
    {
        ReplaySourceCalculator.optionsOf(publisher, contract);
    }

    @Override
    public void process(final CalculatorContext ctx)
    {
        // taken and not sent: the engine releases the input set after the call
    }
}
