package dev.framewire.core.config;

import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    @Test
    void everyMediaPipeGraphParses() throws IOException, InterruptedException
    {
        String gitDir = System.getProperty("framewire.mediapipe.git", System.getenv("FRAMEWIRE_MEDIAPIPE_GIT"));
        if (gitDir == null && Files.isDirectory(Path.of("/work/.mirror/google-ai-edge+mediapipe/repo")))
        {
            gitDir = "/work/.mirror/google-ai-edge+mediapipe/repo";
        }
        assumeTrue(gitDir != null && Files.isDirectory(Path.of(gitDir)), "no MediaPipe git directory given");
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
