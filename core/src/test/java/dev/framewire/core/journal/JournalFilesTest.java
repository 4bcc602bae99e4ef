package dev.framewire.core.journal;

import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Journal files: owner-only permissions (also on files made at a roll), reading across rolled
 * files, deletion of old journals by age, and configuration errors.
 */
@Timeout(60)
class JournalFilesTest
{
    @TempDir
    Path dir;

    @Test
    void journalsAreReadableByTheirOwnerOnlyAlsoAfterARoll() throws Exception
    {
        assumeTrue(JournalFiles.isPosix(dir), "needs a POSIX file system");
        final Path root = dir.resolve("journals");
        final Path run;
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root)
            .rollCycle(TestRollCycles.TEST_SECONDLY).blockSize(1 << 20)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            writer.processBegin(0, 0, 1);
            final int cycle = JournalFiles.cycleFiles(run).size();
            // wait into the next second (the roll cycle's clock is the wall clock): the next append
            // rolls to a new file, made by the appender
            final long second = System.currentTimeMillis() / 1000;
            while (System.currentTimeMillis() / 1000 == second)
            {
                Thread.sleep(10);
            }
            writer.processEnd(0, 0, 1);
            assertEquals(cycle + 1, JournalFiles.cycleFiles(run).size(), "rolled to a new file");
            // Chronicle tells the store-file listener about the new file on its background releaser
            // thread, so the file is owner-only a moment after the roll (the owner-only run directory
            // keeps everyone else out in between); run the pending notifications, then check
            BackgroundResourceReleaser.releasePendingResources();
            assertOwnerOnly(root, run); // while the writer is open
            writer.runEnd("done");
        }
        assertOwnerOnly(root, run);
        final JournalReader journal = JournalReader.read(run); // across both files
        final List<JournalRecord> records = journal.records();
        assertEquals(List.of(JournalRecord.Kind.HEADER, JournalRecord.Kind.RUN_START, JournalRecord.Kind.PROCESS_BEGIN,
            JournalRecord.Kind.PROCESS_END, JournalRecord.Kind.RUN_END), records.stream().map(JournalRecord::kind).toList());
    }

    private static void assertOwnerOnly(final Path root, final Path run) throws IOException
    {
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(run)));
        int files = 0;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(run))
        {
            for (final Path file : children)
            {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                    file.toString());
                files++;
            }
        }
        assertTrue(files >= 2);
    }

    @Test
    void oldJournalsAreDeletedOnOpenAndNothingElse() throws Exception
    {
        final Path root = dir.resolve("journals");
        final Path old1 = writeRun(root);
        final Path old2 = writeRun(root);
        final Path recent = writeRun(root);
        final Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
        age(old1, tenDaysAgo);
        age(old2, tenDaysAgo);
        // an old directory that is not a journal, and an old journal holding a file of someone else's
        final Path photos = Files.createDirectories(root.resolve("photos"));
        Files.writeString(photos.resolve("a.jpg"), "x");
        age(photos, tenDaysAgo);
        Files.writeString(old2.resolve("notes.txt"), "mine");
        age(old2, tenDaysAgo);

        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root)
            .deleteOlderThan(Duration.ofDays(7))))
        {
            assertFalse(Files.exists(old1), "an old journal is deleted");
            assertTrue(Files.exists(old2.resolve("notes.txt")), "a file that is not the journal's stays");
            assertFalse(Files.exists(old2.resolve(JournalFiles.METADATA)), "but the journal's files go");
            assertTrue(Files.exists(recent.resolve(JournalFiles.METADATA)), "a recent journal stays");
            assertTrue(Files.exists(photos.resolve("a.jpg")), "a directory that is no journal stays");
            assertEquals(List.of(recent, writer.runDirectory()), JournalFiles.runs(root));
        }
    }

    private static Path writeRun(final Path root)
    {
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root).blockSize(1 << 20)))
        {
            JournalRoundTripTest.start(writer);
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

    @Test
    void settingsThatAreNotValidAreNamed()
    {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(new JournalConfig().directory(dir).ringCapacity(5000)));
        assertTrue(ex.getMessage().contains("ringCapacity 5000 must be a power of two"), ex.getMessage());
        ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(new JournalConfig().directory(dir).deleteOlderThan(Duration.ofDays(-1))));
        assertTrue(ex.getMessage().contains("deleteOlderThan"), ex.getMessage());
    }

    @Test
    void runStartTwiceIsRefusedAndCallsAfterCloseAreIgnored() throws Exception
    {
        final Path run;
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).blockSize(1 << 20)))
        {
            run = writer.runDirectory();
            JournalRoundTripTest.start(writer);
            assertThrows(IllegalStateException.class, () -> JournalRoundTripTest.start(writer));
            writer.close();
            writer.processBegin(0, 0, 1);
            writer.error(0, 0, 1, "late");
            writer.runEnd("done");
        }
        assertEquals(2, JournalReader.read(run).records().size());
    }
}
