package dev.framewire.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A journaled graph needs Chronicle Queue's flags as well as Agrona's, and Graph.start names the
 * missing ones through {@link ChronicleJournalProvider#missingJvmFlags()}: in this JVM (surefire
 * gives it .mvn/jvm.config) and in child JVMs ({@link JournalJvmFlagsChild}) given only some flags.
 */
@Timeout(120)
class JournalJvmFlagsTest
{
    private static final String AGRONA = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    private static final String REFLECT = "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED";
    private static final String NIO = "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED";

    @TempDir
    Path dir;

    private String[] run(final List<String> flags) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-Xmx128m");
        command.add("-Dchronicle.analytics.disable=true");
        command.add("-Dchronicle.disk.monitor.disable=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JournalJvmFlagsChild.class.getName());
        command.add(dir.resolve("journal").toString());
        final Path out = Files.createTempFile(dir, "child", ".out");
        final Path err = Files.createTempFile(dir, "child", ".err");
        final Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try
        {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child did not end in 60 s");
        }
        finally
        {
            child.destroyForcibly();
        }
        return new String[] {String.valueOf(child.exitValue()), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8)};
    }

    @Test
    void theTestJvmHasChroniclesFlags()
    {
        assertEquals(List.of(), new ChronicleJournalProvider().missingJvmFlags(), "surefire passes .mvn/jvm.config");
    }

    @Test
    void aJournaledGraphWithOnlyAgronasFlagRefusesToStartNamingChroniclesFlags() throws Exception
    {
        final String[] child = run(List.of(AGRONA));
        assertEquals("3", child[0], child[1] + child[2]);
        assertTrue(child[1].startsWith("REFUSED this JVM lacks flags the graph needs: " + REFLECT +
            " (the journal: Chronicle Queue), " + NIO + " (the journal: Chronicle Queue's memory-mapped files)"), child[1]);
        assertFalse(child[1].contains("jdk.internal.misc"), "Agrona's flag is there: " + child[1]);
        assertFalse(Files.exists(dir.resolve("journal")) && Files.list(dir.resolve("journal")).findAny().isPresent(),
            "a refused start leaves no run directory");
    }

    @Test
    void withAgronasAndChroniclesFlagsTheJournaledGraphRuns() throws Exception
    {
        final String[] child = run(List.of(AGRONA, REFLECT, NIO));
        assertEquals("0", child[0], child[1] + child[2]);
        assertEquals("RAN", child[1].strip());
    }
}
