package dev.framewire.bench.offheap;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
import org.agrona.DirectBuffer;
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
 * What the use-after-release check costs on {@link Payload#buffer()}: one read of a long
 * through {@code buffer()} with the check on (a volatile read of the reference count and a
 * branch) and off. The smallest possible access, so the check's share is as large as it gets;
 * a node that reads a whole frame pays it once per {@code buffer()} call, not per byte.
 *
 * <p>{@code bufferThenRead} reads once per call; {@code bufferThenRead64} takes the buffer once
 * and reads 64 longs (a 512 B header), the usual pattern.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class UseAfterReleaseCheckBenchmark
{
    @Param({"true", "false"})
    public boolean check;

    private PayloadPool pool;
    private Payload payload;
    private int index;

    @Setup(Level.Trial)
    public void setUp()
    {
        pool = new PayloadPool(new PoolContext().leakTracking(false).useAfterReleaseCheck(check));
        payload = pool.acquire(4096);
        for (int i = 0; i < 4096; i += 8)
        {
            payload.mutableBuffer().putLong(i, i);
        }
    }

    @TearDown(Level.Iteration)
    public void checkBooks()
    {
        if (payload.refCount() != 1 || payload.buffer().getLong(8) != 8)
        {
            throw new IllegalStateException("payload changed under the benchmark: " + payload);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        payload.release();
        pool.close();
    }

    @Benchmark
    public long bufferThenRead()
    {
        index = (index + 8) & 511;
        return payload.buffer().getLong(index);
    }

    @Benchmark
    public long bufferThenRead64()
    {
        final DirectBuffer buffer = payload.buffer();
        long sum = 0;
        for (int i = 0; i < 512; i += 8)
        {
            sum += buffer.getLong(i);
        }
        return sum;
    }
}
