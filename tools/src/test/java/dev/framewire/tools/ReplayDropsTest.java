package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drops that depend on timing are taken from the journal, not made again: a source at full speed
 * into a slow node behind a fixed-size queue (MediaPipe's FixedSizeInputStreamHandler) drops most
 * packets, which ones depending on how the two threads went; the replay (as fast as possible, its
 * timing nothing like the recording's) drops the same ones and its diff is clean.
 */
@Timeout(120)
class ReplayDropsTest
{
    @TempDir
    Path dir;

    /** Passes its input on, after 200 µs of work (a detector's call, say). */
    public static final class SlowPassCalculator implements Calculator
    {
        @Override
        public void process(final CalculatorContext ctx)
        {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
            ctx.output(0).addLong(ctx.input(0).getLong(), ctx.inputTimestamp());
        }
    }

    @BeforeAll
    static void register()
    {
        CalculatorRegistry.global().register("SlowPassCalculator", SlowPassCalculator::new);
    }

    @Test
    void aFixedSizeQueuesDropsReplayAsRecorded() throws Exception
    {
        final Path graph = Cli.write(dir, "drops.pbtxt",
            "executor { name: \"default\" num_threads: 2 idle_strategy: PARK }\n" +
            "node { name: \"count\" calculator: \"CountingSourceCalculator\" output_stream: \"n\"\n" +
            "  option { name: \"count\" int_value: 2000 } }\n" +
            "node { name: \"slow\" calculator: \"SlowPassCalculator\" input_stream: \"n\" output_stream: \"out\"\n" +
            "  input_stream_handler { input_stream_handler: \"FixedSizeInputStreamHandler\"\n" +
            "    options { trigger_queue_size: 2 target_queue_size: 1 } } }\n" +
            "output_stream: \"out\"\n");
        final Path recordings = dir.resolve("rec");
        final Cli.Result run = Cli.run("run", graph.toString(), "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final long drops = JournalReader.read(recorded).records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.DROP && r.reason() == JournalRecord.POLICY).count();
        final long out = JournalReader.read(recorded).records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.EMIT && "out".equals(r.streamName())).count();
        assertTrue(drops > 0 && out > 0 && drops + out == 2000, "the queue dropped some: " + drops + " dropped, " +
            out + " passed");

        final Path replays = dir.resolve("replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains(drops + " drops of input policies and the memory budget, at 1 node, " +
            "replayed from the journal"), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 2 streams compared"), diff.toString());
    }
}
