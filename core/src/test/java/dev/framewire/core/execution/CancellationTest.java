package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.GraphException;
import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.framewire.core.execution.Execution.assertNothingHeld;
import static dev.framewire.core.execution.Execution.parked;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seed 004 §7.2: cooperative cancellation. A source produces frames without end on a worker of
 * its own; a slow node works on its frame until it sees {@link CalculatorContext#isCancelled()}.
 * {@link Graph#cancel()} mid-run ends the run as cancelled, not failed, with every payload
 * released.
 */
@Timeout(30)
class CancellationTest
{
    /** A source of 64x64 frames that stops only when the run is cancelled. */
    private static Calculator endlessFrames()
    {
        return new Calculator()
        {
            private long next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                for (int i = 0; i < ctx.maxShipmentSize() && !ctx.isCancelled(); i++, next++)
                {
                    final Payload frame = ctx.pool().acquireFrame(64, 64, PixelFormat.RGBA32);
                    frame.mutableBuffer().setMemory(0, frame.length(), (byte)next);
                    ctx.output(0).add(frame, next);
                }
                if (ctx.isCancelled())
                {
                    ctx.stop();
                }
            }
        };
    }

    @Test
    void cancelMidRunEndsTheRunAsCancelledWithNoFailureAndNothingHeld() throws Exception
    {
        final CountDownLatch working = new CountDownLatch(1);
        final AtomicBoolean sawCancel = new AtomicBoolean();
        final AtomicLong checksum = new AtomicLong();
        final GraphConfig config = parked(1).maxShipmentSize(8)
            .executor("io", ExecutorConfig.of(1, IdleKind.PARK))
            .node("src", n -> n.calculator(CancellationTest::endlessFrames).outputStream("frames").executor("io"))
            .node("slow", n -> n.calculator(() -> ctx ->
            {
                // long work on the frame, checking for cancellation between passes
                final DirectBuffer pixels = ctx.input(0).payload().buffer();
                working.countDown();
                long sum = 0;
                while (!ctx.isCancelled())
                {
                    for (int i = 0; i < pixels.capacity(); i += 8)
                    {
                        sum += pixels.getLong(i);
                    }
                }
                checksum.addAndGet(sum);
                sawCancel.set(true);
            }).inputStream("frames"))
            .build();
        try (Graph graph = new Graph(config))
        {
            graph.start();
            assertTrue(working.await(10, TimeUnit.SECONDS), "the slow node never started");
            graph.cancel();
            final GraphException cancelled = assertThrows(GraphException.class, graph::waitUntilDone);
            assertNothingHeld(graph);

            assertTrue(cancelled.isCancelled(), cancelled.getMessage());
            assertTrue(cancelled.failures().isEmpty(), cancelled.getMessage());
            assertEquals("graph run cancelled", cancelled.getMessage());
            assertTrue(sawCancel.get(), "the slow node returned because it saw the cancellation");
            assertEquals(1, graph.callCount("slow"), "no node is run after cancel()");
            assertTrue(graph.callCount("src") >= 1);
        }
    }
}
