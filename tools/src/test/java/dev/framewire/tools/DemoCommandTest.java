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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void hotplugAddsCamerasAsSubgraphsAndRemovesThemAgain() throws Exception
    {
        final Cli.Result r = Cli.run("demo", "--hotplug", "--hotplug-every", "200", "--hotplug-max", "4",
            "--width", "64", "--height", "48", "--fps", "30", "--snapshots", dir.resolve("snaps").toString(),
            "--journal", dir.resolve("journal").toString());
        assertEquals(0, r.exit(), r.toString());
        final String out = r.out();
        final java.util.List<String> lines = out.lines().toList();
        for (int c = 0; c < 4; c++)
        {
            final String cam = "cam" + c;
            final int added = index(lines, "] + " + cam + " added");
            final int removed = index(lines, "] - " + cam + " removed (drained)");
            assertTrue(added >= 0 && removed > added, cam + " came, then went\n" + r);
            assertTrue(lines.stream().anyMatch(l -> l.matches(cam + " +\\d+ .*s")), cam + "'s row in the table\n" + r);
        }
        assertTrue(index(lines, "] + cam1 added") < index(lines, "] + cam2 added") &&
            index(lines, "] + cam3 added") < index(lines, "] - cam0 removed"), "2 at the start, up to 4, then down\n" + r);
        assertTrue(out.contains("+ cam1 added (its 7 nodes open in ") && out.contains("): 2 cameras"), out);
        assertTrue(out.contains("): 4 cameras") && !out.contains("): 5 cameras"), out);
        assertTrue(out.contains("): 0 cameras"), out);
        assertTrue(out.contains("camera      frames      fps       p50       p99     p99.9       max  in graph"), out);
        assertTrue(out.contains("cameras added: 4, removed: 4"), out);
        assertTrue(out.contains("in use at the end 0.0 MiB"), out);
        final java.util.regex.Matcher all = java.util.regex.Pattern.compile("(?m)^all +(\\d+) ").matcher(out);
        assertTrue(all.find() && Long.parseLong(all.group(1)) >= 4 * 3, "every camera sent frames through\n" + r);

        // journaled: its replay adds and removes the cameras after the packets the recording had from each
        final Path recorded;
        try (java.util.stream.Stream<Path> runs = java.nio.file.Files.list(dir.resolve("journal")))
        {
            recorded = runs.filter(p -> p.getFileName().toString().startsWith("run-")).findFirst().orElseThrow();
        }
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--journal",
            dir.resolve("replay").toString());
        assertEquals(0, replay.exit(), replay.toString());
        final Path replayed;
        try (java.util.stream.Stream<Path> runs = java.nio.file.Files.list(dir.resolve("replay")))
        {
            replayed = runs.filter(p -> p.getFileName().toString().startsWith("run-")).findFirst().orElseThrow();
        }
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), replayed.toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 28 streams compared"), diff.toString());
    }

    @Test
    void hotplugRefusesOptionsItCannotHonour()
    {
        final Cli.Result tooMany = Cli.run("demo", "--hotplug", "--hotplug-max", "3", "--cameras", "4");
        assertEquals(2, tooMany.exit());
        assertTrue(tooMany.err().contains("--cameras (4, the cameras at the start) must be at most --hotplug-max (3)"),
            tooMany.err());
        final Cli.Result video = Cli.run("demo", "--hotplug", "--source", "x.mp4");
        assertEquals(2, video.exit());
        assertTrue(video.err().contains("--source and --record are not supported"), video.err());
    }

    private static int index(final java.util.List<String> lines, final String text)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).contains(text))
            {
                return i;
            }
        }
        return -1;
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
            assertEquals(i, DemoCamera.frameIndex((long)(i * 1e6 / 60.0), 60.0));
            assertEquals(i, DemoCamera.frameIndex((long)(i * 1e6 / 29.97), 29.97));
            assertEquals(i, DemoCamera.frameIndex(i * 16_667, 0));
        }
    }
}
