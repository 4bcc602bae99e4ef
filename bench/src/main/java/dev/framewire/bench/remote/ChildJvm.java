package dev.framewire.bench.remote;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The far side of a two-process benchmark: a child JVM with this JVM's class path and flags
 * ({@code .mvn/jvm.config}'s among them), started by a benchmark's {@code @Setup}. It prints
 * {@code READY} once it listens, may answer a line with a line ({@link #ask}), and ends when its
 * standard input closes ({@link #close}, or this JVM dying); {@link #close} kills it if it is still
 * there 10 s later, and a shutdown hook kills it if this JVM exits first.
 *
 * <p>Threading: the benchmark thread.
 */
final class ChildJvm implements AutoCloseable
{
    private final Process process;
    private final Path stderr;
    private final Thread kill;
    private final BufferedReader out;
    private final PrintStream in;

    private ChildJvm(final Process process, final Path stderr, final Thread kill)
    {
        this.process = process;
        this.stderr = stderr;
        this.kill = kill;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * Starts {@code main} with {@code args} and waits for its {@code READY}.
     *
     * @throws IllegalStateException with the child's stderr if it says anything else or dies first.
     */
    static ChildJvm start(final Class<?> main, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (final String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
        {
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent") && !arg.startsWith("-Xrunjdwp"))
            {
                command.add(arg); // this fork's flags (.mvn/jvm.config's among them)
            }
        }
        command.addAll(List.of("-Xmx512m", "-XX:MaxDirectMemorySize=1g", "-cp", System.getProperty("java.class.path"),
            main.getName()));
        command.addAll(List.of(args));
        final Path stderr = Files.createTempFile("bench-remote-child-", ".txt");
        final Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        final Thread kill = new Thread(process::destroyForcibly, "kill-" + main.getSimpleName());
        Runtime.getRuntime().addShutdownHook(kill);
        final ChildJvm child = new ChildJvm(process, stderr, kill);
        final String line = child.out.readLine(); // READY, or it died and its output ended
        if (!"READY".equals(line))
        {
            final String err = child.stderr();
            child.close();
            throw new IllegalStateException("the child " + main.getSimpleName() + " did not start: it said " + line +
                "; its stderr:\n" + err);
        }
        return child;
    }

    /** Sends {@code line} to the child and returns its answer, or null if its output ended. */
    String ask(final String line) throws IOException
    {
        in.println(line);
        return out.readLine();
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

    /** What the child wrote to its stderr so far, for a failure's message. */
    String stderr()
    {
        try
        {
            return Files.readString(stderr);
        }
        catch (final IOException ex)
        {
            return ex.toString();
        }
    }

    /** Closes the child's standard input (it ends), waits for it up to 10 s, then kills it. */
    @Override
    public void close() throws IOException
    {
        try
        {
            in.close();
            if (!process.waitFor(10, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            process.destroyForcibly();
            Runtime.getRuntime().removeShutdownHook(kill);
            Files.deleteIfExists(stderr);
        }
    }
}
