package dev.framewire.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM that a test starts and waits for (60 s at most): its exit code and what it printed,
 * each stream through a file in the test's directory, so that a child that prints much never
 * blocks on a full pipe.
 *
 * @param exit the exit code.
 * @param out  what it printed on stdout.
 * @param err  what it printed on stderr.
 */
record ChildJvm(int exit, String out, String err)
{
    /** The {@code java} of the JVM that runs the tests. */
    static String java()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code command} and waits for it; a child still running after 60 s fails the test.
     *
     * @param command the command line, {@link #java()} first.
     * @param dir     where its output files go.
     * @return how it ended.
     */
    static ChildJvm run(final List<String> command, final Path dir) throws Exception
    {
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
        return new ChildJvm(child.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    }
}
