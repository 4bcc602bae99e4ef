package dev.framewire.tools;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.CalculatorRegistry;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.journal.JournalConfig;
import dev.framewire.journal.JournalReader;
import dev.framewire.journal.Postmortem;
import dev.framewire.journal.RunEnding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a run ended, as the journal's post-mortem tells it: a timed stop ({@code --duration}) is not a
 * cancel, a stop with a named reason (a frame count) is "stopped", {@code Graph.cancel()} is
 * "cancelled", a failure "failed", sources ending "done".
 */
@Timeout(120)
class RunEndingTest
{
    @TempDir
    Path dir;

    @Test
    void aTimedRunEndsDurationElapsed() throws Exception
    {
        final Path file = Cli.write(dir, "endless.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        final Path journals = dir.resolve("j1");
        final Cli.Result r = Cli.run("run", file.toString(), "--duration", "0.5", "--journal", journals.toString());
        assertEquals(0, r.exit(), r.toString());
        final Path run = onlyRun(journals);
        final Postmortem pm = Postmortem.of(JournalReader.read(run));
        assertEquals(RunEnding.DURATION_ELAPSED, pm.ending());
        assertTrue(pm.verdict().startsWith("The run ended: duration elapsed (--duration 0.5 s) after "), pm.verdict());
        final Cli.Result p = Cli.run("journal", "postmortem", run.toString());
        assertEquals(0, p.exit(), p.toString());
        assertTrue(p.out().contains("ending: duration elapsed\n"), p.toString());
        assertFalse(p.out().contains("cancelled"), p.toString());
    }

    @Test
    void aFrameCountStopsTheRunAndSaysSo() throws Exception
    {
        final Path file = Cli.write(dir, "endless.pbtxt", Cli.countingGraph(Long.MAX_VALUE));
        final Path journals = dir.resolve("j2");
        final Cli.Result r = Cli.run("run", file.toString(), "--frames", "100", "--journal", journals.toString());
        assertEquals(0, r.exit(), r.toString());
        final Postmortem pm = Postmortem.of(JournalReader.read(onlyRun(journals)));
        assertEquals(RunEnding.STOPPED, pm.ending());
        assertTrue(pm.verdict().startsWith("The run was stopped: frame count reached, --frames 100 after "),
            pm.verdict());
    }

    @Test
    void embeddedRunsEndDoneCancelledOrFailed() throws Exception
    {
        assertEquals(RunEnding.DONE, ending("done", Cli.countingGraph(10), null, false));
        assertEquals(RunEnding.CANCELLED, ending("cancel", Cli.countingGraph(Long.MAX_VALUE), null, true));
        assertEquals(RunEnding.STOPPED, ending("stop", Cli.countingGraph(Long.MAX_VALUE), "stopped: SIGTERM", true));
        assertEquals(RunEnding.DURATION_ELAPSED, ending("timed", Cli.countingGraph(Long.MAX_VALUE),
            RunEnding.DURATION_REASON + ": 3 s", true));
        CalculatorRegistry.global().register("RunEndingFailingCalculator", Failing::new);
        assertEquals(RunEnding.FAILED, ending("failed", "output_stream: \"out\"\n" +
            "executor { name: \"default\" num_threads: 1 idle_strategy: PARK }\n" +
            "node { name: \"count\" calculator: \"CountingSourceCalculator\" output_stream: \"n\"\n" +
            "  option { name: \"count\" int_value: 10 } }\n" +
            "node { name: \"boom\" calculator: \"RunEndingFailingCalculator\" input_stream: \"n\" output_stream: \"out\" }\n",
            null, false));
        assertEquals(RunEnding.KILLED, RunEnding.of(null));
    }

    private RunEnding ending(final String name, final String text, final String reason, final boolean cancel)
        throws Exception
    {
        final Path journals = dir.resolve(name);
        final GraphConfig parsed = GraphFiles.read(Cli.write(dir, name + ".pbtxt", text));
        final GraphConfig config = parsed.toBuilder().journal(new JournalConfig().directory(journals)).build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            if (cancel)
            {
                if (reason == null)
                {
                    graph.cancel();
                }
                else
                {
                    graph.cancel(reason);
                }
            }
            try
            {
                graph.waitUntilDone();
            }
            catch (final GraphException expected)
            {
                assertTrue(cancel == expected.isCancelled(), expected.toString());
            }
        }
        return Postmortem.of(JournalReader.read(onlyRun(journals))).ending();
    }

    private static Path onlyRun(final Path journals) throws Exception
    {
        try (Stream<Path> runs = Files.list(journals))
        {
            final Path[] all = runs.filter(p -> p.getFileName().toString().startsWith("run-")).toArray(Path[]::new);
            assertEquals(1, all.length);
            return all[0];
        }
    }

    /** Fails on its first packet. */
    static final class Failing implements Calculator
    {
        @Override
        public void process(final CalculatorContext ctx)
        {
            throw new IllegalStateException("boom");
        }
    }
}
