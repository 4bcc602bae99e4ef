package dev.framewire.core;

/**
 * Registers calculators by name; found with {@link java.util.ServiceLoader} from
 * {@code META-INF/services/dev.framewire.core.CalculatorProvider}.
 */
public interface CalculatorProvider
{
    /**
     * Registers this provider's calculators.
     *
     * @param registry to register into.
     */
    void register(CalculatorRegistry registry);
}
