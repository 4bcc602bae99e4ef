package dev.framewire.bench.core;

import dev.framewire.core.IdleKind;
import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * Hand-over latency through two pass-through stages on one worker: the benchmark thread adds a
 * packet ({@code Graph.addPacket}) and spins until the observer at the end of the line has
 * counted it. One op is that whole trip, so it includes the observer's count travelling back to
 * the benchmark thread (one cache-line transfer), and so does the floor's.
 *
 * <ul>
 *   <li>{@code FRAMEWIRE}: graph input, two {@code PassThroughCalculator} nodes, an observer,
 *       on {@code ExecutorConfig.of(1, IdleKind.BUSY_SPIN)};</li>
 *   <li>{@code SPSC_FLOOR}: no engine, one JCTools SPSC queue to one busy-spinning consumer: the
 *       floor any engine's hand-over sits on;</li>
 *   <li>{@code LOCKED_CONDITION}: the seeds' design (lock, priority queue, condition wait), two
 *       stages on one worker;</li>
 *   <li>{@code LOCKED_SPIN}: the same, its worker spinning instead of waiting on the condition.</li>
 * </ul>
 *
 * <p>{@code LONG} packets carry the value unboxed; {@code PAYLOAD} packets carry a pooled
 * off-heap payload acquired per op (8 B, in a 256 B slot), the value in its first 8 bytes,
 * released by the engine after the observer reads it. Two threads in all: the benchmark thread
 * and one consumer.
 *
 * <p>Each iteration checks that every packet arrived once with the right value (by count and
 * sum) and throws otherwise.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class CoreLatencyBenchmark
{
    private static final int STAGES = 2;
    private static final int PAYLOAD_BYTES = 8;

    @Param({"FRAMEWIRE", "SPSC_FLOOR", "LOCKED_CONDITION", "LOCKED_SPIN"})
    public String engine;

    @Param({"LONG", "PAYLOAD"})
    public String packet;

    private Pipeline pipeline;
    private Sink sink;
    private PayloadPool pool;
    private boolean payloads;
    private long sent;
    private long expectedSum;
    private int poolSlots;

    @Setup(Level.Trial)
    public void setUp()
    {
        payloads = "PAYLOAD".equals(packet);
        sink = new Sink();
        switch (engine)
        {
            case "FRAMEWIRE":
                pipeline = new FramewirePipeline(STAGES, 1, IdleKind.BUSY_SPIN, 1024, 4096, payloads, sink);
                break;
            case "SPSC_FLOOR":
                pipeline = new SpscFloorPipeline(sink);
                break;
            case "LOCKED_CONDITION":
                pipeline = new LockedPipeline(STAGES, 1, IdleKind.PARK, 1024, 4096, payloads, sink);
                break;
            case "LOCKED_SPIN":
                pipeline = new LockedPipeline(STAGES, 1, IdleKind.BUSY_SPIN, 1024, 4096, payloads, sink);
                break;
            default:
                throw new IllegalArgumentException("unknown engine " + engine);
        }
        pool = pipeline.pool();
    }

    @Benchmark
    public long handOver() throws InterruptedException
    {
        final long n = ++sent;
        final long value = n * 3 + 1;
        expectedSum += value;
        if (payloads)
        {
            final Payload payload = pool.acquire(PAYLOAD_BYTES);
            payload.mutableBuffer().putLong(0, value);
            pipeline.sendPayload(payload, n);
        }
        else
        {
            pipeline.sendLong(value, n);
        }
        sink.spinUntil(n, pipeline);
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        sink.verify(engine + "/" + packet, sent, expectedSum, TimeUnit.SECONDS.toNanos(10));
        // A pool that grows mid-run allocates its slab and its Payload objects: say so, as it
        // shows in gc.alloc.rate.norm and is not the per-packet path.
        final int slots = pool.slotsTotal(0);
        if (payloads && slots != poolSlots)
        {
            if (poolSlots != 0)
            {
                System.out.println("(" + engine + "/" + packet + ": the payload pool grew from " +
                    poolSlots + " to " + slots + " slots of " + pool.slotBytes(0) + " B during this iteration)");
            }
            poolSlots = slots;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        pipeline.close();
    }
}
