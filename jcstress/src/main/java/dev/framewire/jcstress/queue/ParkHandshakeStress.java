package dev.framewire.jcstress.queue;

import dev.framewire.core.internal.queue.ParkHandshake;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * jcstress test of {@link ParkHandshake}: a worker with no work parks while a producer publishes
 * work and wakes it if it said it is parked. The worker either finds the work, or parks and is
 * woken: no wake-up is lost.
 *
 * <p>The handshake's own code runs; only the operating system's park and unpark are stood in for,
 * as in core's Lincheck test of it. The stand-in park sleeps, as a real one would, until the
 * producer's unpark, or until the producer is done with this state without one: that is the lost
 * wake-up (a real worker would sleep until its park timed out, with work waiting).
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The worker found the work and did not park.")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "The worker found the work; the producer's unpark was spare (it leaves a permit).")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The worker parked and the producer woke it.")
@Outcome(id = "2, 0", expect = FORBIDDEN, desc = "The worker parked with work waiting and nobody woke it: a lost wake-up.")
@Outcome(expect = FORBIDDEN, desc = "Other cases are forbidden.")
@State
public class ParkHandshakeStress extends ParkHandshake
{
    /** The work, published with a volatile store (sequentially consistent, as the handshake asks). */
    volatile int work;
    /** The stand-in park's state: the producer unparked the worker. */
    volatile boolean unparked;
    /** The producer has returned from its actor: no unpark will come after this. */
    volatile boolean producerDone;
    /** What the worker did: 0 found work, 1 parked and woken, 2 parked and never woken. */
    int parkOutcome;

    @Override
    public boolean hasWork()
    {
        return work != 0;
    }

    @Override
    public void parkThread(final long maxNanos)
    {
        while (!unparked && !producerDone)
        {
            Thread.onSpinWait();
        }
        parkOutcome = unparked ? 1 : 2;
    }

    @Override
    public void unparkThread(final Thread t)
    {
        unparked = true;
    }

    /** @param r what the worker did */
    @Actor
    public void worker(final II_Result r)
    {
        parkUnlessWork(Long.MAX_VALUE);
        r.r1 = parkOutcome;
    }

    /** @param r whether the producer unparked the worker */
    @Actor
    public void producer(final II_Result r)
    {
        work = 1;
        wakeIfParked();
        r.r2 = unparked ? 1 : 0;
        producerDone = true;
    }
}
