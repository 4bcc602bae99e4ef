package dev.framewire.journal;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's journal notes ({@link CalculatorContext#journalNote}): they land in the journal as NOTE
 * records of that node, with the timestamp, value and text it gave, in both modes; and the video
 * source notes a camera's timestamp jump there, at the timestamp the shifted frame was emitted at.
 */
class GraphJournalNoteTest
{
    /** Notes every tenth packet: "seen N", value N * 3, at the packet's timestamp. */
    static final class Noting implements Calculator
    {
        @Override
        public void process(final CalculatorContext ctx)
        {
            final long ts = ctx.inputTimestamp();
            if (ts % 10 == 0)
            {
                ctx.journalNote(ts, ts * 3, "seen " + ts);
            }
            ctx.output(0).add(ctx.input(0).getLong(), ts);
        }
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    @Timeout(60)
    void aNodesNotesAreInTheJournal(final JournalConfig.Mode mode, @TempDir final Path dir) throws Exception
    {
        final GraphConfig config = GraphConfig.builder()
            .inputStream("in")
            .node("noter", n -> n.calculator(Noting::new).inputStream("in").outputStream("out"))
            .outputStream("out")
            .journal(new JournalConfig().directory(dir).mode(mode))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (long ts = 0; ts < 50; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final JournalReader reader = JournalReader.read(JournalReader.latestRun(dir));
        final List<JournalRecord> notes = reader.records().stream()
            .filter(r -> r.kind() == JournalRecord.Kind.NOTE).collect(Collectors.toList());
        assertEquals(List.of(0L, 10L, 20L, 30L, 40L),
            notes.stream().map(JournalRecord::timestamp).collect(Collectors.toList()), notes::toString);
        for (final JournalRecord note : notes)
        {
            assertEquals("noter", note.nodeName());
            assertEquals(note.timestamp() * 3, note.value());
            assertEquals("seen " + note.timestamp(), note.text());
            assertTrue(note.toString().contains("note=seen " + note.timestamp()), note::toString);
        }
        assertEquals(0, reader.lostRecords());
    }

    @Test
    @Timeout(120)
    void aCamerasTimestampJumpIsNoted(@TempDir final Path dir) throws Exception
    {
        Assumptions.assumeTrue(runs("ffmpeg", "-version"), "ffmpeg is not installed (apt-get install ffmpeg)");
        // one MPEG-TS part twice in a row: the second part's stream times go back to the first's
        final Path part = dir.resolve("a.ts");
        final Process make = new ProcessBuilder("ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
            "-i", "testsrc2=size=160x120:rate=10", "-frames:v", "10", "-c:v", "mpeg2video", "-g", "5", "-bf", "0",
            "-f", "mpegts", part.toString()).inheritIO().start();
        assertEquals(0, make.waitFor());
        final Path twice = dir.resolve("aa.ts");
        Files.write(twice, Files.readAllBytes(part));
        Files.write(twice, Files.readAllBytes(part), StandardOpenOption.APPEND);
        final Path journal = dir.resolve("journal");
        final GraphConfig config = GraphConfig.builder()
            .node("cam", n -> n.calculator("VideoSourceCalculator").outputStream("VIDEO:video")
                .option("url", twice.toString()).option("pixel_format", "GRAY8"))
            .outputStream("video")
            .journal(new JournalConfig().directory(journal))
            .build();
        final List<Long> timestamps = new ArrayList<>();
        try (Graph graph = new Graph(config))
        {
            graph.observe("video", packet -> timestamps.add(packet.timestamp()));
            graph.start();
            graph.waitUntilDone();
        }
        assertEquals(20, timestamps.size());
        final JournalReader reader = JournalReader.read(JournalReader.latestRun(journal));
        final List<JournalRecord> records = reader.records();
        final List<JournalRecord> jumps = records.stream()
            .filter(r -> r.kind() == JournalRecord.Kind.NOTE && r.text().contains("timestamp_jump"))
            .collect(Collectors.toList());
        assertEquals(1, jumps.size(), () -> "one timestamp_jump note among " + records.stream()
            .filter(r -> r.kind() == JournalRecord.Kind.NOTE).collect(Collectors.toList()));
        final JournalRecord jump = jumps.get(0);
        assertEquals("cam", jump.nodeName());
        assertTrue(jump.text().contains(twice.toString()), jump::toString);
        // at the second part's first frame, shifted to one frame interval after the tenth; its stream time
        // (the value) is at or below the tenth's (ffmpeg's muxer holds a time that goes back at the last one)
        assertEquals(timestamps.get(10), jump.timestamp(), jump::toString);
        assertEquals(100_000, timestamps.get(10) - timestamps.get(9));
        assertTrue(jump.value() < timestamps.get(9) + 100, jump::toString);
        assertTrue(records.stream().anyMatch(r -> r.kind() == JournalRecord.Kind.EMIT && "cam".equals(r.nodeName()) &&
            r.timestamp() == jump.timestamp()), () -> "no frame emitted at the noted timestamp " + jump);
    }

    private static boolean runs(final String... command)
    {
        try
        {
            final Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        }
        catch (final Exception ex)
        {
            return false;
        }
    }
}
