package dev.framewire.tools;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Journal retention through the command line: {@code journal prune}, and the run and demo options. */
@Timeout(120)
class JournalPruneCommandTest
{
    @TempDir
    Path dir;

    /** Journals a small run with the command line; returns its run directory. */
    private Path journaledRun(final Path root, final long packets, final String... options) throws Exception
    {
        final Path graph = Cli.write(dir, "count.pbtxt", Cli.countingGraph(packets));
        final List<String> args = new ArrayList<>(List.of("run", graph.toString(), "--journal", root.toString()));
        args.addAll(List.of(options));
        final Cli.Result r = Cli.run(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.toString());
        final Matcher m = Pattern.compile("journal: (\\S+) ").matcher(r.out());
        assertTrue(m.find(), r.toString());
        return Path.of(m.group(1));
    }

    private static List<Path> runs(final Path root) throws IOException
    {
        try (Stream<Path> list = Files.list(root))
        {
            return list.filter(p -> p.getFileName().toString().startsWith("run-")).sorted().toList();
        }
    }

    private static void age(final Path run, final Duration by) throws IOException
    {
        final FileTime time = FileTime.from(Instant.now().minus(by));
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run))
        {
            for (final Path file : files)
            {
                Files.setLastModifiedTime(file, time);
            }
        }
        Files.setLastModifiedTime(run, time);
    }

    /** The line prune printed for a run. */
    private static String line(final Cli.Result r, final Path run)
    {
        for (final String line : r.out().split("\n"))
        {
            if (line.contains(run.getFileName().toString()))
            {
                return line.strip();
            }
        }
        throw new AssertionError("no line for " + run + " in " + r);
    }

    @Test
    void byAgeWithADryRunFirst() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path old = journaledRun(root, 5);
        final Path recent = journaledRun(root, 5);
        age(old, Duration.ofDays(9));

        final Cli.Result dry = Cli.run("journal", "prune", root.toString(), "--max-age", "7d", "--dry-run");
        assertEquals(0, dry.exit(), dry.toString());
        assertTrue(dry.out().startsWith("journal " + root.toAbsolutePath() + ": 2 runs (--max-age 7 days)"),
            dry.toString());
        assertTrue(line(dry, old).matches("would delete +" + old.getFileName() + " +last written 9 days ago: last " +
            "written 9 days ago, more than 7 days ago"), dry.toString());
        assertTrue(line(dry, recent).matches("keep +" + recent.getFileName() + " +last written \\d+ s ago"),
            dry.toString());
        assertTrue(dry.out().contains("dry run: would delete 1 run; 1 kept; nothing was deleted"), dry.toString());
        assertEquals(List.of(old, recent), runs(root), "a dry run deletes nothing");

        final Cli.Result prune = Cli.run("journal", "prune", root.toString(), "--max-age", "7d");
        assertEquals(0, prune.exit(), prune.toString());
        assertTrue(line(prune, old).startsWith("delete "), prune.toString());
        assertTrue(prune.out().contains("deleted 1 run; 1 kept"), prune.toString());
        assertEquals(List.of(recent), runs(root));
        assertEquals("", prune.err(), prune.toString());
    }

    @Test
    void bySizeTheOldestRunsGoFirst() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path first = journaledRun(root, 5);
        final Path second = journaledRun(root, 20_000); // larger
        final Path third = journaledRun(root, 5);
        final Cli.Result sizes = Cli.run("journal", "prune", root.toString(), "--max-size", "1T", "--dry-run");
        assertEquals(0, sizes.exit(), sizes.toString());
        assertTrue(sizes.out().contains("dry run: would delete 0 runs (0 B); 3 kept"), sizes.toString());
        final long small = bytes(line(sizes, first));
        assertTrue(bytes(line(sizes, second)) > small, sizes.toString());

        // room for the two small runs only: the oldest goes first, then the large one, until the rest fit
        final long budget = 2 * small + small / 2;
        final Cli.Result prune = Cli.run("journal", "prune", root.toString(), "--max-size", Long.toString(budget));
        assertEquals(0, prune.exit(), prune.toString());
        assertTrue(line(prune, first).startsWith("delete ") && line(prune, first).contains("the oldest go first"),
            prune.toString());
        assertTrue(line(prune, second).startsWith("delete "), prune.toString());
        assertTrue(line(prune, third).startsWith("keep "), prune.toString());
        assertTrue(prune.out().contains("deleted 2 runs ("), prune.toString());
        assertEquals(List.of(third), runs(root));
    }

    /** The size column of a prune line, in bytes (as JournalRetention.bytes prints it). */
    private static long bytes(final String line)
    {
        final Matcher m = Pattern.compile(" ([\\d.]+) (B|KiB|MiB|GiB) ").matcher(line);
        assertTrue(m.find(), line);
        final double v = Double.parseDouble(m.group(1));
        return (long)(v * switch (m.group(2))
        {
            case "KiB" -> 1024.0;
            case "MiB" -> 1024.0 * 1024;
            case "GiB" -> 1024.0 * 1024 * 1024;
            default -> 1.0;
        });
    }

    @Test
    void neverTheRunBeingWritten() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path old = journaledRun(root, 5);
        age(old, Duration.ofDays(30));
        // no retention on this open (the default's 7 days would take the old run now): prune below does it
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root).deleteOlderThan(null)))
        {
            final Path open = writer.runDirectory();
            age(open, Duration.ofDays(30));
            final Cli.Result prune = Cli.run("journal", "prune", root.toString(), "--max-age", "1d", "--max-size", "0");
            assertEquals(0, prune.exit(), prune.toString());
            assertTrue(line(prune, open).startsWith("in use ") && line(prune, open).endsWith(": being written"),
                prune.toString());
            assertTrue(line(prune, old).startsWith("delete "), prune.toString());
            assertEquals(List.of(open), runs(root));
            writer.runStart("g", 1, "test", new String[0], new String[0], new String[0]);
            writer.runEnd("done");
        }
        final Cli.Result after = Cli.run("journal", "prune", root.toString(), "--max-size", "0");
        assertEquals(0, after.exit(), after.toString());
        assertEquals(List.of(), runs(root), "closed, its lock released: it can go");
    }

    @Test
    void limitsAndDirectoriesThatAreNotValidAreNamed() throws Exception
    {
        final Path root = Files.createDirectories(dir.resolve("journal"));
        Cli.Result r = Cli.run("journal", "prune", root.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("give --max-age AGE, --max-size SIZE or both"), r.toString());

        r = Cli.run("journal", "prune", root.toString(), "--max-age", "7x");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--max-age") && r.err().contains("'7x' is not an age; give a whole number and " +
            "a unit: 90s, 30m, 12h, 7d or 2w"), r.toString());

        r = Cli.run("journal", "prune", root.toString(), "--max-size", "-5G");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--max-size") && r.err().contains("'-5G' is not a size"), r.toString());

        r = Cli.run("journal", "prune", dir.resolve("missing").toString(), "--max-age", "1d");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("prune: " + dir.resolve("missing").toAbsolutePath() + " is not a directory"),
            r.toString());

        r = Cli.run("journal", "prune", root.toString(), "--max-age", "1d");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("no run journals in " + root.toAbsolutePath()), r.toString());

        assertEquals(Duration.ofMinutes(30), Retention.age("30m"));
        assertEquals(Duration.ofDays(14), Retention.age("2w"));
        assertEquals(Duration.ofDays(7), Retention.age("P7D"));
        assertEquals(512L << 20, Retention.size("512M"));
        assertEquals(3L << 29, Retention.size("1.5GiB"));
        assertEquals(1234, Retention.size("1234"));
    }

    @Test
    void runAppliesTheRetentionWhenItsJournalOpens() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path old = journaledRun(root, 5);
        final Path recent = journaledRun(root, 5);
        age(old, Duration.ofDays(3));
        final Path byAge = journaledRun(root, 5, "--journal-max-age", "2d");
        assertEquals(List.of(recent, byAge), runs(root));

        final Path bySize = journaledRun(root, 5, "--journal-max-size", "1");
        assertEquals(List.of(bySize), runs(root), "the oldest runs go until the rest fit; the new run is not counted");

        final Cli.Result bad = Cli.run("run", Cli.write(dir, "c.pbtxt", Cli.countingGraph(5)).toString(),
            "--journal", root.toString(), "--journal-max-size", "lots");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("--journal-max-size") && bad.err().contains("'lots' is not a size"),
            bad.toString());

        final Cli.Result none = Cli.run("run", Cli.write(dir, "d.pbtxt", Cli.countingGraph(5)).toString(),
            "--no-journal", "--journal-max-age", "1d");
        assertEquals(1, none.exit(), none.toString());
        assertTrue(none.err().contains("--journal-max-age and --journal-max-size prune the journal directory when " +
            "the run's journal opens, and --no-journal opens none"), none.toString());
        assertEquals(List.of(bySize), runs(root));
    }

    @Test
    void runIsBoundedByDefaultAndSaysSoAtStart() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path old = journaledRun(root, 5);
        final Path week = journaledRun(root, 5);
        age(old, Duration.ofDays(8));
        age(week, Duration.ofDays(6));
        final Cli.Result r = Cli.run("run", Cli.write(dir, "e.pbtxt", Cli.countingGraph(5)).toString(),
            "--journal", root.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("  journal retention (" + root + "): runs last written more than 7 days ago, " +
            "then the oldest runs beyond 10.0 GiB in all, are deleted when a journal opens; never a run being " +
            "written (--journal-max-age, --journal-max-size; none for no bound)"), r.toString());
        assertFalse(runs(root).contains(old), "past the default age: " + runs(root));
        assertTrue(runs(root).contains(week));

        age(week, Duration.ofDays(30));
        final Cli.Result keep = Cli.run("run", Cli.write(dir, "f.pbtxt", Cli.countingGraph(5)).toString(),
            "--journal", root.toString(), "--journal-max-age", "none", "--journal-max-size", "none");
        assertEquals(0, keep.exit(), keep.toString());
        assertTrue(keep.out().contains("journal retention (" + root + "): none, every run is kept"), keep.toString());
        assertTrue(runs(root).contains(week), "none keeps every age");
    }

    @Test
    void theDemoAppliesTheRetentionToo() throws Exception
    {
        final Path root = dir.resolve("journal");
        final Path old = journaledRun(root, 5);
        age(old, Duration.ofDays(3));
        final Cli.Result demo = Cli.run("demo", "--duration", "1", "--cameras", "1", "--width", "32", "--height", "32",
            "--snapshots", dir.resolve("snaps").toString(), "--journal", root.toString(), "--journal-max-age", "1d");
        assertEquals(0, demo.exit(), demo.toString());
        final List<Path> runs = runs(root);
        assertEquals(1, runs.size(), runs.toString());
        assertNotEquals(old, runs.get(0));
        assertTrue(demo.out().contains("journal: " + runs.get(0)), demo.toString());
    }
}
