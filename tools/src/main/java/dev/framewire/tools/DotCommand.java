package dev.framewire.tools;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.NodeConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code framewire dot GRAPH.pbtxt}: the graph as Graphviz DOT. Nodes are boxes labelled with
 * their name and calculator (and executor, when not the default one); source nodes are bold.
 * Graph input streams are inverted houses, graph output streams houses. Each edge is one input of
 * a node, labelled with the input as written ({@code TAG:stream} or {@code stream}); back edges
 * are dashed and do not constrain the layout, so a flow limiter's loop does not fold the picture.
 * With {@code --png} it runs Graphviz's {@code dot -Tpng} when that is on the PATH.
 */
@Command(
    name = "dot",
    mixinStandardHelpOptions = true,
    versionProvider = FramewireCommand.Version.class,
    description = {
        "Writes a graph file (.pbtxt) as Graphviz DOT: nodes with their calculators, edges labelled with " +
            "their streams, back edges dashed, graph inputs and outputs as house shapes.",
        "Without -o the DOT text goes to standard output. With --png it also renders a PNG with Graphviz's " +
            "'dot' command, if it is installed."})
public final class DotCommand implements Callable<Integer>
{
    private static final long RENDER_TIMEOUT_SECONDS = 120;

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "GRAPH.pbtxt", description = "The graph file.")
    private Path file;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.dot", description = "Write the DOT text here.")
    private Path output;

    @Option(names = "--png", paramLabel = "FILE.png", description = "Also render a PNG with Graphviz (dot -Tpng).")
    private Path png;

    @Option(names = "--subgraph", paramLabel = "FILE.pbtxt", description = "Register a subgraph file (type: " +
        "\"FooSubgraph\") and draw its uses expanded. Repeatable.")
    private List<Path> subgraphs = new ArrayList<>();

    @Option(names = "--subgraph-dir", paramLabel = "DIR", description = "Register every subgraph file under this " +
        "directory. Repeatable.")
    private List<Path> subgraphDirs = new ArrayList<>();

    /** The search path for Graphviz's {@code dot}; tests point it elsewhere. */
    String searchPath = System.getenv("PATH");

    @Override
    public Integer call()
    {
        // The picture needs no calculators: a graph of calculators Framewire does not have draws too.
        GraphFiles.registerSubgraphs(subgraphs, subgraphDirs);
        final GraphConfig config = GraphFiles.expand(file.toString(), GraphFiles.readStructure(file));
        final String dot = toDot(config, graphName(file));
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (output != null)
        {
            try
            {
                Files.writeString(output, dot, StandardCharsets.UTF_8);
            }
            catch (final IOException ex)
            {
                throw new CommandFailure("cannot write '" + output + "': " + ex);
            }
            out.println("wrote " + output);
        }
        else
        {
            out.print(dot);
        }
        out.flush();
        if (png != null)
        {
            final Path dotExecutable = findOnPath("dot", searchPath);
            if (dotExecutable == null)
            {
                err.println("Graphviz is not installed ('dot' is not on the PATH), so no PNG was made; install it " +
                    "(apt-get install graphviz) or render the DOT elsewhere: dot -Tpng " +
                    (output != null ? output : "FILE.dot") + " -o " + png);
                err.flush();
                return 0;
            }
            render(dotExecutable, dot, png);
            out.println("wrote " + png);
            out.flush();
        }
        return 0;
    }

    private static void render(final Path dotExecutable, final String dot, final Path png)
    {
        try
        {
            final Process process = new ProcessBuilder(dotExecutable.toString(), "-Tpng", "-o", png.toString())
                .redirectErrorStream(true).start();
            try (OutputStream in = process.getOutputStream())
            {
                in.write(dot.getBytes(StandardCharsets.UTF_8));
            }
            final byte[] said = process.getInputStream().readAllBytes();
            if (!process.waitFor(RENDER_TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                throw new CommandFailure("Graphviz 'dot' did not finish in " + RENDER_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0)
            {
                throw new CommandFailure("Graphviz 'dot' failed with exit code " + process.exitValue() + ": " +
                    new String(said, StandardCharsets.UTF_8).trim());
            }
        }
        catch (final IOException ex)
        {
            throw new CommandFailure("cannot run Graphviz 'dot': " + ex.getMessage());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new CommandFailure("interrupted while Graphviz 'dot' was rendering " + png);
        }
    }

    /**
     * An executable file of a name in a search path.
     *
     * @param name the program's name.
     * @param path directories separated by the platform's path separator; null for none.
     * @return the file, or null if no directory has it.
     */
    static Path findOnPath(final String name, final String path)
    {
        if (path == null)
        {
            return null;
        }
        for (final String dir : path.split(File.pathSeparator))
        {
            if (dir.isEmpty())
            {
                continue;
            }
            final Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }

    private static String graphName(final Path file)
    {
        final String name = file.getFileName().toString();
        return name.endsWith(".pbtxt") ? name.substring(0, name.length() - ".pbtxt".length()) : name;
    }

    /**
     * A config as DOT text.
     *
     * @param config the graph.
     * @param name   the DOT graph's name.
     * @return the text.
     */
    static String toDot(final GraphConfig config, final String name)
    {
        final Topology topology = new Topology(config);
        final StringBuilder sb = new StringBuilder(1024);
        sb.append("digraph ").append(quote(name)).append(" {\n");
        sb.append("  rankdir=LR;\n");
        sb.append("  node [fontname=\"Helvetica\", fontsize=11];\n");
        sb.append("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        for (final String input : config.inputStreams())
        {
            sb.append("  ").append(quote("input:" + input)).append(" [label=").append(quote(input))
                .append(", shape=invhouse, style=filled, fillcolor=\"#dbeafe\"];\n");
        }
        for (final String output : config.outputStreams())
        {
            sb.append("  ").append(quote("output:" + output)).append(" [label=").append(quote(output))
                .append(", shape=house, style=filled, fillcolor=\"#dcfce7\"];\n");
        }
        for (final NodeConfig node : config.nodes())
        {
            final String label = node.name() + "\n" + node.calculator() +
                (node.executor().equals(GraphConfig.DEFAULT_EXECUTOR) ? "" : "\nexecutor " + node.executor());
            sb.append("  ").append(quote("node:" + node.name())).append(" [label=").append(quote(label))
                .append(", shape=box, style=").append(node.inputStreams().isEmpty() ? "\"rounded,bold\"" : "rounded")
                .append("];\n");
        }
        for (final NodeConfig node : config.nodes())
        {
            for (final Topology.Input input : topology.inputsOf(node.name()))
            {
                final String producer = topology.producerOf(input.stream());
                if (producer == null)
                {
                    continue; // no producer: validation says so; nothing to draw
                }
                sb.append("  ").append(quote(vertex(producer, input.stream()))).append(" -> ")
                    .append(quote("node:" + node.name())).append(" [label=").append(quote(input.spec()));
                if (input.backEdge())
                {
                    sb.append(", style=dashed, constraint=false");
                }
                sb.append("];\n");
            }
        }
        for (final String output : config.outputStreams())
        {
            final String producer = topology.producerOf(output);
            if (producer != null)
            {
                sb.append("  ").append(quote(vertex(producer, output))).append(" -> ")
                    .append(quote("output:" + output)).append(" [label=").append(quote(output)).append("];\n");
            }
        }
        sb.append("}\n");
        return sb.toString();
    }

    private static String vertex(final String producer, final String stream)
    {
        return producer.equals(Topology.GRAPH_INPUT) ? "input:" + stream : "node:" + producer;
    }

    /** A DOT quoted string; a newline becomes DOT's centred line break. */
    static String quote(final String text)
    {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
