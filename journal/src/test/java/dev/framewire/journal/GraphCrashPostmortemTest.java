package dev.framewire.journal;

import dev.framewire.core.Calculator;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A child JVM runs a journaling graph (a counting source, a slow node "detector" that spins about
 * 2 ms per packet, a sink) and is killed with SIGKILL ({@link Process#destroyForcibly()}) mid-run;
 * the parent reads the journal the child left and the {@link Postmortem} of it: no end of run,
 * every packet emitted on every stream is consumed, dropped or in flight at each consumer, and the
 * node found in process is the slow one.
 */
class GraphCrashPostmortemTest
{
    static final int MAX_QUEUE = 8;
    static final long READY_AFTER = 1_000;

    @TempDir
    Path dir;

    /** The child JVM: runs the graph until it is killed. */
    public static final class Child
    {
        private Child()
        {
        }

        /**
         * Runs until killed; prints "READY" once {@link #READY_AFTER} packets reached the sink.
         *
         * @param args the journal root.
         * @throws Exception never expected.
         */
        public static void main(final String[] args) throws Exception
        {
            final Calculator detector = ctx ->
            {
                final long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                while (System.nanoTime() < until)
                {
                    Thread.onSpinWait();
                }
                ctx.output(0).addLong(ctx.inputTimestamp(), ctx.inputTimestamp());
            };
            final Calculator sink = ctx ->
            {
            };
            final GraphConfig config = GraphConfig.builder()
                .maxQueueSize(MAX_QUEUE)
                .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(1, IdleKind.PARK))
                .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
                .node("source", n -> n.calculator("CountingSourceCalculator").outputStream("n")
                    .option("count", Long.MAX_VALUE))
                .node("detector", n -> n.calculator(() -> detector).inputStream("n").outputStream("d")
                    .executor("slow"))
                .node("sink", n -> n.calculator(() -> sink).inputStream("d"))
                .journal(new JournalConfig().directory(Path.of(args[0])))
                .build();
            final Graph graph = new Graph(config);
            final AtomicLong seen = new AtomicLong();
            graph.observe("d", packet ->
            {
                if (seen.incrementAndGet() == READY_AFTER)
                {
                    System.out.println("READY");
                    System.out.flush();
                }
            });
            graph.start();
            new CountDownLatch(1).await(); // until killed
        }
    }

    @Test
    @Timeout(60)
    void aKilledGraphsJournalSaysWhereItStood() throws Exception
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Path stderr = dir.resolve("child-stderr.txt");
        final Path journals = dir.resolve("journals");
        final Process child = new ProcessBuilder(java.toString(), "@" + JournalCrashTest.jvmConfig(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), Child.class.getName(), journals.toString())
            .redirectError(stderr.toFile())
            .start();
        final CountDownLatch ready = new CountDownLatch(1);
        try
        {
            final Thread reader = new Thread(() ->
            {
                try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)))
                {
                    String line;
                    while ((line = in.readLine()) != null)
                    {
                        if (line.equals("READY"))
                        {
                            ready.countDown();
                        }
                    }
                }
                catch (final Exception ignored)
                {
                    // the child died: its pipe closes
                }
            }, "crash-child-stdout");
            reader.setDaemon(true);
            reader.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (!ready.await(10, TimeUnit.MILLISECONDS) && child.isAlive() && System.nanoTime() < deadline)
            {
                // wait
            }
            assertTrue(child.isAlive(), () -> "the child died on its own: " + read(stderr));
            assertEquals(0, ready.getCount(), () -> "the child was not READY in 15 s: " + read(stderr));
            Thread.sleep(200);
            assertTrue(child.isAlive(), () -> "the child died on its own: " + read(stderr));
        }
        finally
        {
            child.destroyForcibly();
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child did not die");
        }
        assertEquals(137, child.exitValue(), "killed by SIGKILL");

        final JournalReader journal = JournalReader.read(JournalReader.latestRun(journals));
        final Postmortem postmortem = Postmortem.of(journal);
        final String report = postmortem.report();
        System.out.println(report);
        assertNull(journal.runEnd(), "a killed run has no end record");
        assertTrue(journal.hasTopology(), "the run start says which node consumes which stream");
        assertTrue(postmortem.verdict().contains("no end of run"), report);

        // every packet emitted on a stream is, at each consumer, consumed, dropped or still in flight
        assertEquals(Set.of("n", "d"), Set.copyOf(journal.streamNames()), report);
        assertCounts(postmortem, journal, report);
        final Postmortem.StreamState n = postmortem.stream("n");
        final Postmortem.StreamState d = postmortem.stream("d");
        assertEquals("source", n.producer(), report);
        assertEquals("detector", n.consumers().get(0).node(), report);
        assertEquals("detector", d.producer(), report);
        assertEquals("sink", d.consumers().get(0).node(), report);
        assertTrue(d.emitted() >= READY_AFTER, report);
        // the source is held back by the detector's full queue: few packets wait for it
        assertTrue(n.consumers().get(0).inFlight() <= MAX_QUEUE + 2, report);

        // the node in process: the slow detector (the kill may land between two of its calls)
        final List<String> busy = new ArrayList<>();
        for (final Postmortem.NodeState node : postmortem.nodes())
        {
            if (node.inProcess())
            {
                busy.add(node.name());
            }
        }
        final Postmortem.NodeState detector = postmortem.node("detector");
        assertTrue(detector.calls() >= READY_AFTER, report);
        if (detector.inProcess())
        {
            assertTrue(postmortem.verdict().contains("`detector`"), report);
            assertTrue(Set.of("source", "sink", "detector").containsAll(busy), report);
        }
        else
        {
            // between two calls of the detector: only the source or the sink can be in a call
            assertTrue(Set.of("source", "sink").containsAll(busy), report);
        }
        assertTrue(postmortem.verdict().contains("detector") || report.contains("detector: "), report);
    }

    /** Every stream's counts add up, and agree with the records themselves. */
    private static void assertCounts(final Postmortem postmortem, final JournalReader journal, final String report)
    {
        for (final Postmortem.StreamState s : postmortem.streams())
        {
            assertEquals(1, s.consumers().size(), () -> s.name() + ": " + report);
            long most = 0;
            for (final Postmortem.Consumer c : s.consumers())
            {
                assertEquals(s.emitted(), c.consumed() + c.dropped() + c.inFlight(),
                    () -> s.name() + " at " + c.node() + ": " + report);
                // nothing is counted twice: the clamp at 0 in in-flight would hide it
                assertTrue(c.consumed() + c.dropped() <= s.emitted(), () -> s.name() + " at " + c.node() + ": " + report);
                most = Math.max(most, c.inFlight());
            }
            assertEquals(most, s.inFlight(), () -> s.name() + ": " + report);
        }
        // the same counts from the records themselves
        for (final Postmortem.StreamState s : postmortem.streams())
        {
            final Postmortem.Consumer c = s.consumers().get(0);
            final Set<Long> emittedAt = new HashSet<>();
            final Set<Long> consumedAt = new HashSet<>();
            long drops = 0;
            for (final JournalRecord r : journal.records())
            {
                if (r.kind() == JournalRecord.Kind.EMIT && s.name().equals(r.streamName()))
                {
                    assertTrue(emittedAt.add(r.timestamp()), () -> "emitted twice: " + r);
                }
                else if (r.kind() == JournalRecord.Kind.PROCESS_BEGIN && c.node().equals(r.nodeName()) &&
                    emittedAt.contains(r.timestamp()))
                {
                    consumedAt.add(r.timestamp());
                }
                else if (r.kind() == JournalRecord.Kind.DROP && c.node().equals(r.nodeName()) &&
                    s.name().equals(r.streamName()))
                {
                    drops++;
                }
            }
            assertEquals(emittedAt.size(), s.emitted(), () -> s.name() + ": " + report);
            assertEquals(consumedAt.size(), c.consumed(), () -> s.name() + ": " + report);
            assertEquals(drops, c.dropped(), () -> s.name() + ": " + report);
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final Exception ex)
        {
            return ex.toString();
        }
    }
}
