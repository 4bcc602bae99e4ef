package dev.framewire.offheap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several threads acquire, retain, hand over, copy on write and release payloads across
 * threads for a bounded time, starting from an empty pool so that size classes also grow under
 * contention, with a budget small enough that acquires are sometimes refused. Afterwards every
 * slot must be back, the counts must add up, nothing may have been freed twice and every use of
 * a released payload must have been caught.
 *
 * <p>What each thread checks as it goes: a payload it receives still has the generation it was
 * sent with, and still holds the stamp its producer wrote (a slot freed too early and reused
 * would carry someone else's stamp); a copy made by {@link Payload#writable()} holds the same
 * stamp. The run lasts {@code -Dframewire.stress.millis} (2000 by default).
 */
class PayloadStressTest
{
    private static final int THREADS = 4;
    private static final long MILLIS = Long.getLong("framewire.stress.millis", 2000);
    private static final int MAX_LENGTH = 4096;

    /** One reference handed to a thread: the payload as it was when sent. */
    private static final class Handoff
    {
        final Payload payload;
        final int generation;
        final long stamp;
        final int length;

        Handoff(final Payload payload, final int generation, final long stamp, final int length)
        {
            this.payload = payload;
            this.generation = generation;
            this.stamp = stamp;
            this.length = length;
        }
    }

    /** A payload whose last reference this thread dropped, with the generation it had then. */
    private static final class Released
    {
        final Payload payload;
        final int generation;

        Released(final Payload payload, final int generation)
        {
            this.payload = payload;
            this.generation = generation;
        }
    }

    private final PayloadPool pool = new PayloadPool(new PoolContext()
        .maxBytes(2 << 20).minSlotBytes(64).maxSlotBytes(MAX_LENGTH).slabBytes(16 * 1024));
    @SuppressWarnings("unchecked")
    private final ConcurrentLinkedQueue<Handoff>[] inboxes = new ConcurrentLinkedQueue[THREADS];
    private final CyclicBarrier producersDone = new CyclicBarrier(THREADS);

    private final class Worker extends Thread
    {
        final int id;
        final SplittableRandom random;
        final List<Handoff> kept = new ArrayList<>();
        final List<Released> released = new ArrayList<>();
        long acquires;
        long refused;
        long copies;
        long lastReleases;
        long handoffs;
        long staleChecks;
        long staleCaught;
        long sequence;
        Throwable failure;

        Worker(final int id, final long seed)
        {
            super("stress-" + id);
            this.id = id;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public void run()
        {
            try
            {
                final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MILLIS);
                while (System.nanoTime() < deadline)
                {
                    produce();
                    consume(8, true);
                    if (kept.size() > 16 || (!kept.isEmpty() && random.nextInt(3) == 0))
                    {
                        release(kept.remove(random.nextInt(kept.size())));
                    }
                    checkStale();
                }
            }
            catch (final Throwable ex)
            {
                failure = ex;
            }
            finally
            {
                finish();
            }
        }

        private void finish()
        {
            try
            {
                // nobody hands anything over after this barrier: each thread drains its own inbox
                producersDone.await(30, TimeUnit.SECONDS);
                consume(Integer.MAX_VALUE, false);
                for (final Handoff handoff : kept)
                {
                    release(handoff);
                }
                kept.clear();
                checkStale();
            }
            catch (final Throwable ex)
            {
                if (failure == null)
                {
                    failure = ex;
                }
                producersDone.reset();
            }
        }

        private void produce()
        {
            final int length = 16 + random.nextInt(MAX_LENGTH - 15);
            final Payload payload;
            try
            {
                payload = pool.acquire(length);
            }
            catch (final MemoryBudgetExceededException ex)
            {
                refused++;
                consume(Integer.MAX_VALUE, false);    // make room: give back what was handed here
                return;
            }
            acquires++;
            final long stamp = ((long)id << 48) | ++sequence;
            stamp(payload, stamp);
            payload.ownerTag(getName());
            final Handoff mine = new Handoff(payload, payload.generation(), stamp, length);
            final int consumers = random.nextInt(4);
            if (consumers > 0)
            {
                payload.retain(consumers);
                for (int i = 0; i < consumers; i++)
                {
                    inboxes[random.nextInt(THREADS)].offer(mine);
                    handoffs++;
                }
            }
            if (random.nextBoolean())
            {
                kept.add(mine);
            }
            else
            {
                release(mine);
            }
        }

        private void consume(final int limit, final boolean mayForward)
        {
            final ConcurrentLinkedQueue<Handoff> inbox = inboxes[id];
            Handoff handoff;
            for (int i = 0; i < limit && (handoff = inbox.poll()) != null; i++)
            {
                verify(handoff);
                final int choice = random.nextInt(4);
                if (choice == 0)
                {
                    write(handoff);
                }
                else if (choice == 1 && mayForward)
                {
                    handoff.payload.retain();
                    inboxes[random.nextInt(THREADS)].offer(handoff);
                    handoffs++;
                    release(handoff);
                }
                else
                {
                    release(handoff);
                }
            }
        }

        /** Copy-on-write: the copy (or, when exclusive, the payload itself) is ours to write. */
        private void write(final Handoff handoff)
        {
            final Payload payload = handoff.payload;
            final Payload writable;
            try
            {
                writable = payload.writable();
            }
            catch (final MemoryBudgetExceededException ex)
            {
                refused++;                              // no room for the copy: our reference is intact
                release(handoff);
                return;
            }
            if (writable != payload)
            {
                copies++;
                acquires++;     // the copy is an acquire too
                // writable() dropped our reference to the original, which may have been the
                // last: such frees are not counted in lastReleases
            }
            final Handoff ours = new Handoff(writable, writable.generation(), handoff.stamp, handoff.length);
            verify(ours);
            final long stamp = ((long)id << 48) | ++sequence;
            stamp(writable, stamp);
            if (writable.refCount() != 1)
            {
                throw new AssertionError("a writable payload is shared: " + writable);
            }
            release(new Handoff(writable, ours.generation, stamp, handoff.length));
        }

        private void release(final Handoff handoff)
        {
            if (handoff.payload.release())
            {
                lastReleases++;
                if (released.size() < 64)
                {
                    released.add(new Released(handoff.payload, handoff.generation));
                }
            }
        }

        /** Every payload whose last reference we dropped must refuse its old generation. */
        private void checkStale()
        {
            for (final Released stale : released)
            {
                staleChecks++;
                try
                {
                    stale.payload.checkGeneration(stale.generation);
                }
                catch (final PayloadStateException expected)
                {
                    staleCaught++;
                }
            }
            released.clear();
        }
    }

    private static void stamp(final Payload payload, final long stamp)
    {
        payload.mutableBuffer().putLong(0, stamp);
        payload.mutableBuffer().putLong(payload.length() - 8, ~stamp);
    }

    private static void verify(final Handoff handoff)
    {
        final Payload payload = handoff.payload;
        payload.checkGeneration(handoff.generation);
        if (payload.refCount() <= 0 || payload.length() != handoff.length ||
            payload.buffer().getLong(0) != handoff.stamp ||
            payload.buffer().getLong(handoff.length - 8) != ~handoff.stamp)
        {
            throw new AssertionError("payload changed under a holder: expected stamp " + handoff.stamp + " length " +
                handoff.length + ", found " + payload.buffer().getLong(0) + " in " + payload);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threadsAcquireRetainHandOverAndReleaseAndTheBooksBalance()
        throws InterruptedException, BrokenBarrierException, TimeoutException
    {
        for (int i = 0; i < THREADS; i++)
        {
            inboxes[i] = new ConcurrentLinkedQueue<>();
        }
        final long seed = System.nanoTime();
        final Worker[] workers = new Worker[THREADS];
        for (int i = 0; i < THREADS; i++)
        {
            workers[i] = new Worker(i, seed + i);
            workers[i].start();
        }
        long acquires = 0;
        long refused = 0;
        long copies = 0;
        long lastReleases = 0;
        long handoffs = 0;
        long staleChecks = 0;
        long staleCaught = 0;
        for (final Worker worker : workers)
        {
            worker.join(MILLIS + 30_000);
            assertTrue(!worker.isAlive(), worker.getName() + " did not finish");
            if (worker.failure != null)
            {
                throw new AssertionError(worker.getName() + " failed (seed " + seed + ")", worker.failure);
            }
            acquires += worker.acquires;
            refused += worker.refused;
            copies += worker.copies;
            lastReleases += worker.lastReleases;
            handoffs += worker.handoffs;
            staleChecks += worker.staleChecks;
            staleCaught += worker.staleCaught;
        }
        final String summary = "seed " + seed + ": " + acquires + " acquires, " + handoffs + " handoffs, " + copies +
            " copies, " + refused + " refused, " + staleChecks + " stale checks";
        System.out.println(summary);

        PoolInvariants.assertAllReturned(pool);
        assertEquals(acquires, pool.acquires(), "acquires: " + summary);
        assertEquals(acquires, pool.releases(), "every acquire has exactly one last release: " + summary);
        // release() returns true once per slot returned, except where writable() dropped the last
        // reference to an original while copying it
        assertTrue(lastReleases <= pool.releases() && pool.releases() <= lastReleases + copies,
            lastReleases + " releases returned true: " + summary);
        assertEquals(copies, pool.copies(), summary);
        assertEquals(refused, pool.failedAcquires(), summary);
        assertEquals(0, pool.budget().bytesInUse(), summary);
        assertEquals(staleChecks, staleCaught, "no stale generation went unnoticed: " + summary);
        assertTrue(acquires > 1000 && handoffs > 1000 && copies > 10 && staleChecks > 100, "the run did work: " + summary);
        assertTrue(pool.budget().peakBytesInUse() <= pool.budget().hardLimitBytes(), summary);
        assertEquals("", pool.leakReport());
        pool.close();
        assertEquals(0, pool.budget().bytesReserved());
    }

    /**
     * Two threads in lockstep, round after round, on one payload: either both drop one of its
     * two references at the same moment (exactly one of them must free it), or one retains while
     * the other releases (it must stay live with two references). Two spinning threads at most,
     * one per core of the smallest machine this runs on.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void lockstepRacesOnOneReferenceCountFreeExactlyOnce() throws InterruptedException
    {
        final PayloadPool lockstepPool = new PayloadPool(new PoolContext().minSlotBytes(64).maxSlotBytes(64)
            .slabBytes(64 * 16).leakTracking(false));
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(200, MILLIS / 2));
        final Lockstep lockstep = new Lockstep();
        final Thread other = new Thread(lockstep::follow, "lockstep-follower");
        other.start();
        long rounds = 0;
        long frees = 0;
        try
        {
            while (rounds < 200_000 && System.nanoTime() < deadline)
            {
                final Payload payload = lockstepPool.acquire(64);
                payload.retain();
                final boolean bothRelease = (rounds & 1) == 0;
                lockstep.start(payload, ++rounds);
                if (bothRelease)
                {
                    frees += payload.release() ? 1 : 0;
                    frees += lockstep.awaitFollower(rounds) ? 1 : 0;
                    if (payload.refCount() != 0)
                    {
                        throw new AssertionError("round " + rounds + ": two releases of two references left " + payload);
                    }
                }
                else
                {
                    payload.retain();
                    lockstep.awaitFollower(rounds);
                    if (payload.refCount() != 2)
                    {
                        throw new AssertionError("round " + rounds + ": retain racing release left " + payload);
                    }
                    frees += payload.release() ? 1 : 0;
                    frees += payload.release() ? 1 : 0;
                }
            }
        }
        finally
        {
            lockstep.stop();
            other.join(10_000);
        }
        if (lockstep.failure != null)
        {
            throw new AssertionError(lockstep.failure);
        }
        System.out.println("lockstep: " + rounds + " rounds");
        assertEquals(rounds, frees, "exactly one free per round");
        assertEquals(rounds, lockstepPool.releases());
        // a loaded machine (other builds on two cores) may manage few rounds in the time given
        assertTrue(rounds >= 20, rounds + " rounds");
        PoolInvariants.assertAllReturned(lockstepPool);
        lockstepPool.close();
    }

    /** The follower's half of the lockstep: wait for a round, release once, say so. */
    private static final class Lockstep
    {
        private static final long SPIN_LIMIT_NS = TimeUnit.SECONDS.toNanos(20);

        private volatile Payload payload;
        private volatile long round;
        private volatile long done;
        private volatile boolean freed;
        private volatile boolean stopped;
        volatile Throwable failure;

        void start(final Payload payload, final long round)
        {
            this.payload = payload;
            this.round = round;     // volatile write publishes the payload
        }

        boolean awaitFollower(final long round)
        {
            final long start = System.nanoTime();
            while (done != round)
            {
                if (failure != null || System.nanoTime() - start > SPIN_LIMIT_NS)
                {
                    throw new AssertionError("follower did not finish round " + round, failure);
                }
                Thread.onSpinWait();
            }
            return freed;
        }

        void stop()
        {
            stopped = true;
        }

        void follow()
        {
            try
            {
                long seen = 0;
                while (!stopped)
                {
                    final long r = round;
                    if (r == seen)
                    {
                        Thread.onSpinWait();
                        continue;
                    }
                    seen = r;
                    freed = payload.release();
                    done = r;
                }
            }
            catch (final Throwable ex)
            {
                failure = ex;
            }
        }
    }
}
