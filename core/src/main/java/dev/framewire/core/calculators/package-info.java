/**
 * The standard calculators, registered by name through {@link dev.framewire.core.calculators.StandardCalculators}.
 */
package dev.framewire.core.calculators;
