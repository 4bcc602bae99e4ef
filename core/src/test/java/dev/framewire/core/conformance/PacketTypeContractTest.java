package dev.framewire.core.conformance;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.calculators.CountingSourceCalculator;
import dev.framewire.core.calculators.GateCalculator;
import dev.framewire.core.calculators.PassThroughCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.function.Consumer;

import static dev.framewire.core.conformance.Conformance.snapshot;
import static dev.framewire.core.conformance.Conformance.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Packet types in contracts, as MediaPipe's {@code Set<T>}/{@code SetAny} checked when the graph
 * config is validated ({@code validated_graph_config.cc}, "Input stream ... of calculator ... expects
 * packets of type ... but the connected output stream will contain packets of type ..."): a
 * mismatch is found before the run, naming both ports and both types; "any" matches everything.
 */
class PacketTypeContractTest
{
    /** A sink whose input types are declared by {@code declare}; records each packet's value. */
    private static Calculator sink(final Consumer<Contract> declare, final List<String> seen)
    {
        return new Calculator()
        {
            @Override
            public void contract(final Contract contract)
            {
                declare.accept(contract);
            }

            @Override
            public void process(final CalculatorContext ctx)
            {
                seen.add(String.valueOf(ctx.input(0).value()));
            }
        };
    }

    private static GraphConfig countInto(final Consumer<Contract> declare, final List<String> seen)
    {
        return GraphConfig.builder()
            .node("count", n -> n.calculator(CountingSourceCalculator.class).outputStream("numbers").option("count", 3L))
            .node("sink", n -> n.calculator(() -> sink(declare, seen)).inputStream("VALUE:numbers"))
            .build();
    }

    @Test
    @Timeout(10)
    void matchingTypesRun() throws Exception
    {
        for (final Class<?> taken : new Class<?>[]{long.class, Long.class, Number.class, Object.class})
        {
            final List<String> seen = syncList();
            try (Graph graph = new Graph(countInto(c -> c.inputType("VALUE", taken), seen)))
            {
                graph.start();
                graph.waitUntilDone();
            }
            assertEquals(List.of("0", "1", "2"), snapshot(seen), taken.getName());
        }
    }

    @Test
    void aMismatchIsFoundAtValidationNamingBothPortsAndTypes()
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class,
            () -> new Graph(countInto(c -> c.inputType("VALUE:0", String.class), syncList())).close());
        final String message = ex.getMessage();
        assertTrue(message.contains("output 'numbers' of node 'count' carries long") &&
            message.contains("input 'VALUE:0:numbers' of node 'sink' takes String"), message);
    }

    @Test
    void aBuiltInCalculatorsDeclaredTypeIsChecked()
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .node("count", n -> n.calculator(CountingSourceCalculator.class).outputStream("numbers"))
            .node("gate", n -> n.calculator(GateCalculator.class).inputStream("ALLOW:numbers", "in").outputStream("out"))
            .build();
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config).close());
        assertTrue(ex.getMessage().contains("carries long") && ex.getMessage().contains("takes Boolean") &&
            ex.getMessage().contains("node 'gate'"), ex.getMessage());
    }

    @Test
    @Timeout(10)
    void anyMatchesEverything() throws Exception
    {
        final List<String> seen = syncList();
        final GraphConfig config = GraphConfig.builder()
            .node("count", n -> n.calculator(CountingSourceCalculator.class).outputStream("numbers").option("count", 2L))
            .node("pass", n -> n.calculator(PassThroughCalculator.class).inputStream("numbers").outputStream("passed"))
            .node("sink", n -> n.calculator(() -> sink(c -> c.inputType("*", String.class), seen))
                .inputStream("passed"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(List.of("0", "1"), snapshot(seen), "an any port between long and String passes validation");
    }
}
