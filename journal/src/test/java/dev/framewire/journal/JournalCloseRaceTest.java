package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A subgraph record given on another thread while the journal closes (the engine journals a
 * subgraph leaving on its hot-plug thread, which it does not stop before the close) is in the
 * file or ignored: never an append into a closed appender, which Chronicle fails or, once the
 * file is unmapped, crashes the JVM on.
 */
class JournalCloseRaceTest
{
    private static final int ROUNDS = 20;

    @Test
    @Timeout(120)
    void aSubgraphRecordRacingTheCloseIsInTheFileOrIgnored(@TempDir final Path dir) throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir.resolve("r" + round))
                .deleteOlderThan(null).maxTotalSize(-1));
            writer.runStart("race", 1, "test", new String[]{"n"}, new String[]{"s"}, new String[]{"w"});
            final AtomicBoolean stop = new AtomicBoolean();
            final AtomicLong given = new AtomicLong();
            final CountDownLatch started = new CountDownLatch(1);
            final Thread hotplug = new Thread(() ->
            {
                started.countDown();
                while (!stop.get())
                {
                    writer.subgraphLeft("cam" + given.get(), true, given.getAndIncrement());
                }
            }, "race-hotplug");
            hotplug.start();
            assertTrue(started.await(10, TimeUnit.SECONDS));
            while (given.get() < 10)
            {
                Thread.onSpinWait();
            }
            writer.close();
            stop.set(true);
            hotplug.join(TimeUnit.SECONDS.toMillis(10));
            final int r = round;
            assertEquals(0, writer.failures(), () -> "round " + r + ": an append failed: " + writer.firstFailure());
        }
    }
}
