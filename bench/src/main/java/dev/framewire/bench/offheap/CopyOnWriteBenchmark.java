package dev.framewire.bench.offheap;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PixelFormat;
import dev.framewire.offheap.PoolContext;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * Copy-on-write of a 1920x1080 RGBA frame (8,294,400 B in an 8 MiB slot):
 * {@code writableShared} asks for a writable view of a frame that another holder shares, which
 * copies the whole frame into a fresh slot (acquired and, here, released again);
 * {@code writableExclusive} asks the same of a frame held once, which is the frame itself.
 *
 * <p>After every iteration the copies counted by the pool must equal the shared calls made,
 * and the frame must be held once: anything else throws.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class CopyOnWriteBenchmark
{
    private PayloadPool pool;
    private Payload frame;
    private long sharedCalls;

    @Setup(Level.Trial)
    public void setUp()
    {
        pool = new PayloadPool(new PoolContext().leakTracking(false));
        frame = pool.acquireFrame(1920, 1080, PixelFormat.RGBA32);
        frame.mutableBuffer().setMemory(0, frame.length(), (byte)0x5A);
    }

    @TearDown(Level.Iteration)
    public void checkBooks()
    {
        if (pool.copies() != sharedCalls || frame.refCount() != 1 || pool.acquires() - pool.releases() != 1)
        {
            throw new IllegalStateException("the books do not balance: " + pool.copies() + " copies for " +
                sharedCalls + " shared calls, " + frame);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        frame.release();
        pool.close();
    }

    @Benchmark
    public Payload writableShared()
    {
        final Payload shared = frame;
        shared.retain();                        // a second holder
        final Payload copy = shared.writable(); // copies, and drops this caller's reference
        sharedCalls++;
        copy.mutableBuffer().putByte(0, (byte)1);
        copy.release();
        return copy;
    }

    @Benchmark
    public Payload writableExclusive()
    {
        final Payload writable = frame.writable();
        writable.mutableBuffer().putByte(0, (byte)1);
        return writable;
    }
}
