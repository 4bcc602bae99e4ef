package dev.framewire.remote;

import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorProvider;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;

/**
 * Registers the remote-stream calculators ({@link AeronPublisherCalculator},
 * {@link AeronSubscriberCalculator}) with core, found through {@link java.util.ServiceLoader} when
 * {@code framewire-remote} is on the class path.
 *
 * <p>Both take the same driver options. {@code aeron_dir} (empty by default): empty runs an Aeron
 * media driver embedded in this process, one for every remote node of every graph in it, in a fresh
 * owner-only directory deleted when the last remote node closes; a directory connects to an external
 * driver running there instead (production: one driver per host, its threads on cores of their
 * own). {@code driver_threading} (SHARED): the embedded driver's threading mode, SHARED (one thread
 * for its conductor, sender and receiver), SHARED_NETWORK (two) or DEDICATED (three); every remote
 * node of a process must give the same.
 */
public final class RemoteCalculators implements CalculatorProvider
{
    @Override
    public void register(final CalculatorRegistry registry)
    {
        registry.register(AeronPublisherCalculator.NAME, AeronPublisherCalculator::new);
        registry.register(AeronSubscriberCalculator.NAME, AeronSubscriberCalculator::new);
    }

    static void driverOptions(final Contract contract)
    {
        contract.option("aeron_dir", OptionType.STRING, "")
            .option("driver_threading", OptionType.STRING, "SHARED")
            .oneOf("driver_threading", "SHARED", "SHARED_NETWORK", "DEDICATED");
    }

    static RemoteDriver driver(final CalculatorContext ctx)
    {
        return RemoteDriver.acquire(ctx.options().getString("aeron_dir"), ctx.options().getString("driver_threading"),
            ctx.nodeName());
    }
}
