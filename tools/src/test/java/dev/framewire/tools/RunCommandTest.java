package dev.framewire.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class RunCommandTest
{
    @TempDir
    Path dir;

    @Test
    void aGraphThatEndsByItselfReportsEveryPacket() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(500));
        final Cli.Result r = Cli.run("run", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("the run ended by itself after"), r.toString());
        assertTrue(r.out().contains("end streams [out]"), r.toString());
        assertRow(r.out(), "count", "n", 500, true);
        assertRow(r.out(), "pass", "out *", 500, false);
        assertRow(r.out(), "end to end", "all * streams", 500, false);
        assertTrue(r.out().contains("throughput: 500 packets on the end streams"), r.toString());
        assertTrue(r.out().contains("drops: 0"), r.toString());
        assertTrue(r.out().contains("off-heap: peak"), r.toString());
        assertTrue(r.out().contains("p99.9"), r.toString());
        assertEquals("", r.err(), r.toString());
    }

    @Test
    void durationStopsAnEndlessGraphAsANormalStop() throws Exception
    {
        final Path file = Cli.write(dir, "endless.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        final long start = System.nanoTime();
        final Cli.Result r = Cli.run("run", file.toString(), "--duration", "1.2");
        final double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("stopped after 1."), r.toString());
        assertTrue(r.out().contains("(--duration 1.2)"), r.toString());
        assertTrue(r.out().contains("[   1 s] out "), "progress once a second: " + r);
        assertTrue(r.out().contains("drops 0  off-heap "), r.toString());
        assertTrue(r.out().contains("off-heap "), r.toString());
        assertTrue(seconds < 30, seconds + " s");
        final long packets = packets(r.out(), "pass", "out *");
        assertTrue(packets > 0, r.toString());
    }

    @Test
    void aSmallCameraGraphShowsEachEndStream() throws Exception
    {
        // the demo's graph with 2 cameras of 64x48 at 30 fps: a live graph with flow limiters and back edges
        final String text = dev.framewire.core.GraphConfigText.write(DemoGraph.of(DemoGraph.builtInText(), "demo",
            new DemoGraph.Settings(2, 64, 48, 30.0, 0, 1000, dir.resolve("snaps"), 1)).config());
        final Path file = Cli.write(dir, "cameras.pbtxt", text);
        final Cli.Result r = Cli.run("run", file.toString(), "--duration", "1.5");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("end streams [cam0_annotated, cam1_annotated]"), r.toString());
        assertTrue(r.out().contains("[   1 s] cam0_annotated "), r.toString());
        assertTrue(r.out().contains(" cam1_annotated "), r.toString());
        assertTrue(r.out().contains(" | out "), r.toString());
        assertTrue(packets(r.out(), "cam0", "cam0") > 20, r.toString());
        assertTrue(packets(r.out(), "cam1_annotate", "cam1_annotated *") > 0, r.toString());
        packets(r.out(), "cam0_limiter", "cam0_limited");
        packets(r.out(), "cam0_motion", "cam0_boxes");
        assertTrue(r.out().contains("drops: "), r.toString());
    }

    @Test
    void framesStopsOnceThatManyPacketsReachedTheEnd() throws Exception
    {
        final Path file = Cli.write(dir, "endless.pbtxt", Cli.countingGraph(Long.MAX_VALUE)
            .replace("int_value: " + Long.MAX_VALUE, "int_value: " + Long.MAX_VALUE + " }\n  option { name: " +
                "\"batch\" int_value: 1"));
        final Cli.Result r = Cli.run("run", file.toString(), "--frames", "200");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("(--frames 200)"), r.toString());
        assertTrue(packets(r.out(), "pass", "out *") >= 200, r.toString());
    }

    @Test
    void durationAndFramesTogetherAreAUsageError() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(5));
        final Cli.Result r = Cli.run("run", file.toString(), "--duration", "1", "--frames", "5");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("mutually exclusive"), r.toString());
    }

    @Test
    void aBadDurationIsAUsageError() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(5));
        final Cli.Result r = Cli.run("run", file.toString(), "--duration", "0");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--duration must be in (0, 31536000] seconds, was 0.0"), r.toString());
    }

    @Test
    void sidePacketsAreGivenWithSideAndAMissingOneIsNamed() throws Exception
    {
        final String gated = Cli.countingGraph(20).replace("calculator: \"PassThroughCalculator\"",
            "calculator: \"GateCalculator\"\n  input_side_packet: \"ALLOW:open\"");
        final Path file = Cli.write(dir, "gated.pbtxt", gated);

        final Cli.Result missing = Cli.run("run", file.toString());
        assertEquals(1, missing.exit(), missing.toString());
        assertTrue(missing.err().contains("node 'pass' needs side packet 'open'"), missing.toString());
        assertTrue(missing.err().contains("--side NAME=VALUE"), missing.toString());
        ValidateCommandTest.assertNoStackTrace(missing);

        final Cli.Result open = Cli.run("run", file.toString(), "--side", "open=true");
        assertEquals(0, open.exit(), open.toString());
        assertRow(open.out(), "pass", "out *", 20, false);

        final Cli.Result closed = Cli.run("run", file.toString(), "--side", "open=false");
        assertEquals(0, closed.exit(), closed.toString());
        assertRow(closed.out(), "pass", "out *", 0, false);
        assertTrue(closed.out().contains("drops: 20 (pass 20)"), closed.toString());
    }

    @Test
    void aFailedRunSaysWhichNodeAndWhyWithExitCodeOne() throws Exception
    {
        final Path file = Cli.write(dir, "fails.pbtxt", Cli.countingGraph(20)
            .replace("output_stream: \"out\"\n}", "output_stream: \"out\"\n  output_stream: \"extra\"\n}"));
        final Cli.Result r = Cli.run("run", file.toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("the run failed:"), r.toString());
        assertTrue(r.err().contains("node 'pass'"), r.toString());
        assertTrue(r.err().contains("needs as many outputs as inputs"), r.toString());
    }

    @Test
    void aMissingFileIsOneSentence()
    {
        final Cli.Result r = Cli.run("run", dir.resolve("nope.pbtxt").toString(), "--duration", "1");
        assertEquals(1, r.exit(), r.toString());
        assertEquals("run: cannot read graph file '" + dir.resolve("nope.pbtxt") + "': no such file", r.err().trim());
    }

    @Test
    void theRunIsJournaledUnlessToldNot() throws Exception
    {
        final Path file = Cli.write(dir, "small.pbtxt", Cli.countingGraph(5));
        final Cli.Result r = Cli.run("run", file.toString(), "--journal", dir.resolve("journal").toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("journal: " + dir.resolve("journal").resolve("run-")), r.toString());
        assertEquals("", r.err(), r.toString());
        final Cli.Result off = Cli.run("run", file.toString(), "--journal", dir.resolve("off").toString(),
            "--no-journal");
        assertEquals(0, off.exit(), off.toString());
        assertFalse(off.out().contains("journal: "), off.toString());
        assertFalse(java.nio.file.Files.exists(dir.resolve("off")), off.toString());
        final Cli.Result capture = Cli.run("run", file.toString(), "--journal", dir.resolve("journal").toString(),
            "--capture", "nope");
        assertEquals(1, capture.exit(), capture.toString());
        assertTrue(capture.err().contains("--capture nope: the graph has no stream 'nope'; its streams are [n, out]"),
            capture.toString());
    }

    @Test
    void theSummaryNamesItsOwnRunNotTheNewestInTheDirectory() throws Exception
    {
        // another process's run in the shared directory, newer than ours by name (a later start)
        final Path journals = dir.resolve("shared");
        final Path other = journals.resolve("run-29991231-235959-999-1");
        java.nio.file.Files.createDirectories(other);
        java.nio.file.Files.createFile(other.resolve("metadata.cq4t"));
        final Path file = Cli.write(dir, "own.pbtxt", Cli.countingGraph(5));
        final Cli.Result r = Cli.run("run", file.toString(), "--journal", journals.toString());
        assertEquals(0, r.exit(), r.toString());
        final Matcher named = Pattern.compile("journal: (\\S+) ").matcher(r.out());
        assertTrue(named.find(), r.toString());
        final Path run = Path.of(named.group(1));
        assertNotEquals(other, run, r.toString());
        assertTrue(run.getFileName().toString().matches("run-\\d{8}-\\d{6}-\\d{3}-" + ProcessHandle.current().pid() +
            "(-\\d+)?"), r.toString());
        assertTrue(java.nio.file.Files.isDirectory(run), r.toString());
        // a second run in the same JVM (same pid) names the second, not the first
        final Cli.Result again = Cli.run("run", file.toString(), "--journal", journals.toString());
        final Matcher second = Pattern.compile("journal: (\\S+) ").matcher(again.out());
        assertTrue(second.find(), again.toString());
        assertNotEquals(run, Path.of(second.group(1)), again.toString());
        assertNotEquals(other, Path.of(second.group(1)), again.toString());
    }

    @Test
    void theLatencyStampGetsARecorderOfItsOwn() throws Exception
    {
        final Path file = Cli.write(dir, "stamp.pbtxt", Cli.countingGraph(100).replace(
            "calculator: \"PassThroughCalculator\"",
            "calculator: \"LatencyStampCalculator\"\n  input_side_packet: \"RECORDER:latency\""));
        final Cli.Result r = Cli.run("run", file.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("(LatencyStamp)"), r.toString());
    }

    @Test
    void sideValuesAreTypedWhenTheyParse()
    {
        assertEquals(42L, RunCommand.sideValue("42"));
        assertEquals(-7L, RunCommand.sideValue("-7"));
        assertEquals(2.5, RunCommand.sideValue("2.5"));
        assertEquals(1e-3, RunCommand.sideValue("1e-3"));
        assertEquals(Boolean.TRUE, RunCommand.sideValue("true"));
        assertEquals(Boolean.FALSE, RunCommand.sideValue("false"));
        assertEquals("True", RunCommand.sideValue("True"));
        assertEquals("NaN", RunCommand.sideValue("NaN"));
        assertEquals("0x10", RunCommand.sideValue("0x10"));
        assertEquals("cam0.raw", RunCommand.sideValue("cam0.raw"));
        assertEquals("", RunCommand.sideValue(""));
        assertEquals(99999999999999999999.0, RunCommand.sideValue("99999999999999999999"));
    }

    /** A table row: node, stream, packets, then the rate and either "entry" or four numbers. */
    private static void assertRow(
        final String out, final String node, final String stream, final long packets, final boolean entry)
    {
        assertEquals(packets, packets(out, node, stream), out);
        final Matcher m = row(node, stream).matcher(out);
        assertTrue(m.find(), out);
        if (entry)
        {
            assertTrue(m.group(2).trim().startsWith("entry"), m.group());
        }
        else if (packets > 0)
        {
            assertTrue(m.group(2).trim().matches("[0-9.]+( +[0-9.]+){3}"), m.group());
        }
    }

    private static long packets(final String out, final String node, final String stream)
    {
        final Matcher m = row(node, stream).matcher(out);
        assertTrue(m.find(), "no row for " + node + " " + stream + " in\n" + out);
        return Long.parseLong(m.group(1));
    }

    private static Pattern row(final String node, final String stream)
    {
        return Pattern.compile("(?m)^" + Pattern.quote(node) + " +" + (stream.isEmpty() ? "" : Pattern.quote(stream) +
            " +") + "(\\d+) +[0-9.]+(.*)$");
    }
}
