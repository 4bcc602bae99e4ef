package dev.framewire.tools;

import dev.framewire.journal.JournalReader;
import dev.framewire.journal.JournalRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replay takes timing-dependent decisions from the journal: a camera chain behind a flow limiter,
 * run at full speed so that the limiter drops most frames, replays to the same packets on every
 * stream, first to last, though the replay's timing differs (the limiter's drops are the
 * recording's, not made again).
 */
@Timeout(120)
class ReplayDecisionsTest
{
    @TempDir
    Path dir;

    private static String chain()
    {
        return chain(400);
    }

    private static String chain(final int frames)
    {
        return "max_queue_size: 4\n" +
            "executor { name: \"camera\" num_threads: 1 idle_strategy: PARK }\n" +
            "executor { name: \"default\" num_threads: 2 idle_strategy: PARK }\n" +
            "node { name: \"cam0\" calculator: \"SyntheticCameraCalculator\" executor: \"camera\" output_stream: \"cam0\"\n" +
            "  option { name: \"width\" int_value: 320 } option { name: \"height\" int_value: 240 }\n" +
            "  option { name: \"fps\" double_value: 0 } option { name: \"frames\" int_value: " + frames + " }\n" +
            "  option { name: \"seed\" int_value: 3 } }\n" +
            "node { name: \"cam0_limiter\" calculator: \"FlowLimiterCalculator\" input_stream: \"cam0\"\n" +
            "  input_stream: \"FINISHED:cam0_annotated\" input_stream_info { tag_index: \"FINISHED\" back_edge: true }\n" +
            "  output_stream: \"cam0_limited\" option { name: \"max_in_flight\" int_value: 1 }\n" +
            "  option { name: \"max_in_queue\" int_value: 0 } }\n" +
            "node { name: \"cam0_gray\" calculator: \"ColorConvertCalculator\" input_stream: \"cam0_limited\"\n" +
            "  output_stream: \"cam0_gray\" option { name: \"conversion\" string_value: \"RGBA_TO_GRAY8\" } }\n" +
            "node { name: \"cam0_motion\" calculator: \"MotionDetectorCalculator\" input_stream: \"FRAME:cam0_gray\"\n" +
            "  output_stream: \"BOXES:cam0_boxes\" output_stream: \"FRAME:cam0_moving\" }\n" +
            "node { name: \"cam0_annotate\" calculator: \"AnnotateCalculator\" input_stream: \"FRAME:cam0_moving\"\n" +
            "  input_stream: \"BOXES:cam0_boxes\" output_stream: \"cam0_annotated\" }\n" +
            "output_stream: \"cam0_annotated\"\n";
    }

    @Test
    void aFlowLimitersDropsAreTakenFromTheJournal() throws Exception
    {
        final Path graph = Cli.write(dir, "chain.pbtxt", chain());
        final Path recordings = dir.resolve("rec");
        final Cli.Result run = Cli.run("run", graph.toString(), "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        long limited = 0;
        for (final JournalRecord r : recording.records())
        {
            limited += r.kind() == JournalRecord.Kind.EMIT && "cam0_limited".equals(r.streamName()) ? 1 : 0;
        }
        assertTrue(limited > 0 && limited < 400, "the limiter let some frames through and dropped others: " +
            limited + " of 400");

        final Path replays = dir.resolve("replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("1 flow limiter replayed from the journal"), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 6 streams compared"), diff.toString());
        assertTrue(diff.out().contains("note: not compared: the payload bytes of"), diff.toString());
    }

    @Test
    void aRunCutShortByItsDurationReplaysToItsLastPacket() throws Exception
    {
        // a source without a frame limit at full speed, stopped by --duration: the replay's source
        // must stop at the recording's last frame, and every node where the recording stopped
        final Path graph = Cli.write(dir, "endless.pbtxt", chain(0));
        final Path recordings = dir.resolve("cut");
        final Cli.Result run = Cli.run("run", graph.toString(), "--duration", "1", "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        assertTrue(!"done".equals(recording.runEnd().text()), "the run was cut short: " + recording.runEnd());

        final Path replays = dir.resolve("cut-replays");
        replayedIdentical(recorded, replays);
        final JournalReader replayed = JournalReader.read(Cli.onlyRun(replays));
        assertEquals(emits(recording, "cam0"), emits(replayed, "cam0"), "the source emitted what it had recorded");
    }

    @Test
    void withChecksumsOnTheDiffComparesThePixelsOfEveryStream() throws Exception
    {
        final Path graph = Cli.write(dir, "chain.pbtxt", chain(120));
        final Path recordings = dir.resolve("sums");
        final Cli.Result run = Cli.run("run", graph.toString(), "--checksum", "all", "--journal", recordings.toString());
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);

        final Cli.Result diff = replayedIdentical(recorded, dir.resolve("sums-replays"));
        assertTrue(!diff.out().contains("not compared: the payload bytes"), "every payload compared by checksum: " + diff);

        // the same graph with other shapes (seed): the same timestamps and lengths, other pixels
        final Path other = Cli.write(dir, "other.pbtxt", chain(120).replace("int_value: 3 }", "int_value: 4 }"));
        final Path otherRuns = dir.resolve("other");
        assertEquals(0, Cli.run("run", other.toString(), "--checksum", "all", "--journal", otherRuns.toString()).exit());
        final Cli.Result differ = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(otherRuns).toString());
        assertEquals(1, differ.exit(), differ.toString());
        assertTrue(differ.out().contains("stream `cam0`, packet #0 at timestamp 0: expected checksum"), differ.toString());

        final Cli.Result wrong = Cli.run("run", graph.toString(), "--checksum", "nope", "--journal",
            dir.resolve("wrong").toString());
        assertTrue(wrong.exit() != 0 && wrong.err().contains("--checksum nope: the graph has no stream 'nope'"),
            wrong.toString());
    }

    /** Replays a recording as fast as possible into {@code replays}; its diff says identical, 6 streams. */
    private static Cli.Result replayedIdentical(final Path recorded, final Path replays) throws Exception
    {
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 6 streams compared"), diff.toString());
        return diff;
    }

    private static long emits(final JournalReader journal, final String stream)
    {
        return journal.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.EMIT && stream.equals(r.streamName())).count();
    }

    @Test
    void aRunJournaledAtTheIoLevelReplaysAtItAndDiffsItsOutputs() throws Exception
    {
        final Path graph = Cli.write(dir, "count.pbtxt", Cli.countingGraph(300));
        final Path recordings = dir.resolve("io");
        final Cli.Result run = Cli.run("run", graph.toString(), "--journal", recordings.toString(), "--journal-level",
            "IO");
        assertEquals(0, run.exit(), run.toString());
        final Path recorded = Cli.onlyRun(recordings);
        final JournalReader recording = JournalReader.read(recorded);
        assertEquals(0, recording.records().stream().filter(r -> r.kind() == JournalRecord.Kind.PROCESS_BEGIN).count(),
            "no calls at the IO level");
        final Path replays = dir.resolve("io-replays");
        final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
            "--journal", replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        final JournalReader replayed = JournalReader.read(Cli.onlyRun(replays));
        assertEquals(0, replayed.records().stream().filter(r -> r.kind() == JournalRecord.Kind.PROCESS_BEGIN).count(),
            "the replay journals at the recording's level");
        final Cli.Result diff = Cli.run("journal", "diff", recorded.toString(), Cli.onlyRun(replays).toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: 1 stream compared [out]"), diff.toString());
        final Cli.Result pm = Cli.run("journal", "postmortem", recorded.toString());
        assertTrue(pm.out().contains("The journal was written at a lighter level (journal level: IO)"), pm.toString());
    }
}
