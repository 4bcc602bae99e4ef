package dev.framewire.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every option value is checked when a graph is validated, from the ranges and value lists the
 * calculators declare in their contracts, so {@code validate} refuses what {@code open} would.
 */
class OptionValidationTest
{
    /** Numeric options any value of whose type is valid; a new numeric option must be added here or get a range. */
    private static final Set<String> UNRESTRICTED = Set.of(
        "CountingSourceCalculator.count", "CountingSourceCalculator.start", "CountingSourceCalculator.batch",
        "SyntheticCameraCalculator.seed", "BrightnessContrastCalculator.brightness",
        "MotionDetectorCalculator.min_pixels");

    @Test
    void everyRestrictedOptionOfEveryRegisteredCalculatorIsCheckedAtValidation()
    {
        int checked = 0;
        final List<String> unchecked = new ArrayList<>();
        for (final String calculator : CalculatorRegistry.global().names())
        {
            final Contract contract = new Contract();
            CalculatorRegistry.global().lookup(calculator).get().contract(contract);
            for (final Map.Entry<String, Contract.OptionSpec> e : contract.options().entrySet())
            {
                final Contract.OptionSpec spec = e.getValue();
                if (spec.check == null)
                {
                    if ((spec.type == OptionType.LONG || spec.type == OptionType.DOUBLE) &&
                        !UNRESTRICTED.contains(calculator + "." + spec.name))
                    {
                        unchecked.add(calculator + "." + spec.name);
                    }
                    continue;
                }
                final Object bad = invalidValue(spec);
                final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(
                    GraphConfig.builder().inputStream("in").outputStream("in")
                        .node("probe", n -> n.calculator(calculator).option(spec.name, bad)).build()),
                    calculator + "." + spec.name + " = " + bad);
                final String error = ex.errors().stream().filter(m -> m.contains("option '" + spec.name + "'"))
                    .findFirst().orElseThrow(() -> new AssertionError(calculator + "." + spec.name + " = " + bad +
                        " not rejected; errors: " + ex.errors()));
                assertTrue(error.contains("node 'probe'") && error.contains(spec.valid()), error);
                checked++;
            }
        }
        assertEquals(List.of(), unchecked, "numeric options with neither a range nor a place in UNRESTRICTED");
        assertTrue(checked >= 25, "only " + checked + " restricted options");
    }

    @Test
    void messagesNameNodeOptionValueAndValidValues()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfig.builder()
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("fps", -1.0).option("shapes", 65L))
            .node("gate", n -> n.calculator("GateCalculator").inputStream("frames").outputStream("out")
                .option("initial_gate_state", "OPEN"))
            .outputStream("out").build()));
        assertTrue(ex.errors().contains("node 'cam': option 'fps' is -1.0; valid is a finite number >= 0.0"),
            ex.errors().toString());
        assertTrue(ex.errors().contains("node 'cam': option 'shapes' is 65; valid is 0..64"), ex.errors().toString());
        assertTrue(ex.errors().contains("node 'gate': option 'initial_gate_state' is 'OPEN'; valid are " +
            "[UNSPECIFIED, GATE_UNINITIALIZED, GATE_ALLOW, GATE_DISALLOW]"), ex.errors().toString());
    }

    @Test
    void boundaryValuesAreValid()
    {
        try (Graph graph = new Graph(GraphConfig.builder()
            .node("cam", n -> n.calculator("SyntheticCameraCalculator").outputStream("frames")
                .option("fps", 0.0).option("shapes", 64L).option("width", 16384L).option("height", 1L))
            .node("sink", n -> n.calculator("AnnotateCalculator").inputStream("frames").outputStream("out")
                .option("gray", 255L).option("color", 0L))
            .outputStream("out").build()))
        {
            assertEquals(2, graph.config().nodes().size());
        }
    }

    @Test
    void aContractCannotRestrictAnUndeclaredOptionOrHaveAnInvalidDefault()
    {
        assertThrows(IllegalArgumentException.class, () -> new Contract().range("x", 0, 1));
        assertThrows(IllegalArgumentException.class,
            () -> new Contract().option("x", OptionType.STRING, "a").range("x", 0, 1));
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new Contract().option("x", OptionType.LONG, 5L).range("x", 0, 1));
        assertTrue(ex.getMessage().contains("valid is 0..1"), ex.getMessage());
    }

    private static Object invalidValue(final Contract.OptionSpec spec)
    {
        final Contract.Check check = spec.check;
        switch (spec.type)
        {
            case LONG:
                return check.minLong > Long.MIN_VALUE ? check.minLong - 1 : check.maxLong + 1;
            case DOUBLE:
                return Double.NaN;
            case STRING:
                return "no_such_" + spec.name;
            default:
                fail("no check for " + spec.type);
                return null;
        }
    }
}
