package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphConfigException;
import dev.framewire.core.GraphConfigText;
import dev.framewire.core.GraphException;
import dev.framewire.core.MemoryLimitException;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.frameSource;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source's shipment is capped in bytes as well as in packets: {@code max_shipment_bytes}, by
 * default the room between the budget's soft and hard limits. A source that ends its shipment at
 * {@link CalculatorContext#shipmentBytesLeft()} never meets the hard limit by itself; one that does
 * not is refused at the emit past the cap, with a {@link MemoryLimitException} that says the fix.
 */
@Timeout(60)
class ShipmentBytesTest
{
    private static final long MIB = 1024 * 1024;
    private static final long SLOT = 256 * 1024;

    /**
     * {@code count} frames of 256 x 256 RGBA32 (256 KiB slots), as many per call as the shipment
     * has room for in packets and bytes; records the most it made in one call and the room it was
     * given at the start of each call.
     */
    private static Calculator sourceWithinBytes(final int count, final AtomicInteger mostPerCall,
        final AtomicLong roomAtStart)
    {
        return new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                roomAtStart.set(ctx.shipmentBytesLeft());
                final int end = Math.min(count, next + ctx.maxShipmentSize());
                int made = 0;
                while (next < end && (made == 0 || ctx.pool().slotBytesFor(256 * 256 * 4) <= ctx.shipmentBytesLeft()))
                {
                    final Payload frame = ctx.pool().acquireFrame(256, 256, PixelFormat.RGBA32);
                    frame.mutableBuffer().putInt(0, next);
                    ctx.output(0).add(frame, next++);
                    made++;
                }
                mostPerCall.accumulateAndGet(made, Math::max);
                if (next >= count)
                {
                    ctx.stop();
                }
            }
        };
    }

    private static GraphConfig.Builder graph(final Calculator source, final AtomicInteger received)
    {
        return parked(1)
            .memoryBudget(16 * MIB) // soft limit 8 MiB, hard 12 MiB: the default cap is 4 MiB, 16 frames
            .maxShipmentSize(64)
            .node("src", n -> n.calculator(() -> source).outputStream("frames"))
            .node("sink", n -> n.calculator(() -> ctx ->
            {
                assertEquals(received.getAndIncrement(), ctx.input(0).payload().buffer().getInt(0));
            }).inputStream("frames"));
    }

    @Test
    void byDefaultTheCapIsTheRoomBetweenTheSoftAndHardLimitsAndASourceWithinItNeverMeetsTheHardLimit()
        throws Exception
    {
        final AtomicInteger most = new AtomicInteger();
        final AtomicLong room = new AtomicLong();
        final AtomicInteger received = new AtomicInteger();
        try (Graph graph = new Graph(graph(sourceWithinBytes(400, most, room), received).build()))
        {
            graph.start();
            graph.waitUntilDone();
            assertNothingHeld(graph);

            assertEquals(400, received.get(), "every frame, in order");
            assertEquals(4 * MIB, room.get(), "shipmentBytesLeft() at the start of a call: the cap");
            assertEquals(16, most.get(), "4 MiB of 256 KiB frames, though max_shipment_size is 64");
            assertEquals(0, graph.pool().failedAcquires(), "the hard limit was never met");
            assertTrue(graph.pool().budget().peakBytesInUse() <= 12 * MIB);
        }
    }

    @Test
    void aConfiguredCapIsTheCapAndTheTextFormatCarriesIt() throws Exception
    {
        final AtomicInteger most = new AtomicInteger();
        final AtomicLong room = new AtomicLong();
        final AtomicInteger received = new AtomicInteger();
        final GraphConfig config = graph(sourceWithinBytes(40, most, room), received).maxShipmentBytes(MIB).build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            graph.waitUntilDone();
            assertEquals(40, received.get());
            assertEquals(MIB, room.get());
            assertEquals(4, most.get());
            assertEquals(10, graph.callCount("src"));
        }

        final GraphConfig text = GraphConfigText.parse("max_shipment_bytes: 1048576\n" +
            "node { calculator: \"CountingSourceCalculator\" output_stream: \"n\" }\n", "ship.pbtxt");
        assertEquals(MIB, text.maxShipmentBytes());
        assertTrue(GraphConfigText.write(text).contains("max_shipment_bytes: 1048576"), GraphConfigText.write(text));
        assertEquals(0, GraphConfigText.parse("node { calculator: \"CountingSourceCalculator\" output_stream: \"n\" }",
            "default.pbtxt").maxShipmentBytes(), "0: derived from the budget");
        final GraphConfigException invalid = assertThrows(GraphConfigException.class, () -> new Graph(GraphConfig
            .builder().maxShipmentBytes(-2).node("n", n -> n.calculator("CountingSourceCalculator").outputStream("n"))
            .build()));
        assertTrue(invalid.getMessage().contains("max_shipment_bytes -2 is invalid; give a positive size, 0 (the " +
            "default) to derive it from the memory budget (its hard limit less its soft limit), or -1 for no cap"),
            invalid.getMessage());
    }

    @Test
    void anEmitPastTheCapFailsTheCallWithAMemoryLimitExceptionThatSaysTheFix() throws Exception
    {
        // frameSource makes a full max_shipment_size shipment, whatever its bytes: 64 x 256 KiB
        final AtomicInteger received = new AtomicInteger();
        try (Graph graph = new Graph(graph(frameSource(100, 256, 256), received).build()))
        {
            graph.start();
            final GraphException failure = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertEquals(1, failure.failureCount(), failure.getMessage());
            final MemoryLimitException limit = (MemoryLimitException)failure.failures().get(0).cause();
            assertEquals("source node 'src' on stream 'frames' cannot take a 262144 B slot: 4194304 B already in this " +
                "call's shipment + 262144 B would pass max_shipment_bytes of 4194304 B (derived from the memory " +
                "budget: its hard limit less its soft limit)\nfix: end the shipment when ctx.shipmentBytesLeft() is " +
                "less than the next payload (the source is called again for the rest; the first payload of a call " +
                "always goes out), raise max_shipment_bytes (GraphConfig.Builder.maxShipmentBytes; -1 for no cap), " +
                "or lower max_shipment_size (64)", limit.getMessage());
            assertEquals(MemoryLimitException.MAX_SHIPMENT_BYTES, limit.limit());
            assertEquals(4 * MIB, limit.limitBytes());
            assertEquals(4 * MIB, limit.bytesInUse());
            assertEquals(SLOT, limit.requestedBytes());
            assertEquals("src", limit.node());
            assertEquals("frames", limit.stream());
            assertEquals(0, received.get(), "the failed call's frames were released, not delivered");
            assertEquals(0, graph.pool().failedAcquires(), "the cap, not the hard limit");
        }
    }

    @Test
    void theFirstPayloadOfACallAlwaysGoesOutWhateverItsSize() throws Exception
    {
        // a 1 MiB cap and 2 MiB frames, one per call
        final AtomicInteger received = new AtomicInteger();
        final Calculator bigFrames = new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                final Payload frame = ctx.pool().acquireFrame(1024, 512, PixelFormat.RGBA32);
                frame.mutableBuffer().putInt(0, next);
                ctx.output(0).add(frame, next++);
                if (next == 5)
                {
                    ctx.stop();
                }
            }
        };
        try (Graph graph = new Graph(graph(bigFrames, received).maxShipmentBytes(MIB).build()))
        {
            graph.start();
            graph.waitUntilDone();
            assertEquals(5, received.get());
        }
    }
}
