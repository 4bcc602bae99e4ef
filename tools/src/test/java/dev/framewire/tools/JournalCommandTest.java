package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.Timestamp;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalWriter;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The journal through the command line: record with run, then dump, postmortem, replay and diff. */
@Timeout(120)
class JournalCommandTest
{
    @TempDir
    Path dir;

    private Path record(final String name, final String graph, final String journal) throws Exception
    {
        final Path file = Cli.write(dir, name, graph);
        final Cli.Result r = Cli.run("run", file.toString(), "--journal", dir.resolve(journal).toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("journal: " + dir.resolve(journal)), r.toString());
        return dir.resolve(journal);
    }

    /** A record of a dump line: kind, node, stream, timestamp. */
    record Line(long index, String kind, String node, String stream, Long timestamp)
    {
    }

    /** JSON Lines parsed back with Gson: one object a line, and nothing else on the line. */
    static List<JsonObject> objects(final String jsonLines)
    {
        final List<JsonObject> objects = new ArrayList<>();
        for (final String line : jsonLines.split("\n"))
        {
            objects.add(JsonParser.parseString(line).getAsJsonObject());
        }
        return objects;
    }

    private static List<Line> parse(final String jsonLines)
    {
        final List<Line> lines = new ArrayList<>();
        for (final JsonObject o : objects(jsonLines))
        {
            final JsonElement ts = o.get("timestamp");
            lines.add(new Line(o.get("index").getAsLong(), o.get("kind").getAsString(), string(o, "node"),
                string(o, "stream"), ts != null && ts.getAsJsonPrimitive().isNumber() ? ts.getAsLong() : null));
        }
        return lines;
    }

    private static String string(final JsonObject o, final String name)
    {
        return o.has(name) ? o.get(name).getAsString() : null;
    }

    private static int find(final List<Line> lines, final String kind, final String node, final String stream,
        final long ts)
    {
        for (int i = 0; i < lines.size(); i++)
        {
            final Line l = lines.get(i);
            if (l.kind().equals(kind) && (node == null || node.equals(l.node())) &&
                (stream == null || stream.equals(l.stream())) && l.timestamp() != null && l.timestamp() == ts)
            {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aRecordedRunShowsEveryPacketsWholeLife() throws Exception
    {
        final Path journal = record("count.pbtxt", Cli.countingGraph(20), "rec");
        final Cli.Result dump = Cli.run("journal", "dump", journal.toString(), "--json");
        assertEquals(0, dump.exit(), dump.toString());
        final List<Line> lines = parse(dump.out());
        assertEquals("header", lines.get(0).kind());
        assertEquals("run_start", lines.get(1).kind());
        assertEquals("run_end", lines.get(lines.size() - 1).kind());
        for (long t = 0; t < 20; t++)
        {
            final int emitted = find(lines, "emit", "count", "n", t);
            final int begin = find(lines, "process_begin", "pass", null, t);
            final int out = find(lines, "emit", "pass", "out", t);
            final int end = find(lines, "process_end", "pass", null, t);
            assertTrue(emitted >= 0 && begin > emitted && out > begin && end > out,
                "timestamp " + t + ": emit " + emitted + ", begin " + begin + ", out " + out + ", end " + end + "\n" +
                    dump.out());
        }

        // text, filtered: --stream n follows its packets into pass's calls
        final Cli.Result follow = Cli.run("journal", "dump", journal.toString(), "--stream", "n", "--from", "5",
            "--to", "6");
        assertEquals(0, follow.exit(), follow.toString());
        final String[] text = follow.out().split("\n");
        assertEquals(6, text.length, follow.out()); // per timestamp: emit n, begin pass, end pass
        assertTrue(text[0].contains("EMIT") && text[0].contains("node=count stream=n ts=5 value=5"), follow.out());
        assertTrue(follow.out().contains("PROCESS_BEGIN") && follow.out().contains("node=pass ts=6"), follow.out());

        final Cli.Result kinds = Cli.run("journal", "dump", journal.toString(), "--kind", "emit", "--node", "pass");
        assertEquals(20, kinds.out().split("\n").length, kinds.out());
        final Cli.Result badKind = Cli.run("journal", "dump", journal.toString(), "--kind", "emitted");
        assertEquals(2, badKind.exit(), badKind.toString());
        assertTrue(badKind.err().contains("--kind emitted: no such kind"), badKind.toString());

        final Cli.Result pm = Cli.run("journal", "postmortem", journal.toString());
        assertEquals(0, pm.exit(), pm.toString());
        assertTrue(pm.out().contains("the run ended done"), pm.out());
        assertTrue(pm.out().contains("verdict: The run ended done"), pm.out());
        assertTrue(pm.out().contains("No node was in process"), pm.out());
        assertTrue(Pattern.compile("\\n +n +count +20 +19 +19 +pass +20 +0 +0\\n").matcher(pm.out()).find(), pm.out());
        assertTrue(Pattern.compile("\\n +pass +\\d+ +0 +0 +idle\\n").matcher(pm.out()).find(), pm.out());
    }

    @Test
    void aDeterministicGraphReplaysIdenticallyAndAChangedOneDiffers() throws Exception
    {
        final Path recorded = record("count.pbtxt", Cli.countingGraph(30), "rec");
        final Path replays = dir.resolve("replays");
        for (int i = 0; i < 2; i++)
        {
            final Cli.Result replay = Cli.run("journal", "replay", recorded.toString(), "--as-fast-as-possible",
                "--journal", replays.resolve("r" + i).toString());
            assertEquals(0, replay.exit(), replay.toString());
            assertTrue(replay.out().contains("60 packets emitted in the recording"), replay.out());
            assertTrue(replay.out().contains("replay journaled in " + replays.resolve("r" + i)), replay.out());
        }
        final Cli.Result same = Cli.run("journal", "diff", recorded.toString(), replays.resolve("r0").toString());
        assertEquals(0, same.exit(), same.toString());
        assertTrue(same.out().contains("identical: 2 streams compared"), same.out());
        assertEquals(0, Cli.run("journal", "diff", replays.resolve("r0").toString(),
            replays.resolve("r1").toString()).exit());

        // the same graph with the source's step changed: timestamps 0, 2, 4, ...
        final Path changed = record("step.pbtxt", Cli.countingGraph(30).replace("int_value: 30 }",
            "int_value: 30 }\n  option { name: \"step\" int_value: 2 }"), "changed");
        final Cli.Result differ = Cli.run("journal", "diff", recorded.toString(), changed.toString());
        assertEquals(1, differ.exit(), differ.toString());
        assertTrue(differ.out().contains("differ: first at stream `"), differ.out());
        assertTrue(differ.out().contains("packet #1: expected timestamp 1, got 2"), differ.out());
    }

    @Test
    void graphInputsReplayWithTheirValuesCapturedBytesAndPacing() throws Exception
    {
        final String text = "input_stream: \"a\"\ninput_stream: \"b\"\noutput_stream: \"oa\"\noutput_stream: \"ob\"\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node { name: \"pa\" calculator: \"PassThroughCalculator\" input_stream: \"a\" output_stream: \"oa\" }\n" +
            "node { name: \"pb\" calculator: \"PassThroughCalculator\" input_stream: \"b\" output_stream: \"ob\" }\n";
        final GraphConfig config = GraphConfigText.parse(text, "test").toBuilder().journal(new JournalConfig()
            .directory(dir.resolve("rec")).captureStreams("b").checksumStreams("ob")).build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            for (int i = 0; i < 5; i++)
            {
                graph.addPacket("a", i * 10L, i);
                final Payload p = graph.pool().acquire(64);
                for (int j = 0; j < 64; j++)
                {
                    p.mutableBuffer().putByte(j, (byte)(i * 7 + j));
                }
                graph.addPacket("b", p, i);
                Thread.sleep(40);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
        }
        final long start = System.nanoTime();
        final Cli.Result replay = Cli.run("journal", "replay", dir.resolve("rec").toString(), "--journal",
            dir.resolve("rep").toString());
        final long nanos = System.nanoTime() - start;
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(nanos > 150_000_000L, "the recorded pacing (4 x 40 ms) took " + nanos / 1e6 + " ms");
        assertTrue(replay.out().contains("10 graph input packets fed"), replay.out());
        final Cli.Result diff = Cli.run("journal", "diff", dir.resolve("rec").toString(), dir.resolve("rep").toString());
        assertEquals(0, diff.exit(), diff.toString());
        final Cli.Result dump = Cli.run("journal", "dump", dir.resolve("rep").toString(), "--kind", "emit",
            "--stream", "ob");
        assertEquals(5, dump.out().split("\n").length, dump.out());
        assertTrue(dump.out().contains("value=checksum 0x"), dump.out());
        final Cli.Result inputs = Cli.run("journal", "dump", dir.resolve("rep").toString(), "--kind", "graph-input",
            "--json", "--stream", "b");
        final List<JsonObject> captured = objects(inputs.out());
        assertEquals(5, captured.size(), inputs.out());
        for (final JsonObject o : captured)
        {
            assertEquals("graph_input", o.get("kind").getAsString());
            assertEquals("b", o.get("stream").getAsString());
            assertEquals(64, o.get("capturedBytes").getAsInt());
            assertTrue(o.get("checksum").getAsString().matches("0x[0-9a-f]{16}"), o.toString());
            assertFalse(o.has("node"), o.toString());
        }
    }

    @Test
    void dumpJsonIsOneObjectPerRecordThatGsonParsesBack() throws Exception
    {
        // a journal written through the public writer, with every field the JSON form has
        final String message = "node 'sink' failed at 7: a \"quoted\" cause\non two lines \u2013 \u00fc \\ </b>";
        final Path root = dir.resolve("direct");
        try (JournalWriter writer = JournalWriter.open(new JournalConfig().directory(root).blockSize(1 << 20)
            .checksumStreams("out")))
        {
            writer.runStart("graph", 0xABCDEFL, "test", new String[]{"src", "sink"}, new String[]{"in", "out"},
                new String[]{"w0"}, new int[][]{{}, {0}});
            writer.graphInput(0, 5, JournalWriter.LONG, -42L);
            writer.processBegin(0, 1, 5);
            writer.emit(0, 1, 1, 5, JournalWriter.DOUBLE, Double.doubleToRawLongBits(2.5));
            writer.emit(0, 1, 1, 6, JournalWriter.DOUBLE, Double.doubleToRawLongBits(Double.NaN));
            writer.drop(0, 1, 0, 6, JournalRecord.FLOW_LIMIT);
            writer.error(0, 1, 7, message);
            writer.processEnd(0, 1, Timestamp.DONE);
            writer.runEnd("failed");
        }
        final Cli.Result dump = Cli.run("journal", "dump", root.toString(), "--json");
        assertEquals(0, dump.exit(), dump.toString());
        assertEquals("", dump.err(), dump.toString());
        final List<JsonObject> objects = objects(dump.out());
        assertEquals(10, objects.size(), dump.out());
        for (int i = 0; i < objects.size(); i++)
        {
            assertEquals(i, objects.get(i).get("index").getAsLong(), objects.get(i).toString());
            assertTrue(objects.get(i).get("nanos").getAsLong() > 0, objects.get(i).toString());
        }
        final JsonObject header = objects.get(0);
        assertEquals("header", header.get("kind").getAsString());
        assertTrue(Math.abs(header.get("epochMillis").getAsLong() - System.currentTimeMillis()) < 600_000L, header.toString());
        assertEquals("0x0000000000abcdef", objects.get(1).get("configHash").getAsString());
        final JsonObject input = objects.get(2);
        assertEquals("graph_input", input.get("kind").getAsString());
        assertEquals("in", input.get("stream").getAsString());
        assertEquals(5, input.get("timestamp").getAsLong());
        assertEquals(-42L, input.get("long").getAsLong());
        assertFalse(input.has("worker"), "a graph input's adder is not a worker: " + input);
        final JsonObject begin = objects.get(3);
        assertEquals("process_begin", begin.get("kind").getAsString());
        assertEquals("w0", begin.get("worker").getAsString());
        assertEquals("sink", begin.get("node").getAsString());
        assertEquals(2.5, objects.get(4).get("double").getAsDouble());
        assertEquals("NaN", objects.get(5).get("double").getAsString());
        assertEquals("flow limit", objects.get(6).get("reason").getAsString());
        assertEquals(message, objects.get(7).get("message").getAsString(), "quotes, newlines and unicode round-trip");
        assertEquals("Done", objects.get(8).get("timestamp").getAsString());
        assertEquals("failed", objects.get(9).get("how").getAsString());
        assertEquals(0, objects.get(9).get("lost").getAsLong());
        assertEquals("run_end", objects.get(9).get("kind").getAsString());
    }

    @Test
    void aTruncatedJournalIsReportedAfterWhatCouldBeRead() throws Exception
    {
        final Path journal = record("count.pbtxt", Cli.countingGraph(20), "rec");
        final Path cq4;
        try (Stream<Path> files = Files.walk(journal))
        {
            cq4 = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        final long dataEnd = lastNonZeroByte(cq4);
        try (RandomAccessFile raf = new RandomAccessFile(cq4.toFile(), "rw"))
        {
            raf.setLength(dataEnd - 8); // inside the last record
        }
        final Cli.Result dump = Cli.run("journal", "dump", journal.toString());
        assertEquals(1, dump.exit(), dump.toString());
        assertTrue(dump.out().startsWith("#0 HEADER"), dump.toString());
        assertTrue(dump.out().contains("PROCESS_END"), dump.toString());
        assertTrue(dump.out().contains("\n# damage: file " + cq4.getFileName() + ", bytes "), dump.toString());
        final String[] err = dump.err().strip().split("\n");
        assertEquals(3, err.length, dump.toString());
        assertTrue(err[0].startsWith("dump: journal " + journal) && err[0].contains("is damaged in 1 place"),
            dump.toString());
        assertTrue(err[1].startsWith("dump:   file " + cq4.getFileName() + ", bytes ") && err[1].contains("truncated"),
            dump.toString());
        assertTrue(err[2].matches("dump: \\d+ records were read, 0 of them after the first damage\\."), dump.toString());
        assertFalse(dump.err().contains("\tat "), dump.toString());

        final Cli.Result pm = Cli.run("journal", "postmortem", journal.toString());
        assertEquals(1, pm.exit(), pm.toString());
        assertTrue(pm.out().contains("(DAMAGED in 1 place: what could be read") && pm.out().contains("verdict: "),
            pm.toString());
        assertTrue(pm.out().contains("verdict: The journal is damaged in 1 place"), pm.toString());
        assertTrue(pm.err().contains("truncated") && !pm.err().contains("\tat "), pm.toString());

        for (final String command : new String[]{"replay", "diff"})
        {
            // both go up to the damage, then say where they stopped and why (exit 1: the answer is partial)
            final Cli.Result r = command.equals("diff") ? Cli.run("journal", "diff", journal.toString(),
                journal.toString()) : Cli.run("journal", "replay", journal.toString(), "--no-journal");
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().contains("truncated") && !r.err().contains("\tat "), r.toString());
        }
        final Cli.Result none = Cli.run("journal", "postmortem", dir.resolve("nothing").toString());
        assertEquals(1, none.exit(), none.toString());
        assertTrue(none.err().contains("not a directory"), none.toString());
    }

    @Test
    void aFlippedBitMidJournalIsReportedWithItsPositionAndTheRestIsStillShown() throws Exception
    {
        final Path journal = record("count.pbtxt", Cli.countingGraph(200), "rec");
        final Path cq4;
        try (Stream<Path> files = Files.walk(journal))
        {
            cq4 = files.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        final List<Long> documents = dataDocuments(cq4);
        final int middle = documents.size() / 2;
        final long at = documents.get(middle);
        try (RandomAccessFile raf = new RandomAccessFile(cq4.toFile(), "rw"))
        {
            raf.seek(at + 4 + 20); // in the record's nanos
            final int b = raf.read();
            raf.seek(at + 4 + 20);
            raf.write(b ^ 0x10);
        }

        final Cli.Result dump = Cli.run("journal", "dump", journal.toString());
        assertEquals(1, dump.exit(), dump.toString());
        final String damageLine = "# damage: file " + cq4.getFileName() + ", byte " + at + " (Chronicle index 0x";
        assertTrue(dump.out().contains(damageLine), dump.toString());
        assertTrue(dump.out().contains("record #" + middle + "): checksum mismatch: "), dump.toString());
        final String[] lines = dump.out().split("\n");
        assertEquals(documents.size(), lines.length, "every record but one, and the damage line: " + dump);
        assertTrue(lines[lines.length - 1].contains("RUN_END") && lines[lines.length - 1].contains("how=done"),
            "the records after the damage are shown, to the run's end: " + dump);
        assertTrue(lines[middle].startsWith(damageLine), "the damage line is where the record was: " + dump);
        assertTrue(lines[middle + 1].startsWith("#" + (middle + 1) + " "), dump.toString());
        assertTrue(dump.err().contains("is damaged in 1 place; that is damage to its files (flipped bits, zeroed or " +
            "cut pages), not how the run ended:"), dump.toString());
        assertTrue(dump.err().contains("dump:   file " + cq4.getFileName() + ", byte " + at + " (Chronicle index 0x"),
            dump.toString());
        assertFalse(dump.err().contains("\tat ") || dump.out().contains("\tat "), dump.toString());

        final Cli.Result json = Cli.run("journal", "dump", journal.toString(), "--json");
        assertEquals(1, json.exit(), json.toString());
        final List<JsonObject> objects = objects(json.out());
        assertEquals(documents.size() - 1, objects.size(), "records only on standard output: " + json);
        assertEquals("run_end", objects.get(objects.size() - 1).get("kind").getAsString());
        assertFalse(objects.stream().anyMatch(o -> o.get("index").getAsLong() == middle), json.toString());
        assertTrue(json.err().contains("byte " + at + " (Chronicle index 0x"), json.toString());

        final Cli.Result pm = Cli.run("journal", "postmortem", journal.toString());
        assertEquals(1, pm.exit(), pm.toString());
        assertTrue(pm.out().contains("(DAMAGED in 1 place: what could be read, before and after the damage): " +
            (documents.size() - 1) + " records over ") && pm.out().contains("the run ended done"), pm.toString());
        assertTrue(pm.out().contains("damage (to the journal's files, not how the run ended):\n  file " +
            cq4.getFileName() + ", byte " + at), pm.toString());
        assertTrue(pm.out().contains("verdict: The journal is damaged in 1 place"), pm.toString());
        assertTrue(pm.out().contains("The run ended done"), pm.toString());
        assertFalse(pm.out().contains("no end of run") || pm.out().contains("killed"), pm.toString());
        assertFalse(pm.err().contains("\tat "), pm.toString());

        // replay and diff go up to the damage, then say where they stopped and why
        final String where = "file " + cq4.getFileName() + ", byte " + at + " (Chronicle index 0x";
        final Path replays = dir.resolve("replays");
        final Cli.Result replay = Cli.run("journal", "replay", journal.toString(), "--journal", replays.toString());
        assertEquals(1, replay.exit(), replay.toString());
        assertTrue(replay.err().contains("is damaged; replaying the " + middle + " records before its first damage, " +
            "at " + where), replay.toString());
        assertTrue(replay.out().contains("replayed in "), replay.toString());
        assertTrue(replay.out().contains("the replay stopped where the recording is damaged: " + where) &&
            replay.out().contains("record #" + middle + "): checksum mismatch"), replay.toString());
        assertFalse(replay.err().contains("\tat ") || replay.out().contains("\tat "), replay.toString());
        final Path replayed;
        try (Stream<Path> runs = Files.list(replays))
        {
            replayed = runs.findFirst().orElseThrow();
        }
        final Cli.Result diff = Cli.run("journal", "diff", journal.toString(), replayed.toString());
        assertEquals(1, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical up to the damage: "), diff.toString());
        assertTrue(diff.out().contains("note: the expected journal is damaged: compared up to its damage, where it " +
            "stopped at " + where), diff.toString());
        assertTrue(diff.err().contains("is damaged; compared up to its first damage, where it stopped: " + where),
            diff.toString());
        // the same diff of the replay against a whole run that goes on past the damage finds the packets equal too
        final Cli.Result whole = Cli.run("journal", "diff", replayed.toString(), journal.toString());
        assertEquals(1, whole.exit(), whole.toString());
        assertTrue(whole.out().contains("identical up to the damage: "), whole.toString());
    }

    /** The offsets of a .cq4 file's data documents (Chronicle headers without the meta-data bit). */
    private static List<Long> dataDocuments(final Path cq4) throws IOException
    {
        final List<Long> documents = new ArrayList<>();
        final byte[] bytes = Files.readAllBytes(cq4);
        final java.nio.ByteBuffer buffer = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int pos = 0; pos + 4 <= bytes.length; )
        {
            final int header = buffer.getInt(pos);
            if (header == 0 || header < 0)
            {
                break;
            }
            if ((header & 0x4000_0000) == 0)
            {
                documents.add((long)pos);
            }
            pos = (pos + 4 + (header & 0x3FFF_FFFF) + 3) & ~3;
        }
        return documents;
    }

    private static long lastNonZeroByte(final Path file) throws IOException
    {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r"))
        {
            final byte[] chunk = new byte[1 << 16];
            for (long pos = raf.length(); pos > 0; )
            {
                final int n = (int)Math.min(chunk.length, pos);
                pos -= n;
                raf.seek(pos);
                raf.readFully(chunk, 0, n);
                for (int i = n - 1; i >= 0; i--)
                {
                    if (chunk[i] != 0)
                    {
                        return pos + i + 1;
                    }
                }
            }
        }
        throw new IOException(file + " is all zeros");
    }
}
