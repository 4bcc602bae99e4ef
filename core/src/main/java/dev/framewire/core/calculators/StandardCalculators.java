package dev.framewire.core.calculators;

import dev.framewire.core.CalculatorProvider;
import dev.framewire.core.CalculatorRegistry;

/**
 * Registers the standard calculators under their MediaPipe-style names.
 */
public final class StandardCalculators implements CalculatorProvider
{
    @Override
    public void register(final CalculatorRegistry registry)
    {
        registry.register("PassThroughCalculator", PassThroughCalculator::new);
        registry.register("CountingSourceCalculator", CountingSourceCalculator::new);
    }
}
