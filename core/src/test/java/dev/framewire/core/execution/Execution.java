package dev.framewire.core.execution;

import dev.framewire.core.Calculator;
import dev.framewire.core.CalculatorContext;
import dev.framewire.core.ExecutorConfig;
import dev.framewire.core.Graph;
import dev.framewire.core.GraphConfig;
import dev.framewire.core.IdleKind;
import dev.framewire.core.MemoryLimitPolicy;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PixelFormat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Shared pieces of the execution tests (seed 004's memory and failure model), through the public
 * API only, as an embedding user would write them. Every graph runs on PARK workers.
 */
final class Execution
{
    private Execution()
    {
    }

    /**
     * Runs {@code graph} to its end while capturing what slf4j-simple logs (it writes to
     * {@code System.err} as it is at each line), and returns that log; the log is printed to the
     * real {@code System.err} too, for the test's report.
     */
    static String runCapturingLog(final Graph graph) throws Exception
    {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream err = System.err;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try
        {
            graph.start();
            graph.waitUntilDone();
        }
        finally
        {
            System.setErr(err);
        }
        final String log = captured.toString(StandardCharsets.UTF_8);
        err.print(log);
        return log;
    }

    /**
     * Under DROP_OLDEST, a 16 MiB budget (hard limit 12 MiB), and shipments of 28 frames of 256 KiB
     * with no byte cap: a source of {@code frames} frames on an executor of its own and
     * {@code sink}, slower, on the default one, so frames queue and the oldest are dropped.
     */
    static GraphConfig dropOldestOverload(final int frames, final Calculator sink)
    {
        return parked(1)
            .executor("io", ExecutorConfig.of(1, IdleKind.PARK))
            .memoryBudget(16L * 1024 * 1024)
            .memoryLimitPolicy(MemoryLimitPolicy.DROP_OLDEST)
            .maxShipmentSize(28)
            .maxShipmentBytes(-1) // about the hard limit: no byte cap to stop a shipment first
            .maxQueueSize(-1)
            .node("src", n -> n.calculator(() -> frameSource(frames, 256, 256)).outputStream("frames").executor("io"))
            .node("sink", n -> n.calculator(() -> sink).inputStream("frames"))
            .build();
    }

    /** A builder whose default executor is {@code workers} parked threads. */
    static GraphConfig.Builder parked(final int workers)
    {
        return GraphConfig.builder().executor(GraphConfig.DEFAULT_EXECUTOR, ExecutorConfig.of(workers, IdleKind.PARK));
    }

    /**
     * A source of {@code count} RGBA32 frames of {@code width x height} at timestamps 0, 1, 2, ...,
     * a full shipment per call, stopping with the last.
     */
    static Calculator frameSource(final int count, final int width, final int height)
    {
        return new Calculator()
        {
            private int next;

            @Override
            public void process(final CalculatorContext ctx)
            {
                final int end = Math.min(count, next + ctx.maxShipmentSize());
                while (next < end)
                {
                    final Payload frame = ctx.pool().acquireFrame(width, height, PixelFormat.RGBA32);
                    frame.mutableBuffer().putInt(0, next);
                    ctx.output(0).add(frame, next);
                    next++;
                }
                if (next >= count)
                {
                    ctx.stop();
                }
            }
        };
    }

    /**
     * One step of an image chain: a new frame the size of the input's per input set, emitted at its
     * timestamp; the input is released by the engine when the call returns.
     */
    static Calculator newFramePerStep()
    {
        return ctx ->
        {
            final Payload in = ctx.input(0).payload();
            final Payload out = ctx.pool().acquireFrame(in.width(), in.height(), PixelFormat.RGBA32);
            out.mutableBuffer().putInt(0, in.buffer().getInt(0));
            ctx.output(0).add(out, ctx.inputTimestamp());
        };
    }

    /**
     * The leak check after a run: nothing of the graph's pool is in use once {@code waitUntilDone}
     * returned or threw (closing the graph checks again, and throws listing what is still held).
     */
    static void assertNothingHeld(final Graph graph)
    {
        assertEquals(0, graph.pool().budget().bytesInUse(), () -> "still held:\n" + graph.pool().leakReport());
    }

    /** Bytes of the pool slot an RGBA32 frame of this size takes: the next power of two. */
    static long slotBytes(final int width, final int height)
    {
        final long bytes = 4L * width * height;
        return Long.highestOneBit(bytes - 1) << 1;
    }
}
