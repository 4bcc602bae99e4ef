package dev.framewire.tools;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the command line as a user would, with its output and errors captured. */
final class Cli
{
    /**
     * What a command did.
     *
     * @param exit its exit code.
     * @param out  what it printed on standard output.
     * @param err  what it printed on standard error.
     */
    record Result(int exit, String out, String err)
    {
        @Override
        public String toString()
        {
            return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    private Cli()
    {
    }

    static Result run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        final int exit = cli.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    static Path write(final Path dir, final String name, final String text) throws Exception
    {
        return Files.writeString(dir.resolve(name), text);
    }

    /** The one run journal under a journal root (fails the test if there are none or several). */
    static Path onlyRun(final Path root) throws Exception
    {
        try (Stream<Path> runs = Files.list(root))
        {
            final Path[] all = runs.filter(p -> p.getFileName().toString().startsWith("run-")).toArray(Path[]::new);
            assertEquals(1, all.length, "run journals under " + root);
            return all[0];
        }
    }

    /** Whether ffmpeg is on the path. */
    static boolean ffmpegRuns()
    {
        try
        {
            return new ProcessBuilder("ffmpeg", "-version").redirectErrorStream(true).start().waitFor() == 0;
        }
        catch (final Exception ex)
        {
            return false;
        }
    }

    /** A 2 s H.264 clip of ffmpeg's testsrc2 at 25 fps in {@code dir}, of the size given ("160x120"). */
    static Path clip(final Path dir, final String size) throws Exception
    {
        final Path clip = dir.resolve("clip.mp4");
        final Process make = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-f",
            "lavfi", "-i", "testsrc2=size=" + size + ":rate=25", "-t", "2", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", clip.toString()).redirectErrorStream(true).start();
        assertTrue(make.waitFor(60, TimeUnit.SECONDS) && make.exitValue() == 0,
            new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        return clip;
    }

    /** A counting source through a pass-through to a graph output: the smallest runnable graph. */
    static String countingGraph(final long count)
    {
        return "output_stream: \"out\"\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node {\n" +
            "  name: \"count\"\n" +
            "  calculator: \"CountingSourceCalculator\"\n" +
            "  output_stream: \"n\"\n" +
            "  option { name: \"count\" int_value: " + count + " }\n" +
            "}\n" +
            "node {\n" +
            "  name: \"pass\"\n" +
            "  calculator: \"PassThroughCalculator\"\n" +
            "  input_stream: \"n\"\n" +
            "  output_stream: \"out\"\n" +
            "}\n";
    }
}
