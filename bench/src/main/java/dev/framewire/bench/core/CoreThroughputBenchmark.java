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
 * Throughput of a line of four pass-through nodes: the benchmark thread pushes packets as fast as
 * the graph input accepts them ({@code tryAddPacket}, yielding when refused because a queue
 * downstream is at {@code max_queue_size}), and an observer on the last stream counts and sums
 * them. One op is one packet accepted; at the end of every iteration the benchmark waits for the
 * sink to confirm every packet and checks the count and the sum, and throws if they are wrong. At
 * most four queues of {@value #QUEUE_LIMIT} packets are still in flight when an iteration's clock
 * stops, against millions per iteration.
 *
 * <ul>
 *   <li>{@code executor}: {@code 1_PARK} and {@code 1_YIELD} put the four nodes on one worker;
 *       {@code 2_PARK} on two (nodes alternate between them, so every hop crosses threads);</li>
 *   <li>{@code engine}: {@code FRAMEWIRE}, or {@code LOCKED}, the seeds' design with the same
 *       stages, workers and idle kind (PARK waits on its condition);</li>
 *   <li>{@code packet}: {@code LONG} unboxed, or {@code PAYLOAD}, a pooled off-heap payload per
 *       packet, released after the sink.</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class CoreThroughputBenchmark
{
    static final int STAGES = 4;
    static final int QUEUE_LIMIT = 1024;
    static final int HARD_CAP = 8192;
    private static final int PAYLOAD_BYTES = 8;

    @Param({"FRAMEWIRE", "LOCKED"})
    public String engine;

    @Param({"1_PARK", "1_YIELD", "2_PARK"})
    public String executor;

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
        final int workers = Integer.parseInt(executor.substring(0, executor.indexOf('_')));
        final IdleKind idle = IdleKind.valueOf(executor.substring(executor.indexOf('_') + 1));
        switch (engine)
        {
            case "FRAMEWIRE":
                pipeline = new FramewirePipeline(STAGES, workers, idle, QUEUE_LIMIT, HARD_CAP, payloads, sink);
                break;
            case "LOCKED":
                pipeline = new LockedPipeline(STAGES, workers, idle, QUEUE_LIMIT, HARD_CAP, payloads, sink);
                break;
            default:
                throw new IllegalArgumentException("unknown engine " + engine);
        }
        pool = pipeline.pool();
    }

    @Benchmark
    public long push()
    {
        final long n = ++sent;
        final long value = n * 3 + 1;
        expectedSum += value;
        if (payloads)
        {
            final Payload payload = pool.acquire(PAYLOAD_BYTES);
            payload.mutableBuffer().putLong(0, value);
            while (!pipeline.offerPayload(payload, n))
            {
                Thread.yield();
            }
        }
        else
        {
            while (!pipeline.offerLong(value, n))
            {
                Thread.yield();
            }
        }
        return n;
    }

    @TearDown(Level.Iteration)
    public void verify()
    {
        sink.verify(engine + "/" + executor + "/" + packet, sent, expectedSum, TimeUnit.SECONDS.toNanos(30));
        // A pool that grows mid-run allocates its slab and its Payload objects: say so, as it
        // shows in gc.alloc.rate.norm and is not the per-packet path.
        final int slots = pool.slotsTotal(0);
        if (payloads && slots != poolSlots)
        {
            if (poolSlots != 0)
            {
                System.out.println("(" + engine + "/" + executor + "/" + packet + ": the payload pool grew from " +
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
