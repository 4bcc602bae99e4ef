package dev.framewire.tools;

import dev.framewire.core.NodeConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code framewire demo --split}: the camera-ingest demo as two processes over UDP on 127.0.0.1. */
@Timeout(180)
class DemoSplitTest
{
    @TempDir
    Path dir;

    /** A UDP port free on 127.0.0.1 now: the receiver binds it (other agents' tests run alongside). */
    private static int freePort() throws Exception
    {
        try (DatagramSocket free = new DatagramSocket(0, java.net.InetAddress.getLoopbackAddress()))
        {
            return free.getLocalPort();
        }
    }

    @Test
    void theSplitDemoRunsBothProcessesAndPrintsTheTableAcrossThem() throws Exception
    {
        final int port = freePort();
        final StringWriter text = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(text));
        cli.setErr(new PrintWriter(err));
        final Path snapshots = dir.resolve("snaps");
        final Path journals = dir.resolve("journals");
        final int exit = cli.execute("demo", "--split", "--split-port", Integer.toString(port), "--duration", "3",
            "--cameras", "2", "--width", "160", "--height", "120", "--fps", "30", "--workers", "1",
            "--snapshots", snapshots.toString(), "--snapshot-every", "15", "--journal", journals.toString(),
            "--capture-sources", "--checksum", "all");
        final String output = text.toString();
        System.out.println(output); // the run as a user sees it, in the test's report
        assertEquals(0, exit, output + err);
        assertTrue(output.contains("[analysis] " + SplitRun.READY), output);
        assertTrue(output.contains("end-to-end latency across both processes"), output);
        assertTrue(output.contains("p99.9"), output);
        // both sides processed frames: sent by process 1, annotated by process 2, matched across them
        final Matcher all = Pattern.compile("(?m)^all\\s+(\\d+)\\s+(\\d+)\\s").matcher(output);
        assertTrue(all.find(), output);
        final long sent = Long.parseLong(all.group(1));
        final long analysed = Long.parseLong(all.group(2));
        assertTrue(sent >= 100, output);
        assertTrue(analysed >= sent / 2 && analysed <= sent, output);
        final Matcher done = Pattern.compile("analysis done: (\\d+) frames annotated").matcher(output);
        assertTrue(done.find(), output);
        assertEquals(analysed, Long.parseLong(done.group(1)), output);
        final DemoCommand demo = cli.getSubcommands().get("demo").getCommand();
        assertEquals(analysed, demo.framesProcessed());
        // the snapshots are the analysis process's
        try (Stream<Path> files = Files.list(snapshots))
        {
            assertTrue(files.count() >= 2, output);
        }
        // each process names its own journal, and they are two
        final Matcher first = Pattern.compile("journal of process 1 \\(cameras\\): (\\S+)").matcher(output);
        final Matcher second = Pattern.compile("journal of process 2 \\(analysis\\): (\\S+)").matcher(output);
        assertTrue(first.find() && second.find(), output);
        assertNotEquals(first.group(1), second.group(1), output);
        assertTrue(output.contains("journal postmortem " + first.group(1) + " " + second.group(1)), output);
        // and the postmortem of the two follows both cameras' frames across the link
        final Cli.Result hops = Cli.run("journal", "postmortem", first.group(1), second.group(1));
        assertEquals(0, hops.exit(), hops.toString());
        assertTrue(hops.out().contains("cam0_tx stream 'cam0_gray' -> Aeron session "), hops.toString());
        assertTrue(hops.out().contains("cam1_tx stream 'cam1_gray' -> Aeron session "), hops.toString());
        assertTrue(hops.out().contains("-> cam0_rx ("), hops.toString());
        // each side replays from its own journal, its link key deleted: the cameras from their captured
        // frames and the publishers by sinks; the subscribers from the frames they received
        replaysIdentical(first.group(1), "2 remote publishers replaced by a sink");
        replaysIdentical(second.group(1), "[cam0_rx, cam1_rx]");
    }

    private void replaysIdentical(final String recorded, final String says) throws Exception
    {
        final Path replays = dir.resolve("replay-" + Path.of(recorded).getFileName());
        final Cli.Result replay = Cli.run("journal", "replay", recorded, "--as-fast-as-possible", "--journal",
            replays.toString());
        assertEquals(0, replay.exit(), replay.toString());
        assertTrue(replay.out().contains("2 sources replayed from the journal's captured packets") &&
            replay.out().contains(says), replay.toString());
        final Path run;
        try (Stream<Path> runs = Files.list(replays))
        {
            run = runs.filter(p -> p.getFileName().toString().startsWith("run-")).findFirst().orElseThrow();
        }
        final Cli.Result diff = Cli.run("journal", "diff", recorded, run.toString());
        assertEquals(0, diff.exit(), diff.toString());
        assertTrue(diff.out().contains("identical: "), diff.toString());
        assertTrue(!diff.out().contains("not compared: the payload bytes"), "pixels compared: " + diff);
    }

    /**
     * The analysis process dies mid-run: the cameras' process says so at once and stops, well
     * within --duration, with exit code 1 (it used to find out only at the end, 12 s past it).
     */
    @Test
    void aDeadAnalysisProcessIsReportedAtOnceAndTheCamerasStop() throws Exception
    {
        final int port = freePort();
        final StringWriter text = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setOut(new PrintWriter(text, true));
        cli.setErr(new PrintWriter(err, true));
        final java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(
            () -> cli.execute("demo", "--split", "--split-port", Integer.toString(port), "--duration", "60",
                "--cameras", "1", "--width", "160", "--height", "120", "--fps", "30", "--workers", "1", "--no-journal",
                "--snapshots", dir.resolve("snaps").toString()));
        final long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!text.toString().contains("frames captured") && System.nanoTime() < until && !exit.isDone())
        {
            Thread.sleep(50); // polling the demo's output for its first progress line
        }
        assertTrue(text.toString().contains("frames captured"), text + "\n" + err);
        // the one child JVM: the analysis process (its arguments are cut short in /proc: a long class path)
        final java.util.List<ProcessHandle> children = ProcessHandle.current().children()
            .filter(p -> p.info().command().map(c -> c.endsWith("java")).orElse(false))
            .collect(java.util.stream.Collectors.toList());
        assertEquals(1, children.size(), "one analysis child process: " + children);
        final ProcessHandle analysis = children.get(0);
        final long killed = System.nanoTime();
        assertTrue(analysis.destroyForcibly());
        final int code = exit.get(30, java.util.concurrent.TimeUnit.SECONDS);
        final double seconds = (System.nanoTime() - killed) / 1e9;
        assertEquals(1, code, text + "\n" + err);
        assertTrue(err.toString().contains("--split: the analysis process ended with exit code ") &&
            err.toString().contains(" while the cameras ran (its output is above); stopping the cameras"), err.toString());
        assertTrue(seconds < 10, "stopped " + seconds + " s after the analysis died, not at the end of --duration 60");
    }

    @Test
    void splitTakesTheSyntheticCamerasOnly()
    {
        final StringWriter err = new StringWriter();
        final CommandLine cli = FramewireCommand.commandLine();
        cli.setErr(new PrintWriter(err));
        assertEquals(2, cli.execute("demo", "--split", "--source", "clip.mp4"));
        assertTrue(err.toString().contains("--split runs the synthetic cameras only: drop --source and --record"),
            err.toString());
        final StringWriter err2 = new StringWriter();
        final CommandLine cli2 = FramewireCommand.commandLine();
        cli2.setErr(new PrintWriter(err2));
        assertEquals(2, cli2.execute("demo", "--split", "--split-port", "0"));
        assertTrue(err2.toString().contains("--split-port must be 1..65535, was 0"), err2.toString());
    }

    @Test
    void theCameraHalfKeepsTheFlowLimiterAndItsBackEdgeLocal()
    {
        final DemoGraph demo = DemoGraph.of(DemoGraph.builtInText(), "built in", new DemoGraph.Settings(2, 1280, 720,
            60, 100, 60, Path.of("snapshots"), 2));
        final DemoSplit.Sides sides = DemoSplit.of(demo, 40125, 1280, 720, Path.of("link.key"));
        final List<String> first = sides.cameras().nodes().stream().map(NodeConfig::name).toList();
        final List<String> second = sides.analysis().nodes().stream().map(NodeConfig::name).toList();
        assertEquals(List.of("cam0", "cam0_limiter", "cam0_gray", "cam1", "cam1_limiter", "cam1_gray", "cam0_tx",
            "cam1_tx"), first);
        assertEquals(List.of("cam0_rx", "cam1_rx", "cam0_half", "cam0_motion", "cam0_annotate", "cam0_snapshots",
            "cam1_half", "cam1_motion", "cam1_annotate", "cam1_snapshots"), second);
        final NodeConfig limiter = sides.cameras().nodes().get(1);
        assertEquals(List.of("cam0", "FINISHED:cam0_gray"), limiter.inputStreams());
        assertEquals(List.of("cam0_gray", "cam1_gray"), sides.cutStreams());
        assertEquals("aeron:udp?endpoint=127.0.0.1:40125", sides.channel());
        assertEquals("link.key", sides.cameras().nodes().get(6).options().get("key_file"), "the link is authenticated");
        assertEquals("link.key", sides.analysis().nodes().get(0).options().get("key_file"));
        // a 720p grayscale frame (921,600 bytes) must fit an eighth of the term
        assertEquals(8L << 20, DemoSplit.termLength(1280, 720));
    }
}
