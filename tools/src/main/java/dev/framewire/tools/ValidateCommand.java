package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code framewire validate GRAPH.pbtxt}: parses a graph file and validates it as a whole, as
 * making a {@link Graph} does (the graph is closed without being started), and prints
 * {@code valid: N nodes, M streams} or every error. {@code --subgraph} and {@code --subgraph-dir}
 * register subgraph files, whose uses are expanded first; {@code --structure-only} checks streams,
 * edges and cycles without the calculators, for graphs of calculators Framewire does not have.
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

    @Option(names = "--structure-only", description = "Check streams, edges, executors and cycles only, without " +
        "looking up calculators or checking their options: for graphs of calculators Framewire does not have.")
    private boolean structureOnly;

    @Option(names = "--subgraph", paramLabel = "FILE.pbtxt", description = "Register a subgraph file (one with " +
        "type: \"FooSubgraph\"); nodes whose calculator is its type are expanded. Repeatable.")
    private List<Path> subgraphs = new ArrayList<>();

    @Option(names = "--subgraph-dir", paramLabel = "DIR", description = "Register every subgraph file (.pbtxt with " +
        "type:) under this directory. Repeatable.")
    private List<Path> subgraphDirs = new ArrayList<>();

    @Override
    public Integer call()
    {
        GraphFiles.registerSubgraphs(subgraphs, subgraphDirs);
        final GraphConfig config;
        if (structureOnly)
        {
            config = GraphFiles.expand(file.toString(), GraphFiles.readStructure(file));
            try
            {
                config.checkStructure();
            }
            catch (final GraphConfigException ex)
            {
                throw GraphFiles.invalid(file.toString(), ex);
            }
        }
        else
        {
            try (Graph graph = GraphFiles.validate(file.toString(),
                GraphFiles.expand(file.toString(), GraphFiles.read(file))))
            {
                config = graph.config();
            }
        }
        final PrintWriter out = spec.commandLine().getOut();
        final int streams = new Topology(config).streams().size();
        out.printf("valid%s: %d node%s, %d stream%s%n", structureOnly ? " structure" : "", config.nodes().size(),
            config.nodes().size() == 1 ? "" : "s", streams, streams == 1 ? "" : "s");
        out.flush();
        return 0;
    }
}
