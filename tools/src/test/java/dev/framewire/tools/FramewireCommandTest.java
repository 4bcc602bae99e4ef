package dev.framewire.tools;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FramewireCommandTest
{
    @Test
    void helpListsEveryCommand()
    {
        final Cli.Result r = Cli.run("--help");
        assertEquals(0, r.exit(), r.toString());
        for (final String command : new String[]{"run", "validate", "analyze", "dot", "demo"})
        {
            assertTrue(r.out().contains("\n  " + command + " "), command + " in\n" + r.out());
        }
    }

    @Test
    void everyCommandHasHelp()
    {
        for (final String command : new String[]{"run", "validate", "analyze", "dot", "demo"})
        {
            final Cli.Result r = Cli.run(command, "--help");
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().startsWith("Usage: framewire " + command), r.toString());
        }
    }

    @Test
    void anUnknownCommandIsAUsageError()
    {
        final Cli.Result r = Cli.run("frobnicate");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("Unmatched argument"), r.toString());
    }
}
