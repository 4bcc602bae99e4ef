package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.journal.JournalConfig;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The journal through the command line: record with run, then dump, postmortem, replay and diff. */
@Timeout(120)
class JournalCommandTest
{
    private static final Pattern INDEX = Pattern.compile("^\\{\"index\":(\\d+),\"kind\":\"(\\w+)\"");
    private static final Pattern NODE = Pattern.compile(",\"node\":\"(\\w+)\"");
    private static final Pattern STREAM = Pattern.compile(",\"stream\":\"(\\w+)\"");
    private static final Pattern TIMESTAMP = Pattern.compile(",\"timestamp\":(-?\\d+)[,}]");

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

    private static List<Line> parse(final String jsonLines)
    {
        final List<Line> lines = new ArrayList<>();
        for (final String line : jsonLines.split("\n"))
        {
            final Matcher m = INDEX.matcher(line);
            assertTrue(m.find(), line);
            lines.add(new Line(Long.parseLong(m.group(1)), m.group(2), group(NODE, line), group(STREAM, line),
                group(TIMESTAMP, line) == null ? null : Long.parseLong(group(TIMESTAMP, line))));
        }
        return lines;
    }

    private static String group(final Pattern pattern, final String line)
    {
        final Matcher m = pattern.matcher(line);
        return m.find() ? m.group(1) : null;
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
        assertTrue(inputs.out().contains("\"capturedBytes\":64"), inputs.out());
    }

    @Test
    void aTruncatedJournalIsOneSentenceAndWhatCouldBeRead() throws Exception
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
        assertEquals(1, dump.err().strip().split("\n").length, dump.toString());
        assertTrue(dump.err().startsWith("dump: journal ") && dump.err().contains("truncated"), dump.toString());
        assertFalse(dump.err().contains("\tat "), dump.toString());

        final Cli.Result pm = Cli.run("journal", "postmortem", journal.toString());
        assertEquals(1, pm.exit(), pm.toString());
        assertTrue(pm.out().contains("(damaged: what could be read)") && pm.out().contains("verdict: "), pm.toString());
        assertTrue(pm.err().contains("truncated") && !pm.err().contains("\tat "), pm.toString());

        for (final String command : new String[]{"replay", "diff"})
        {
            final Cli.Result r = command.equals("diff") ? Cli.run("journal", "diff", journal.toString(),
                journal.toString()) : Cli.run("journal", "replay", journal.toString(), "--no-journal");
            assertEquals(1, r.exit(), r.toString());
            assertTrue(r.err().contains("truncated") && !r.err().contains("\tat "), r.toString());
        }
        final Cli.Result none = Cli.run("journal", "postmortem", dir.resolve("nothing").toString());
        assertEquals(1, none.exit(), none.toString());
        assertTrue(none.err().contains("not a directory"), none.toString());
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
