package dev.framewire.core;

import dev.framewire.core.journal.JournalConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code PARK} worker out of work spins before it parks; it yields its core on each turn of the
 * spin when the graph's own threads (its workers, and the journal's agent when it journals) are at
 * least as many as the JVM's cores, and holds it otherwise. A graph run either way delivers every
 * packet.
 */
@Timeout(60)
class ParkSpinTest
{
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** A chain of {@code stages} pass-throughs on {@code workers} parked workers. */
    private static GraphConfig.Builder chain(final int stages, final int workers)
    {
        final GraphConfig.Builder builder = GraphConfig.builder()
            .inputStream("in")
            .outputStream("out")
            .executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, IdleKind.PARK));
        String upstream = "in";
        for (int i = 0; i < stages; i++)
        {
            final String in = upstream;
            final String out = i == stages - 1 ? "out" : "s" + i;
            builder.node("stage" + i, n -> n.calculator("PassThroughCalculator").inputStream(in).outputStream(out));
            upstream = out;
        }
        return builder;
    }

    @Test
    void aWorkerForEveryCoreYieldsWhileItSpinsAndTheRunDeliversEverything() throws Exception
    {
        try (Graph graph = new Graph(chain(CORES + 1, CORES).build()))
        {
            assertEquals(CORES, graph.run().scheduler.workers.size());
            assertTrue(graph.run().scheduler.spinsYield(), CORES + " workers on " + CORES + " cores");
            final AtomicLong sum = new AtomicLong();
            graph.observe("out", p -> sum.addAndGet(p.getLong()));
            graph.start();
            for (long ts = 0; ts < 1_000; ts++)
            {
                graph.addPacket("in", ts, ts);
            }
            graph.closeAllInputs();
            graph.waitUntilDone();
            assertEquals(999L * 1_000 / 2, sum.get());
        }
    }

    @Test
    void aCoreToSpareKeepsTheSpinOnItsCoreUnlessTheJournalTakesIt(@TempDir final Path journals)
    {
        if (CORES < 2)
        {
            try (Graph graph = new Graph(chain(2, 1).build()))
            {
                assertTrue(graph.run().scheduler.spinsYield(), "one core: any worker takes it");
            }
            return;
        }
        try (Graph spare = new Graph(chain(CORES, CORES - 1).build()))
        {
            assertEquals(CORES - 1, spare.run().scheduler.workers.size());
            assertFalse(spare.run().scheduler.spinsYield(), (CORES - 1) + " workers on " + CORES + " cores");
        }
        try (Graph journaled = new Graph(chain(CORES, CORES - 1).journal(new JournalConfig().directory(journals)).build()))
        {
            assertTrue(journaled.run().scheduler.spinsYield(),
                (CORES - 1) + " workers and the journal's agent on " + CORES + " cores");
        }
    }
}
