package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.framewire.journal.JournalRecord.Kind.PROCESS_BEGIN;
import static dev.framewire.journal.JournalRoundTripTest.config;
import static dev.framewire.journal.JournalRoundTripTest.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An ASYNC journal's ring full ({@link JournalConfig#onRingFull}): under LOSE a burst loses records,
 * counts them and never blocks; under WAIT it keeps every record in order, and a waiting thread
 * gives up when the journal closes; a null choice is refused naming the valid ones.
 */
@Timeout(60)
class JournalRingFullTest
{
    @TempDir
    Path dir;

    @Test
    void asyncRingFullLosesAndCountsRecordsButNeverBlocks() throws Exception
    {
        final Path run;
        final long lost;
        // a tiny ring and an agent that parks long: the burst cannot fit
        try (JournalWriter writer = JournalWriter.open(config(dir, JournalConfig.Mode.ASYNC).ringCapacity(4096)
            .agentMaxParkNanos(50_000_000L)))
        {
            run = writer.runDirectory();
            start(writer);
            Thread.sleep(60); // let the agent back off into its long park
            for (int i = 0; i < 1000; i++)
            {
                writer.processBegin(0, 0, i);
            }
            assertTrue(writer.lostRecords() > 0, "a 4 KiB ring cannot hold 1000 records");
            writer.runEnd("done"); // waits for room: the end of the run is never lost
            lost = writer.lostRecords();
        }
        final JournalReader journal = JournalReader.read(run);
        assertEquals(lost, journal.lostRecords());
        assertEquals(lost, journal.runEnd().value());
        final long begins = journal.records().stream().filter(r -> r.kind() == PROCESS_BEGIN).count();
        assertEquals(1000 - lost, begins);
    }

    @Test
    void asyncRingFullUnderWaitKeepsEveryRecord() throws Exception
    {
        final Path run;
        // the burst of the test above, into the same tiny ring and long-parking agent: the thread waits instead
        try (JournalWriter writer = JournalWriter.open(config(dir, JournalConfig.Mode.ASYNC).ringCapacity(4096)
            .agentMaxParkNanos(50_000_000L).onRingFull(JournalConfig.RingFull.WAIT)))
        {
            run = writer.runDirectory();
            start(writer);
            Thread.sleep(60); // let the agent back off into its long park
            for (int i = 0; i < 1000; i++)
            {
                writer.processBegin(0, 0, i);
            }
            assertEquals(0, writer.lostRecords(), "a thread that waits for room loses nothing");
            writer.runEnd("done");
            assertEquals(0, writer.lostRecords());
        }
        final JournalReader journal = JournalReader.read(run);
        assertEquals(0, journal.lostRecords());
        assertEquals(0, journal.runEnd().value());
        final List<Long> begins = journal.records().stream().filter(r -> r.kind() == PROCESS_BEGIN)
            .map(JournalRecord::timestamp).collect(Collectors.toList());
        assertEquals(1000, begins.size());
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(i, begins.get(i), "in the order given");
        }
    }

    @Test
    void aThreadWaitingForRoomGivesUpWhenTheJournalCloses() throws Exception
    {
        final JournalWriter writer = JournalWriter.open(config(dir, JournalConfig.Mode.ASYNC).ringCapacity(4096)
            .agentMaxParkNanos(50_000_000L).onRingFull(JournalConfig.RingFull.WAIT));
        start(writer);
        final CountDownLatch waiting = new CountDownLatch(1);
        final Thread worker = new Thread(() ->
        {
            for (int i = 0; i < 1_000_000; i++)
            {
                writer.processBegin(0, 0, i);
                if (i == 500)
                {
                    waiting.countDown(); // far past what 4 KiB holds: it waits on the agent from here on
                }
            }
        });
        worker.start();
        assertTrue(waiting.await(10, TimeUnit.SECONDS));
        writer.close();
        worker.join(10_000);
        assertFalse(worker.isAlive(), "a closed journal lets a waiting thread go (losing what it gives)");
    }

    @Test
    void aNullRingFullIsRefusedNamingTheValidOnes()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> JournalWriter.open(config(dir, JournalConfig.Mode.ASYNC).onRingFull(null)));
        assertTrue(ex.getMessage().contains("onRingFull") && ex.getMessage().contains("[LOSE, WAIT]"), ex.getMessage());
    }
}
