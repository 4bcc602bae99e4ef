package dev.framewire.bench.offheap;

import dev.framewire.offheap.Payload;
import dev.framewire.offheap.PayloadPool;
import dev.framewire.offheap.PoolContext;
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
 * The pool's hot paths on one thread: {@code acquireRelease} takes a 1 KiB slot and gives it
 * back (a pop and a push of the Treiber stack, two budget updates, the generation bump);
 * {@code retainRelease} adds and drops a reference to a payload that stays live (two CAS on its
 * count). Both must allocate nothing ({@code gc.alloc.rate.norm} = 0 B/op) with leak tracking
 * off; {@code leakTracking=true} shows what recording each acquire's stack trace costs.
 *
 * <p>After every iteration the pool must hold exactly the one payload {@code retainRelease}
 * keeps, with one reference: anything else throws.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Threads(1)
@Fork(1)
public class PayloadPoolBenchmark
{
    private static final int LENGTH = 1024;

    @Param({"false", "true"})
    public boolean leakTracking;

    private PayloadPool pool;
    private Payload held;

    @Setup(Level.Trial)
    public void setUp()
    {
        pool = new PayloadPool(new PoolContext().leakTracking(leakTracking));
        held = pool.acquire(LENGTH);
    }

    @TearDown(Level.Iteration)
    public void checkBooks()
    {
        if (held.refCount() != 1 || pool.acquires() - pool.releases() != 1 ||
            pool.budget().bytesInUse() != held.capacity())
        {
            throw new IllegalStateException("the books do not balance: " + pool.acquires() + " acquires, " +
                pool.releases() + " releases, " + pool.budget().bytesInUse() + " B in use, " + held);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        held.release();
        pool.close();
    }

    @Benchmark
    public boolean acquireRelease()
    {
        return pool.acquire(LENGTH).release();
    }

    @Benchmark
    public boolean retainRelease()
    {
        final Payload payload = held;
        payload.retain();
        return payload.release();
    }
}
