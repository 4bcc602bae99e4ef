package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retention: whole runs, by age and by total size (oldest first), never a run being written; a
 * run's size is what its files hold, not Chronicle's preallocated tails. (A run locked by another
 * process, and released by its kill -9, is in {@link JournalCrashTest}.)
 */
@Timeout(60)
class JournalRetentionTest
{
    @TempDir
    Path dir;

    private Path run(final int records)
    {
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            JournalRoundTripTest.start(writer);
            for (int i = 0; i < records; i++)
            {
                writer.processBegin(0, 1, i);
            }
            writer.runEnd("done");
            return writer.runDirectory();
        }
    }

    private static void age(final Path dir, final Instant when) throws IOException
    {
        final FileTime time = FileTime.from(when);
        try (DirectoryStream<Path> children = Files.newDirectoryStream(dir))
        {
            for (final Path file : children)
            {
                Files.setLastModifiedTime(file, time);
            }
        }
        Files.setLastModifiedTime(dir, time);
    }

    private static JournalRetention.Verdict verdict(final List<JournalRetention.Decision> plan, final Path run)
    {
        return plan.stream().filter(d -> d.run().equals(run)).findFirst().orElseThrow().verdict();
    }

    @Test
    void aRunsSizeIsWhatItsFilesHoldNotTheirPreallocatedLength() throws Exception
    {
        final Path small = run(10);
        final Path large = run(20_000); // 48 bytes a record: about 940 KiB
        final long smallBytes = JournalFiles.runBytes(small);
        final long largeBytes = JournalFiles.runBytes(large);
        long apparent = 0;
        for (final Path f : JournalFiles.cycleFiles(small))
        {
            apparent += Files.size(f);
        }
        assertTrue(smallBytes < apparent, smallBytes + " bytes held, " + apparent + " long");
        final long difference = largeBytes - smallBytes;
        assertTrue(difference >= 19_990 * 48 - 4096 && difference <= 19_990 * 48 + 64 * 1024, difference + " bytes");
        assertEquals(0, smallBytes % 4096, "whole blocks");
    }

    @Test
    void theOldestRunsGoFirstUntilTheRestFit() throws Exception
    {
        final Path a = run(10);
        final Path b = run(20_000);
        final Path c = run(10);
        final Path d = run(10);
        final long small = JournalFiles.runBytes(a);
        // room for the three small runs but not the large one as well: the oldest go until the rest fit,
        // so the large run goes, and the small one older than it goes first
        final long budget = 3 * small + 10;
        final List<JournalRetention.Decision> plan = JournalRetention.plan(dir, null, budget, Instant.now());
        assertEquals(List.of(a, b, c, d), plan.stream().map(JournalRetention.Decision::run).toList());
        assertEquals(JournalRetention.Verdict.DELETE, verdict(plan, a));
        assertEquals(JournalRetention.Verdict.DELETE, verdict(plan, b));
        assertEquals(JournalRetention.Verdict.KEEP, verdict(plan, c));
        assertEquals(JournalRetention.Verdict.KEEP, verdict(plan, d));
        assertTrue(plan.get(0).reason().contains("the oldest go first"), plan.get(0).reason());

        final List<JournalRetention.Outcome> outcomes = JournalRetention.apply(plan);
        assertEquals(2, outcomes.size());
        assertTrue(outcomes.stream().allMatch(JournalRetention.Outcome::deleted));
        assertFalse(Files.exists(a));
        assertFalse(Files.exists(b));
        assertEquals(List.of(c, d), JournalFiles.runs(dir));

        // within the budget now: nothing more goes
        assertEquals(List.of(JournalRetention.Verdict.KEEP, JournalRetention.Verdict.KEEP),
            JournalRetention.plan(dir, null, budget, Instant.now()).stream().map(JournalRetention.Decision::verdict).toList());
    }

    @Test
    void anAgeReadsInItsLargestWholeUnit()
    {
        assertEquals("9 days", JournalRetention.age(Duration.ofDays(9).plusHours(20)));
        assertEquals("47 h", JournalRetention.age(Duration.ofHours(47)));
        assertEquals("15 min", JournalRetention.age(Duration.ofMinutes(15)));
        assertEquals("119 s", JournalRetention.age(Duration.ofSeconds(119)));
        assertEquals("0 s", JournalRetention.age(Duration.ofSeconds(-5)), "a file from a clock ahead of ours");
    }

    @Test
    void aRunBeingWrittenIsNeverDeletedWhateverItsAgeAndSize() throws Exception
    {
        final Path old = run(10);
        age(old, Instant.now().minus(Duration.ofDays(30)));
        // no retention on this open (the default's 7 days would take the old run now): the plan below does it
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)
            .deleteOlderThan(null)))
        {
            final Path open = writer.runDirectory();
            age(open, Instant.now().minus(Duration.ofDays(30)));
            final List<JournalRetention.Decision> plan = JournalRetention.plan(dir, Duration.ofDays(1), 0, Instant.now());
            assertEquals(JournalRetention.Verdict.DELETE, verdict(plan, old));
            assertEquals(JournalRetention.Verdict.IN_USE, verdict(plan, open));
            JournalRetention.apply(plan);
            assertTrue(Files.exists(open.resolve(JournalFiles.METADATA)));
            assertFalse(Files.exists(old));
            JournalRoundTripTest.start(writer);
            writer.runEnd("done");
        }
        // closed: its lock is released, and it can go
        final List<JournalRetention.Decision> plan = JournalRetention.plan(dir, null, 0, Instant.now());
        assertEquals(JournalRetention.Verdict.DELETE, plan.get(0).verdict());
    }

    @Test
    void aRunWithoutALockFileCountsAsBeingWrittenForAMinuteAfterItsLastChange() throws Exception
    {
        final Path recent = run(10);
        final Path older = run(10);
        Files.delete(recent.resolve(JournalFiles.LOCK)); // as journaled before there were locks
        Files.delete(older.resolve(JournalFiles.LOCK));
        age(older, Instant.now().minus(Duration.ofMinutes(2)));
        final List<JournalRetention.Decision> plan = JournalRetention.plan(dir, Duration.ZERO, 0, Instant.now());
        assertEquals(JournalRetention.Verdict.IN_USE, verdict(plan, recent));
        assertEquals(JournalRetention.Verdict.DELETE, verdict(plan, older));
    }

    @Test
    void byAgeOnOpenAndOnlyTheJournalsFiles() throws Exception
    {
        final Path old = run(10);
        final Path mixed = run(10);
        final Path recent = run(10);
        Files.writeString(mixed.resolve("notes.txt"), "mine");
        final Path photos = Files.createDirectories(dir.resolve("photos"));
        Files.writeString(photos.resolve("a.jpg"), "x");
        final Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
        age(old, tenDaysAgo);
        age(mixed, tenDaysAgo);
        age(photos, tenDaysAgo);
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)
            .deleteOlderThan(Duration.ofDays(7))))
        {
            assertFalse(Files.exists(old));
            assertTrue(Files.exists(mixed.resolve("notes.txt")), "a file that is not the journal's stays");
            assertFalse(Files.exists(mixed.resolve(JournalFiles.METADATA)), "the journal's files go");
            assertFalse(Files.exists(mixed.resolve(JournalFiles.LOCK)));
            assertTrue(Files.exists(photos.resolve("a.jpg")), "a directory that is no journal stays");
            assertEquals(List.of(recent, writer.runDirectory()), JournalFiles.runs(dir));
        }
    }

    @Test
    void theDefaultIsBoundedByAgeAndSizeAndNeverTakesARunBeingWritten() throws Exception
    {
        final JournalConfig defaults = new JournalConfig();
        assertEquals(Duration.ofDays(7), defaults.deleteOlderThan());
        assertEquals(10L << 30, defaults.maxTotalSize());
        assertEquals("journal retention (" + dir + "): runs last written more than 7 days ago, then the oldest runs " +
            "beyond 10.0 GiB in all, are deleted when a journal opens; never a run being written",
            JournalRetention.describe(dir, defaults.deleteOlderThan(), defaults.maxTotalSize()));
        assertEquals("journal retention (" + dir + "): none, every run is kept (the disk is the limit)",
            JournalRetention.describe(dir, null, -1));

        final Path eightDays = run(10);
        final Path sixDays = run(10);
        age(eightDays, Instant.now().minus(Duration.ofDays(8)));
        age(sixDays, Instant.now().minus(Duration.ofDays(6)));
        try (JournalWriter writing = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            final Path open = writing.runDirectory();
            assertFalse(Files.exists(eightDays), "older than the default age: gone when a journal opens");
            assertTrue(Files.exists(sixDays));
            // a run being written is never pruned, however old its files look
            age(open, Instant.now().minus(Duration.ofDays(30)));
            try (JournalWriter next = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
            {
                assertEquals(List.of(sixDays, open, next.runDirectory()), JournalFiles.runs(dir));
            }
            JournalRoundTripTest.start(writing);
            writing.runEnd("done");
        }
        // explicitly unbounded: keeps every age
        final Path old = run(10);
        age(old, Instant.now().minus(Duration.ofDays(400)));
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)
            .deleteOlderThan(null).maxTotalSize(-1)))
        {
            assertTrue(Files.exists(old));
        }
    }

    @Test
    void bySizeOnOpenBeforeTheNewRunExists() throws Exception
    {
        final Path a = run(10);
        final Path b = run(10);
        final long small = JournalFiles.runBytes(a);
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)
            .maxTotalSize(small + 10)))
        {
            assertFalse(Files.exists(a));
            assertEquals(List.of(b, writer.runDirectory()), JournalFiles.runs(dir));
        }
    }
}
