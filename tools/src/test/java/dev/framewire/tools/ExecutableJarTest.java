package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built {@code target/framewire.jar} runs as {@code java -jar framewire.jar}, with no JVM flag:
 * its manifest carries the {@code Add-Exports} and {@code Add-Opens} of {@code .mvn/jvm.config},
 * which ships in no jar. Run at {@code package}, once the jar is made (tools' POM), by surefire's
 * {@code executable-jar} execution; a journaled run needs Chronicle's flags as well as Agrona's.
 */
@Timeout(120)
class ExecutableJarTest
{
    @TempDir
    Path dir;

    private static Path jar()
    {
        final Path jar = Path.of("target", "framewire.jar").toAbsolutePath();
        assertTrue(Files.isRegularFile(jar), "run at package, after the shade plugin made " + jar);
        return jar;
    }

    @Test
    void theManifestCarriesEveryExportAndOpenOfJvmConfig() throws IOException
    {
        final TreeSet<String> exports = new TreeSet<>();
        final TreeSet<String> opens = new TreeSet<>();
        for (final String line : Files.readAllLines(Path.of("..", ".mvn", "jvm.config")))
        {
            final String flag = line.strip();
            if (flag.startsWith("--add-exports=") || flag.startsWith("--add-opens="))
            {
                final String target = flag.substring(flag.indexOf('=') + 1, flag.lastIndexOf('='));
                (flag.startsWith("--add-exports=") ? exports : opens).add(target);
            }
        }
        try (JarFile jar = new JarFile(jar().toFile()))
        {
            final Attributes main = jar.getManifest().getMainAttributes();
            assertEquals(exports, new TreeSet<>(Arrays.asList(main.getValue("Add-Exports").split(" "))));
            assertEquals(opens, new TreeSet<>(Arrays.asList(main.getValue("Add-Opens").split(" "))));
        }
    }

    @Test
    void javaDashJarWithoutFlagsRunsAJournaledGraph() throws Exception
    {
        final Path graph = Files.writeString(dir.resolve("g.pbtxt"), Cli.countingGraph(50));
        final String bare = run("bare", graph);
        assertTrue(bare.contains("throughput: 50 packets on the end streams"), bare);
        assertFalse(bare.contains("lacks"), bare);
        // the JVM's warnings are those it gives with every flag on the command line (JDK 24+ warns
        // of sun.misc.Unsafe either way): the manifest leaves out none that a flag would silence. Except
        // the one jvm.config's --add-modules=jdk.incubator.vector brings, which no manifest can add
        final String flagged = run("flagged", graph, "@" + Path.of("..", ".mvn", "jvm.config").toAbsolutePath());
        assertEquals(warnings(flagged), warnings(bare), bare);
    }

    /** Runs {@code java [flags] -jar framewire.jar run GRAPH} with a journal; returns its output, after exit 0. */
    private String run(final String name, final Path graph, final String... flags) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(flags));
        command.addAll(List.of("-jar", jar().toString(), "run", graph.toString(), "--journal",
            dir.resolve("journals-" + name).toString()));
        final Path output = dir.resolve(name + ".txt");
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), "java -jar did not end");
        final String out = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), out);
        return out;
    }

    private static List<String> warnings(final String output)
    {
        return output.lines().filter(l -> l.startsWith("WARNING") && !l.contains("Using incubator modules"))
            .collect(Collectors.toList());
    }
}
