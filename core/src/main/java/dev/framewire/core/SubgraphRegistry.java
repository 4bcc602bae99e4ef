package dev.framewire.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Graph configs that other graphs use as calculators, by their type name (MediaPipe's
 * {@code type: "FooSubgraph"}): a node whose calculator is a registered type is replaced by the
 * subgraph's nodes when the parent is expanded ({@link SubgraphExpander}).
 *
 * <p>Threading: registration and lookup are safe from any thread.
 */
public final class SubgraphRegistry
{
    private static final SubgraphRegistry GLOBAL = new SubgraphRegistry();
    private static final Pattern TYPE_LINE = Pattern.compile("^\\s*type\\s*:", Pattern.MULTILINE);

    private final Map<String, GraphConfig> subgraphs = new ConcurrentHashMap<>();
    /**
     * The files under registered directories that define each type, when more than one does
     * (MediaPipe keeps CPU and GPU variants of a subgraph under one type name, and its build picks
     * one): expanding such a type is an error until one of them is registered by itself.
     */
    private final Map<String, List<String>> definedBy = new ConcurrentHashMap<>();

    /** An empty registry (the CLI and {@link GraphConfigText} use {@link #global()}). */
    public SubgraphRegistry()
    {
    }

    /**
     * The process-wide registry that {@link GraphConfigText} consults when it meets an unknown
     * calculator name.
     *
     * @return the registry.
     */
    public static SubgraphRegistry global()
    {
        return GLOBAL;
    }

    /**
     * Registers a subgraph under its type name.
     *
     * @param subgraph a config with a {@link GraphConfig#type()}.
     * @return this.
     * @throws IllegalArgumentException if it has no type, or the type is a registered calculator.
     */
    public SubgraphRegistry register(final GraphConfig subgraph)
    {
        final String type = subgraph.type();
        if (type == null || type.isEmpty())
        {
            throw new IllegalArgumentException("a subgraph needs a type name (type: \"FooSubgraph\") to be registered");
        }
        if (CalculatorRegistry.global().lookup(type) != null)
        {
            throw new IllegalArgumentException("subgraph type '" + type + "' is already a registered calculator");
        }
        subgraphs.put(type, subgraph);
        definedBy.remove(type); // registered by itself: it is the one meant
        return this;
    }

    /**
     * Reads a subgraph file ({@code .pbtxt} with {@code type:}) for its structure and registers it.
     *
     * @param file the file.
     * @return its type name.
     * @throws IOException if the file cannot be read.
     * @throws GraphConfigException if it does not parse or has no type.
     */
    public String register(final Path file) throws IOException
    {
        final GraphConfig config = GraphConfigText.readStructure(file);
        if (config.type() == null)
        {
            throw new GraphConfigException(List.of(file + ": a subgraph file needs a type name (type: \"FooSubgraph\")"));
        }
        register(config);
        return config.type();
    }

    /**
     * Registers every {@code .pbtxt} file with a {@code type:} line under a directory
     * (recursively); files without one (whole graphs, other messages in text form) are skipped
     * unparsed.
     *
     * @param directory the directory.
     * @return the type names registered.
     * @throws IOException if the directory or a file cannot be read.
     * @throws GraphConfigException listing every file that does not parse.
     */
    public List<String> registerAll(final Path directory) throws IOException
    {
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(directory))
        {
            files = walk.filter(p -> p.toString().endsWith(".pbtxt")).sorted().toList();
        }
        final List<String> types = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        for (final Path file : files)
        {
            if (!TYPE_LINE.matcher(GraphConfigText.decode(Files.readAllBytes(file), file.toString())).find())
            {
                continue; // no type: a whole graph, or another message in text form (MediaPipe's data/ files)
            }
            try
            {
                final GraphConfig config = GraphConfigText.readStructure(file);
                if (config.type() != null)
                {
                    final List<String> sources = definedBy.getOrDefault(config.type(), List.of());
                    final boolean seen = subgraphs.containsKey(config.type());
                    register(config);
                    if (seen && !sources.isEmpty() && !sources.contains(file.toString()))
                    {
                        final List<String> all = new ArrayList<>(sources);
                        all.add(file.toString());
                        definedBy.put(config.type(), all);
                    }
                    else if (sources.isEmpty())
                    {
                        definedBy.put(config.type(), List.of(file.toString()));
                    }
                    else
                    {
                        definedBy.put(config.type(), sources);
                    }
                    types.add(config.type());
                }
            }
            catch (final GraphConfigException ex)
            {
                errors.addAll(ex.errors());
            }
        }
        if (!errors.isEmpty())
        {
            throw new GraphConfigException(errors);
        }
        return types;
    }

    /**
     * The subgraph of a type.
     *
     * @param type the type name.
     * @return its config, or null if none is registered.
     */
    public GraphConfig lookup(final String type)
    {
        return type == null ? null : subgraphs.get(type);
    }

    /**
     * Why a type cannot be expanded as it is registered: more than one file under the registered
     * directories defines it, and none was registered by itself.
     *
     * @param type the type name.
     * @return the reason, naming the files and the fix, or null if the type is unambiguous.
     */
    public String ambiguity(final String type)
    {
        final List<String> files = type == null ? null : definedBy.get(type);
        if (files == null || files.size() < 2)
        {
            return null;
        }
        return files.size() + " files define subgraph type '" + type + "': " + String.join(", ", files) +
            "; register the one meant by itself (--subgraph FILE, or SubgraphRegistry.register)";
    }

    /**
     * Whether a type is registered.
     *
     * @param type the type name.
     * @return true if it is.
     */
    public boolean contains(final String type)
    {
        return type != null && subgraphs.containsKey(type);
    }

    /**
     * The registered type names, sorted.
     *
     * @return the names.
     */
    public Set<String> types()
    {
        return new TreeSet<>(subgraphs.keySet());
    }

    /**
     * Forgets a type.
     *
     * @param type the type name.
     * @return true if it was registered.
     */
    public boolean unregister(final String type)
    {
        definedBy.remove(type);
        return subgraphs.remove(type) != null;
    }
}
