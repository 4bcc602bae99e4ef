package dev.framewire.core;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Calculators by name, for configs that name them (as MediaPipe's {@code calculator: "..."}).
 * Filled by every {@link CalculatorProvider} on the class path, and by explicit
 * {@link #register(String, Supplier)}.
 *
 * <p>Threading: safe from any thread.
 */
public final class CalculatorRegistry
{
    private static final CalculatorRegistry GLOBAL = new CalculatorRegistry();

    private final Map<String, Supplier<? extends Calculator>> factories = new ConcurrentHashMap<>();
    private volatile boolean loaded;

    private CalculatorRegistry()
    {
    }

    /**
     * The process-wide registry.
     *
     * @return the registry.
     */
    public static CalculatorRegistry global()
    {
        return GLOBAL;
    }

    /**
     * Registers a calculator under a name, replacing any earlier one.
     *
     * @param name    the name configs use.
     * @param factory makes one calculator per node per run.
     */
    public void register(final String name, final Supplier<? extends Calculator> factory)
    {
        factories.put(name, factory);
    }

    /**
     * The factory registered under a name.
     *
     * @param name the name.
     * @return the factory, or null.
     */
    public Supplier<? extends Calculator> lookup(final String name)
    {
        loadProviders();
        return factories.get(name);
    }

    /**
     * Every registered name, sorted.
     *
     * @return the names.
     */
    public Set<String> names()
    {
        loadProviders();
        return new TreeSet<>(factories.keySet());
    }

    private void loadProviders()
    {
        if (!loaded)
        {
            synchronized (this)
            {
                if (!loaded)
                {
                    for (final CalculatorProvider provider : ServiceLoader.load(CalculatorProvider.class))
                    {
                        provider.register(this);
                    }
                    loaded = true;
                }
            }
        }
    }
}
