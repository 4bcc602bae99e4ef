package dev.framewire.tools;

import dev.framewire.core.GraphAnalysis;
import dev.framewire.core.GraphConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code framewire analyze GRAPH.pbtxt}: the static analysis of a graph's structure
 * ({@link GraphAnalysis#report()}): sources, sinks, layers, the longest path, strict blocks and
 * their paths, threatened blocks and the criticality score.
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {
        "Prints the static analysis of a graph file (.pbtxt): sources, sinks, topological layers, the longest " +
            "path, strict blocks with their strict paths, threatened blocks and the criticality score.",
        "A strict block has exactly one upstream node, so that node's failure blocks it; its strict path is " +
            "everything it depends on. A threatened block is on no strict path but some single upstream " +
            "failure blocks it. Criticality is threatened blocks over all nodes: higher, less fault tolerant."})
public final class AnalyzeCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH.pbtxt", description = "The graph file.")
    private Path file;

    @Override
    public Integer call()
    {
        final GraphAnalysis analysis;
        try
        {
            analysis = GraphAnalysis.of(GraphFiles.read(file));
        }
        catch (final GraphConfigException ex)
        {
            throw GraphFiles.invalid(file.toString(), ex);
        }
        final PrintWriter out = spec.commandLine().getOut();
        out.print(analysis.report());
        out.flush();
        return 0;
    }
}
