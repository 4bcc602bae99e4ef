package dev.framewire.tools;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalRecord;
import dev.framewire.journal.JournalWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code journal trace} writes Chrome's trace-event format, checked against the format's rules
 * (the JSON object form; each phase's required fields; flows that start inside the call or graph
 * input that sent the packet and end where a call takes it; slices on a track that nest and never
 * overlap; counters with numeric values; a named track per node and per worker); and
 * {@code journal timeline --png} draws it.
 */
@Timeout(120)
class JournalTraceCommandTest
{
    private static final Set<String> PHASES = Set.of("X", "i", "C", "s", "f", "M");

    @TempDir
    Path dir;

    @Test
    void aRunsTraceFollowsTheFormatWithASlicePerCallAndAnArrowPerPacket() throws Exception
    {
        final Path graph = Cli.write(dir, "count.pbtxt", Cli.countingGraph(50));
        final Path journals = dir.resolve("j");
        assertEquals(0, Cli.run("run", graph.toString(), "--journal", journals.toString()).exit());
        final Path run = only(journals);
        final Path json = dir.resolve("run.json");
        final Cli.Result r = Cli.run("journal", "trace", run.toString(), "-o", json.toString());
        assertEquals(0, r.exit(), r.toString());
        final List<JsonObject> events = check(json);
        // a slice per call: count's 50 packets and its end, pass's 50 packets; open and close of each, on both tracks
        assertTrue(slices(events, 2, "pass") >= 52, "pass: " + slices(events, 2, "pass"));
        assertEquals(slices(events, 2, "pass"), slices(events, 1, "pass"), "each call on its node's and its worker's track");
        // an arrow per packet from count to pass
        assertEquals(50, events.stream().filter(e -> e.get("ph").getAsString().equals("f") &&
            e.get("name").getAsString().equals("n")).count());
        assertTrue(r.out().contains("100 packets followed") || r.out().contains("packets followed"), r.toString());
        final Set<String> threads = new HashSet<>();
        for (final JsonObject e : events)
        {
            if (e.get("ph").getAsString().equals("M") && e.get("name").getAsString().equals("thread_name"))
            {
                threads.add(e.get("pid").getAsInt() + ":" + e.getAsJsonObject("args").get("name").getAsString());
            }
        }
        assertTrue(threads.containsAll(Set.of("2:count", "2:pass", "1:caller")), threads.toString());

        final Path png = dir.resolve("run.png");
        final Cli.Result t = Cli.run("journal", "timeline", run.toString(), "--png", png.toString());
        assertEquals(0, t.exit(), t.toString());
        final BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1600, image.getWidth());
        // node rows (count, pass) hold bars: pixels that are neither background nor grid. How many
        // depends on how the calls spread over the run's span (on a loaded machine 50 calls can
        // fall into a few pixels' width), so the rows are checked for bars, not for their width
        assertTrue(coloured(image, 56 + 4, 56 + 16) > 0, "count's row has bars");
        assertTrue(coloured(image, 56 + 20 + 4, 56 + 20 + 16) > 0, "pass's row has bars");
    }

    @ParameterizedTest
    @EnumSource(JournalConfig.Mode.class)
    void dropsErrorsNotesAndAnUnfinishedCallAreInstantsAndAMarkedSlice(final JournalConfig.Mode mode) throws Exception
    {
        final Path root = dir.resolve("w" + mode);
        try (JournalWriter w = JournalWriter.open(new JournalConfig().directory(root).blockSize(1 << 20).mode(mode)))
        {
            w.runStart("cfg", 1, "test", new String[]{"src", "det"}, new String[]{"in", "frames"},
                new String[]{"w0", "w1"}, new int[][]{{0}, {1}});
            for (int ts = 0; ts < 5; ts++)
            {
                w.graphInput(0, ts, JournalWriter.LONG, ts);
                w.processBegin(0, 0, ts);
                w.emit(0, 0, 1, ts, JournalWriter.LONG, ts);
                w.processEnd(0, 0, ts);
            }
            w.drop(1, 1, 1, 0, JournalRecord.POLICY);
            w.processBegin(1, 1, 1);
            w.note(1, 1, 1, 7, "camera jumped");
            w.error(1, 1, 1, "node 'det' failed at 1: boom");
            w.processEnd(1, 1, 1);
            w.processBegin(1, 1, 2); // never ends: the process was killed
            w.flush(java.util.concurrent.TimeUnit.SECONDS.toNanos(10));
        }
        final Path json = dir.resolve("w" + mode + ".json");
        final Cli.Result r = Cli.run("journal", "trace", only(root).toString(), "-o", json.toString());
        assertEquals(0, r.exit(), r.toString());
        final List<JsonObject> events = check(json);
        final List<String> instants = new ArrayList<>();
        for (final JsonObject e : events)
        {
            if (e.get("ph").getAsString().equals("i") && e.get("pid").getAsInt() == 2)
            {
                instants.add(e.get("name").getAsString());
            }
        }
        assertEquals(List.of("drop (policy) frames", "note", "error"), instants);
        if (mode == JournalConfig.Mode.SYNC)
        {
            // ASYNC journals a call when it ends: a killed run's call in progress is not in it (docs/JOURNAL.md)
            final JsonObject unfinished = events.stream().filter(e -> e.get("ph").getAsString().equals("X") &&
                e.getAsJsonObject("args").has("unfinished") && e.get("pid").getAsInt() == 2).findFirst().orElseThrow();
            assertEquals("det", unfinished.get("name").getAsString());
            assertEquals("2", unfinished.getAsJsonObject("args").get("timestamp").getAsString());
        }
        // graph inputs start arrows from the adding thread's track; the counter says what is queued
        assertTrue(events.stream().anyMatch(e -> e.get("ph").getAsString().equals("C") &&
            e.getAsJsonObject("args").has("frames")), "a queued-packets counter per stream");
        final Path png = dir.resolve("w" + mode + ".png");
        assertEquals(0, Cli.run("journal", "timeline", only(root).toString(), "--png", png.toString()).exit());
        assertNotNull(ImageIO.read(png.toFile()));
    }

    /** Parses a trace and checks it against the trace-event format's rules; returns its events. */
    private static List<JsonObject> check(final Path json) throws Exception
    {
        final JsonObject top = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
        assertEquals("ms", top.get("displayTimeUnit").getAsString());
        final JsonArray array = top.getAsJsonArray("traceEvents");
        final List<JsonObject> events = new ArrayList<>();
        final Map<String, List<double[]>> slices = new HashMap<>();
        final Map<String, List<Double>> instantsAt = new HashMap<>();
        final Map<String, JsonObject> starts = new HashMap<>();
        for (final JsonElement element : array)
        {
            final JsonObject e = element.getAsJsonObject();
            events.add(e);
            final String ph = e.get("ph").getAsString();
            assertTrue(PHASES.contains(ph), "phase " + ph);
            assertTrue(e.get("name").isJsonPrimitive() && !e.get("name").getAsString().isEmpty(), e.toString());
            assertTrue(e.get("pid").getAsJsonPrimitive().isNumber() && e.get("tid").getAsJsonPrimitive().isNumber(),
                e.toString());
            final double ts = e.get("ts").getAsDouble();
            assertTrue(ts >= 0, e.toString());
            final String track = e.get("pid").getAsInt() + ":" + e.get("tid").getAsInt();
            switch (ph)
            {
                case "X":
                    assertTrue(e.get("dur").getAsDouble() >= 0, e.toString());
                    slices.computeIfAbsent(track, k -> new ArrayList<>()).add(new double[]{ts, ts +
                        e.get("dur").getAsDouble()});
                    break;
                case "i":
                    assertTrue(Set.of("t", "p", "g").contains(e.get("s").getAsString()), e.toString());
                    instantsAt.computeIfAbsent(track, k -> new ArrayList<>()).add(ts);
                    break;
                case "C":
                    assertFalse(e.getAsJsonObject("args").entrySet().isEmpty(), e.toString());
                    e.getAsJsonObject("args").entrySet().forEach(a -> assertTrue(a.getValue().getAsJsonPrimitive()
                        .isNumber(), e.toString()));
                    break;
                case "s":
                    assertNull(starts.put(e.get("cat").getAsString() + "/" + e.get("id").getAsLong(), e), "ids unique");
                    break;
                case "f":
                    assertEquals("e", e.get("bp").getAsString(), e.toString());
                    break;
                default:
                    assertTrue(Set.of("process_name", "thread_name").contains(e.get("name").getAsString()));
                    assertTrue(e.getAsJsonObject("args").get("name").isJsonPrimitive());
            }
        }
        for (final List<double[]> track : slices.values())
        {
            // slices on one track nest or are disjoint: a worker runs one call at a time
            track.sort((a, b) -> Double.compare(a[0], b[0]));
            for (int i = 1; i < track.size(); i++)
            {
                assertTrue(track.get(i)[0] >= track.get(i - 1)[1] - 1e-9, "overlapping slices");
            }
        }
        for (final JsonObject f : events)
        {
            if (!f.get("ph").getAsString().equals("f"))
            {
                continue;
            }
            final JsonObject s = starts.get(f.get("cat").getAsString() + "/" + f.get("id").getAsLong());
            assertNotNull(s, "a flow's end has its start: " + f);
            assertEquals(s.get("name").getAsString(), f.get("name").getAsString());
            final double sts = s.get("ts").getAsDouble();
            final double fts = f.get("ts").getAsDouble();
            assertTrue(sts <= fts, s + " -> " + f);
            // bound: the start lies in a slice (the emitting call) or on an instant (a graph input) of its track;
            // the end starts a slice of its track (the call that took the packet)
            final String st = s.get("pid").getAsInt() + ":" + s.get("tid").getAsInt();
            assertTrue(slices.getOrDefault(st, List.of()).stream().anyMatch(x -> x[0] <= sts && sts <= x[1]) ||
                instantsAt.getOrDefault(st, List.of()).contains(sts), "the arrow starts in a call: " + s);
            final String ft = f.get("pid").getAsInt() + ":" + f.get("tid").getAsInt();
            assertTrue(slices.getOrDefault(ft, List.of()).stream().anyMatch(x -> x[0] == fts), "the arrow ends where " +
                "a call begins: " + f);
        }
        return events;
    }

    private static long slices(final List<JsonObject> events, final int pid, final String name)
    {
        return events.stream().filter(e -> e.get("ph").getAsString().equals("X") && e.get("pid").getAsInt() == pid &&
            e.get("name").getAsString().equals(name)).count();
    }

    private static int coloured(final BufferedImage image, final int y0, final int y1)
    {
        int n = 0;
        for (int y = y0; y < y1; y++)
        {
            for (int x = 200; x < image.getWidth() - 50; x++)
            {
                final int rgb = image.getRGB(x, y) & 0xFFFFFF;
                final int r = rgb >> 16;
                final int g = (rgb >> 8) & 0xFF;
                final int b = rgb & 0xFF;
                n += Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 40 ? 1 : 0; // saturated: a bar
            }
        }
        return n;
    }

    private static Path only(final Path root) throws Exception
    {
        try (Stream<Path> runs = Files.list(root))
        {
            final Path[] all = runs.filter(p -> p.getFileName().toString().startsWith("run-")).toArray(Path[]::new);
            assertEquals(1, all.length);
            return all[0];
        }
    }
}
