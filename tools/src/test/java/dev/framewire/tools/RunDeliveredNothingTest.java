package dev.framewire.tools;

import dev.framewire.core.CalculatorRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A run that went on after every failure or memory drop and delivered nothing used to end with
 * exit code 0, as if it had worked. It now says so and exits 1; a run that delivered something
 * while dropping the rest still exits 0.
 */
@Timeout(120)
class RunDeliveredNothingTest
{
    @TempDir
    Path dir;

    private static String graph(final String calculator, final long count)
    {
        return "output_stream: \"out\"\n" +
            "failure_policy: DROP_TIMESTAMP\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node { name: \"count\" calculator: \"CountingSourceCalculator\" output_stream: \"n\"\n" +
            "  option { name: \"count\" int_value: " + count + " } }\n" +
            "node { name: \"work\" calculator: \"" + calculator + "\" input_stream: \"n\" output_stream: \"out\" }\n";
    }

    @Test
    void aRunThatDroppedEverythingSaysSoAndExitsOne() throws Exception
    {
        CalculatorRegistry.global().register("RunDeliveredNothingFailing", RunEndingTest.Failing::new);
        final Path file = Cli.write(dir, "drops.pbtxt", graph("RunDeliveredNothingFailing", 20));
        final Cli.Result r = Cli.run("run", file.toString(), "--no-journal");

        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("the run delivered nothing: no packet reached an end stream or a sink node, and " +
            "20 packets were dropped after failures or to stay within the memory budget; see the drops above"), r.toString());
        assertTrue(r.out().contains("drops: 20 (work 20)"), r.toString());
    }

    @Test
    void aRunThatDeliveredSomeAndDroppedTheRestExitsZero() throws Exception
    {
        CalculatorRegistry.global().register("RunDeliveredNothingOddFailing", () -> ctx ->
        {
            if (ctx.inputTimestamp() % 2 == 1)
            {
                throw new IllegalStateException("odd");
            }
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        });
        final Path file = Cli.write(dir, "half.pbtxt", graph("RunDeliveredNothingOddFailing", 20));
        final Cli.Result r = Cli.run("run", file.toString(), "--no-journal");

        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("drops: 10 (work 10)"), r.toString());
        assertFalse(r.err().contains("delivered nothing"), r.toString());
    }
}
