package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.GraphFailure;
import dev.framewire.core.IdleKind;
import dev.framewire.core.MemoryLimitException;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.offheap.MemoryBudget;
import dev.framewire.offheap.MemoryBudgetExceededException;
import dev.framewire.offheap.Payload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static dev.framewire.core.execution.Execution.slotBytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §5.3: the graph's own pool has a budget; over its soft limit sources are held back
 * while consumers drain, and an acquire past its hard limit either fails the run with a report of
 * who holds the bytes or drops the oldest queued packets and says so.
 */
@Timeout(60)
class MemoryBudgetTest
{
    private static final long MIB = 1024 * 1024;

    /**
     * A consumer that works about {@code nanos} per frame: parked, as a slow device or disk would
     * be. It reads its frame, so an input set handed over empty fails the run.
     */
    private static Calculator slowSink(final long nanos)
    {
        return ctx ->
        {
            ctx.input(0).payload().buffer().getInt(0);
            LockSupport.parkNanos(nanos);
        };
    }

    /** A consumer that keeps every frame it is given until the run ends: it never lets go. */
    private static Calculator hoarder()
    {
        return new Calculator()
        {
            private final List<Payload> held = new ArrayList<>();

            @Override
            public void process(final CalculatorContext ctx)
            {
                final Payload frame = ctx.input(0).payload();
                frame.retain();
                held.add(frame);
            }

            @Override
            public void close(final CalculatorContext ctx)
            {
                held.forEach(Payload::release);
                held.clear();
            }
        };
    }

    @Test
    void softLimitHoldsAFastSourceWithinOneShipmentOfItUntilTheSlowSinkDrains() throws Exception
    {
        final int frames = 3_000;
        final int shipment = 64;
        final long slot = slotBytes(128, 128);
        final GraphConfig config = parked(1)
            .executor("io", ExecutorConfig.of(1, IdleKind.PARK))
            .memoryBudget(64 * MIB)
            .maxShipmentSize(shipment)
            .maxQueueSize(-1) // no queue limit: only the memory budget holds the source back
            .node("src", n -> n.calculator(() -> frameSource(frames, 128, 128)).outputStream("frames").executor("io"))
            .node("sink", n -> n.calculator(() -> slowSink(300_000)).inputStream("frames"))
            .build();
        final long started = System.nanoTime();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone(); // no deadlock: the run ends when the source has stopped and the sink drained
            assertNothingHeld(graph);
            final MemoryBudget budget = graph.pool().budget();
            final long peak = budget.peakBytesInUse();
            System.out.printf("soft limit: %d frames of %d B through a slow sink in %d ms, peak %d B = %d frames " +
                "(soft limit %d B = %d frames, shipment %d frames)%n", frames, slot,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), peak, peak / slot,
                budget.softLimitBytes(), budget.softLimitBytes() / slot, shipment);

            assertEquals(frames, graph.callCount("sink"), "nothing dropped");
            assertTrue(peak > budget.softLimitBytes(), "the source got ahead of the sink, past the soft limit");
            assertTrue(peak <= budget.softLimitBytes() + shipment * slot, "peak " + peak / slot + " frames");
            assertTrue(graph.memoryDrops().isEmpty(), String.valueOf(graph.memoryDrops()));
        }
    }

    /**
     * 16 MiB: soft limit 8 MiB, hard 12 MiB. Shipments of 28 frames of 256 KiB (7 MiB): the first
     * fits and is hoarded; the second starts under the soft limit and passes the hard one. No byte
     * cap on shipments: the default (hard less soft, 4 MiB) would stop them first
     * ({@code ShipmentBytesTest} has that).
     */
    private static GraphConfig.Builder hoarding(final MemoryLimitPolicy policy)
    {
        return parked(1)
            .memoryBudget(16 * MIB)
            .memoryLimitPolicy(policy)
            .maxShipmentSize(28)
            .maxShipmentBytes(-1)
            .node("src", n -> n.calculator(() -> frameSource(100, 256, 256)).outputStream("frames"))
            .node("hoard", n -> n.calculator(MemoryBudgetTest::hoarder).inputStream("frames"));
    }

    @Test
    void hardLimitUnderFailFailsTheRunWithAReportOfWhoHoldsTheBytes() throws Exception
    {
        try (Graph graph = new Graph(hoarding(MemoryLimitPolicy.FAIL).build()))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertEquals(1, failure.failures().size(), failure.getMessage());
            final GraphFailure first = failure.failures().get(0);
            assertEquals("src", first.node());
            assertTrue(first.cause() instanceof MemoryLimitException, String.valueOf(first.cause()));
            assertTrue(first.cause().getCause() instanceof MemoryBudgetExceededException);
            final MemoryLimitException limit = (MemoryLimitException)first.cause();
            final String report = limit.getMessage();
            assertTrue(report.startsWith("source node 'src' on stream 'frames' cannot take a 262144 B slot: " +
                12 * MIB + " B in use + 262144 B would pass the pool's hard limit of " + 12 * MIB + " B (soft limit " +
                8 * MIB + " B, hard limit " + 12 * MIB + " B, budget " + 16 * MIB + " B)\nfix: raise " +
                "memory_budget_bytes"), report);
            assertTrue(report.contains("lower max_shipment_size (28) or max_shipment_bytes") &&
                report.contains("memory_limit_policy: DROP_OLDEST"), report);
            assertEquals(MemoryLimitException.HARD_LIMIT, limit.limit());
            assertEquals(12 * MIB, limit.limitBytes());
            assertEquals(12 * MIB, limit.bytesInUse());
            assertEquals(256 * 1024, limit.requestedBytes());
            assertEquals("src", limit.node());
            assertEquals("frames", limit.stream());
            assertTrue(report.contains("Held by size class:\n  262144 B x 48"), report);
            // the pool's account: each held frame with its last owner, the hoarder's input (leak
            // tracking is on in the test build), and the graph's: queues and the budget
            assertTrue(report.contains("stream 'frames'") && report.contains("node 'hoard'"), report);
            assertTrue(report.contains("held off-heap bytes by stream:"), report);
            assertTrue(report.contains("B in use, soft limit " + 8 * MIB + " B, hard limit " + 12 * MIB + " B"), report);
            assertEquals(28, graph.callCount("hoard"), "the first shipment was delivered and hoarded");
        }
    }

    @Test
    void hardLimitUnderDropOldestDropsTheOldestQueuedFramesAndTheRunCompletes() throws Exception
    {
        // the consumer is slow rather than hoarding, on a worker of its own, so frames queue up and
        // there is something old to drop; a shipment of 28 frames of 256 KiB (7 MiB) started at
        // the soft limit (8 MiB) passes the hard limit (12 MiB)
        final int frames = 200;
        final GraphConfig config = Execution.dropOldestOverload(frames, slowSink(2_000_000));
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone(); // completes: over the hard limit, it drops instead of failing
            assertNothingHeld(graph);

            final List<String> drops = graph.memoryDrops();
            System.out.printf("drop oldest: %d drops reported, sink dropped %d queued frames and processed %d; " +
                "peak %d B%n", drops.size(), graph.dropCount("sink"), graph.callCount("sink"),
                graph.pool().budget().peakBytesInUse());
            assertFalse(drops.isEmpty());
            for (final String drop : drops)
            {
                assertTrue(drop.contains("queued on stream 'frames' into node 'sink'") &&
                    drop.contains("over the memory budget's hard limit"), drop);
            }
            assertEquals(drops.size(), graph.dropCount("sink"), "every drop is counted");
            assertEquals(drops.size(), graph.memoryDropCount(), "a packet each");
            assertEquals(0, graph.dropCount("src"), "the source's cut-short shipments went out; it lost nothing");
            assertEquals(frames, graph.callCount("sink") + graph.dropCount("sink"),
                "every frame was either processed or dropped and counted");
            assertTrue(graph.failures().isEmpty(), String.valueOf(graph.failures()));
            assertTrue(graph.pool().budget().peakBytesInUse() <= 12 * MIB);
        }
    }

    /**
     * A consumer that keeps what it is given while the source is held at the soft limit: nothing
     * will ever drain, the scheduler is idle, no queue is full. The watchdog must still see the
     * held source as pending work and fail the run, with a verdict that says memory is the cause.
     */
    @Test
    void sourcesHeldAtTheSoftLimitByAConsumerThatNeverLetsGoAreReportedByTheWatchdog() throws Exception
    {
        final GraphConfig config = hoarding(MemoryLimitPolicy.FAIL).maxShipmentSize(8).timeoutGuardMillis(300).build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertEquals(1, failure.failures().size(), failure.getMessage());
            final GraphFailure guard = failure.failures().get(0);
            assertEquals("watchdog", guard.node());
            final String report = guard.cause().getMessage();
            final String verdict = report.split("\n")[1];
            assertTrue(verdict.startsWith("verdict: ") && verdict.contains("soft limit"), report);
            assertTrue(report.contains("soft limit " + 8 * MIB + " B"), report);
            assertEquals(40, graph.callCount("hoard"), "five shipments of 8 hoarded: 10 MiB, over the soft limit");
        }
    }
}
