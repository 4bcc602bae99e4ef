package dev.framewire.tools;

import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JfrSummaryCommandTest
{
    private static final int PACKETS = 500;

    /** A class to be contended on, so the lock table has a name to show. */
    static final class ContendedMonitor
    {
    }

    @Test
    void summarizesARecordingOfASmallGraph(@TempDir final Path dir) throws Exception
    {
        final Path jfr = dir.resolve("run.jfr");
        try (Recording recording = new Recording())
        {
            recording.enable("dev.framewire.NodeProcess").withThreshold(Duration.ZERO);
            recording.enable("dev.framewire.Drop");
            recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s").withStackTrace();
            recording.start();

            try (Graph graph = new Graph(GraphConfig.builder()
                .inputStream("in")
                .node("first", n -> n.calculator("PassThroughCalculator").inputStream("in").outputStream("mid"))
                .node("second", n -> n.calculator("PassThroughCalculator").inputStream("mid").outputStream("out"))
                .outputStream("out")
                .build()))
            {
                graph.start();
                for (long ts = 0; ts < PACKETS; ts++)
                {
                    graph.addPacket("in", ts, ts);
                }
                graph.closeAllInputs();
                graph.waitUntilDone();
            }
            contend();
            recording.stop();
            recording.dump(jfr);
        }

        final Path png = dir.resolve("nodes.png");
        final StringWriter text = new StringWriter();
        final int exit = FramewireCommand.commandLine().setOut(new PrintWriter(text))
            .execute("jfr", "summary", jfr.toString(), "--chart", png.toString());
        final String out = text.toString();

        assertEquals(0, exit, out);
        for (final String node : new String[]{"first", "second"})
        {
            // open + one process per packet + close, at least; the bound-only calls may add a few
            final Matcher m = Pattern.compile("\\n  " + node + "\\s+(\\d+)\\s").matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Long.parseLong(m.group(1)) >= PACKETS, out);
        }
        assertTrue(out.contains("Drops (dev.framewire.Drop):\n  none"), out);
        assertTrue(out.contains(ContendedMonitor.class.getName()), out);
        assertTrue(out.contains("Allocation hot spots"), out);
        assertTrue(Files.size(png) > 1000, "chart " + png);
    }

    @Test
    void aMissingRecordingIsTheUsersToFix(@TempDir final Path dir)
    {
        final StringWriter err = new StringWriter();
        final int exit = FramewireCommand.commandLine().setErr(new PrintWriter(err))
            .execute("jfr", "summary", dir.resolve("none.jfr").toString());
        assertEquals(1, exit, err.toString());
        assertTrue(err.toString().contains("no such recording"), err.toString());
    }

    /** Two threads on one monitor, the second waiting about 50 ms: a jdk.JavaMonitorEnter event. */
    private static void contend() throws InterruptedException
    {
        final ContendedMonitor monitor = new ContendedMonitor();
        final CountDownLatch held = new CountDownLatch(1);
        final Thread holder = new Thread(() ->
        {
            synchronized (monitor)
            {
                held.countDown();
                try
                {
                    Thread.sleep(50);
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
        });
        holder.start();
        held.await();
        synchronized (monitor)
        {
            monitor.hashCode();
        }
        holder.join();
    }
}
