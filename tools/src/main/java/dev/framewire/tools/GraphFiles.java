package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reading {@code .pbtxt} graph files for the commands, with every problem turned into a
 * {@link CommandFailure} that says which file and what is wrong: the parser's errors carry the
 * file, line and column; validation errors name the node, stream or executor.
 */
final class GraphFiles
{
    private GraphFiles()
    {
    }

    /**
     * Reads and parses a graph file; the graph is not validated as a whole yet ({@link #validate}).
     *
     * @param file the file.
     * @return the config.
     * @throws CommandFailure if the file cannot be read or does not parse.
     */
    static GraphConfig read(final Path file)
    {
        return read(file, false);
    }

    /**
     * Reads and parses a graph file for its structure only: calculators are not looked up
     * ({@link GraphConfigText#readStructure}).
     *
     * @param file the file.
     * @return the config.
     * @throws CommandFailure if the file cannot be read or does not parse.
     */
    static GraphConfig readStructure(final Path file)
    {
        return read(file, true);
    }

    /**
     * Registers subgraph files and the subgraph files under directories in the global
     * {@link SubgraphRegistry}.
     *
     * @param files       {@code .pbtxt} files with {@code type:}.
     * @param directories directories searched recursively for such files.
     * @throws CommandFailure naming a file that cannot be read, does not parse or has no type.
     */
    static void registerSubgraphs(final List<Path> files, final List<Path> directories)
    {
        for (final Path dir : directories)
        {
            try
            {
                SubgraphRegistry.global().registerAll(dir);
            }
            catch (final IOException ex)
            {
                throw new CommandFailure("cannot read subgraph directory '" + dir + "': " + ex);
            }
            catch (final GraphConfigException ex)
            {
                throw invalid(dir.toString(), ex);
            }
        }
        for (final Path file : files)
        {
            try
            {
                SubgraphRegistry.global().register(file);
            }
            catch (final IOException ex)
            {
                throw new CommandFailure("cannot read subgraph file '" + file + "': " + ex);
            }
            catch (final GraphConfigException ex)
            {
                throw invalid(file.toString(), ex);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandFailure("cannot register subgraph '" + file + "': " + ex.getMessage());
            }
        }
    }

    /**
     * Expands the registered subgraphs a config uses.
     *
     * @param source the file, for messages.
     * @param config the config.
     * @return the flat config.
     * @throws CommandFailure listing every binding error.
     */
    static GraphConfig expand(final String source, final GraphConfig config)
    {
        try
        {
            return SubgraphExpander.expand(config, SubgraphRegistry.global());
        }
        catch (final GraphConfigException ex)
        {
            throw invalid(source, ex);
        }
    }

    private static GraphConfig read(final Path file, final boolean structureOnly)
    {
        if (Files.isDirectory(file))
        {
            throw new CommandFailure("cannot read graph file '" + file + "': it is a directory");
        }
        try
        {
            return structureOnly ? GraphConfigText.readStructure(file) : GraphConfigText.read(file);
        }
        catch (final NoSuchFileException ex)
        {
            throw new CommandFailure("cannot read graph file '" + file + "': no such file");
        }
        catch (final AccessDeniedException ex)
        {
            throw new CommandFailure("cannot read graph file '" + file + "': permission denied");
        }
        catch (final IOException ex)
        {
            throw new CommandFailure("cannot read graph file '" + file + "': " + ex.getMessage());
        }
        catch (final GraphConfigException ex)
        {
            throw invalid(file.toString(), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new CommandFailure("invalid graph in '" + file + "': " + ex.getMessage());
        }
    }

    /**
     * Validates a config as a whole by making a {@link Graph} of it, which the caller starts or
     * closes.
     *
     * @param source where the config came from, for messages (a file name).
     * @param config the config.
     * @return the graph, not started.
     * @throws CommandFailure listing every error.
     */
    static Graph validate(final String source, final GraphConfig config)
    {
        try
        {
            return new Graph(config);
        }
        catch (final GraphConfigException ex)
        {
            throw invalid(source, ex);
        }
    }

    /**
     * Reads, parses and validates a graph file.
     *
     * @param file the file.
     * @return the graph, not started.
     * @throws CommandFailure if the file cannot be read or the graph is not valid.
     */
    static Graph open(final Path file)
    {
        return validate(file.toString(), read(file));
    }

    /** Every error on a line of its own. */
    static CommandFailure invalid(final String source, final GraphConfigException ex)
    {
        final StringBuilder sb = new StringBuilder("invalid graph '").append(source).append("'");
        sb.append(ex.errors().size() == 1 ? ":" : " (" + ex.errors().size() + " errors):");
        for (final String error : ex.errors())
        {
            sb.append("\n  ").append(error.replace("\n", "\n    "));
        }
        return new CommandFailure(sb.toString());
    }
}
