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
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-jar", jar().toString(), "run", graph.toString(), "--journal", dir.resolve("journals").toString()));
        final Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
            .redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), "java -jar did not end");
        final String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), out);
        assertTrue(out.contains("throughput: 50 packets on the end streams"), out);
        assertFalse(out.contains("lacks"), out);
        assertFalse(out.contains("WARNING"), "no illegal-access or native-access warning: " + out);
    }
}
