package dev.framewire.tools;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs the command line as a user would, with its output and errors captured. */
final class Cli
{
    /**
     * What a command did.
     *
     * @param exit its exit code.
     * @param out  what it printed on standard output.
     * @param err  what it printed on standard error.
     */
    record Result(int exit, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    private Cli()
    {
    }

    static Result run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        final int exit = cli.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    static Path write(final Path dir, final String name, final String text) throws Exception
    {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A counting source through a pass-through to a graph output: the smallest runnable graph. */
    static String countingGraph(final long count)
    {
        return "output_stream: \"out\"\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node {\n" +
            "  name: \"count\"\n" +
            "  calculator: \"CountingSourceCalculator\"\n" +
            "  output_stream: \"n\"\n" +
            "  option { name: \"count\" int_value: " + count + " }\n" +
            "}\n" +
            "node {\n" +
            "  name: \"pass\"\n" +
            "  calculator: \"PassThroughCalculator\"\n" +
            "  input_stream: \"n\"\n" +
            "  output_stream: \"out\"\n" +
            "}\n";
    }
}
