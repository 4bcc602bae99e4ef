package dev.framewire.core.scenario;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Contract;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.IdleKind;
import dev.framewire.core.OptionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static dev.framewire.core.scenario.Scenarios.forwardLong;
import static dev.framewire.core.scenario.Scenarios.recorder;
import static dev.framewire.core.scenario.Scenarios.syncList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Configuration errors: each names what is wrong and says what would be valid, and every error
 * found is listed.
 */
class ValidationTest
{
    /** The one error of an invalid config that contains {@code mustContain}; fails if none does. */
    private static String error(final GraphConfig config, final String mustContain)
    {
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config).close());
        for (final String error : ex.errors())
        {
            assertTrue(ex.getMessage().contains(error));
            if (error.contains(mustContain))
            {
                return error;
            }
        }
        return fail("no error mentions '" + mustContain + "': " + ex.errors());
    }

    private static void assertMentions(final String error, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(error.contains(part), "'" + part + "' missing from: " + error);
        }
    }

    private static GraphConfig.Builder base()
    {
        return GraphConfig.builder().inputStream("in");
    }

    @Test
    @Timeout(10)
    void twoProducersOfOneStream()
    {
        final String error = error(base()
            .node("p1", n -> n.calculator(forwardLong()).inputStream("in").outputStream("x"))
            .node("p2", n -> n.calculator(forwardLong()).inputStream("in").outputStream("x"))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("x"))
            .build(), "two producers");
        assertMentions(error, "stream 'x'", "node 'p1'", "node 'p2'", "exactly one producer");
    }

    @Test
    @Timeout(10)
    void anInputNobodyProduces()
    {
        final String error = error(base()
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("in", "ghost"))
            .build(), "'ghost'");
        assertMentions(error, "input stream 'ghost'", "node 'sink'", "produced by no node or graph input",
            "produced streams are [in]");
    }

    @Test
    @Timeout(10)
    void anUnknownCalculator()
    {
        final String error = error(base()
            .node("n", n -> n.calculator("NoSuchCalculator").inputStream("in"))
            .build(), "NoSuchCalculator");
        assertMentions(error, "node 'n'", "unknown calculator 'NoSuchCalculator'", "registered calculators are",
            "PassThroughCalculator");
    }

    @Test
    @Timeout(10)
    void anUnknownExecutor()
    {
        final String error = error(base()
            .executor("cpu", ExecutorConfig.of(1, IdleKind.PARK))
            .node("n", n -> n.calculator(recorder(syncList())).inputStream("in").executor("gpu"))
            .build(), "'gpu'");
        assertMentions(error, "node 'n'", "executor 'gpu'", "not declared", "default", "cpu");
    }

    private static GraphConfig loop(final boolean declareBackEdge)
    {
        return base()
            .node("merge", n ->
            {
                n.calculator(forwardLong()).inputStream("in", "LOOP:fed_back").outputStream("merged");
                if (declareBackEdge)
                {
                    n.backEdge("LOOP");
                }
            })
            .node("work", n -> n.calculator(forwardLong()).inputStream("merged").outputStream("worked"))
            .node("feed", n -> n.calculator(forwardLong()).inputStream("worked").outputStream("fed_back"))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("worked"))
            .build();
    }

    @Test
    @Timeout(10)
    void aCycleWithoutABackEdgeNamesItsNodesAndTheSameCycleWithOneIsAccepted()
    {
        final String error = error(loop(false), "cycle");
        assertMentions(error, "merge", "work", "feed", "back edge");
        new Graph(loop(true)).close();
    }

    @Test
    @Timeout(10)
    void aGraphOutputNobodyProduces()
    {
        final String error = error(base()
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("in"))
            .outputStream("result")
            .build(), "'result'");
        assertMentions(error, "graph output stream 'result'", "produced by no node or graph input",
            "produced streams are [in]");
    }

    @Test
    @Timeout(10)
    void malformedTagsAndIndexes()
    {
        for (final String spec : List.of("tag:0:x", "TAG:-1:x", "TAG:x:y:z", "TAG:01:x", "Name"))
        {
            final String error = error(base()
                .node("n", n -> n.calculator(recorder(syncList())).inputStream(spec))
                .build(), "'" + spec + "'");
            assertMentions(error, "node 'n'", "input stream '" + spec + "'", "malformed", "[TAG:[index:]]name",
                "[A-Z_][A-Z0-9_]*", "non-negative", "[a-z_][a-z0-9_]*");
        }
        final String output = error(base()
            .node("n", n -> n.calculator(forwardLong()).inputStream("in").outputStream("OUT:x:y"))
            .build(), "'OUT:x:y'");
        assertMentions(output, "output stream 'OUT:x:y'", "malformed");
    }

    /** Declares a required option 'factor' and an optional 'label'. */
    public static final class Scale implements Calculator
    {
        @Override
        public void contract(final Contract contract)
        {
            contract.option("factor", OptionType.DOUBLE, null).option("label", OptionType.STRING, "none");
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
        }
    }

    @Test
    @Timeout(10)
    void anOptionOfTheWrongType()
    {
        final String error = error(base()
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("s").option("count", "ten"))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("s", "in"))
            .build(), "'count'");
        assertMentions(error, "node 'src'", "option 'count'", "ten", "String", "must be a LONG");
    }

    @Test
    @Timeout(10)
    void anUnknownOption()
    {
        final String error = error(base()
            .node("src", n -> n.calculator("CountingSourceCalculator").outputStream("s").option("cuont", 5))
            .node("sink", n -> n.calculator(recorder(syncList())).inputStream("s", "in"))
            .build(), "'cuont'");
        assertMentions(error, "node 'src'", "unknown option 'cuont'", "CountingSourceCalculator takes", "count (LONG)",
            "batch (LONG)");
    }

    @Test
    @Timeout(10)
    void aMissingRequiredOption()
    {
        final String error = error(base()
            .node("scale", n -> n.calculator(Scale.class).inputStream("in").option("label", "x"))
            .build(), "'factor'");
        assertMentions(error, "node 'scale'", "must set option 'factor'", "DOUBLE", "no default");
        // given, it validates, and an integer is a valid DOUBLE
        new Graph(base().node("scale", n -> n.calculator(Scale.class).inputStream("in").option("factor", 2)).build())
            .close();
    }

    @Test
    @Timeout(10)
    void everyErrorIsListedNotOnlyTheFirst()
    {
        final GraphConfig config = base()
            .node("a", n -> n.calculator("NoSuchCalculator").inputStream("in"))
            .node("b", n -> n.calculator(recorder(syncList())).inputStream("ghost").executor("gpu"))
            .node("c", n -> n.calculator(recorder(syncList())).inputStream("TAG:-1:x"))
            .build();
        final GraphConfigException ex = assertThrows(GraphConfigException.class, () -> new Graph(config).close());
        assertTrue(ex.errors().size() >= 4, ex.errors().toString());
        assertMentions(ex.getMessage(), "NoSuchCalculator", "'ghost'", "'gpu'", "'TAG:-1:x'",
            ex.errors().size() + " errors");
        assertEquals(ex.errors().size(), ex.getMessage().split("\n").length - 1);
    }
}
