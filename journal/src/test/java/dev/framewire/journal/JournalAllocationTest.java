package dev.framewire.journal;

import dev.framewire.core.journal.JournalConfig;
import dev.framewire.core.journal.WorkerJournal;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot path allocates nothing in steady state, in both modes: measured with the JVM's
 * per-thread allocation counter around 100,000 rounds of every hot-path record (a captured graph
 * input among them), after a warm-up; the least of up to five such windows is judged (see the test).
 */
@Timeout(60)
class JournalAllocationTest
{
    static final int WARM_UP = 30_000;
    static final int ROUNDS = 100_000;
    static final int WINDOWS = 5;
    static final Long BOXED = 77L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void theHotPathAllocatesNothing(final JournalConfig.Mode mode) throws Exception
    {
        hotPath(mode, JournalConfig.Level.CALLS);
    }

    /** The lighter levels' filter in front of the worker's journal allocates nothing either. */
    @ParameterizedTest
    @EnumSource(value = JournalConfig.Level.class, names = {"RUNS", "IO", "SAMPLED"})
    void theLighterLevelsAllocateNothing(final JournalConfig.Level level) throws Exception
    {
        hotPath(JournalConfig.Mode.ASYNC, level);
    }

    private void hotPath(final JournalConfig.Mode mode, final JournalConfig.Level level) throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long self = Thread.currentThread().getId();
        try (PayloadPool pool = new PayloadPool(new PoolContext().leakTracking(false));
            JournalWriter writer = JournalWriter.open(new JournalConfig().directory(dir).mode(mode)
                .captureStreams("in").checksumStreams("out").ringCapacity(1 << 24).level(level).sampleEvery(8)))
        {
            JournalRoundTripTest.start(writer);
            final WorkerJournal worker = writer.worker(0);
            final Payload frame = pool.acquire(1024);
            final Payload input = pool.acquire(64);
            rounds(writer, worker, frame, input, 0, WARM_UP);
            writer.flush(5_000_000_000L);
            // Steady state is what is measured: on a loaded machine the JIT may not yet have
            // compiled (and scalar-replaced) every path when the first window starts, and what the
            // interpreter or C1 allocates then is not the hot path's doing. So up to WINDOWS windows
            // are measured and the least is judged. An allocation the compiled path makes shows in
            // every window (one per 1,000 records would be about 13 KB a window), so this keeps the
            // test as strict about the hot path as a single window.
            long allocated = Long.MAX_VALUE;
            int from = WARM_UP;
            for (int window = 0; window < WINDOWS && allocated >= 4096; window++, from += ROUNDS)
            {
                final long before = threads.getThreadAllocatedBytes(self);
                rounds(writer, worker, frame, input, from, ROUNDS);
                allocated = Math.min(allocated, threads.getThreadAllocatedBytes(self) - before);
                writer.flush(5_000_000_000L);
            }
            frame.release();
            input.release();
            assertEquals(0, writer.failures());
            // 1,100,000 records: a single allocation per record would be 17 MB
            System.out.println(mode + " " + level + ": " + allocated + " bytes allocated for " + ROUNDS * 11 + " records");
            assertTrue(allocated < 4096, mode + " " + level + ": " + allocated + " bytes allocated for " + ROUNDS * 11 + " records");
        }
    }

    /** Worker 0's first call of a round through the writer's methods, its second through its own journal. */
    private static void rounds(final JournalWriter writer, final WorkerJournal worker, final Payload frame,
        final Payload input, final int from, final int count)
    {
        for (int i = from; i < from + count; i++)
        {
            writer.graphInput(0, i, input, 0); // captured: its 64 bytes copied into the journal
            writer.processBegin(0, 1, i);
            writer.emit(0, 1, 3, i, JournalWriter.LONG, i);
            writer.emit(0, 1, 3, i, BOXED);
            writer.emit(0, 1, 2, i, frame);
            writer.drop(0, 2, 2, i, JournalRecord.POLICY);
            writer.bound(0, 2, i + 1);
            writer.processEnd(0, 1, i);
            // ASYNC: a call with nothing in between, staged, and the staging let go now and then
            worker.processBeginSameWorker(2, i);
            worker.emit(2, 3, i, JournalWriter.LONG, i);
            worker.processEnd(2, i);
            if (i % 50 == 0)
            {
                worker.idle();
            }
        }
    }
}
