package dev.framewire.core.internal.queue;


import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lincheck model checking of {@link ParkHandshake}, the worker's park/unpark handshake, as the
 * engine drives it: producers publish work with a CAS (as the worker's MPSC inbox does) and then
 * call {@link ParkHandshake#wakeIfParked()}; the worker takes the work it finds and then calls
 * {@link ParkHandshake#parkUnlessWork(long)}. The real handshake code is checked; only the
 * operating system's park and unpark are modelled, with LockSupport's semantics: an unpark of a
 * thread that is not parked leaves a permit, a park with a permit returns at once, and a park
 * without one sleeps until an unpark.
 *
 * <p>Checked at every interleaving: a worker asleep never has work waiting
 * ({@link Model#noWakeUpLost()}). The second test runs the same check on the classic broken
 * variant (look for work, then say parked) and expects Lincheck to find the lost wake-up, so that
 * the check is known to be able to fail.
 */
class ParkHandshakeLincheckTest
{
    private static final int INVOCATIONS = Integer.getInteger("framewire.lincheck.invocations", 200);
    private static final int ITERATIONS = Integer.getInteger("framewire.lincheck.iterations", 10);

    /** Thrown by the modelled park when the worker goes to sleep: its operation ends there. */
    static final class Asleep extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        Asleep()
        {
            super(null, null, false, false);
        }
    }

    private static final Asleep ASLEEP = new Asleep();

    /** A worker reduced to its handshake, a count of published work and the OS's park state. */
    public static class Model extends ParkHandshake
    {
        /** Work published so far (the inbox's producer index: a CAS per offer). */
        private final AtomicInteger published = new AtomicInteger();
        /** Work the worker took so far. */
        volatile int consumed;
        /** The worker's thread is blocked in park. */
        volatile boolean asleep;
        /** LockSupport's permit. */
        volatile boolean permit;

        // no thread: unparkThread is modelled, and on JDK 25 Lincheck cannot walk a Thread's fields

        /** A producer: publishes work, then wakes the worker if it said it is parked. */
        @Operation
        public void addWork()
        {
            published.incrementAndGet();
            wakeIfParked();
        }

        /** The worker, unless asleep: takes what it finds, then parks unless more came. */
        @Operation(nonParallelGroup = "worker")
        public void runThenIdle()
        {
            if (asleep)
            {
                return;
            }
            consumed = published.get();
            try
            {
                idle();
            }
            catch (final Asleep ignored)
            {
                // the worker's thread sleeps until an unpark; its operation ends here
            }
        }

        /** The worker's way to idle; the broken variant overrides it. */
        void idle()
        {
            parkUnlessWork(1_000_000L);
        }

        @Override
        public boolean hasWork()
        {
            return published.get() != consumed;
        }

        /** Atomic with unpark, as the kernel's park is (hence the monitor). */
        @Override
        public void parkThread(final long maxNanos)
        {
            final boolean sleeps;
            synchronized (this)
            {
                sleeps = !permit;
                asleep = sleeps;
                permit = false;
            }
            if (sleeps)
            {
                throw ASLEEP; // until an unpark, which may come right away: then it is awake again
            }
        }

        @Override
        public synchronized void unparkThread(final Thread t)
        {
            if (asleep)
            {
                asleep = false;
                parked = false; // what the woken worker does next, before it looks for work
            }
            else
            {
                permit = true;
            }
        }

        @Validate
        public void noWakeUpLost()
        {
            if (asleep && published.get() != consumed)
            {
                throw new IllegalStateException("lost wake-up: the worker sleeps with " +
                    (published.get() - consumed) + " work waiting");
            }
        }
    }

    /** The classic mistake: looks for work before saying it is parked. */
    public static class BrokenModel extends Model
    {
        @Override
        void idle()
        {
            final boolean work = hasWork();
            parked = true;
            if (!work)
            {
                parkThread(1_000_000L);
            }
            parked = false;
        }
    }

    private static void check(final Class<?> model)
    {
        new LinChecker(model, new ModelCheckingOptions()
            .iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS).threads(3).actorsPerThread(2)
            .actorsBefore(0).actorsAfter(0))
            .check();
    }

    @Test
    @Timeout(300)
    void noWakeUpIsLost()
    {
        check(Model.class);
    }

    @Test
    @Timeout(300)
    void theModelCheckFindsALostWakeUpWhenParkedIsSetTooLate()
    {
        final AssertionError failure = assertThrows(AssertionError.class, () -> check(BrokenModel.class));
        assertTrue(String.valueOf(failure.getMessage()).contains("lost wake-up"), failure.getMessage());
    }
}
