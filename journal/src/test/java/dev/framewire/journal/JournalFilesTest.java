package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Journal files: owner-only from the start (also the files made at a roll), reading across rolled
 * files, and configuration errors (retention: {@link JournalRetentionTest}).
 */
@Timeout(60)
class JournalFilesTest
{
    @TempDir
    Path dir;

    @Test
    void everyJournalFileIsOwnerOnlyFromTheStartAlsoAfterRolls() throws Exception
    {
        assumeTrue(JournalFiles.isPosix(dir), "needs a POSIX file system");
        final Path root = dir.resolve("journals");
        final Path run;
        // start at the beginning of a second, so that the open, the header, the run start and the
        // first call share the first file (a second boundary among them made a fourth file)
        nextSecond();
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root)
            .rollCycle("TEST_SECONDLY").blockSize(1 << 20)))
        {
            run = writer.runDirectory();
            // nothing has restricted anything after the fact: what is there was made owner-only
            assertOwnerOnly(root, run);
            assertTrue(Files.exists(run.resolve(JournalFiles.LOCK)), "the writer's lock");
            JournalRoundTripTest.start(writer);
            for (int roll = 1; roll <= 2; roll++)
            {
                writer.processBegin(0, 0, roll);
                final int files = JournalFiles.cycleFiles(run).size();
                // Chronicle tells the store-file listener that a cycle started on its background
                // releaser thread; the listener then prepares the next cycles' files. Run that now,
                // so that the roll below finds its file prepared whenever the releaser would have run
                BackgroundResourceReleaser.releasePendingResources();
                nextSecond(); // the roll cycle's clock is the wall clock
                writer.processEnd(0, 0, roll); // rolls to a new file
                assertEquals(files + 1, JournalFiles.cycleFiles(run).size(), "rolled to a new file");
                assertOwnerOnly(root, run); // the new file: renamed from the one prepared owner-only
            }
            writer.runEnd("done");
        }
        assertOwnerOnly(root, run);
        try (DirectoryStream<Path> precreated = Files.newDirectoryStream(run, "*" + JournalFiles.PRECREATED_SUFFIX))
        {
            assertFalse(precreated.iterator().hasNext(), "prepared files not used are deleted at close");
        }
        final JournalReader journal = JournalReader.read(run); // across the three files
        final List<Path> files = JournalFiles.cycleFiles(run);
        assertEquals(3, files.size(), () -> "the files: " + files + ", the records: " + journal.records());
        final List<JournalRecord> records = journal.records();
        assertEquals(List.of(JournalRecord.Kind.HEADER, JournalRecord.Kind.RUN_START, JournalRecord.Kind.PROCESS_BEGIN,
            JournalRecord.Kind.PROCESS_END, JournalRecord.Kind.PROCESS_BEGIN, JournalRecord.Kind.PROCESS_END,
            JournalRecord.Kind.RUN_END), records.stream().map(JournalRecord::kind).toList());
    }

    /** Waits until the wall clock's second changes. */
    private static void nextSecond() throws InterruptedException
    {
        final long second = System.currentTimeMillis() / 1000;
        while (System.currentTimeMillis() / 1000 == second)
        {
            Thread.sleep(10);
        }
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
    void settingsThatAreNotValidAreNamed()
    {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(new JournalConfig().directory(dir).ringCapacity(5000)));
        assertTrue(ex.getMessage().contains("ringCapacity 5000 must be a power of two"), ex.getMessage());
        ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(new JournalConfig().directory(dir).deleteOlderThan(Duration.ofDays(-1))));
        assertTrue(ex.getMessage().contains("deleteOlderThan"), ex.getMessage());
        ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(new JournalConfig().directory(dir).maxTotalSize(-5)));
        assertTrue(ex.getMessage().contains("journal maxTotalSize -5 must be -1 (none) or a number of bytes"),
            ex.getMessage());
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
