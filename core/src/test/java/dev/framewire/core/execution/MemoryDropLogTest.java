package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.Graph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Under DROP_OLDEST every drop made to stay within the memory budget was logged at WARN, one line
 * each: an undersized budget wrote 45,000 lines in 30 s. Drops are now counted and kept as before,
 * and the log gets the first at once, then a line per 10 s that says how many, and a last line at
 * the end of the run for those no line told.
 */
@Timeout(60)
class MemoryDropLogTest
{
    private static Calculator slowSink(final long nanos)
    {
        return ctx -> LockSupport.parkNanos(nanos); // a consumer slower than the source, by design
    }

    @Test
    void memoryDropsAreLoggedAtMostOncePerTenSecondsPlusALastLineWithTheRest() throws Exception
    {
        final long started = System.nanoTime();
        final long drops;
        final String log;
        try (Graph graph = new Graph(Execution.dropOldestOverload(200, slowSink(2_000_000))))
        {
            log = Execution.runCapturingLog(graph);
            assertNothingHeld(graph);
            drops = graph.memoryDropCount();
            assertEquals(drops, graph.memoryDrops().size(), "every drop is still kept");
        }
        final long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        assertTrue(drops > 10, "the test needs many drops to mean anything: " + drops);
        final long lines = log.lines().filter(l -> l.contains("WARN") && l.contains("over the memory budget's hard " +
            "limit")).count();
        final long first = log.lines().filter(l -> l.contains("(memory drops are logged at most once every 10 s; " +
            "Graph.memoryDrops() keeps them)")).count();
        final long last = log.lines().filter(l -> l.contains("more packets to stay within the memory budget before " +
            "the run ended (" + drops + " in all)")).count();
        assertEquals(1, first, log);
        assertTrue(lines <= 1 + seconds / 10 + 1, lines + " drop lines for " + drops + " drops in " + seconds + " s");
        assertEquals(1, last, "the drops after the last line are told at the end: " + log);
    }
}
