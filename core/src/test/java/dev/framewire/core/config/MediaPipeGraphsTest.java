package dev.framewire.core.config;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.SubgraphExpander;
import dev.framewire.core.SubgraphRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Parses every graph of MediaPipe's own repository (mediapipe/graphs and mediapipe/modules) when a
 * local git directory of it is given: {@code -Dframewire.mediapipe.git=/path/to/mediapipe/.git}
 * (or the environment variable {@code FRAMEWIRE_MEDIAPIPE_GIT}). The files are read with
 * {@code git show}, never copied into this repository. Skipped when no such directory is given.
 */
class MediaPipeGraphsTest
{
    private static String gitDir()
    {
        String gitDir = System.getProperty("framewire.mediapipe.git", System.getenv("FRAMEWIRE_MEDIAPIPE_GIT"));
        if (gitDir == null && Files.isDirectory(Path.of("/work/.mirror/google-ai-edge+mediapipe/repo")))
        {
            gitDir = "/work/.mirror/google-ai-edge+mediapipe/repo";
        }
        assumeTrue(gitDir != null && Files.isDirectory(Path.of(gitDir)), "no MediaPipe git directory given");
        return gitDir;
    }

    private static List<String> graphFiles(final String gitDir) throws IOException, InterruptedException
    {
        final List<String> files = new ArrayList<>();
        for (final String path : git(gitDir, "ls-tree", "-r", "HEAD", "--name-only").split("\n"))
        {
            // Files under data/ are other messages in text form (Mesh3d, GeometryPipelineMetadata), not graphs.
            if ((path.startsWith("mediapipe/graphs/") || path.startsWith("mediapipe/modules/")) &&
                path.endsWith(".pbtxt") && !path.contains("/data/"))
            {
                files.add(path);
            }
        }
        return files;
    }

    @Test
    void everyMediaPipeGraphParses() throws IOException, InterruptedException
    {
        final String gitDir = gitDir();
        final List<String> files = graphFiles(gitDir);
        final List<String> failures = new ArrayList<>();
        int subgraphs = 0;
        int nodes = 0;
        for (final String path : files)
        {
            try
            {
                final GraphConfig config = GraphConfigText.parseStructure(git(gitDir, "show", "HEAD:" + path), path);
                subgraphs += config.type() != null ? 1 : 0;
                nodes += config.nodes().size();
            }
            catch (final GraphConfigException ex)
            {
                failures.add(String.join("\n  ", ex.errors()));
            }
        }
        System.out.printf("MediaPipe graphs: %d files, %d parse (%d subgraphs, %d nodes), %d fail%n",
            files.size(), files.size() - failures.size(), subgraphs, nodes, failures.size());
        assertTrue(files.size() > 100, "only " + files.size() + " graph files under " + gitDir);
        assertEquals(List.of(), failures);
    }

    /**
     * Every whole graph (no {@code type:}) under mediapipe/graphs, with every subgraph file of
     * mediapipe/modules and mediapipe/graphs registered by directory (the files are written to a
     * temporary directory, as a user's checkout would be), expands and passes the structure-only
     * check. A type that two files define (a CPU and a GPU variant; MediaPipe's build picks one with
     * {@code register_as}) is reported as ambiguous, never expanded from whichever file came last;
     * such a graph must then pass once the variant it means is registered by itself, as a user
     * would with {@code --subgraph FILE}.
     */
    @Test
    void everyMediaPipeGraphExpandsWithItsSubgraphsAndPassesTheStructureCheck(@TempDir final Path checkout)
        throws IOException, InterruptedException
    {
        final String gitDir = gitDir();
        final List<String> files = graphFiles(gitDir);
        final List<String> graphs = new ArrayList<>();
        final Map<String, List<Path>> definitions = new HashMap<>();
        for (final String path : files)
        {
            final String text = git(gitDir, "show", "HEAD:" + path);
            final Path file = checkout.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
            final String type = GraphConfigText.parseStructure(text, path).type();
            if (type != null)
            {
                definitions.computeIfAbsent(type, t -> new ArrayList<>()).add(file);
            }
            else if (path.startsWith("mediapipe/graphs/"))
            {
                graphs.add(path);
            }
        }
        final SubgraphRegistry registry = new SubgraphRegistry();
        registry.registerAll(checkout.resolve("mediapipe/modules"));
        registry.registerAll(checkout.resolve("mediapipe/graphs"));
        final List<String> failures = new ArrayList<>();
        int ambiguous = 0;
        int nodes = 0;
        for (final String path : graphs)
        {
            final GraphConfig graph = GraphConfigText.readStructure(checkout.resolve(path));
            try
            {
                nodes += SubgraphExpander.expand(graph, registry).checkStructure().nodes().size();
            }
            catch (final GraphConfigException ex)
            {
                if (!ex.errors().stream().allMatch(e -> e.contains("files define subgraph type")))
                {
                    failures.add(path + ": " + String.join("\n  ", ex.errors()));
                    continue;
                }
                // the user's fix: register the variant meant by itself (CPU, or else GPU)
                ambiguous++;
                String failure = null;
                for (final String variant : List.of("cpu", "gpu"))
                {
                    for (final List<Path> twins : definitions.values())
                    {
                        for (final Path twin : twins)
                        {
                            if (twins.size() > 1 && twin.getFileName().toString().contains(variant))
                            {
                                registry.register(twin);
                            }
                        }
                    }
                    try
                    {
                        nodes += SubgraphExpander.expand(graph, registry).checkStructure().nodes().size();
                        failure = null;
                        break;
                    }
                    catch (final GraphConfigException again)
                    {
                        failure = path + " (with the " + variant + " variants): " + String.join("\n  ", again.errors());
                    }
                }
                if (failure != null)
                {
                    failures.add(failure);
                }
                for (final Map.Entry<String, List<Path>> twins : definitions.entrySet())
                {
                    if (twins.getValue().size() > 1)
                    {
                        registry.unregister(twins.getKey());
                        for (final Path twin : twins.getValue())
                        {
                            registry.registerAll(twin.getParent()); // ambiguous again, for the next graph
                        }
                    }
                }
            }
        }
        System.out.printf("MediaPipe graphs expanded: %d whole graphs, %d expand and check (%d nodes), %d of them once the variant meant is registered, %d fail%n",
            graphs.size(), graphs.size() - failures.size(), nodes, ambiguous, failures.size());
        assertTrue(graphs.size() > 40, "only " + graphs.size() + " whole graphs");
        assertEquals(List.of(), failures);
    }

    private static String git(final String gitDir, final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("git", "--git-dir=" + gitDir));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), String.join(" ", command));
        return out;
    }
}
