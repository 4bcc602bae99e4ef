package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(60)
class DemoCommandTest
{
    @TempDir
    Path dir;

    @Test
    void demoRunsOneSmallCameraForTwoSeconds() throws Exception
    {
        final StringWriter text = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(text));
        final Path snapshots = dir.resolve("snaps");
        final int exit = cli.execute("demo", "--duration", "2", "--cameras", "1", "--width", "160", "--height", "120",
            "--fps", "30", "--snapshots", snapshots.toString(), "--snapshot-every", "15");
        final String output = text.toString();
        assertEquals(0, exit, output);
        final DemoCommand demo = cli.getSubcommands().get("demo").getCommand();
        assertTrue(demo.framesProcessed() >= 50, demo.framesProcessed() + " frames\n" + output);
        assertTrue(output.contains("[   1 s] frames"), output);
        assertTrue(output.contains("p99.9"), output);
        assertTrue(output.contains("cam0 "), output);
        assertTrue(output.contains("throughput: "), output);
        try (Stream<Path> files = Files.list(snapshots))
        {
            assertTrue(files.count() >= 3, "snapshots every 15th of ~60 frames");
        }
    }

    @Test
    void helpListsTheDemo()
    {
        final StringWriter text = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(text));
        assertEquals(0, cli.execute("--help"));
        assertTrue(text.toString().contains("demo"), text.toString());
    }

    @Test
    void badOptionIsAUsageError()
    {
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setErr(new PrintWriter(err));
        assertEquals(2, cli.execute("demo", "--cameras", "0"));
        assertTrue(err.toString().contains("--cameras must be 1..64"), err.toString());
    }

    @Test
    void aFailedRunExitsWithOneAndSaysWhy() throws Exception
    {
        final Path file = Files.write(dir.resolve("file"), new byte[1]);
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));
        assertEquals(1, cli.execute("demo", "--duration", "1", "--cameras", "1", "--width", "32", "--height", "32",
            "--snapshots", file.resolve("sub").toString()));
        assertTrue(err.toString().contains("cannot create snapshot directory"), err.toString());
    }

    @Test
    void frameIndexInvertsTheCameraTimestamps()
    {
        for (long i = 0; i < 100_000; i += 7)
        {
            assertEquals(i, DemoCommand.frameIndex((long)(i * 1e6 / 60.0), 60.0));
            assertEquals(i, DemoCommand.frameIndex((long)(i * 1e6 / 29.97), 29.97));
            assertEquals(i, DemoCommand.frameIndex(i * 16_667, 0));
        }
    }
}
