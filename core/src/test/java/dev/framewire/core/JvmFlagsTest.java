package dev.framewire.core;

import dev.framewire.core.internal.run.JvmFlags;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Graph.start checks the JVM flags what the graph uses needs, and names the missing ones: child
 * JVMs ({@link JvmFlagsChild}) started with the test classpath and without some flags of
 * {@code .mvn/jvm.config}. Each takes a second or two. The journal's flags (Chronicle Queue's) are
 * checked by framewire-journal's provider and tested there ({@code JournalJvmFlagsTest}): core's
 * test class path has no journal.
 */
@Timeout(120)
class JvmFlagsTest
{
    private static final String AGRONA = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    @TempDir
    Path dir;


    private ChildJvm run(final List<String> flags, final String... args) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(ChildJvm.java());
        command.addAll(flags);
        command.add("-Xmx128m");
        command.add("-Dchronicle.analytics.disable=true");
        command.add("-Dchronicle.disk.monitor.disable=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JvmFlagsChild.class.getName());
        command.addAll(List.of(args));
        return ChildJvm.run(command, dir);
    }

    @Test
    void theTestJvmHasEveryFlagAGraphCanNeed()
    {
        assertEquals(List.of(), JvmFlags.missing(null), "surefire passes .mvn/jvm.config");
        JvmFlags.check(null);
    }

    @Test
    void withoutFlagsAGraphRefusesToStartNamingTheFlagAgronaNeedsAndWhereTheFlagsAre() throws Exception
    {
        final ChildJvm child = run(List.of(), "plain");
        assertEquals(3, child.exit(), child.out() + child.err());
        final String message = child.out();
        assertTrue(message.startsWith("REFUSED this JVM lacks a flag the graph needs: " + AGRONA +
            " (Agrona's off-heap buffers, under every payload). Give it to java: " + AGRONA + ", on the java command " +
            "line before -jar or the main class, or in the JDK_JAVA_OPTIONS environment variable; an executable jar " +
            "can carry them in its manifest instead (ALL-UNNAMED only), as framewire.jar does: Add-Exports: " +
            "java.base/jdk.internal.misc. (-Dframewire.checkJvmFlags=false skips this check.)"), message);
        assertFalse(message.contains(".mvn/jvm.config"), "a file no jar ships: " + message);
        assertFalse(message.contains("java.lang.reflect"), "a graph without a journal does not need Chronicle's: " +
            message);
    }

    @Test
    void flagsTheGraphDoesNotUseAreNotRequired() throws Exception
    {
        // off-heap payloads with only Agrona's flag: none of Chronicle's, nor the rest of jvm.config
        final ChildJvm child = run(List.of(AGRONA), "payload");
        assertEquals(0, child.exit(), child.out() + child.err());
        assertEquals("RAN", child.out().strip());
    }

    @Test
    void theCheckCanBeTurnedOffForAJvmThatGivesTheAccessAnotherWay() throws Exception
    {
        // long packets only touch no Agrona buffer: without the check, this graph runs flagless
        final ChildJvm child = run(List.of("-D" + JvmFlags.CHECK_PROP + "=false"), "plain");
        assertEquals(0, child.exit(), child.out() + child.err());
        assertEquals("RAN", child.out().strip());
    }
}
