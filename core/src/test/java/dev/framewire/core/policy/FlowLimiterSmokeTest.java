package dev.framewire.core.policy;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.IdleKind;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.calculators.PacketCollector;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowLimiterSmokeTest
{
    /** A stage that waits for a permit per frame, so the test decides how slow it is. */
    static final class GatedStage implements Calculator
    {
        final Semaphore permits;

        GatedStage(final Semaphore permits)
        {
            this.permits = permits;
        }

        @Override
        public void process(final CalculatorContext ctx) throws Exception
        {
            assertTrue(permits.tryAcquire(10, TimeUnit.SECONDS));
            ctx.output(0).add(ctx.input(0).payload(), ctx.inputTimestamp());
        }
    }

    @Test
    @Timeout(30)
    void dropsWhileOneFrameIsInFlight() throws Exception
    {
        final Semaphore permits = new Semaphore(0);
        final GraphConfig config = GraphConfig.builder()
            .inputStream("frames")
            .node("limiter", n -> n.calculator("FlowLimiterCalculator")
                .inputStream("frames", "FINISHED:done").backEdge("FINISHED")
                .outputStream("limited", "ALLOW:allow"))
            .executor("slow", ExecutorConfig.of(1, IdleKind.PARK))
            .node("stage", n -> n.calculator(() -> new GatedStage(permits)).inputStream("limited").outputStream("done")
                .executor("slow"))
            .node("sink", n -> n.calculator("CollectorSinkCalculator").inputStream("done", "allow")
                .inputSidePacket("COLLECTOR:collector"))
            .build();
        try (Graph graph = new Graph(config); PacketCollector collector = new PacketCollector())
        {
            graph.start(Map.of("collector", collector));
            for (long ts = 0; ts < 10; ts++)
            {
                final Payload frame = graph.pool().acquireFrame(4, 4, PixelFormat.GRAY8);
                graph.addPacket("frames", frame, ts);
            }
            // frame 0 is in the stage, waiting for a permit; 1..9 arrive meanwhile and are dropped
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (graph.dropCount("limiter") < 9 && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(1_000_000);
            }
            permits.release(10);
            graph.closeAllInputs();
            graph.waitUntilDone();
            final long passed = collector.timestamps("done").size();
            assertEquals(1, passed);
            assertEquals(10, passed + graph.dropCount("limiter"), "passed " + passed + " dropped " + graph.dropCount("limiter") + " " + collector.entries());
            assertEquals(10, collector.timestamps("allow").size(), collector.entries().toString());
            assertTrue(graph.dropCount("limiter") > 0);
        }
    }
}
