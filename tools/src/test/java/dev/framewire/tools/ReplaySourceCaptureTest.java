package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Contract;
import dev.framewire.core.OptionType;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sources replayed from what the journal recorded, not run again: a source whose frames differ on
 * every run (random pixels) replays identical, pixels included, when its outputs were captured
 * ({@code --capture-sources}), and its calculator is never opened in the replay; without capture it
 * runs again and the diff finds the difference; past the capture limit capture stops with a note,
 * the run goes on, and the replay's source stops where the captured packets end. A real video file
 * read through ffmpeg replays identical after the file is gone.
 */
@Timeout(180)
class ReplaySourceCaptureTest
{
    private static final AtomicInteger OPENS = new AtomicInteger();

    @TempDir
    Path dir;

    /** Random gray frames, and a long per frame: what a camera gives is never the same twice. */
    public static final class NoiseSourceCalculator implements Calculator
    {
        private long frames;
        private long index;

        @Override
        public void contract(final Contract contract)
        {
            contract.option("frames", OptionType.LONG, 60L);
        }

        @Override
        public void open(final CalculatorContext ctx)
        {
            OPENS.incrementAndGet();
            frames = ctx.options().getLong("frames");
        }

        @Override
        public void process(final CalculatorContext ctx)
        {
            final Payload frame = ctx.pool().acquireFrame(32, 16, PixelFormat.GRAY8);
            final byte[] pixels = new byte[frame.length()];
            ThreadLocalRandom.current().nextBytes(pixels);
            frame.mutableBuffer().putBytes(0, pixels);
            ctx.output(0).add(frame, index);
            ctx.output(1).addLong(index * 7, index);
            if (++index >= frames)
            {
                ctx.stop();
            }
        }
    }

    @BeforeAll
    static void register()
    {
        CalculatorRegistry.global().register("NoiseSourceCalculator", NoiseSourceCalculator::new);
    }

    private static String graph()
    {
        return "executor { name: \"default\" num_threads: 2 idle_strategy: PARK }\n" +
            "node { name: \"noise\" calculator: \"NoiseSourceCalculator\" output_stream: \"frames\" " +
            "output_stream: \"counts\" option { name: \"frames\" int_value: 60 } }\n" +
            "node { name: \"motion\" calculator: \"MotionDetectorCalculator\" input_stream: \"FRAME:frames\"\n" +
            "  output_stream: \"BOXES:boxes\" output_stream: \"FRAME:moving\" }\n" +
            "node { name: \"pass\" calculator: \"PassThroughCalculator\" input_stream: \"counts\" " +
            "output_stream: \"counted\" }\n" +
            "output_stream: \"moving\"\noutput_stream: \"counted\"\n";
    }

    @Test
    void aCapturedSourceReplaysFromTheJournalPixelsIncluded() throws Exception
    {
        final Path graph = Cli.write(dir, "noise.pbtxt", graph());
        final Path recordings = dir.resolve("rec");
        final Cli.Result run = Cli.run("run", graph.toString(), "--capture-sources", "--checksum", "all",
            "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        assertTrue(run.out().contains("  capture: the payload bytes of every source's outputs go into the journal, " +
            "up to 1.0 GiB a run (--capture-limit); camera frames are personal data"), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        final long captured = recording.records().stream().filter(r -> r.kind() == JournalRecord.Kind.CAPTURED).count();
        assertEquals(60, captured, "every frame captured at emit (the longs need no capture)");
        final JournalRecord first = recording.records().stream().filter(r -> r.kind() == JournalRecord.Kind.CAPTURED)
            .findFirst().orElseThrow();
        assertEquals("frame 32x16 GRAY8 stride 32", first.shape().toString(), "the frame's shape is journaled");
        final Cli.Result dump = Cli.run("journal", "dump", recorded.toString(), "--json", "--kind", "CAPTURED");
        assertTrue(dump.out().contains("\"capturedBytes\":512,") &&
            dump.out().contains("\"shape\":\"frame 32x16 GRAY8 stride 32\""), dump.toString());

        final int opens = OPENS.get();
        final Path replays = dir.resolve("replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("1 source replayed from the journal's captured packets (120 packets), not " +
            "run again: [noise]"), replay.toString());
        assertEquals(opens, OPENS.get(), "the replay never opened the source's calculator");
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 5 streams compared"), diff.toString());
        assertTrue(!diff.out().contains("not compared: the payload bytes"), "every payload compared: " + diff);
    }

    @Test
    void atTheIoLevelACapturedSourceReplaysToo() throws Exception
    {
        // the IO level journals the packets of end streams and captured ones, not calls
        final Path graph = Cli.write(dir, "noise.pbtxt", graph());
        final Path recordings = dir.resolve("io");
        assertEquals(0, Cli.run("run", graph.toString(), "--capture-sources", "--checksum", "all", "--journal-level",
            "IO", "--journal", recordings.toString()).exit());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        assertEquals(0, recording.records().stream().filter(r -> r.kind() == JournalRecord.Kind.PROCESS_BEGIN).count());
        assertEquals(60, recording.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.EMIT && "counts".equals(r.streamName())).count(),
            "a captured stream's longs are journaled at the IO level");
        final Path replays = dir.resolve("io-replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("(120 packets), not run again: [noise]"), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 5 streams compared"), diff.toString());
    }

    @Test
    void withoutCaptureTheSourceRunsAgainAndTheDiffSaysWhere() throws Exception
    {
        final Path graph = Cli.write(dir, "noise.pbtxt", graph());
        final Path recordings = dir.resolve("off");
        assertEquals(0, Cli.run("run", graph.toString(), "--checksum", "all", "--journal", recordings.toString())
            .exit());
        final Path recorded = Cli.onlyRun(recordings);
        assertEquals(0, JournalReader.read(recorded).records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.CAPTURED).count(), "capture is off by default");
        final Path replays = dir.resolve("off-replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("note: source [noise] ran again, as configured: the recording did not " +
            "capture its outputs"), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(1, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("packet #0 at timestamp 0: expected checksum"), diff.toString());
    }

    @Test
    void pastTheCaptureLimitCaptureStopsAndTheRunGoesOn() throws Exception
    {
        final Path graph = Cli.write(dir, "noise.pbtxt", graph());
        final Path recordings = dir.resolve("cap");
        // 20 frames of 512 bytes fit in 10 KiB
        final Cli.Result run = Cli.run("run", graph.toString(), "--capture-sources", "--capture-limit", "10K",
            "--checksum", "all", "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        assertEquals(20, recording.records().stream().filter(r -> r.kind() == JournalRecord.Kind.CAPTURED).count());
        assertEquals(60, recording.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.EMIT && "moving".equals(r.streamName())).count(),
            "the run went on past the limit");
        assertTrue(recording.records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.NOTE &&
            r.text().startsWith("payload capture stopped at its limit of 10240 bytes") && r.timestamp() == 20),
            "a note says where capture stopped");

        final Path replays = dir.resolve("cap-replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("note: source 'noise' replays 40 of its 120 recorded packets: the journal " +
            "cannot give back its packet on stream `frames` at timestamp 20 (not captured: the recording's capture " +
            "limit was reached)"), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(1, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("the actual journal ends after 20 packets"), diff.toString());
    }

    @Test
    void aRealVideoRunReplaysIdenticalAfterItsFileIsGone() throws Exception
    {
        Assumptions.assumeTrue(Cli.ffmpegRuns(), "ffmpeg is not installed");
        final Path clip = Cli.clip(dir, "160x120");
        final Path graph = Cli.write(dir, "video.pbtxt",
            "executor { name: \"default\" num_threads: 2 idle_strategy: PARK }\n" +
            "node { name: \"cam\" calculator: \"VideoSourceCalculator\" output_stream: \"VIDEO:video\"\n" +
            "  option { name: \"url\" string_value: \"" + clip + "\" }\n" +
            "  option { name: \"pixel_format\" string_value: \"GRAY8\" } }\n" +
            "node { name: \"motion\" calculator: \"MotionDetectorCalculator\" input_stream: \"FRAME:video\"\n" +
            "  output_stream: \"BOXES:boxes\" output_stream: \"FRAME:moving\" }\n" +
            "output_stream: \"moving\"\n");
        final Path recordings = dir.resolve("video");
        final Cli.Result run = Cli.run("run", graph.toString(), "--capture-sources", "--checksum", "all",
            "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final long frames = JournalReader.read(recorded).records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.CAPTURED).count();
        assertEquals(50, frames, "2 s at 25 fps, every frame captured");
        Files.delete(clip); // the replay must not read it

        final Path replays = dir.resolve("video-replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("1 source replayed from the journal's captured packets (50 packets)"),
            replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 3 streams compared"), diff.toString());
        assertTrue(!diff.out().contains("not compared: the payload bytes"), "pixels compared: " + diff);
    }
}
