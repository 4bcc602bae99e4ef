package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code framewire validate GRAPH.pbtxt}: parses a graph file and validates it as a whole, as
 * making a {@link Graph} does (the graph is closed without being started), and prints
 * {@code valid: N nodes, M streams} or every error.
 */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {
        "Parses and validates a graph file (.pbtxt) without running it.",
        "Prints 'valid: N nodes, M streams', or every error found (with file:line where the parser gives " +
            "them) and exits with 1."})
public final class ValidateCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH.pbtxt", description = "The graph file.")
    private Path file;

    @Override
    public Integer call()
    {
        final GraphConfig config;
        try (Graph graph = GraphFiles.open(file))
        {
            config = graph.config();
        }
        final PrintWriter out = spec.commandLine().getOut();
        final int streams = new Topology(config).streams().size();
        out.printf("valid: %d node%s, %d stream%s%n", config.nodes().size(), config.nodes().size() == 1 ? "" : "s",
            streams, streams == 1 ? "" : "s");
        out.flush();
        return 0;
    }
}
